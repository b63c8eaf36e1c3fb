/*
 * Unit tests for the comparison of result files (src/analysis/compare.h)
 * and its views (src/views/comparison.h): the change and Welch's test
 * against hand-computed figures, the side-by-side verdict of the HTML
 * page, alignment of jobs and sweep points, environment differences, rows
 * of the metrics of the whole run, and the text, CSV and JSON views. The
 * result trees are minimal: only what compare reads. The metric registry
 * itself is test_metric.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/compare.h"
#include "analysis/tree.h"
#include "views/comparison.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void assert_near(double got, double want, double tol)
{
	if (fabs(got - want) > tol)
		fail_msg("got %.9g, expected %.9g (within %g)", got, want, tol);
}

/* A run with read iops (and p99 latency in ns). */
static json_t *run(double iops, double p99, bool partial)
{
	return json_pack("{s:b, s:{s:{s:I, s:I, s:f, s:f, s:{s:f}}}, s:{s:f}}", "partial", partial, "ops",
			 "read", "count", (json_int_t)iops, "bytes", (json_int_t)iops * 4096, "iops", iops,
			 "bw_bytes", iops * 4096, "lat_ns", "p99", p99, "rusage", "cpu_pct", 50.0);
}

/* A job named name with runs of the given iops (p99 = 1e6 / iops ms). */
static json_t *job(const char *name, const char *point, const double *iops, size_t n)
{
	json_t *j = json_pack("{s:s, s:{s:s, s:b, s:i}, s:[{s:s, s:i}], s:[]}", "name", name, "options",
			      "name", name, "randrepeat", true, "randseed", 1, "targets", "fs_type", "ext4",
			      "fs_block_size_bytes", 4096, "runs");

	for (size_t i = 0; i < n; i++)
		json_array_append_new(json_object_get(j, "runs"), run(iops[i], 1e9 / iops[i], false));
	if (point)
		json_object_set_new(j, "point", json_pack("{s:s}", "numjobs", point));
	return j;
}

static json_t *result(const char *kernel)
{
	return json_pack("{s:i, s:{s:s}, s:{s:s, s:s}, s:[]}", "schema_version", 1, "tool", "name", "dbio",
			 "system", "hostname", "db1", "kernel_release", kernel, "jobs");
}

static void add_job(json_t *r, json_t *j)
{
	json_array_append_new(json_object_get(r, "jobs"), j);
}

static const struct metric *metric(const char *name)
{
	const struct metric *m = metric_find(name);

	assert_non_null(m);
	return m;
}

/* a = {10..14}, b = {12..16}: means 12 and 14, both s^2 = 2.5, so
 * s^2/n = 0.5 each, t = -2 / sqrt(1) = -2, df = 1 / (2 * 0.25 / 4) = 8,
 * p = 2 P(T8 <= -2) = 0.0805; change = 2 / 12 = +16.67 %. */
static void test_compare_welch_hand_computed(void **state)
{
	const double a[] = { 10, 11, 12, 13, 14 }, b[] = { 12, 13, 14, 15, 16 };
	struct summary sa, sb;
	struct compare_change c;

	summary_of(a, N(a), &sa);
	summary_of(b, N(b), &sb);
	compare_change_of(&sa, &sb, METRIC_BETTER_HIGHER, 0.05, &c);
	assert_true(c.has_pct);
	assert_near(c.change_pct, 100.0 / 6, 1e-9);
	assert_true(c.tested);
	assert_near(c.p_value, 0.0805162, 1e-6);
	assert_false(c.significant);
	assert_false(c.regression);

	/* At alpha 0.1 it is significant: an improvement for iops, a
	 * regression for a latency. */
	compare_change_of(&sa, &sb, METRIC_BETTER_HIGHER, 0.1, &c);
	assert_true(c.significant);
	assert_false(c.regression);
	compare_change_of(&sa, &sb, METRIC_BETTER_LOWER, 0.1, &c);
	assert_true(c.significant);
	assert_true(c.regression);
	compare_change_of(&sa, &sb, METRIC_BETTER_NONE, 0.1, &c);
	assert_true(c.significant);
	assert_false(c.regression);
	/* The other way round: -14.29 %, the same p. */
	compare_change_of(&sb, &sa, METRIC_BETTER_HIGHER, 0.1, &c);
	assert_near(c.change_pct, -100.0 / 7, 1e-9);
	assert_near(c.p_value, 0.0805162, 1e-6);
	assert_true(c.regression);
}

