/* Offset generators; see offgen.h. */
#include "workload/offgen.h"

static void draw_keys(struct offgen *g)
{
	uint64_t x = g->seed ^ (g->pass * 0xd1b54a32d192ed03ull);

	for (int i = 0; i < 4; i++)
		g->keys[i] = rng_splitmix64(&x);
}

void offgen_init(struct offgen *g, enum offgen_mode mode, uint64_t nblocks, uint64_t seed)
{
	unsigned bits = 0;

	g->mode = mode;
	g->nblocks = nblocks ? nblocks : 1;
	g->pos = 0;
	g->pass = 0;
	g->seed = seed;
	/* The Feistel network permutes [0, 2^(2 * half_bits)) >= nblocks. */
	while (bits < 64 && (1ull << bits) < g->nblocks)
		bits++;
	g->half_bits = (bits + 1) / 2;
	if (g->half_bits == 0)
		g->half_bits = 1;
	g->half_mask = (1ull << g->half_bits) - 1;
	draw_keys(g);
	rng_seed(&g->rng, seed);
}

void offgen_new_pass(struct offgen *g)
{
	g->pos = 0;
	g->pass++;
	draw_keys(g);
}

static inline uint64_t round_fn(uint64_t r, uint64_t key)
{
	uint64_t z = (r ^ key) * 0x9e3779b97f4a7c15ull;

	z ^= z >> 29;
	z *= 0xbf58476d1ce4e5b9ull;
	return z ^ (z >> 32);
}

static inline uint64_t feistel(const struct offgen *g, uint64_t x)
{
	uint64_t left = x >> g->half_bits, right = x & g->half_mask;

	for (int i = 0; i < 4; i++) {
		uint64_t next = left ^ (round_fn(right, g->keys[i]) & g->half_mask);

		left = right;
		right = next;
	}
	return (left << g->half_bits) | right;
}

uint64_t offgen_permute(const struct offgen *g, uint64_t i)
{
	/* Cycle-walking: a permutation of the larger power-of-two domain,
	 * applied until it lands inside [0, nblocks), is a permutation of
	 * [0, nblocks). */
	do
		i = feistel(g, i);
	while (i >= g->nblocks);
	return i;
}
