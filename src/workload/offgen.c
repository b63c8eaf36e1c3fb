/* Offset generators; see offgen.h. */
#include "workload/offgen.h"

#include <math.h>

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

/*
 * Zipf by rejection-inversion (Hörmann and Derflinger, "Rejection-inversion
 * to generate variates from monotone discrete distributions", 1996): ranks
 * 1..n with P(k) proportional to k^-theta, constant time per draw and no
 * table, whatever n is. h is the density, H its integral.
 */
static double zipf_h(double theta, double x)
{
	return exp(-theta * log(x));
}

/* (e^x - 1) / x and log(1 + x) / x, exact near 0. */
static double expm1_over(double x)
{
	return x != 0 ? expm1(x) / x : 1;
}

static double log1p_over(double x)
{
	return x != 0 ? log1p(x) / x : 1;
}

static double zipf_H(double theta, double x)
{
	double lx = log(x);

	return expm1_over((1 - theta) * lx) * lx;
}

static double zipf_H_inv(double theta, double y)
{
	double t = y * (1 - theta);

	if (t < -1)
		t = -1; /* rounding at the far end */
	return exp(log1p_over(t) * y);
}

void offgen_init_skewed(struct offgen *g, enum offgen_mode mode, double theta, uint64_t nblocks,
			uint64_t seed)
{
	offgen_init(g, OFFGEN_RANDMAP, nblocks, seed);
	g->mode = mode;
	g->theta = theta;
	if (mode == OFFGEN_NORMAL && theta > 0) {
		/* fio's gauss_init: a spread of theta % of the blocks, at most half */
		g->normal_spread = (uint64_t)ceil((double)g->nblocks * theta / 100.0);
		if (g->normal_spread > g->nblocks / 2)
			g->normal_spread = g->nblocks / 2;
	}
	if (mode == OFFGEN_ZIPF) {
		g->zipf_h_x1 = zipf_H(theta, 1.5) - 1;
		g->zipf_h_n = zipf_H(theta, (double)g->nblocks + 0.5);
		g->zipf_s = 2 - zipf_H_inv(theta, zipf_H(theta, 2.5) - zipf_h(theta, 2));
	}
}

static double uniform01(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* fio's gauss_next: the mean of 12 uniform draws over [0, n], plus a
 * uniform spread of normal_spread around it, halved until it stays below
 * n. */
static uint64_t normal_rank(struct offgen *g)
{
	const uint64_t n = g->nblocks;
	uint64_t sum = 0;

	for (int i = 0; i < 12; i++)
		sum += rng_below(&g->rng, n + 1);
	sum = (sum + 11) / 12;
	if (g->normal_spread) {
		int64_t dev =
			(int64_t)(g->normal_spread * uniform01(&g->rng)) - (int64_t)(g->normal_spread / 2);

		while (dev && ((int64_t)sum + dev < 0 || (uint64_t)((int64_t)sum + dev) >= n))
			dev /= 2;
		sum = (uint64_t)((int64_t)sum + dev);
	}
	return sum % n;
}

uint64_t offgen_skewed_rank(struct offgen *g)
{
	if (g->mode == OFFGEN_NORMAL)
		return normal_rank(g);
	if (g->mode == OFFGEN_PARETO) {
		/* rank = n * u^(1 / (1 - h)): with h = 0.9 about 85 % of the
		 * draws fall in the hottest 20 % of the blocks. */
		double r = (double)g->nblocks * pow(uniform01(&g->rng), 1 / (1 - g->theta));
		uint64_t k = (uint64_t)r;

		return k < g->nblocks ? k : g->nblocks - 1;
	}
	for (;;) {
		double u = g->zipf_h_n + uniform01(&g->rng) * (g->zipf_h_x1 - g->zipf_h_n);
		double x = zipf_H_inv(g->theta, u);
		uint64_t k = (uint64_t)(x + 0.5);

		if (k < 1)
			k = 1;
		else if (k > g->nblocks)
			k = g->nblocks;
		if ((double)k - x <= g->zipf_s ||
		    u >= zipf_H(g->theta, (double)k + 0.5) - zipf_h(g->theta, (double)k))
			return k - 1;
	}
}