static void test_compare_change_without_repeats(void **state)
{
	const double a[] = { 10, 11, 12, 13, 14 }, one[] = { 15 };
	struct summary sa, s1;
	struct compare_change c;

	summary_of(a, N(a), &sa);
	summary_of(one, N(one), &s1);
	compare_change_of(&sa, &s1, METRIC_BETTER_HIGHER, 0.05, &c);
	assert_true(c.has_pct);
	assert_near(c.change_pct, 25.0, 1e-9);
	assert_false(c.tested);
	assert_false(c.significant);
	assert_false(c.regression);
}

static void test_compare_change_zero_base(void **state)
{
	const double zero[] = { 0, 0 }, some[] = { 1, 2 };
	struct summary z, s;
	struct compare_change c;

	summary_of(zero, N(zero), &z);
	summary_of(some, N(some), &s);
	compare_change_of(&z, &s, METRIC_BETTER_LOWER, 0.05, &c);
	assert_false(c.has_pct);
	compare_change_of(&z, &z, METRIC_BETTER_LOWER, 0.05, &c);
	assert_true(c.has_pct);
	assert_near(c.change_pct, 0, 0);
	assert_near(c.p_value, 1.0, 0);
	assert_false(c.significant);
}

/* The HTML page's verdict: by the overlap of the confidence intervals,
 * in the metric's better direction. */
static void test_compare_side_of(void **state)
{
	const struct metric *iops = metric("iops"), *p99 = metric("p99"), *cpu = metric("cpu");
	double pct;

	assert_int_equal(compare_side_of(iops, 100, 5, 120, 5, &pct), COMPARE_SIDE_BETTER);
	assert_near(pct, 20, 1e-12);
	assert_int_equal(compare_side_of(p99, 100, 5, 120, 5, &pct), COMPARE_SIDE_WORSE);
	assert_int_equal(compare_side_of(iops, 100, 10, 120, 10, &pct), COMPARE_SIDE_NOISE);
	assert_int_equal(compare_side_of(iops, 100, 0, 120, 0, &pct), COMPARE_SIDE_BETTER);
	assert_int_equal(compare_side_of(iops, 100, 0, 100, 0, &pct), COMPARE_SIDE_NOISE);
	assert_int_equal(compare_side_of(cpu, 50, 0, 80, 0, &pct), COMPARE_SIDE_NOISE);
	assert_near(pct, 60, 1e-12);
	assert_int_equal(compare_side_of(iops, 0, 0, 80, 0, &pct), COMPARE_SIDE_NONE);
	assert_near(pct, 0, 0);
}

/* Sweep points are matched by their parameters, not by position; a point
 * only one file has is left out with a warning. */
static void test_compare_aligns_points(void **state)
{
	const double one[] = { 100, 110, 120 }, two[] = { 200, 210, 220 }, twob[] = { 400, 410, 420 };
	const struct metric *ms[] = { metric("iops") };
	const char *names[] = { "a.json", "b.json" };
	json_t *a = result("6.1"), *b = result("6.1");
	const json_t *rs[] = { a, b };
	struct dbio_err err = { 0 };
	struct comparison c;
	char label[128];

	add_job(a, job("job", "1", one, 3));
	add_job(a, job("job", "2", two, 3));
	add_job(b, job("job", "4", one, 3));
	add_job(b, job("job", "2", twob, 3));
	add_job(b, job("job", "1", one, 3));
	assert_int_equal(compare_build(&c, rs, names, 2, ms, 1, 0.05, NULL, &err), 0);
	assert_int_equal(c.nrows, 2);
	assert_string_equal(json_string_value(json_object_get(c.rows[0].point, "numjobs")), "1");
	assert_near(c.rows[0].values[0].mean, 110, 1e-9);
	assert_near(c.rows[0].values[1].mean, 110, 1e-9);
	assert_near(c.rows[0].changes[1].change_pct, 0, 0);
	assert_near(c.rows[0].changes[1].p_value, 1, 0);
	assert_string_equal(compare_verdict(&c.rows[0], 1), "within noise");
	assert_string_equal(json_string_value(json_object_get(c.rows[1].point, "numjobs")), "2");
	assert_near(c.rows[1].values[1].mean, 410, 1e-9);
	assert_near(c.rows[1].changes[1].change_pct, 200.0 / 210 * 100, 1e-9);
	assert_string_equal(compare_verdict(&c.rows[1], 1), "significant, improvement");
	compare_row_label(&c.rows[1], label, sizeof(label));
	assert_string_equal(label, "'job' numjobs=2");
	assert_int_equal(c.nwarnings, 1);
	assert_string_equal(c.warnings[0],
			    "compare: job 'job' numjobs=4 is in b.json but not in a.json: left out");
	assert_int_equal(c.ndiffs, 0);
	compare_release(&c);
	json_decref(a);
	json_decref(b);
}

