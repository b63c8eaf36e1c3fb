/*
 * Unit tests for fio's JSON of a result (src/views/fio_json.h), fed a
 * small result tree written here: a job of two runs whose reads, with
 * their histograms, add up to figures computed by hand, a queued job with
 * its own percentile_list, and the fields fio's tools read — units,
 * percentiles, json+ bins, the sync direction, the latency distribution,
 * CPU, global options and the times.
 *
 * The latencies and their buckets (stats/hist.h): 1000 ns falls in
 * [1000, 1003] (middle 1001), 3000 ns in [2992, 3007] (2999), 20000 ns in
 * [19968, 20095] (20031), 100000 ns in [99840, 100351] (100095).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "stats/hist.h"
#include "views/fio_json.h"

static void assert_near(double got, double want, double tol)
{
	if (fabs(got - want) > tol)
		fail_msg("got %.9g, expected %.9g (within %g)", got, want, tol);
}

/* An ops.<type> entry: n values of each of vals[0..nv) (4096 bytes each
 * when bytes), with the summary the result writes. */
static json_t *op(const uint64_t *vals, const int *n, size_t nv, bool bytes, double stddev)
{
	json_t *buckets = json_array();
	uint64_t count = 0, sum = 0, min = 0, max = 0;

	for (size_t i = 0; i < nv; i++) {
		json_array_append_new(buckets, json_pack("[i, i]", (int)hist_index(vals[i]), n[i]));
		count += (uint64_t)n[i];
		sum += vals[i] * (uint64_t)n[i];
		min = !min || vals[i] < min ? vals[i] : min;
		max = vals[i] > max ? vals[i] : max;
	}
	return json_pack("{s:I, s:I, s:{s:I, s:f, s:I, s:f}, s:{s:s, s:i, s:s, s:o}}", "count",
			 (json_int_t)count, "bytes", (json_int_t)(bytes ? count * 4096 : 0), "lat_ns", "min",
			 (json_int_t)min, "mean", count ? (double)sum / (double)count : 0.0, "max",
			 (json_int_t)max, "stddev", stddev, "lat_hist", "scheme", "log-linear",
			 "sub_bucket_bits", HIST_SUB_BITS, "unit", "ns", "buckets", buckets);
}

static json_t *run(uint64_t elapsed_ns, double user_s, double sys_s, int nvcsw, int minflt, json_t *ops)
{
	return json_pack("{s:I, s:b, s:i, s:o, s:{s:f, s:f, s:i, s:i, s:i, s:i}}", "elapsed_ns",
			 (json_int_t)elapsed_ns, "partial", false, "threads", 1, "ops", ops, "rusage",
			 "user_s", user_s, "sys_s", sys_s, "majflt", 0, "minflt", minflt, "nvcsw", nvcsw,
			 "nivcsw", 1);
}

/* Job j1 (two runs: reads 3 x 1000 ns and 1 x 20000 ns in 1 ms, 2 fsyncs of
 * 100000 ns; then 4 reads of 3000 ns in 3 ms) and job j2 (io_uring, a
 * partial run of 2 reads of 3000 ns, percentile_list 99.5:50). */
