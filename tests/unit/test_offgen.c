/*
 * Unit tests for the offset generators (src/workload/offgen.h): the random
 * map visits every block exactly once per pass for many sizes, is not the
 * identity, repeats with the same seed and differs with another seed or
 * pass; sequential yields 0..n-1; uniform stays in range, repeats with the
 * same seed and spreads evenly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "workload/offgen.h"

static const uint64_t sizes[] = { 1, 2, 3, 7, 1000, 4096, 65537, 1u << 20 };

/* One pass of g into out[0..n); every block exactly once. */
static void check_pass(struct offgen *g, uint64_t *out)
{
	uint64_t n = g->nblocks;
	unsigned char *seen = calloc(n, 1);

	assert_non_null(seen);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t b = offgen_next(g);

		if (b >= n)
			fail_msg("n=%llu: block %llu out of range", (unsigned long long)n,
				 (unsigned long long)b);
		if (seen[b])
			fail_msg("n=%llu: block %llu twice in one pass", (unsigned long long)n,
				 (unsigned long long)b);
		seen[b] = 1;
		if (out)
			out[i] = b;
	}
	free(seen); /* n distinct blocks below n: every block was visited */
}

static uint64_t fixed_points(const uint64_t *v, uint64_t n)
{
	uint64_t k = 0;

	for (uint64_t i = 0; i < n; i++)
		k += v[i] == i;
	return k;
}

static void test_offgen_randmap_covers_every_block(void **state)
{
	(void)state;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s];
		uint64_t *v = malloc(n * sizeof(*v));
		struct offgen g;

		assert_non_null(v);
		offgen_init(&g, OFFGEN_RANDMAP, n, 24301);
		assert_int_equal(g.nblocks, n);
		check_pass(&g, v);
		/* offgen_permute is the same map. */
		for (uint64_t i = 0; i < n; i += 1 + n / 1000)
			assert_int_equal(offgen_permute(&g, i), v[i]);
		if (n >= 1000 && fixed_points(v, n) > n / 100)
			fail_msg("n=%llu: %llu blocks stay in place", (unsigned long long)n,
				 (unsigned long long)fixed_points(v, n));
		free(v);
	}
}

static void test_offgen_randmap_not_identity(void **state)
{
	(void)state;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s], ascending = 0, prev = 0;
		struct offgen g;

		if (n < 1000)
			continue;
		offgen_init(&g, OFFGEN_RANDMAP, n, 1);
		for (uint64_t i = 0; i < n; i++) {
			uint64_t b = offgen_next(&g);

			ascending += i && b == prev + 1;
			prev = b;
		}
		/* A random order has next == previous + 1 about once in n steps. */
		if (ascending > n / 100)
			fail_msg("n=%llu: %llu sequential steps", (unsigned long long)n,
				 (unsigned long long)ascending);
	}
}

static void test_offgen_randmap_same_seed_same_order(void **state)
{
	(void)state;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s];
		struct offgen a, b;

		offgen_init(&a, OFFGEN_RANDMAP, n, 777);
		offgen_init(&b, OFFGEN_RANDMAP, n, 777);
		for (uint64_t i = 0; i < n && i < 100000; i++)
			assert_int_equal(offgen_next(&a), offgen_next(&b));
		offgen_new_pass(&a);
		offgen_new_pass(&b);
		for (uint64_t i = 0; i < n && i < 100000; i++)
			assert_int_equal(offgen_next(&a), offgen_next(&b));
	}
}

static void test_offgen_randmap_other_seed_other_order(void **state)
{
	(void)state;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s], same = 0;
		struct offgen a, b;

		if (n < 1000)
			continue;
		offgen_init(&a, OFFGEN_RANDMAP, n, 24301);
		offgen_init(&b, OFFGEN_RANDMAP, n, 24302); /* thread 1 of the same job */
		for (uint64_t i = 0; i < n; i++)
			same += offgen_next(&a) == offgen_next(&b);
		if (same > n / 100)
			fail_msg("n=%llu: seeds 24301 and 24302 agree on %llu of the blocks",
				 (unsigned long long)n, (unsigned long long)same);
	}
}

