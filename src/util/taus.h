/*
 * fio's pseudo-random numbers: L'Ecuyer's combined Tausworthe generators
 * (taus88, 32 bits, fio's random_generator=tausworthe; lfsr258, 64 bits,
 * tausworthe64), seeded as fio 3.33 seeds them, and fio's derivation of a
 * thread's per-purpose seeds from randseed. dbio draws with these where
 * fio's counts depend on the draws (the sizes of bsrange and bssplit), so
 * that a job gives fio's op counts; its other draws use rng.h.
 */
#ifndef DBIO_UTIL_TAUS_H
#define DBIO_UTIL_TAUS_H

#include <stdbool.h>
#include <stdint.h>

struct taus {
	bool wide;     /* 64 bits (tausworthe64), else 32 */
	uint32_t s[3]; /* taus88's three components */
	uint64_t t[5]; /* lfsr258's five */
};

/* fio's purposes of a thread's seeds (its FIO_RAND_*_OFF), as numbered by
 * fio 3.33: each purpose's seed is its own. */
enum taus_purpose {
	TAUS_BS_READ = 0, /* sizes of reads (bsrange, bssplit) */
	TAUS_BS_WRITE = 1,
	TAUS_BS_TRIM = 2,
	TAUS_MIX = 4,	/* read or write of rw=randrw and readwrite */
	TAUS_BLOCK = 6, /* random offsets (with randrepeat=0) */
};

/* fio's seed of the random offsets with randrepeat=1, whatever randseed
 * (its FIO_RANDSEED times the thread number). */
#define TAUS_REPEAT_SEED 0xb1899bedull

/* One component step: shift the masked state left by d, and feed back
 * the bits of (s << a) ^ s above b. */
#define TAUS_STEP(s, a, b, mask, d) ((((s) & (mask)) << (d)) ^ ((((s) << (a)) ^ (s)) >> (b)))

static inline uint64_t taus_next(struct taus *r)
{
	if (!r->wide) {
		r->s[0] = TAUS_STEP(r->s[0], 13, 19, 0xfffffffeu, 12);
		r->s[1] = TAUS_STEP(r->s[1], 2, 25, 0xfffffff8u, 4);
		r->s[2] = TAUS_STEP(r->s[2], 3, 11, 0xfffffff0u, 17);
		return r->s[0] ^ r->s[1] ^ r->s[2];
	}
	r->t[0] = TAUS_STEP(r->t[0], 1, 53, 0xfffffffffffffffeull, 10);
	r->t[1] = TAUS_STEP(r->t[1], 24, 50, 0xfffffffffffffe00ull, 5);
	r->t[2] = TAUS_STEP(r->t[2], 3, 23, 0xfffffffffffff000ull, 29);
	r->t[3] = TAUS_STEP(r->t[3], 5, 24, 0xfffffffffffe0000ull, 23);
	r->t[4] = TAUS_STEP(r->t[4], 3, 33, 0xffffffffff800000ull, 8);
	return r->t[0] ^ r->t[1] ^ r->t[2] ^ r->t[3] ^ r->t[4];
}

/* The largest value taus_next returns. */
static inline uint64_t taus_max(const struct taus *r)
{
	return r->wide ? UINT64_MAX : UINT32_MAX;
}

/* A draw below n as fio draws a random block: n * (x / (max + 1)). */
static inline uint64_t taus_below(struct taus *r, uint64_t n)
{
	const uint64_t x = taus_next(r);

	return (uint64_t)((double)n * ((double)x / ((double)taus_max(r) + 1.0)));
}

/* fio's rand_between(1, 100) on a 32-bit generator (its rwmix draw):
 * 1 + 100 * (x / 2^32), rounded down. */
static inline unsigned taus_1_100(struct taus *r)
{
	return 1 + (unsigned)(100.0 * ((double)(uint32_t)taus_next(r) / 4294967296.0));
}

/* Seeds r as fio's init_rand_seed(seed, wide): each component from an
 * LCG on seed (fio keeps each above the minimum the generator needs),
 * then six steps. A 32-bit generator takes seed's low 32 bits. */
void taus_seed(struct taus *r, uint64_t seed, bool wide);

/* fio's seed of purpose p for thread number thread (1 for a file's first
 * thread, counting every thread of every job) from randseed (fio's
 * setup_random_seeds with randrepeat or randseed). */
uint64_t taus_fio_seed(uint64_t randseed, uint64_t thread, unsigned p);

#endif