static json_t *result(void)
{
	const uint64_t r1[] = { 1000, 20000 }, r2[] = { 3000 }, f1[] = { 100000 };
	const int n1[] = { 3, 1 }, n2[] = { 4 }, nf[] = { 2 }, nq[] = { 2 };
	json_t *j1 = json_pack("{s:s, s:{s:s, s:s, s:i, s:[], s:b}, s:[]}", "name", "j1", "options", "name",
			       "j1", "rw", "randread", "bs", 4096, "percentile_list", "direct", true, "runs");
	json_t *j2 = json_pack("{s:s, s:{s:s, s:s, s:i, s:[f, f], s:b}, s:[]}", "name", "j2", "options",
			       "name", "j2", "rw", "randread", "bs", 8192, "percentile_list", 99.5, 50.0,
			       "direct", true, "runs");
	json_t *q;

	json_array_append_new(
		json_object_get(j1, "runs"),
		run(1000000, 0.001, 0.0, 3, 5,
		    json_pack("{s:o, s:o, s:o}", "read", op(r1, n1, 2, true, 8227.241335952167), "write",
			      op(NULL, NULL, 0, true, 0), "fsync", op(f1, nf, 1, false, 0))));
	json_array_append_new(json_object_get(j1, "runs"),
			      run(3000000, 0.001, 0.001, 4, 6,
				  json_pack("{s:o, s:o}", "read", op(r2, n2, 1, true, 0), "write",
					    op(NULL, NULL, 0, true, 0))));
	q = run(2000000, 0, 0, 0, 0, json_pack("{s:o}", "read", op(r2, nq, 1, true, 0)));
	json_object_set_new(q, "partial", json_true());
	json_object_set_new(q, "submission",
			    json_pack("{s:i, s:{s:i, s:f, s:i}}", "count", 2, "lat_ns", "min", 500, "mean",
				      600.0, "max", 700));
	json_array_append_new(json_object_get(j2, "runs"), q);
	return json_pack("{s:i, s:{s:s, s:s}, s:s, s:[o, o]}", "schema_version", 1, "tool", "name", "dbio",
			 "version", "9.9.9", "finished_at", "2026-11-30T20:02:51.659Z", "jobs", j1, j2);
}

static json_t *at(const json_t *v, const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, "/", &save); k && v; k = strtok_r(NULL, "/", &save))
		v = json_is_array(v) ? json_array_get(v, strtoul(k, NULL, 10)) : json_object_get(v, k);
	if (!v)
		fail_msg("%s: missing", path);
	return (json_t *)v;
}

static json_int_t num(const json_t *doc, const char *path)
{
	return json_integer_value(at(doc, path));
}

static double real(const json_t *doc, const char *path)
{
	return json_number_value(at(doc, path));
}

static void test_fio_json_read_figures_over_both_runs(void **state)
{
	json_t *r = result(), *doc = fio_json_new(r, false);

	assert_non_null(doc);
	assert_int_equal(num(doc, "jobs/0/read/total_ios"), 8);
	assert_int_equal(num(doc, "jobs/0/read/io_bytes"), 32768);
	assert_int_equal(num(doc, "jobs/0/read/io_kbytes"), 32);
	assert_int_equal(num(doc, "jobs/0/read/runtime"), 4);
	assert_int_equal(num(doc, "jobs/0/read/bw_bytes"), 8192000);
	assert_int_equal(num(doc, "jobs/0/read/bw"), 8000);
	assert_near(real(doc, "jobs/0/read/iops"), 2000.0, 1e-9);
	assert_int_equal(num(doc, "jobs/0/read/short_ios"), 0);
	assert_int_equal(num(doc, "jobs/0/read/clat_ns/N"), 8);
	assert_int_equal(num(doc, "jobs/0/read/clat_ns/min"), 1000);
	assert_int_equal(num(doc, "jobs/0/read/clat_ns/max"), 20000);
	assert_near(real(doc, "jobs/0/read/clat_ns/mean"), 4375.0, 1e-6);
	assert_near(real(doc, "jobs/0/read/clat_ns/stddev"), 5977.823600609172, 1e-3);
	assert_int_equal(num(doc, "jobs/0/read/lat_ns/N"), 8);
	assert_int_equal(num(doc, "jobs/0/read/slat_ns/N"), 0);
	assert_int_equal(num(doc, "jobs/0/write/total_ios"), 0);
	assert_int_equal(num(doc, "jobs/0/write/runtime"), 0);
	assert_int_equal(num(doc, "jobs/0/trim/total_ios"), 0);
	assert_int_equal(num(doc, "jobs/0/error"), 0);
	assert_int_equal(num(doc, "jobs/0/job_runtime"), 4);
	assert_near(real(doc, "jobs/0/usr_cpu"), 50.0, 1e-9);
	assert_near(real(doc, "jobs/0/sys_cpu"), 25.0, 1e-9);
	assert_int_equal(num(doc, "jobs/0/ctx"), 9);
	assert_int_equal(num(doc, "jobs/0/minf"), 11);
	assert_string_equal(json_string_value(at(doc, "jobs/0/jobname")), "j1");
	json_decref(doc);
	json_decref(r);
}

