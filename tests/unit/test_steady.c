/*
 * Unit tests for fio's steady-state arithmetic (src/stats/steady.c) and the
 * parsing of its keys (src/workload/fileio/check_steady.c): the mean, largest deviation
 * and least-squares slope of a window against values worked out by hand,
 * in percent of the mean too; the window's ring order; when a rule is
 * attained (strictly below the limit, the slope's magnitude, never with a
 * limit of 0 or a percentage of a mean of 0); steadystate's MODE:LIMIT
 * forms and their units.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "job/job.h"
#include "plan/plan.h"
#include "stats/steady.h"
#include "workload/fileio/files.h"

static struct steady_window win;

static int release_win(void **state)
{
	(void)state;
	steady_release(&win);
	return 0;
}

static void add_all(const uint64_t *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		steady_add(&win, x[i], x[i] * 4096, x[i] * 10);
}

/* steady_stats of ring (oldest at index oldest) is mean, dev and slope. */
static void stats_are(const uint64_t *ring, unsigned n, unsigned oldest, double mean, double dev,
		      double slope)
{
	double m, d, sl;

	steady_stats(ring, n, oldest, &m, &d, &sl);
	assert_float_equal(m, mean, 1e-12);
	assert_float_equal(d, dev, 1e-12);
	assert_float_equal(sl, slope, 1e-12);
}

/* 10, 12, 14, 16: mean 13, largest deviation 3 (10 and 16), slope 2 per
 * sample: sum_xy = 0*10 + 12 + 28 + 48 = 88, sum_x = 6, sum_y = 52,
 * sum_x^2 = 14; (88 - 6 * 52 / 4) / (14 - 36 / 4) = 10 / 5. Falling: 30,
 * 20, 10 is -10 per sample, deviation 10. */
static void test_steady_stats_by_hand(void **state)
{
	const uint64_t x[] = { 10, 12, 14, 16 }, down[] = { 30, 20, 10 };

	(void)state;
	stats_are(x, 4, 0, 13.0, 3.0, 2.0);
	stats_are(down, 3, 0, 20.0, 10.0, -10.0);
}

/* The same samples in a ring whose oldest is at index 2. */
static void test_steady_stats_ring_order(void **state)
{
	const uint64_t ring[] = { 14, 16, 10, 12 };

	(void)state;
	stats_are(ring, 4, 2, 13.0, 3.0, 2.0);
}

/* iops:5%: 1000, 1000, 1040 has mean 1013.33 and deviation 26.67, 2.63 %
 * of the mean: attained with the third sample, not before. */
static void test_steady_deviation_pct_attained(void **state)
{
	const struct steady_rule rule = { .metric = STEADY_IOPS, .pct = true, .limit = 5 };

	(void)state;
	assert_int_equal(steady_init(&win, &rule, 3), 0);
	assert_false(steady_add(&win, 1000, 0, 0));
	assert_false(steady_add(&win, 1000, 0, 0));
	assert_false(win.judged);
	assert_true(steady_add(&win, 1040, 0, 0));
	assert_true(win.judged);
	assert_float_equal(win.mean, 3040.0 / 3, 1e-9);
	assert_float_equal(win.deviation, 1040 - 3040.0 / 3, 1e-9);
	assert_float_equal(win.criterion, 100.0 * (1040 - 3040.0 / 3) / (3040.0 / 3), 1e-9);
	assert_float_equal(win.criterion, 2.631578947, 1e-8);
}

/* 1000, 1200, 1000: deviation 133.33 is 12.5 % of 1066.67; then 1000 and
 * 1000 push the 1200 out: 1000, 1000, 1000 is 0 %. */
static void test_steady_deviation_window_rolls(void **state)
{
	const struct steady_rule rule = { .metric = STEADY_IOPS, .pct = true, .limit = 5 };
	const uint64_t x[] = { 1000, 1200, 1000 };

	(void)state;
	assert_int_equal(steady_init(&win, &rule, 3), 0);
	add_all(x, 3);
	assert_false(win.attained);
	assert_float_equal(win.criterion, 12.5, 1e-9);
	assert_false(steady_add(&win, 1000, 0, 0));
	assert_true(steady_add(&win, 1000, 0, 0));
	assert_float_equal(win.criterion, 0.0, 1e-12);
	assert_int_equal(win.taken, 5);
	assert_int_equal(steady_count(&win), 3);
}

/* bw_slope with an absolute limit (bytes per second per interval): the
 * slope's magnitude, strictly below. 30, 20, 10 KiB/s falls 10240 per
 * interval. */
static void test_steady_slope_absolute(void **state)
{
	const struct steady_rule rule = { .metric = STEADY_BW, .slope = true, .limit = 10241 };

	(void)state;
	assert_int_equal(steady_init(&win, &rule, 3), 0);
	steady_add(&win, 0, 30720, 0);
	steady_add(&win, 0, 20480, 0);
	assert_true(steady_add(&win, 0, 10240, 0));
	assert_float_equal(win.slope, -10240.0, 1e-9);
	assert_float_equal(win.criterion, -10240.0, 1e-9);
	steady_release(&win);
	const struct steady_rule exact = { .metric = STEADY_BW, .slope = true, .limit = 10240 };

	assert_int_equal(steady_init(&win, &exact, 3), 0);
	steady_add(&win, 0, 30720, 0);
	steady_add(&win, 0, 20480, 0);
	assert_false(steady_add(&win, 0, 10240, 0));
}

/* iops_slope:10%: 10, 12, 14, 16 rises 2 per sample, 15.38 % of 13. */
static void test_steady_slope_pct(void **state)
{
	const struct steady_rule rule = { .metric = STEADY_IOPS, .slope = true, .pct = true, .limit = 10 };
	const uint64_t x[] = { 10, 12, 14, 16 };

	(void)state;
	assert_int_equal(steady_init(&win, &rule, 4), 0);
	add_all(x, 4);
	assert_false(win.attained);
	assert_float_equal(win.criterion, 200.0 / 13, 1e-9);
}

