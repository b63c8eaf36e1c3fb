/*
 * Unit tests for the log-linear latency histogram (src/stats/hist.h):
 * bucket index/low/high consistency over every bucket, exact buckets below
 * 256, the 1/256 percentile error bound against exact nearest-rank values
 * for several distributions, merging, mean and standard deviation against
 * an exact computation, sum saturation and the empty histogram.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "stats/hist.h"
#include "util/rng.h"

#define NVALUES 100000

/* The percentiles of the error-bound check, in hundredths of a percent so
 * that the exact nearest rank is computed in integers. */
static const unsigned pct_x100[] = { 100, 1000, 5000, 9000, 9500, 9900, 9990, 9999, 10000 };

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static struct hist *hist_new(void)
{
	struct hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	hist_init(h);
	return h;
}

/* The ceil(p/100*n)-th smallest value (1-based) of sorted[0..n). */
static uint64_t exact_percentile(const uint64_t *sorted, size_t n, unsigned p_x100)
{
	uint64_t rank = ((uint64_t)p_x100 * n + 9999) / 10000;

	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

/* Every percentile of pct_x100 is within 1/256 of the exact value. */
static void check_percentiles(const char *what, uint64_t *v, size_t n)
{
	struct hist *h = hist_new();

	for (size_t i = 0; i < n; i++)
		hist_add(h, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);
	assert_int_equal(h->count, n);
	assert_int_equal(h->min, v[0]);
	assert_int_equal(h->max, v[n - 1]);
	for (size_t i = 0; i < sizeof(pct_x100) / sizeof(pct_x100[0]); i++) {
		uint64_t exact = exact_percentile(v, n, pct_x100[i]);
		uint64_t got = hist_percentile(h, pct_x100[i] / 100.0);
		uint64_t diff = got > exact ? got - exact : exact - got;

		if ((unsigned __int128)diff * 256 > exact)
			fail_msg("%s: p%g = %llu, exact %llu: off by more than 1/256", what,
				 pct_x100[i] / 100.0, (unsigned long long)got, (unsigned long long)exact);
	}
	free(h);
}

static void test_hist_index_of_bucket_bounds(void **state)
{
	(void)state;
	assert_int_equal(hist_bucket_low(0), 0);
	assert_int_equal(hist_bucket_high(HIST_NBUCKETS - 1), UINT64_MAX);
	assert_int_equal(hist_index(UINT64_MAX), HIST_NBUCKETS - 1);
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);

		if (hist_index(lo) != i || hist_index(hi) != i || lo > hi)
			fail_msg("bucket %u: low %llu (index %u), high %llu (index %u)", i,
				 (unsigned long long)lo, hist_index(lo), (unsigned long long)hi,
				 hist_index(hi));
		if (i + 1 < HIST_NBUCKETS && hist_bucket_low(i + 1) != hi + 1)
			fail_msg("bucket %u ends at %llu but bucket %u starts at %llu", i,
				 (unsigned long long)hi, i + 1, (unsigned long long)hist_bucket_low(i + 1));
	}
}

static void test_hist_bucket_width_at_most_1_128_of_low(void **state)
{
	(void)state;
	for (unsigned i = 256; i < HIST_NBUCKETS; i++) {
		uint64_t lo = hist_bucket_low(i), width = hist_bucket_high(i) - lo + 1;

		if ((unsigned __int128)width * 128 > lo)
			fail_msg("bucket %u: width %llu for low %llu", i, (unsigned long long)width,
				 (unsigned long long)lo);
	}
	/* The buckets of [2^m, 2^(m+1)) are 2^(m-7) wide: 4096..4127 is one. */
	assert_int_equal(hist_index(4096), hist_index(4127));
	assert_int_equal(hist_index(4128), hist_index(4096) + 1);
	assert_int_equal(hist_bucket_low(hist_index(5000)), 4992);
	assert_int_equal(hist_bucket_high(hist_index(5000)), 5023);
}

/* A bucket's middle: the value itself where a bucket holds one, else
 * low + (high - low) / 2; the last bucket's does not overflow. */
