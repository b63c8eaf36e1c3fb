/*
 * Offset generators: which block of a worker's slice the next operation
 * touches. Sequential walks the slice in order; random with a map visits
 * every block of a pass exactly once in a seeded random order, without
 * memory (a Feistel permutation with cycle-walking); random without a map
 * draws each block independently.
 */
#ifndef DBIO_WORKLOAD_OFFGEN_H
#define DBIO_WORKLOAD_OFFGEN_H

#include <stdint.h>

#include "util/rng.h"

enum offgen_mode { OFFGEN_SEQ, OFFGEN_RANDMAP, OFFGEN_UNIFORM, OFFGEN_ZIPF, OFFGEN_PARETO, OFFGEN_NORMAL };

struct offgen {
	enum offgen_mode mode;
	uint64_t nblocks; /* size of the slice */
	uint64_t pos;	  /* operations handed out in this pass */
	uint64_t pass;
	uint64_t seed;
	unsigned half_bits;
	uint64_t half_mask;
	uint64_t keys[4];
	struct rng rng;
	/* Skewed modes: the hotness parameter and Zipf's precomputed terms. */
	double theta;
	double zipf_h_x1, zipf_h_n, zipf_s;
	uint64_t normal_spread; /* OFFGEN_NORMAL: fio's stddev, in blocks */
};

/* A generator over blocks [0, nblocks); nblocks >= 1. */
void offgen_init(struct offgen *g, enum offgen_mode mode, uint64_t nblocks, uint64_t seed);

/* A skewed generator (OFFGEN_ZIPF with exponent theta > 0, OFFGEN_PARETO
 * with 0 < theta < 1, or OFFGEN_NORMAL, fio's normal:theta with 0 <= theta
 * < 100): block ranks drawn from the distribution, rank 0 the hottest
 * (normal: the middle rank), scattered over the blocks by a fixed seeded
 * permutation so the hot blocks are not all at the start (fio hashes
 * them). */
void offgen_init_skewed(struct offgen *g, enum offgen_mode mode, double theta, uint64_t nblocks,
			uint64_t seed);

/* The next rank of a skewed generator (not permuted); for tests. */
uint64_t offgen_skewed_rank(struct offgen *g);

/* Start the next pass: sequential starts over at 0, the random map draws a
 * new permutation. */
void offgen_new_pass(struct offgen *g);

/* The permutation of the current pass applied to i (i < nblocks). */
uint64_t offgen_permute(const struct offgen *g, uint64_t i);

/* The next block. A pass is nblocks calls; calls beyond it wrap into the
 * same order (callers start a new pass when they want a new one). */
static inline uint64_t offgen_next(struct offgen *g)
{
	uint64_t i = g->pos++;

	if (i >= g->nblocks)
		i %= g->nblocks;
	switch (g->mode) {
	case OFFGEN_SEQ:
		return i;
	case OFFGEN_RANDMAP:
		return offgen_permute(g, i);
	case OFFGEN_UNIFORM:
		break;
	case OFFGEN_ZIPF:
	case OFFGEN_PARETO:
	case OFFGEN_NORMAL:
		return offgen_permute(g, offgen_skewed_rank(g));
	}
	return rng_below(&g->rng, g->nblocks);
}

#endif