static void test_offgen_randmap_new_pass_new_permutation(void **state)
{
	(void)state;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s], same = 0;
		uint64_t *p0 = malloc(n * sizeof(*p0)), *p1 = malloc(n * sizeof(*p1));
		struct offgen g;

		assert_non_null(p0);
		assert_non_null(p1);
		offgen_init(&g, OFFGEN_RANDMAP, n, 99);
		check_pass(&g, p0);
		offgen_new_pass(&g);
		assert_int_equal(g.pass, 1);
		assert_int_equal(g.pos, 0);
		check_pass(&g, p1);
		for (uint64_t i = 0; i < n; i++)
			same += p0[i] == p1[i];
		if (n >= 1000 && same > n / 100)
			fail_msg("n=%llu: pass 1 repeats %llu positions of pass 0", (unsigned long long)n,
				 (unsigned long long)same);
		offgen_new_pass(&g);
		check_pass(&g, NULL);
		free(p0);
		free(p1);
	}
}

static void test_offgen_randmap_wraps_within_pass(void **state)
{
	uint64_t first[10];
	struct offgen g;

	(void)state;
	offgen_init(&g, OFFGEN_RANDMAP, 1000, 5);
	for (int i = 0; i < 10; i++)
		first[i] = offgen_next(&g);
	for (int i = 10; i < 1000; i++)
		offgen_next(&g);
	for (int i = 0; i < 10; i++)
		assert_int_equal(offgen_next(&g), first[i]);
}

static void test_offgen_seq_yields_in_order(void **state)
{
	(void)state;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s];
		struct offgen g;

		offgen_init(&g, OFFGEN_SEQ, n, 1);
		for (uint64_t i = 0; i < n; i++)
			if (offgen_next(&g) != i)
				fail_msg("n=%llu: call %llu is not block %llu", (unsigned long long)n,
					 (unsigned long long)i, (unsigned long long)i);
		/* Past the end it wraps; a new pass starts over at 0. */
		assert_int_equal(offgen_next(&g), 0);
		assert_int_equal(offgen_next(&g), n > 1 ? 1 : 0);
		offgen_new_pass(&g);
		assert_int_equal(offgen_next(&g), 0);
	}
}

static void test_offgen_zero_blocks_is_one(void **state)
{
	struct offgen g;

	(void)state;
	offgen_init(&g, OFFGEN_RANDMAP, 0, 1);
	assert_int_equal(g.nblocks, 1);
	assert_int_equal(offgen_next(&g), 0);
	assert_int_equal(offgen_next(&g), 0);
	offgen_init(&g, OFFGEN_UNIFORM, 0, 1);
	assert_int_equal(offgen_next(&g), 0);
}

static void test_offgen_uniform_in_range_and_repeats(void **state)
{
	(void)state;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s];
		struct offgen a, b, c;
		uint64_t differ = 0;

		offgen_init(&a, OFFGEN_UNIFORM, n, 24301);
		offgen_init(&b, OFFGEN_UNIFORM, n, 24301);
		offgen_init(&c, OFFGEN_UNIFORM, n, 24302);
		for (int i = 0; i < 20000; i++) {
			uint64_t x = offgen_next(&a), y = offgen_next(&b), z = offgen_next(&c);

			if (x >= n || z >= n)
				fail_msg("n=%llu: block %llu out of range", (unsigned long long)n,
					 (unsigned long long)(x >= n ? x : z));
			assert_int_equal(x, y);
			differ += x != z;
		}
		if (n >= 1000 && differ < 19000)
			fail_msg("n=%llu: seeds 24301 and 24302 differ in only %llu of 20000 draws",
				 (unsigned long long)n, (unsigned long long)differ);
	}
}