/* Two jobs of the same name: the first with the first, the second with
 * the second. */
static void test_compare_aligns_equal_names_by_position(void **state)
{
	const double x[] = { 100, 110, 120 }, y[] = { 200, 210, 220 }, z[] = { 300, 310, 320 };
	const struct metric *ms[] = { metric("iops") };
	const char *names[] = { "a.json", "b.json" };
	json_t *a = result("6.1"), *b = result("6.1");
	const json_t *rs[] = { a, b };
	struct dbio_err err = { 0 };
	struct comparison c;
	char label[128];

	add_job(a, job("job", NULL, x, 3));
	add_job(a, job("job", NULL, y, 3));
	add_job(b, job("job", NULL, x, 3));
	add_job(b, job("job", NULL, z, 3));
	assert_int_equal(compare_build(&c, rs, names, 2, ms, 1, 0.05, NULL, &err), 0);
	assert_int_equal(c.nrows, 2);
	assert_int_equal(c.rows[0].occurrence, 1);
	assert_near(c.rows[0].changes[1].change_pct, 0, 0);
	assert_int_equal(c.rows[1].occurrence, 2);
	assert_near(c.rows[1].values[0].mean, 210, 1e-9);
	assert_near(c.rows[1].values[1].mean, 310, 1e-9);
	compare_row_label(&c.rows[1], label, sizeof(label));
	assert_string_equal(label, "'job' #2");
	compare_release(&c);
	json_decref(a);
	json_decref(b);
}

/* A's and B's jobs by name, each with runs of the iops given for it. */
static void add_jobs(json_t *r, const char *const *jn, const double *const *iops, size_t n)
{
	for (size_t i = 0; i < n; i++)
		add_job(r, job(jn[i], NULL, iops[i], 2));
}

/* Names interleaved: the n-th job of a name in A is the n-th of that name in
 * B, wherever the others fall (a, b, a, c, a against a, a, c, b, a). */
static void test_compare_aligns_interleaved_names(void **state)
{
	static const double a1[] = { 100, 110 }, a2[] = { 200, 210 }, a3[] = { 300, 310 }, o[] = { 50, 60 };
	static const char *const an[] = { "a", "b", "a", "c", "a" }, *const bn[] = { "a", "a", "c", "b",
										     "a" };
	static const double *const ai[] = { a1, o, a2, o, a3 }, *const bi[] = { a1, a2, o, o, a3 };
	const struct metric *ms[] = { metric("iops") };
	const char *names[] = { "a.json", "b.json" };
	json_t *ab[] = { result("6.1"), result("6.1") };
	struct dbio_err err = { 0 };
	struct comparison c;
	char label[128];

	add_jobs(ab[0], an, ai, N(an));
	add_jobs(ab[1], bn, bi, N(bn));
	assert_int_equal(compare_build(&c, (const json_t *const *)ab, names, 2, ms, 1, 0.05, NULL, &err), 0);
	assert_int_equal(c.nrows, 5);
	assert_int_equal(c.nwarnings, 0);
	compare_row_label(&c.rows[2], label, sizeof(label));
	assert_string_equal(label, "'a' #2");
	assert_near(c.rows[2].values[0].mean, 205, 1e-9);
	assert_near(c.rows[2].values[1].mean, 205, 1e-9);
	compare_row_label(&c.rows[4], label, sizeof(label));
	assert_string_equal(label, "'a' #3");
	assert_near(c.rows[4].values[1].mean, 305, 1e-9);
	compare_release(&c);
	json_decref(ab[0]);
	json_decref(ab[1]);
}

