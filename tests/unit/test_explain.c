/*
 * Unit tests for the explanation's arithmetic (src/analysis/explain.h):
 * Spearman's rank correlation (monotone either way, ties averaged, a
 * constant series 0) and a sweep's counters that move with the points,
 * from a small result tree built here: device flushes per write fall with
 * every point, page faults do not move in rank, a counter one point lacks
 * is left out.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "analysis/explain.h"

static void test_explain_spearman(void **state)
{
	const double up[] = { 1, 5, 9, 100 }, down[] = { 8, 4, 2, 1 }, flat[] = { 3, 3, 3 };
	const double tie[] = { 1, 2, 2, 3 }, bumpy[] = { 1, 3, 2, 4 };

	assert_true(fabs(explain_spearman(up, 4) - 1) < 1e-12);
	assert_true(fabs(explain_spearman(down, 4) + 1) < 1e-12);
	assert_true(explain_spearman(flat, 3) == 0);
	assert_true(explain_spearman(up, 1) == 0);
	/* ranks 1, 2.5, 2.5, 4 against 1..4: 4.5 / sqrt(5 * 4.5) */
	assert_true(fabs(explain_spearman(tie, 4) - 4.5 / sqrt(5 * 4.5)) < 1e-12);
	assert_true(fabs(explain_spearman(bumpy, 4) - 0.8) < 1e-12);
}

/* A point's job: 1000 writes, flushes as given, faults as given; faults
 * < 0: the point has no vmstat. */
static json_t *point(int flushes, int faults)
{
	json_t *total = json_pack("{s:I, s:[{s:i}]}", "duration_ns", (json_int_t)1000000000, "disk",
				  "flush_ios", flushes);

	if (faults >= 0)
		json_object_set_new(total, "vmstat", json_pack("{s:i}", "pgfault", faults));
	return json_pack("{s:s, s:[{s:{s:{s:i}}, s:{s:o}}]}", "name", "w", "runs", "ops", "write", "count",
			 1000, "counters", "total", total);
}

static void test_explain_sweep(void **state)
{
	json_t *result = json_pack("{s:[o, o, o, o]}", "jobs", point(1000, 50), point(250, 70), point(60, 40),
				   point(15, 60));
	struct explain_trend t[4];
	size_t n = explain_sweep(result, 0.8, t, 4);

	assert_int_equal(n, 1);
	assert_string_equal(t[0].counter->name, "device_flushes");
	assert_true(fabs(t[0].rho + 1) < 1e-12);
	assert_int_equal(t[0].points, 4);
	/* faults in order: now they move too; one point without: left out;
	 * in order but within 25 %: flat */
	json_decref(result);
	result = json_pack("{s:[o, o, o, o]}", "jobs", point(1000, 10), point(250, 20), point(60, 30),
			   point(15, 40));
	assert_int_equal(explain_sweep(result, 0.8, t, 4), 2);
	json_decref(result);
	result = json_pack("{s:[o, o, o, o]}", "jobs", point(1000, 10), point(250, -1), point(60, 30),
			   point(15, 40));
	assert_int_equal(explain_sweep(result, 0.8, t, 4), 1);
	json_decref(result);
	/* three points: no trend (a perfect order one time in three) */
	result = json_pack("{s:[o, o, o]}", "jobs", point(1000, 10), point(60, 30), point(15, 40));
	assert_int_equal(explain_sweep(result, 0.8, t, 4), 0);
	json_decref(result);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_explain_spearman),
		cmocka_unit_test(test_explain_sweep),
	};

	return cmocka_run_group_tests_name("explain", tests, NULL, NULL);
}