static void test_hist_bucket_mid(void **state)
{
	unsigned last = HIST_NBUCKETS - 1;

	(void)state;
	assert_int_equal(hist_bucket_mid(hist_index(5)), 5);
	assert_int_equal(hist_bucket_mid(hist_index(1000)), 1001);
	assert_int_equal(hist_bucket_mid(hist_index(3000)), 2999);
	assert_int_equal(hist_bucket_mid(hist_index(20000)), 20031);
	assert_true(hist_bucket_mid(last) >= hist_bucket_low(last));
	assert_true(hist_bucket_mid(last) <= hist_bucket_high(last));
}

static void test_hist_values_below_256_exact(void **state)
{
	struct hist *h = hist_new();

	(void)state;
	for (uint64_t v = 0; v < 256; v++) {
		assert_int_equal(hist_index(v), v);
		assert_int_equal(hist_bucket_low((unsigned)v), v);
		assert_int_equal(hist_bucket_high((unsigned)v), v);
	}
	assert_int_equal(hist_index(256), 256);
	assert_int_equal(hist_bucket_high(256), 257);
	/* 1..200: every nearest-rank percentile is the exact value. */
	for (uint64_t v = 200; v >= 1; v--)
		hist_add(h, v);
	assert_int_equal(hist_percentile(h, 0.5), 1);
	assert_int_equal(hist_percentile(h, 1), 2);
	assert_int_equal(hist_percentile(h, 50), 100);
	assert_int_equal(hist_percentile(h, 90), 180);
	assert_int_equal(hist_percentile(h, 99), 198);
	assert_int_equal(hist_percentile(h, 99.9), 200);
	assert_int_equal(hist_percentile(h, 100), 200);
	free(h);
}

static void test_hist_percentile_error_bound_uniform(void **state)
{
	uint64_t *v = malloc(NVALUES * sizeof(*v));
	struct rng r;

	(void)state;
	assert_non_null(v);
	rng_seed(&r, 1);
	for (size_t i = 0; i < NVALUES; i++)
		v[i] = rng_below(&r, 1000000000ull); /* 0 .. 1 s */
	check_percentiles("uniform 0..1e9", v, NVALUES);
	for (size_t i = 0; i < NVALUES; i++)
		v[i] = 50000 + rng_below(&r, 1ull << 40);
	check_percentiles("uniform 5e4..2^40", v, NVALUES);
	for (size_t i = 0; i < NVALUES; i++)
		v[i] = rng_below(&r, 300);
	check_percentiles("uniform 0..300", v, NVALUES);
	free(v);
}

static void test_hist_percentile_error_bound_lognormal(void **state)
{
	uint64_t *v = malloc(NVALUES * sizeof(*v));
	struct rng r;

	(void)state;
	assert_non_null(v);
	rng_seed(&r, 2);
	for (size_t i = 0; i < NVALUES; i++) {
		/* Box-Muller: a normal z, then exp(ln(100 us) + 1.5 z). */
		double u1 = ((double)(rng_next(&r) >> 11) + 1) / 9007199254740993.0;
		double u2 = (double)(rng_next(&r) >> 11) / 9007199254740992.0;
		double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);

		v[i] = (uint64_t)exp(log(100000.0) + 1.5 * z);
	}
	check_percentiles("lognormal", v, NVALUES);
	free(v);
}

static void test_hist_percentile_error_bound_constant(void **state)
{
	uint64_t *v = malloc(NVALUES * sizeof(*v));
	struct hist *h = hist_new();

	(void)state;
	assert_non_null(v);
	for (size_t i = 0; i < NVALUES; i++)
		v[i] = 123456789;
	check_percentiles("constant", v, NVALUES);
	/* Clamped to min and max, a constant is reported exactly. */
	for (size_t i = 0; i < NVALUES; i++)
		hist_add(h, 123456789);
	assert_int_equal(hist_percentile(h, 1), 123456789);
	assert_int_equal(hist_percentile(h, 50), 123456789);
	assert_int_equal(hist_percentile(h, 100), 123456789);
	free(h);
	free(v);
}