static void test_compare_no_job_in_common(void **state)
{
	const double x[] = { 100 };
	const struct metric *ms[] = { metric("iops") };
	const char *names[] = { "a.json", "b.json" };
	json_t *a = result("6.1"), *b = result("6.1");
	const json_t *rs[] = { a, b };
	struct dbio_err err = { 0 };
	struct comparison c;

	add_job(a, job("load", NULL, x, 1));
	add_job(a, job("scan", NULL, x, 1));
	add_job(b, job("job", "1", x, 1));
	assert_int_equal(compare_build(&c, rs, names, 2, ms, 1, 0.05, NULL, &err), DBIO_EINPUT);
	assert_string_equal(
		err.msg, "compare: no job in common: a.json has 'load', 'scan'; b.json has 'job' numjobs=1");
	compare_release(&c);
	json_decref(a);
	json_decref(b);
}

/* Partial runs are left out of the values; without repeats there is no
 * test. */
static void test_compare_skips_partial_runs(void **state)
{
	const double x[] = { 100, 110, 120 };
	const struct metric *ms[] = { metric("iops"), metric("p99") };
	const char *names[] = { "a.json", "b.json" };
	json_t *a = result("6.1"), *b = result("6.1"), *j = job("job", NULL, x, 1);
	const json_t *rs[] = { a, b };
	struct dbio_err err = { 0 };
	struct comparison c;
	char text[128];

	add_job(a, job("job", NULL, x, 3));
	json_array_append_new(json_object_get(j, "runs"), run(1, 1e9, true));
	add_job(b, j);
	assert_int_equal(compare_build(&c, rs, names, 2, ms, 2, 0.05, NULL, &err), 0);
	assert_int_equal(c.nrows, 2);
	assert_int_equal(c.rows[0].values[1].n, 1);
	assert_near(c.rows[0].values[1].mean, 100, 0);
	assert_false(c.rows[0].changes[1].tested);
	compare_change_text(&c.rows[0], 1, text, sizeof(text));
	assert_string_equal(text, "-9.1 %, n/a (no repeats)");
	assert_string_equal(c.rows[1].metric->name, "p99");
	assert_near(c.rows[1].values[1].mean, 1e7, 1e-3);
	compare_release(&c);
	json_decref(a);
	json_decref(b);
}

/* Kernel release and filesystem block size differ; randseed differs only
 * when randrepeat seeds from the clock, so it is not listed then. */
static void test_compare_environment_differences(void **state)
{
	const double x[] = { 100, 110, 120 };
	const struct metric *ms[] = { metric("iops") };
	const char *names[] = { "a.json", "b.json" };
	json_t *a = result("6.1.0"), *b = result("6.18.0"), *jb = job("job", NULL, x, 3),
	       *ja = job("job", NULL, x, 3);
	const json_t *rs[] = { a, b };
	struct dbio_err err = { 0 };
	struct comparison c;

	json_object_set_new(json_array_get(json_object_get(jb, "targets"), 0), "fs_block_size_bytes",
			    json_integer(1024));
	json_object_set_new(json_object_get(jb, "options"), "randseed", json_integer(77));
	json_object_set_new(json_object_get(jb, "options"), "randrepeat", json_false());
	json_object_set_new(json_object_get(ja, "options"), "randrepeat", json_false());
	add_job(a, ja);
	add_job(b, jb);
	assert_int_equal(compare_build(&c, rs, names, 2, ms, 1, 0.05, NULL, &err), 0);
	assert_int_equal(c.ndiffs, 2);
	assert_string_equal(c.diffs[0].field, "system.kernel_release");
	assert_null(c.diffs[0].jobs);
	assert_string_equal(json_string_value(json_array_get(c.diffs[0].values, 1)), "6.18.0");
	assert_string_equal(c.diffs[1].field, "targets[0].fs_block_size_bytes");
	assert_string_equal(c.diffs[1].jobs, "'job'");
	assert_int_equal(json_integer_value(json_array_get(c.diffs[1].values, 0)), 4096);
	assert_int_equal(json_integer_value(json_array_get(c.diffs[1].values, 1)), 1024);
	compare_release(&c);

	/* With randrepeat on, a different seed is a different job. */
	json_object_set_new(json_object_get(ja, "options"), "randrepeat", json_true());
	json_object_set_new(json_object_get(jb, "options"), "randrepeat", json_true());
	assert_int_equal(compare_build(&c, rs, names, 2, ms, 1, 0.05, NULL, &err), 0);
	assert_int_equal(c.ndiffs, 3);
	assert_string_equal(c.diffs[2].field, "options.randseed");
	compare_release(&c);
	json_decref(a);
	json_decref(b);
}