/* Nearest rank over 1000 x 3, 3000 x 4, 20000: rank 1 is 1000's bucket
 * (1001), rank 4 (p50) 3000's (2999), rank 8 20031 clamped to max. */
static void test_fio_json_percentiles_from_the_histogram(void **state)
{
	json_t *r = result(), *doc = fio_json_new(r, false);
	const json_t *p = at(doc, "jobs/0/read/clat_ns/percentile");

	assert_int_equal(json_object_size(p), 17);
	assert_int_equal(num(p, "1.000000"), 1001);
	assert_int_equal(num(p, "50.000000"), 2999);
	assert_int_equal(num(p, "90.000000"), 20000);
	assert_int_equal(num(p, "99.990000"), 20000);
	assert_null(json_object_get(at(doc, "jobs/0/read/clat_ns"), "bins"));
	assert_null(json_object_get(at(doc, "jobs/0/read/lat_ns"), "percentile"));
	assert_null(json_object_get(at(doc, "jobs/0/write/clat_ns"), "percentile"));
	json_decref(doc);
	json_decref(r);
}

static void test_fio_json_plus_bins_are_bucket_middles(void **state)
{
	json_t *r = result(), *doc = fio_json_new(r, true);
	const json_t *bins = at(doc, "jobs/0/read/clat_ns/bins");

	assert_int_equal(json_object_size(bins), 3);
	assert_int_equal(num(bins, "1001"), 3);
	assert_int_equal(num(bins, "2999"), 4);
	assert_int_equal(num(bins, "20031"), 1);
	assert_int_equal(num(doc, "jobs/0/sync/lat_ns/bins/100095"), 2);
	assert_null(json_object_get(at(doc, "jobs/0/write/clat_ns"), "bins"));
	json_decref(doc);
	json_decref(r);
}

static void test_fio_json_fsync_is_sync(void **state)
{
	json_t *r = result(), *doc = fio_json_new(r, false);

	assert_int_equal(num(doc, "jobs/0/sync/total_ios"), 2);
	assert_int_equal(num(doc, "jobs/0/sync/lat_ns/N"), 2);
	assert_int_equal(num(doc, "jobs/0/sync/lat_ns/min"), 100000);
	assert_int_equal(num(doc, "jobs/0/sync/lat_ns/percentile/50.000000"), 100000);
	assert_null(json_object_get(at(doc, "jobs/0/sync"), "io_bytes"));
	json_decref(doc);
	json_decref(r);
}

/* 1001 ns is 1 µs ("2": under 2 µs), 2999 ns 2 µs ("4"), 20031 ns 20 µs
 * ("50": 20 to 49 µs); fsyncs are not counted. */
static void test_fio_json_latency_distribution(void **state)
{
	json_t *r = result(), *doc = fio_json_new(r, false);

	assert_near(real(doc, "jobs/0/latency_us/2"), 37.5, 1e-9);
	assert_near(real(doc, "jobs/0/latency_us/4"), 50.0, 1e-9);
	assert_near(real(doc, "jobs/0/latency_us/20"), 0.0, 1e-9);
	assert_near(real(doc, "jobs/0/latency_us/50"), 12.5, 1e-9);
	assert_near(real(doc, "jobs/0/latency_us/250"), 0.0, 1e-9);
	assert_int_equal(json_object_size(at(doc, "jobs/0/latency_ns")), 10);
	assert_near(real(doc, "jobs/0/latency_ns/1000"), 0.0, 1e-9);
	assert_int_equal(json_object_size(at(doc, "jobs/0/latency_ms")), 12);
	assert_near(real(doc, "jobs/0/latency_ms/>=2000"), 0.0, 1e-9);
	json_decref(doc);
	json_decref(r);
}