static void test_hist_percentile_error_bound_heavy_tail(void **state)
{
	uint64_t *v = malloc(NVALUES * sizeof(*v));
	struct rng r;

	(void)state;
	assert_non_null(v);
	rng_seed(&r, 3);
	for (size_t i = 0; i < NVALUES; i++) {
		/* Log-uniform over [1, 2^50]: as many values near 1 us as near 13 days. */
		unsigned m = (unsigned)rng_below(&r, 50);

		v[i] = (1ull << m) + rng_below(&r, 1ull << m);
	}
	check_percentiles("log-uniform 1..2^50", v, NVALUES);
	for (size_t i = 0; i < NVALUES; i++) {
		/* Pareto, alpha = 1: mostly near 1000, a tail to 2^50. */
		double u = ((double)(rng_next(&r) >> 11) + 1) / 9007199254740993.0;
		double x = 1000.0 / u;

		v[i] = x > 0x1p50 ? 1ull << 50 : (uint64_t)x;
	}
	check_percentiles("pareto to 2^50", v, NVALUES);
	free(v);
}

static void test_hist_merge_equals_single_histogram(void **state)
{
	struct hist *a = hist_new(), *b = hist_new(), *all = hist_new(), *empty = hist_new();
	struct rng r;

	(void)state;
	rng_seed(&r, 4);
	for (int i = 0; i < 50000; i++) {
		uint64_t x = 1000 + rng_below(&r, 1000000);
		uint64_t y = rng_below(&r, 1ull << (rng_below(&r, 48) + 1));

		hist_add(a, x);
		hist_add(b, y);
		hist_add(all, x);
		hist_add(all, y);
	}
	hist_merge(a, b);
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->sum, all->sum);
	assert_int_equal(a->min, all->min);
	assert_int_equal(a->max, all->max);
	assert_true(fabs(hist_stddev(a) - hist_stddev(all)) <= hist_stddev(all) * 1e-9);
	assert_memory_equal(a->buckets, all->buckets, sizeof(a->buckets));
	for (size_t i = 0; i < sizeof(pct_x100) / sizeof(pct_x100[0]); i++)
		assert_int_equal(hist_percentile(a, pct_x100[i] / 100.0),
				 hist_percentile(all, pct_x100[i] / 100.0));

	/* Merging an empty histogram changes nothing; merging into one copies. */
	hist_merge(a, empty);
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->min, all->min);
	hist_merge(empty, b);
	assert_int_equal(empty->count, 50000);
	assert_int_equal(empty->min, b->min);
	assert_int_equal(empty->max, b->max);
	assert_int_equal(empty->sum, b->sum);
	assert_memory_equal(empty->buckets, b->buckets, sizeof(b->buckets));
	free(a);
	free(b);
	free(all);
	free(empty);
}

static void test_hist_mean_and_stddev_exact(void **state)
{
	struct hist *h = hist_new();

	(void)state;
	/* 2, 4, 4, 4, 5, 5, 7, 9: mean 5, population standard deviation 2. */
	static const uint64_t v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	for (size_t i = 0; i < 8; i++)
		hist_add(h, v[i]);
	assert_int_equal(h->sum, 40);
	assert_true(hist_mean(h) == 5.0);
	assert_true(fabs(hist_stddev(h) - 2.0) < 1e-12);
	hist_init(h);
	hist_add(h, 1000);
	assert_true(hist_mean(h) == 1000.0);
	assert_true(hist_stddev(h) == 0.0);
	hist_add(h, 3000);
	assert_true(hist_mean(h) == 2000.0);
	assert_true(fabs(hist_stddev(h) - 1000.0) < 1e-9);
	free(h);
}

/* Mean and stddev of v[0..n) against a two-pass long double computation;
 * prints what is off and returns 0 then (after freeing, so that a failing
 * case does not also leak). */
static int moments_match(const char *what, const uint64_t *v, size_t n, double tolerance)
{
	struct hist *h = hist_new();
	long double sum = 0, sq = 0, mean;
	int ok = 1;

	for (size_t i = 0; i < n; i++) {
		hist_add(h, v[i]);
		sum += v[i];
	}
	mean = sum / n;
	for (size_t i = 0; i < n; i++)
		sq += ((long double)v[i] - mean) * ((long double)v[i] - mean);
	double sd = (double)sqrtl(sq / n);

	if (fabs(hist_mean(h) - (double)mean) > (double)mean * 1e-12) {
		print_error("%s: mean %.6f, exact %.6f\n", what, hist_mean(h), (double)mean);
		ok = 0;
	}
	if (fabs(hist_stddev(h) - sd) > sd * tolerance) {
		print_error("%s: stddev %.6f, exact %.6f\n", what, hist_stddev(h), sd);
		ok = 0;
	}
	free(h);
	return ok;
}