/* A run with reads of bytes, fsyncs (that move none), elapsed_ns and the
 * series' worst interval. */
static json_t *run_with_series(double elapsed_ns, double worst_ns)
{
	return json_pack("{s:b, s:f, s:{s:{s:I, s:I, s:f}, s:{s:I, s:I, s:f}}, s:{s:[{s:f}]}}", "partial",
			 false, "elapsed_ns", elapsed_ns, "ops", "read", "count", (json_int_t)100, "bytes",
			 (json_int_t)409600, "bw_bytes", 4096.0 * 100, "fsync", "count", (json_int_t)10,
			 "bytes", (json_int_t)0, "bw_bytes", 0.0, "series", "worst", "duration_ns", worst_ns);
}

/* Per-op metrics get a row per op type that did something, bw only where
 * bytes moved (not fsync); metrics of the whole run one row, op "all",
 * after them — elapsed and the series' worst interval alike. */
static void test_compare_rows_per_op_and_per_run(void **state)
{
	const struct metric *ms[] = { metric("bw"), metric("elapsed"), metric("worst") };
	const char *names[] = { "a.json", "b.json" };
	json_t *a = result("6.1"), *b = result("6.1"), *ja = job("job", NULL, NULL, 0),
	       *jb = job("job", NULL, NULL, 0);
	const json_t *rs[] = { a, b };
	struct dbio_err err = { 0 };
	struct comparison c;

	json_array_append_new(json_object_get(ja, "runs"), run_with_series(2e9, 30e6));
	json_array_append_new(json_object_get(ja, "runs"), run_with_series(4e9, 50e6));
	json_array_append_new(json_object_get(jb, "runs"), run_with_series(1e9, 20e6));
	add_job(a, ja);
	add_job(b, jb);
	assert_int_equal(compare_build(&c, rs, names, 2, ms, 3, 0.05, NULL, &err), 0);
	assert_int_equal(c.nrows, 3);
	assert_string_equal(c.rows[0].op, "read");
	assert_string_equal(c.rows[0].metric->name, "bw");
	assert_near(c.rows[0].values[0].mean, 400.0 / 1024, 1e-12);
	assert_string_equal(c.rows[1].op, "all");
	assert_string_equal(c.rows[1].metric->name, "elapsed");
	assert_near(c.rows[1].values[0].mean, 3e9, 0);
	assert_int_equal(c.rows[1].values[0].n, 2);
	assert_near(c.rows[1].changes[1].change_pct, -100.0 * 2 / 3, 1e-9);
	assert_string_equal(c.rows[2].op, "all");
	assert_string_equal(c.rows[2].metric->name, "worst");
	assert_near(c.rows[2].values[0].mean, 40e6, 0);
	assert_near(c.rows[2].values[1].mean, 20e6, 0);
	assert_near(c.rows[2].changes[1].change_pct, -50, 1e-12);
	assert_string_equal(compare_verdict(&c.rows[2], 1), "n/a (no repeats)");
	compare_release(&c);
	json_decref(a);
	json_decref(b);
}

/* A run of an import: phases schema and index, each with its own elapsed
 * time and rusage. */
static json_t *run_with_phases(double index_ns, double index_majflt)
{
	return json_pack(
		"{s:b, s:f, s:{s:{s:I, s:I, s:f}}, s:{s:f}, s:[{s:s, s:f, s:{s:f}}, {s:s, s:f, s:{s:f}}]}",
		"partial", false, "elapsed_ns", 10e9, "ops", "index", "count", (json_int_t)3, "bytes",
		(json_int_t)0, "iops", 0.3, "rusage", "majflt", 100.0, "phases", "name", "schema",
		"elapsed_ns", 1e6, "rusage", "majflt", 1.0, "name", "index", "elapsed_ns", index_ns, "rusage",
		"majflt", index_majflt);
}

/* Phases are rows of their own for the per-run metrics: op "phase
 * <name>", after the whole run's; --op picks them by name. */