/* A limit of 0 is never met, not even by equal samples; a percentage of
 * a mean of 0 is no criterion at all. */
static void test_steady_never(void **state)
{
	const struct steady_rule zero = { .metric = STEADY_IOPS, .pct = true, .limit = 0 };
	const struct steady_rule idle = { .metric = STEADY_LAT, .pct = true, .limit = 50 };
	const uint64_t same[] = { 500, 500, 500, 500 };

	(void)state;
	assert_int_equal(steady_init(&win, &zero, 2), 0);
	add_all(same, 4);
	assert_false(win.attained);
	assert_float_equal(win.criterion, 0.0, 1e-12);
	steady_release(&win);
	assert_int_equal(steady_init(&win, &idle, 2), 0);
	steady_add(&win, 0, 0, 0);
	assert_false(steady_add(&win, 0, 0, 0));
	assert_true(win.judged);
	assert_false(win.criterion_ok);
}

/* The samples come back oldest first, each metric's own. */
static void test_steady_samples_order(void **state)
{
	const struct steady_rule rule = { .metric = STEADY_LAT, .limit = 1 };
	const uint64_t x[] = { 1, 2, 3, 4, 5 };

	(void)state;
	assert_int_equal(steady_init(&win, &rule, 3), 0);
	add_all(x, 5);
	assert_int_equal(steady_at(&win, STEADY_IOPS, 0), 3);
	assert_int_equal(steady_at(&win, STEADY_IOPS, 2), 5);
	assert_int_equal(steady_at(&win, STEADY_BW, 1), 4 * 4096);
	assert_int_equal(steady_at(&win, STEADY_LAT, 2), 50);
	assert_float_equal(win.slope, 10.0, 1e-9); /* lat: 30, 40, 50 ns */
	assert_string_equal(steady_mode_name(&win.rule), "lat");
}

static struct job job;

static int release_job(void **state)
{
	(void)state;
	job_release(&job);
	return 0;
}

/* A fileio job of the null engine with key=value pairs; 0 or the error. */
static int make_job(struct dbio_err *err, const char *const *kv)
{
	int rc = plan_job_init(&job, "j");

	for (size_t i = 0; !rc && kv[i]; i += 2)
		rc = job_set(&job, kv[i], kv[i + 1], NULL, err);
	return rc ? rc : plan_validate(&job, err);
}

static void test_steady_parse_forms(void **state)
{
	struct dbio_err err = { 0 };
	const char *const bw[] = {
		"ioengine", "null", "size", "1m", "ss", "bw_slope:1m", "ss_dur", "10", NULL
	};
	const char *const lat[] = { "ioengine", "null", "size", "1m", "ss", "lat:250", NULL };
	const char *const pct[] = { "ioengine", "null", "size", "1m", "steadystate", "iops:2.5%", NULL };

	(void)state;
	assert_int_equal(make_job(&err, bw), 0);
	assert_int_equal(fileio_files(&job)->steady.ss_metric, SS_BW);
	assert_true(fileio_files(&job)->steady.ss_slope);
	assert_false(fileio_files(&job)->steady.ss_pct);
	assert_float_equal(fileio_files(&job)->steady.ss_limit, 1048576.0, 0);
	assert_int_equal(fileio_files(&job)->steady.ss_dur_ns, 10000000000ull);
	job_release(&job);
	assert_int_equal(make_job(&err, lat), 0);
	assert_int_equal(fileio_files(&job)->steady.ss_metric, SS_LAT);
	assert_float_equal(fileio_files(&job)->steady.ss_limit, 250000.0,
			   0); /* bare: microseconds, kept in ns */
	job_release(&job);
	assert_int_equal(make_job(&err, pct), 0);
	assert_true(fileio_files(&job)->steady.ss_pct);
	assert_float_equal(fileio_files(&job)->steady.ss_limit, 2.5, 0);
}

static void test_steady_parse_refusals(void **state)
{
	struct dbio_err err = { 0 };
	const char *const neg[] = { "ioengine", "null", "size", "1m", "ss", "iops:-1", NULL };
	const char *const tiny[] = { "ioengine", "null",	"size",	 "1m", "ss_dur",
				     "2",	 "ss_interval", "500ms", NULL };

	(void)state;
	assert_int_equal(make_job(&err, neg), DBIO_EINPUT);
	assert_non_null(strstr(err.msg, "bad limit '-1'"));
	job_release(&job);
	memset(&err, 0, sizeof(err));
	assert_int_equal(make_job(&err, tiny), DBIO_EINPUT);
	assert_non_null(strstr(err.msg, "key 'steadystate_check_interval': 500 ms: too short: at least 1 s"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady_stats_by_hand),
		cmocka_unit_test(test_steady_stats_ring_order),
		cmocka_unit_test_teardown(test_steady_deviation_pct_attained, release_win),
		cmocka_unit_test_teardown(test_steady_deviation_window_rolls, release_win),
		cmocka_unit_test_teardown(test_steady_slope_absolute, release_win),
		cmocka_unit_test_teardown(test_steady_slope_pct, release_win),
		cmocka_unit_test_teardown(test_steady_never, release_win),
		cmocka_unit_test_teardown(test_steady_samples_order, release_win),
		cmocka_unit_test_teardown(test_steady_parse_forms, release_job),
		cmocka_unit_test_teardown(test_steady_parse_refusals, release_job),
	};

	return cmocka_run_group_tests_name("steady", tests, NULL, NULL);
}