static void test_hist_mean_and_stddev_random(void **state)
{
	uint64_t *v = malloc(NVALUES * sizeof(*v));
	struct rng r;
	int all_match = 1;

	(void)state;
	assert_non_null(v);
	rng_seed(&r, 5);
	for (size_t i = 0; i < NVALUES; i++)
		v[i] = rng_below(&r, 1000000000ull);
	all_match &= moments_match("uniform 0..1 s", v, NVALUES, 1e-9);
	for (size_t i = 0; i < NVALUES; i++)
		v[i] = 20000 + rng_below(&r, 100000);
	all_match &= moments_match("uniform 20..120 us", v, NVALUES, 1e-9);
	free(v);
	assert_true(all_match);
}

/* Latencies of about 1 s that differ by under 1 us: the spread is small
 * against the values, which a sum-of-squares formula cannot resolve. */
static void test_hist_stddev_large_values_small_spread(void **state)
{
	uint64_t *v = malloc(NVALUES * sizeof(*v));
	struct rng r;
	int all_match = 1;

	(void)state;
	assert_non_null(v);
	rng_seed(&r, 6);
	for (size_t i = 0; i < NVALUES; i++)
		v[i] = 1000000000ull + rng_below(&r, 1000); /* 1 s + 0..999 ns */
	all_match &= moments_match("1 s + 0..999 ns", v, NVALUES, 1e-3);
	for (size_t i = 0; i < NVALUES; i++)
		v[i] = 1000000000ull + rng_below(&r, 100);
	all_match &= moments_match("1 s + 0..99 ns", v, NVALUES, 1e-3);
	free(v);
	assert_true(all_match);
}

static void test_hist_sum_saturates(void **state)
{
	struct hist *h = hist_new(), *g = hist_new();

	(void)state;
	hist_add(h, UINT64_MAX - 10);
	hist_add(h, 100);
	assert_int_equal(h->sum, UINT64_MAX);
	assert_int_equal(h->count, 2);
	assert_int_equal(h->max, UINT64_MAX - 10);
	hist_add(g, 20);
	hist_add(g, UINT64_MAX - 15);
	hist_merge(g, h);
	assert_int_equal(g->sum, UINT64_MAX);
	assert_int_equal(g->count, 4);
	assert_int_equal(g->min, 20);
	free(h);
	free(g);
}

static void test_hist_empty_returns_zeros(void **state)
{
	struct hist *h = hist_new();

	(void)state;
	assert_int_equal(h->count, 0);
	assert_int_equal(h->sum, 0);
	assert_int_equal(h->min, UINT64_MAX);
	assert_int_equal(h->max, 0);
	assert_int_equal(hist_percentile(h, 50), 0);
	assert_int_equal(hist_percentile(h, 99.99), 0);
	assert_int_equal(hist_percentile(h, 100), 0);
	assert_true(hist_mean(h) == 0.0);
	assert_true(hist_stddev(h) == 0.0);
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		assert_int_equal(h->buckets[i], 0);
	/* hist_init empties a used histogram. */
	hist_add(h, 77);
	hist_init(h);
	assert_int_equal(h->count, 0);
	assert_int_equal(h->min, UINT64_MAX);
	assert_int_equal(h->buckets[77], 0);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_index_of_bucket_bounds),
		cmocka_unit_test(test_hist_bucket_width_at_most_1_128_of_low),
		cmocka_unit_test(test_hist_bucket_mid),
		cmocka_unit_test(test_hist_values_below_256_exact),
		cmocka_unit_test(test_hist_percentile_error_bound_uniform),
		cmocka_unit_test(test_hist_percentile_error_bound_lognormal),
		cmocka_unit_test(test_hist_percentile_error_bound_constant),
		cmocka_unit_test(test_hist_percentile_error_bound_heavy_tail),
		cmocka_unit_test(test_hist_merge_equals_single_histogram),
		cmocka_unit_test(test_hist_mean_and_stddev_exact),
		cmocka_unit_test(test_hist_mean_and_stddev_random),
		cmocka_unit_test(test_hist_stddev_large_values_small_spread),
		cmocka_unit_test(test_hist_sum_saturates),
		cmocka_unit_test(test_hist_empty_returns_zeros),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