static void test_compare_phase_rows(void **state)
{
	const struct metric *ms[] = { metric("elapsed"), metric("majflt") };
	const char *names[] = { "a.json", "b.json" };
	json_t *a = result("6.1"), *b = result("6.1"), *ja = job("s0", NULL, NULL, 0),
	       *jb = job("s0", NULL, NULL, 0);
	const json_t *rs[] = { a, b };
	struct dbio_err err = { 0 };
	struct comparison c;

	json_array_append_new(json_object_get(ja, "runs"), run_with_phases(4e9, 10));
	json_array_append_new(json_object_get(ja, "runs"), run_with_phases(6e9, 30));
	json_array_append_new(json_object_get(jb, "runs"), run_with_phases(2e9, 5));
	add_job(a, ja);
	add_job(b, jb);
	assert_int_equal(compare_build(&c, rs, names, 2, ms, 2, 0.05, NULL, &err), 0);
	assert_int_equal(c.nrows, 6);
	assert_string_equal(c.rows[0].op, "all");
	assert_near(c.rows[0].values[0].mean, 10e9, 0);
	assert_string_equal(c.rows[2].op, "phase schema");
	assert_near(c.rows[2].values[0].mean, 1e6, 0);
	assert_string_equal(c.rows[4].op, "phase index");
	assert_string_equal(c.rows[4].metric->name, "elapsed");
	assert_near(c.rows[4].values[0].mean, 5e9, 0);
	assert_int_equal(c.rows[4].values[0].n, 2);
	assert_near(c.rows[4].values[1].mean, 2e9, 0);
	assert_near(c.rows[4].changes[1].change_pct, -60, 1e-9);
	assert_string_equal(c.rows[5].metric->name, "majflt");
	assert_near(c.rows[5].values[0].mean, 20, 0);
	compare_release(&c);

	/* --op index: the index op type has no per-run rows; its phase has. */
	assert_int_equal(compare_build(&c, rs, names, 2, ms, 2, 0.05, "index", &err), 0);
	assert_int_equal(c.nrows, 4);
	assert_string_equal(c.rows[2].op, "phase index");
	assert_string_equal(c.rows[3].op, "phase index");
	compare_release(&c);
	assert_int_equal(compare_build(&c, rs, names, 2, ms, 2, 0.05, "load", &err), DBIO_EINPUT);
	assert_string_equal(
		err.msg,
		"compare: --op load: no job in these files did any of these op types or went through such a phase");
	compare_release(&c);
	json_decref(a);
	json_decref(b);
}

/* A matrix result splits into one view per configuration that ran. */
static void test_compare_split_matrix(void **state)
{
	const double x[] = { 10 }, y[] = { 20 };
	json_t *r = result("6.1"), *views[4], *ja = job("job", NULL, x, 1), *jb = job("job", NULL, y, 1);
	const char *names[4];

	json_object_set_new(r, "matrix",
			    json_pack("{s:[{s:s}, {s:s}, {s:s}]}", "configs", "label", "ext2 -b 1024",
				      "label", "ext2 -b 4096", "label", "ext4"));
	json_object_set_new(ja, "config", json_pack("{s:i}", "index", 1));
	json_object_set_new(ja, "point", json_pack("{s:s}", "fs", "ext2"));
	json_object_set_new(jb, "config", json_pack("{s:i}", "index", 0));
	add_job(r, ja);
	add_job(r, jb);
	/* The third configuration did not run. */
	assert_int_equal(compare_split_matrix(r, views, names, 4), 2);
	assert_string_equal(names[0], "ext2 -b 1024");
	assert_string_equal(names[1], "ext2 -b 4096");
	assert_int_equal(json_array_size(json_object_get(views[0], "jobs")), 1);
	assert_near(json_number_value(tree_get(views[0], "jobs.0.runs.0.ops.read.iops")), 20, 0);
	assert_near(json_number_value(tree_get(views[1], "jobs.0.runs.0.ops.read.iops")), 10, 0);
	assert_null(tree_get(views[1], "jobs.0.point"));
	json_decref(views[0]);
	json_decref(views[1]);
	json_decref(r);
	r = result("6.1");
	assert_int_equal(compare_split_matrix(r, views, names, 4), 0);
	json_decref(r);
}