static void test_offgen_uniform_spreads_evenly(void **state)
{
	uint64_t count[16] = { 0 };
	unsigned char *seen = calloc(4096, 1);
	uint64_t distinct = 0;
	struct offgen g;

	(void)state;
	assert_non_null(seen);
	offgen_init(&g, OFFGEN_UNIFORM, 16, 3);
	for (int i = 0; i < 160000; i++)
		count[offgen_next(&g)]++;
	for (int i = 0; i < 16; i++)
		if (count[i] < 9500 || count[i] > 10500)
			fail_msg("block %d drawn %llu times of 160000", i, (unsigned long long)count[i]);
	/* Independent draws: some blocks twice, some never (1 - 1/e visited). */
	offgen_init(&g, OFFGEN_UNIFORM, 4096, 3);
	for (int i = 0; i < 4096; i++) {
		uint64_t b = offgen_next(&g);

		distinct += !seen[b];
		seen[b] = 1;
	}
	assert_in_range(distinct, 2500, 2700);
	free(seen);
}

/* Zipf(theta) over n ranks: P(rank k+1) = (k+1)^-theta / H, H the
 * generalized harmonic number. One million draws: the hottest ranks' shares
 * within 0.005 of the exact probabilities. */
static void test_offgen_zipf_matches_the_distribution(void **state)
{
	const uint64_t n = 1000;
	const double theta = 1.2;
	uint64_t *count = calloc(n, sizeof(*count));
	struct offgen g;
	double h = 0;

	(void)state;
	assert_non_null(count);
	for (uint64_t k = 1; k <= n; k++)
		h += pow((double)k, -theta);
	offgen_init_skewed(&g, OFFGEN_ZIPF, theta, n, 7);
	for (int i = 0; i < 1000000; i++) {
		uint64_t r = offgen_skewed_rank(&g);

		assert_true(r < n);
		count[r]++;
	}
	for (uint64_t k = 0; k < 5; k++)
		assert_true(fabs((double)count[k] / 1e6 - pow((double)(k + 1), -theta) / h) < 0.005);
	free(count);
}

/* pareto:h sends P(rank < 0.2 n) = 0.2^(1 - h) of the draws to the hottest
 * 20 %: 0.851 for h = 0.9. Blocks from offgen_next stay in range and hot
 * ranks are scattered (the hottest block is not always block 0). */
static void test_offgen_pareto_hot_fifth(void **state)
{
	const uint64_t n = 10000;
	struct offgen g;
	uint64_t hot = 0;
	bool scattered = false;

	(void)state;
	offgen_init_skewed(&g, OFFGEN_PARETO, 0.9, n, 11);
	for (int i = 0; i < 1000000; i++)
		hot += offgen_skewed_rank(&g) < n / 5;
	assert_true(fabs((double)hot / 1e6 - pow(0.2, 0.1)) < 0.005);
	for (uint64_t seed = 1; seed < 5; seed++) {
		offgen_init_skewed(&g, OFFGEN_PARETO, 0.9, n, seed);
		scattered |= offgen_permute(&g, 0) != 0;
		for (int i = 0; i < 1000; i++)
			assert_true(offgen_next(&g) < n);
	}
	assert_true(scattered);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offgen_randmap_covers_every_block),
		cmocka_unit_test(test_offgen_randmap_not_identity),
		cmocka_unit_test(test_offgen_randmap_same_seed_same_order),
		cmocka_unit_test(test_offgen_randmap_other_seed_other_order),
		cmocka_unit_test(test_offgen_randmap_new_pass_new_permutation),
		cmocka_unit_test(test_offgen_randmap_wraps_within_pass),
		cmocka_unit_test(test_offgen_seq_yields_in_order),
		cmocka_unit_test(test_offgen_zero_blocks_is_one),
		cmocka_unit_test(test_offgen_uniform_in_range_and_repeats),
		cmocka_unit_test(test_offgen_uniform_spreads_evenly),
		cmocka_unit_test(test_offgen_zipf_matches_the_distribution),
		cmocka_unit_test(test_offgen_pareto_hot_fifth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