/* j2 ran on a queued engine: dbio's latency is clat, lat was not
 * measured; its percentile_list replaces fio's, sorted; a partial run is
 * an error. */
static void test_fio_json_queued_job_and_its_percentiles(void **state)
{
	json_t *r = result(), *doc = fio_json_new(r, false);
	const json_t *p = at(doc, "jobs/1/read/clat_ns/percentile");
	void *it = json_object_iter((json_t *)p);

	assert_int_equal(num(doc, "jobs/1/read/clat_ns/N"), 2);
	assert_int_equal(num(doc, "jobs/1/read/lat_ns/N"), 0);
	assert_int_equal(num(doc, "jobs/1/read/slat_ns/N"), 0);
	assert_int_equal(json_object_size(p), 2);
	assert_string_equal(json_object_iter_key(it), "50.000000");
	assert_string_equal(json_object_iter_key(json_object_iter_next((json_t *)p, it)), "99.500000");
	assert_int_equal(num(doc, "jobs/1/error"), 1);
	json_decref(doc);
	json_decref(r);
}

static void test_fio_json_options_version_and_times(void **state)
{
	json_t *r = result(), *doc;

	setenv("TZ", "UTC", 1);
	tzset();
	doc = fio_json_new(r, false);
	assert_string_equal(json_string_value(at(doc, "fio version")), "dbio-9.9.9 (fio-3.33 JSON)");
	assert_int_equal(num(doc, "timestamp"), 1796068971);
	assert_int_equal(num(doc, "timestamp_ms"), 1796068971659);
	assert_string_equal(json_string_value(at(doc, "time")), "Mon Nov 30 20:02:51 2026");
	assert_int_equal(json_object_size(at(doc, "global options")), 2);
	assert_string_equal(json_string_value(at(doc, "global options/rw")), "randread");
	assert_string_equal(json_string_value(at(doc, "global options/direct")), "1");
	assert_string_equal(json_string_value(at(doc, "jobs/0/job options/name")), "j1");
	assert_string_equal(json_string_value(at(doc, "jobs/0/job options/bs")), "4096");
	assert_string_equal(json_string_value(at(doc, "jobs/0/job options/percentile_list")), "");
	assert_string_equal(json_string_value(at(doc, "jobs/1/job options/percentile_list")), "99.5:50");
	assert_int_equal(json_array_size(at(doc, "disk_util")), 0);
	json_decref(doc);
	json_decref(r);
}

static void test_fio_json_print_writes_one_document(void **state)
{
	json_t *r = result(), *back;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	json_error_t e;

	assert_int_equal(fio_json_print(mem, r, true), 0);
	fclose(mem);
	assert_true(len > 0);
	assert_int_equal(text[len - 1], '\n');
	back = json_loads(text, 0, &e);
	assert_non_null(back);
	assert_int_equal(num(back, "jobs/0/read/clat_ns/bins/2999"), 4);
	json_decref(back);
	free(text);
	json_decref(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio_json_read_figures_over_both_runs),
		cmocka_unit_test(test_fio_json_percentiles_from_the_histogram),
		cmocka_unit_test(test_fio_json_plus_bins_are_bucket_middles),
		cmocka_unit_test(test_fio_json_fsync_is_sync),
		cmocka_unit_test(test_fio_json_latency_distribution),
		cmocka_unit_test(test_fio_json_queued_job_and_its_percentiles),
		cmocka_unit_test(test_fio_json_options_version_and_times),
		cmocka_unit_test(test_fio_json_print_writes_one_document),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