/* The views, on base {10..14} iops against {12..16}. */
static void test_compare_views(void **state)
{
	const double x[] = { 10, 11, 12, 13, 14 }, y[] = { 12, 13, 14, 15, 16 };
	const struct metric *ms[] = { metric("iops") };
	const char *names[] = { "a.json", "b.json" };
	json_t *a = result("6.1"), *b = result("6.1"), *doc, *change;
	const json_t *rs[] = { a, b };
	struct dbio_err err = { 0 };
	struct comparison c;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	add_job(a, job("job", NULL, x, 5));
	add_job(b, job("job", NULL, y, 5));
	assert_int_equal(compare_build(&c, rs, names, 2, ms, 1, 0.05, NULL, &err), 0);

	fp = open_memstream(&text, &len);
	compare_print_text(fp, &c, COMPARE_LAYOUT_WIDE, 80);
	fclose(fp);
	assert_non_null(strstr(text, "A = a.json\nB = b.json\n"));
	assert_non_null(strstr(text, "environment: identical\n"));
	assert_non_null(strstr(
		text,
		"job  op    metric  A                 B                 B vs A\n"
		"job  read  iops    12.0 ± 2.0 ops/s  14.0 ± 2.0 ops/s  +16.7 %, p=0.0805, within noise\n"));
	free(text);

	/* Three files: wider than 80 columns, so a line per file and a
	 * column per metric. */
	{
		json_t *d = result("6.1");
		const json_t *rs3[] = { a, b, d };
		const char *names3[] = { "a.json", "b.json", "d.json" };
		struct comparison c3;

		add_job(d, job("job", NULL, y, 5));
		assert_int_equal(compare_build(&c3, rs3, names3, 3, ms, 1, 0.05, NULL, &err), 0);
		fp = open_memstream(&text, &len);
		compare_print_text(fp, &c3, COMPARE_LAYOUT_FIT, 80);
		fclose(fp);
		if (!strstr(text,
			    "\njob  read\n"
			    "                      iops\n"
			    "  A       12.0 ± 2.0 ops/s\n"
			    "  B       14.0 ± 2.0 ops/s\n"
			    "  C       14.0 ± 2.0 ops/s\n"
			    "  B vs A           +16.7 %\n"
			    "  C vs A           +16.7 %\n"
			    "* significant, ! significant regression, ~ no repeats (p-values: --wide)\n"))
			fail_msg("got:\n%s", text);
		free(text);
		fp = open_memstream(&text, &len);
		compare_print_text(fp, &c3, COMPARE_LAYOUT_MARKDOWN, 80);
		fclose(fp);
		assert_non_null(strstr(text, "| job | op | metric | A | B | C | B vs A | C vs A |\n"
					     "|---|---|---|---:|---:|---:|---:|---:|\n"));
		free(text);
		compare_release(&c3);
		json_decref(d);
	}

	fp = open_memstream(&text, &len);
	compare_print_csv(fp, &c);
	fclose(fp);
	assert_string_equal(
		text,
		"job,op,metric,unit,a_value,a_ci95,a_runs,b_value,b_ci95,b_runs,b_change_pct,b_p_value,b_significant,b_regression\n"
		"job,read,iops,ops/s,12,1.963243161,5,14,1.963243161,5,16.6667,0.0805162,false,false\n");
	free(text);

	doc = compare_json(&c);
	change = json_array_get(json_object_get(json_array_get(json_object_get(doc, "rows"), 0), "changes"),
				0);
	assert_near(json_real_value(json_object_get(change, "change_pct")), 100.0 / 6, 1e-9);
	assert_near(json_real_value(json_object_get(change, "p_value")), 0.0805162, 1e-6);
	assert_true(json_is_false(json_object_get(change, "significant")));
	assert_string_equal(json_string_value(json_object_get(change, "verdict")), "within noise");
	assert_true(json_is_true(json_object_get(json_object_get(doc, "environment"), "identical")));
	json_decref(doc);
	compare_release(&c);
	json_decref(a);
	json_decref(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_welch_hand_computed),
		cmocka_unit_test(test_compare_change_without_repeats),
		cmocka_unit_test(test_compare_change_zero_base),
		cmocka_unit_test(test_compare_side_of),
		cmocka_unit_test(test_compare_aligns_points),
		cmocka_unit_test(test_compare_aligns_equal_names_by_position),
		cmocka_unit_test(test_compare_aligns_interleaved_names),
		cmocka_unit_test(test_compare_no_job_in_common),
		cmocka_unit_test(test_compare_skips_partial_runs),
		cmocka_unit_test(test_compare_environment_differences),
		cmocka_unit_test(test_compare_rows_per_op_and_per_run),
		cmocka_unit_test(test_compare_phase_rows),
		cmocka_unit_test(test_compare_split_matrix),
		cmocka_unit_test(test_compare_views),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
