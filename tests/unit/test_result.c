/*
 * Unit tests for the JSON result (src/result/result.h): a job with known
 * operations (4096 reads of 4 KiB in 2 s) gives exact counts, bytes, IOPS,
 * bandwidth and latency figures in the dumped and re-parsed tree, with the
 * rusage fields and every option_table key; result_write replaces the file
 * atomically, leaves no temporary file and fails with a message on a bad
 * path; result_hist_load gives back the buckets and percentiles;
 * result_dumps escapes DEL and C1 controls.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "analysis/metric.h"
#include "job/option.h"
#include "plan/plan.h"
#include "result/result.h"

#define NREADS 4096

struct fixture {
	struct job job;
	struct run_stats stats;
	json_t *result; /* as built */
	json_t *parsed; /* result_dump, parsed back */
	json_t *extra;	/* a second result a test builds */
	char dir[64];	/* a scratch directory for result_write */
};

static void set_ok(struct job *job, const char *key, const char *value)
{
	struct dbio_err err = { 0 };

	if (job_set(job, key, value, NULL, &err))
		fail_msg("%s=%s: %s", key, value, err.msg);
}

/* 4096 reads of 4096 bytes with latencies 1000..5095 ns, 10 fsyncs of
 * 1..10 ms, no writes, in 2 s. */
static int setup(void **state)
{
	static char *argv[] = { "dbio", "run", "x.fio" };
	struct fixture *f = calloc(1, sizeof(*f));
	struct dbio_err err = { 0 };

	if (!f)
		return -1;
	plan_job_init(&f->job, "seqread");
	set_ok(&f->job, "size", "16m");
	set_ok(&f->job, "directory", "/tmp");
	set_ok(&f->job, "percentile_list", "99.5:99.99");
	if (plan_validate(&f->job, &err)) {
		print_error("plan_validate: %s\n", err.msg);
		return -1;
	}
	run_stats_init(&f->stats);
	for (uint64_t i = 0; i < NREADS; i++)
		op_stats_add(&f->stats.ops[OP_READ], 4096, 1000 + i);
	for (uint64_t i = 1; i <= 10; i++)
		op_stats_add(&f->stats.ops[OP_FSYNC], 0, i * 1000000);
	f->stats.elapsed_ns = 2000000000;
	f->stats.started_wall_ns = 1700000000123456789ull;
	f->stats.threads = 1;
	f->stats.usage = (struct usage){ .user_s = 0.5,
					 .sys_s = 0.25,
					 .majflt = 1,
					 .minflt = 2,
					 .nvcsw = 3,
					 .nivcsw = 4,
					 .inblock = 5,
					 .oublock = 6 };
	f->result = result_new(3, argv);
	if (!f->result || result_add_run(f->result, 0, &f->job, &f->stats))
		return -1;
	char *text = result_dump(f->result);
	json_error_t jerr;

	f->parsed = text ? json_loads(text, 0, &jerr) : NULL;
	free(text);
	if (!f->parsed)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/dbio-test-result.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	json_decref(f->result);
	json_decref(f->parsed);
	json_decref(f->extra);
	rmdir(f->dir);
	job_release(&f->job);
	free(f);
	return 0;
}

/* The value at a '.'-separated path of object keys under root. */
static json_t *at(json_t *root, const char *path)
{
	const char *p = path;
	char key[128];

	while (root && *p) {
		size_t len = strcspn(p, ".");

		snprintf(key, sizeof(key), "%.*s", (int)len, p);
		root = json_object_get(root, key);
		p += len + (p[len] == '.');
	}
	if (!root)
		fail_msg("no '%s' in the result", path);
	return root;
}

static json_int_t int_at(json_t *root, const char *path)
{
	json_t *v = at(root, path);

	if (!json_is_integer(v))
		fail_msg("'%s' is not an integer", path);
	return json_integer_value(v);
}

static double real_at(json_t *root, const char *path)
{
	json_t *v = at(root, path);

	if (!json_is_real(v))
		fail_msg("'%s' is not a real", path);
	return json_real_value(v);
}

static json_t *run0(struct fixture *f)
{
	return json_array_get(at(json_array_get(at(f->parsed, "jobs"), 0), "runs"), 0);
}

/* The names in dir other than . and .., joined by ' ', into buf. */
static const char *list_dir(const char *dir, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t used = 0;

	assert_non_null(d);
	buf[0] = '\0';
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "", e->d_name);
	closedir(d);
	return buf;
}

static void test_result_top_level(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(int_at(f->parsed, "schema_version"), 1);
	assert_int_equal(RESULT_SCHEMA_VERSION, 1);
	assert_string_equal(json_string_value(at(f->parsed, "tool.name")), "dbio");
	assert_string_equal(json_string_value(at(f->parsed, "tool.version")), DBIO_VERSION);
	assert_string_equal(json_string_value(at(f->parsed, "command_line")), "dbio run x.fio");
	assert_int_equal(json_array_size(at(f->parsed, "argv")), 3);
	assert_string_equal(json_string_value(json_array_get(at(f->parsed, "argv"), 2)), "x.fio");
	assert_true(json_is_false(at(f->parsed, "partial")));
	assert_true(json_is_object(at(f->parsed, "system")));
	assert_int_equal(strlen(json_string_value(at(f->parsed, "started_at"))), 24);
	assert_int_equal(json_array_size(at(f->parsed, "jobs")), 1);
	assert_string_equal(json_string_value(at(json_array_get(at(f->parsed, "jobs"), 0), "name")),
			    "seqread");

	result_finish(f->result, true, "stopped by a signal");
	assert_true(json_is_true(at(f->result, "partial")));
	assert_string_equal(json_string_value(at(f->result, "error")), "stopped by a signal");
	assert_true(json_is_string(at(f->result, "finished_at")));
	/* Finished again (a resumed sweep): the old error goes. */
	result_finish(f->result, true, NULL);
	assert_true(json_is_true(at(f->result, "partial")));
	assert_null(json_object_get(f->result, "error"));
	result_finish(f->result, false, NULL);
	assert_true(json_is_false(at(f->result, "partial")));
	assert_null(json_object_get(f->result, "error"));
}

static void test_result_run_read_figures(void **state)
{
	struct fixture *f = *state;
	json_t *run = run0(f), *read = at(run, "ops.read");

	assert_string_equal(json_string_value(at(run, "started_at")), "2023-11-14T22:13:20.123Z");
	assert_int_equal(int_at(run, "elapsed_ns"), 2000000000);
	assert_int_equal(int_at(run, "threads"), 1);
	assert_true(json_is_false(at(run, "partial")));
	assert_int_equal(int_at(read, "count"), 4096);
	assert_int_equal(int_at(read, "bytes"), 16777216);
	assert_true(real_at(read, "iops") == 2048.0);
	assert_true(real_at(read, "bw_bytes") == 8388608.0);
	assert_int_equal(int_at(read, "lat_ns.min"), 1000);
	assert_int_equal(int_at(read, "lat_ns.max"), 5095);
	assert_true(real_at(read, "lat_ns.mean") == 3047.5);
	/* sqrt((4096^2 - 1) / 12) */
	assert_true(fabs(real_at(read, "lat_ns.stddev") - 1182.4133) < 1e-3);
	/* p50 is the 2048th value, 3047, whose bucket 3040..3055 reports its
	 * middle 3047; p99 is the 4056th, 5055, in 5024..5055, reported 5039. */
	assert_int_equal(int_at(read, "lat_ns.p50"), 3047);
	assert_int_equal(int_at(read, "lat_ns.p90"), 4687);
	assert_int_equal(int_at(read, "lat_ns.p99"), 5039);
	assert_int_equal(int_at(read, "lat_ns.p99_9"), 5095);
	json_t *extra = at(read, "lat_ns.percentiles");

	assert_int_equal(json_object_size(extra), 2);
	assert_int_equal(json_integer_value(json_object_get(extra, "99.5")), 5071);
	assert_int_equal(json_integer_value(json_object_get(extra, "99.99")), 5095);
	assert_string_equal(json_string_value(at(read, "lat_hist.scheme")), "log-linear");
	assert_int_equal(int_at(read, "lat_hist.sub_bucket_bits"), 7);
	assert_string_equal(json_string_value(at(read, "lat_hist.unit")), "ns");
	/* Buckets 4 ns wide over 1000..1023, 8 over 1024..2047, 16 over
	 * 2048..4095, 32 over 4096..5095 (the last one 5088..5119). */
	json_t *buckets = at(read, "lat_hist.buckets");
	json_int_t total = 0;
	size_t i;
	json_t *b;

	assert_int_equal(json_array_size(buckets), 6 + 128 + 128 + 32);
	json_array_foreach (buckets, i, b)
		total += json_integer_value(json_array_get(b, 1));
	assert_int_equal(total, 4096);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(buckets, 0), 0)), hist_index(1000));
}

static void test_result_run_other_ops(void **state)
{
	struct fixture *f = *state;
	json_t *run = run0(f);

	assert_int_equal(int_at(run, "ops.write.count"), 0);
	assert_int_equal(int_at(run, "ops.write.bytes"), 0);
	assert_true(real_at(run, "ops.write.iops") == 0.0);
	assert_int_equal(int_at(run, "ops.write.lat_ns.min"), 0);
	assert_int_equal(int_at(run, "ops.write.lat_ns.max"), 0);
	assert_int_equal(int_at(run, "ops.write.lat_ns.p50"), 0);
	assert_int_equal(json_array_size(at(run, "ops.write.lat_hist.buckets")), 0);
	assert_int_equal(int_at(run, "ops.fsync.count"), 10);
	assert_true(real_at(run, "ops.fsync.iops") == 5.0);
	assert_int_equal(int_at(run, "ops.fsync.lat_ns.min"), 1000000);
	assert_int_equal(int_at(run, "ops.fsync.lat_ns.max"), 10000000);
	assert_true(real_at(run, "ops.fsync.lat_ns.mean") == 5500000.0);
	assert_int_equal(int_at(run, "ops.fdatasync.count"), 0);
}

static void test_result_rusage(void **state)
{
	struct fixture *f = *state;
	json_t *run = run0(f);

	assert_true(real_at(run, "rusage.user_s") == 0.5);
	assert_true(real_at(run, "rusage.sys_s") == 0.25);
	assert_true(real_at(run, "rusage.cpu_pct") == 37.5);
	assert_int_equal(int_at(run, "rusage.majflt"), 1);
	assert_int_equal(int_at(run, "rusage.minflt"), 2);
	assert_int_equal(int_at(run, "rusage.nvcsw"), 3);
	assert_int_equal(int_at(run, "rusage.nivcsw"), 4);
	assert_int_equal(int_at(run, "rusage.inblock"), 5);
	assert_int_equal(int_at(run, "rusage.oublock"), 6);
}

static void test_result_options_every_key(void **state)
{
	struct fixture *f = *state;
	json_t *job = json_array_get(at(f->parsed, "jobs"), 0);
	json_t *opts = at(job, "options");

	size_t own = 0;

	/* A fileio job's options: the keys of every job and the file keys,
	 * none of another workload's or engine's. */
	for (size_t t = 0; t < f->job.nkeys; t++) {
		const struct job_keys *k = &f->job.keys[t];

		for (size_t d = 0; d < k->table->count; d++) {
			bool there = json_object_get(opts, k->table->defs[d].name) != NULL;

			if (k->applies && !there)
				fail_msg("options lack '%s'", k->table->defs[d].name);
			own += k->applies;
		}
	}
	assert_int_equal(json_object_size(opts), own);
	assert_null(json_object_get(opts, "records"));
	assert_null(json_object_get(opts, "hipri"));
	assert_int_equal(int_at(opts, "bs"), 4096);
	assert_int_equal(int_at(opts, "size"), 16777216);
	assert_int_equal(int_at(opts, "filesize"), 16777216);
	assert_string_equal(json_string_value(at(opts, "rw")), "read");
	assert_string_equal(json_string_value(at(opts, "directory")), "/tmp");
	assert_string_equal(json_string_value(at(opts, "name")), "seqread");
	assert_true(json_is_false(at(opts, "direct")));
	assert_true(json_is_true(at(opts, "randrepeat")));
	assert_int_equal(json_array_size(at(opts, "percentile_list")), 2);
	assert_true(json_real_value(json_array_get(at(opts, "percentile_list"), 0)) == 99.5);
	json_t *targets = at(job, "targets");

	assert_int_equal(json_array_size(targets), 1);
	assert_string_equal(json_string_value(at(json_array_get(targets, 0), "directory")), "/tmp");
}

/* randseed takes any 64-bit value; the result must record the one used,
 * so that a run can be repeated from it. */
static void test_result_options_large_randseed(void **state)
{
	struct fixture *f = *state;
	struct dbio_err err = { 0 };
	json_t *v;

	/* The largest seed a result can hold exactly is recorded exactly ... */
	f->extra = result_new(0, NULL);
	set_ok(&f->job, "randseed", "9223372036854775807"); /* 2^63 - 1 */
	assert_int_equal(result_add_run(f->extra, 0, &f->job, &f->stats), 0);
	v = at(json_array_get(at(f->extra, "jobs"), 0), "options.randseed");
	assert_true(json_is_integer(v));
	assert_true(json_integer_value(v) == INT64_MAX);
	/* ... and one it could not is refused when parsed. */
	assert_int_equal(job_set(&f->job, "randseed", "9223372036854775808", NULL, &err), DBIO_EINPUT);
	assert_non_null(strstr(err.msg, "out of range"));
}

static void test_result_runs_append_by_index(void **state)
{
	struct fixture *f = *state;
	struct job other;
	struct dbio_err err = { 0 };

	assert_int_equal(result_add_run(f->result, 0, &f->job, &f->stats), 0);
	plan_job_init(&other, "second");
	set_ok(&other, "size", "1m");
	set_ok(&other, "directory", "/tmp");
	assert_int_equal(plan_validate(&other, &err), 0);
	assert_int_equal(result_add_run(f->result, 1, &other, &f->stats), 0);
	job_release(&other);
	json_t *jobs = at(f->result, "jobs");

	assert_int_equal(json_array_size(jobs), 2);
	assert_int_equal(json_array_size(at(json_array_get(jobs, 0), "runs")), 2);
	assert_int_equal(json_array_size(at(json_array_get(jobs, 1), "runs")), 1);
	assert_string_equal(json_string_value(at(json_array_get(jobs, 1), "name")), "second");
}

static void test_result_write_atomic(void **state)
{
	struct fixture *f = *state;
	struct dbio_err err = { 0 };
	char path[128], names[256];
	json_error_t jerr;
	json_t *back;
	struct stat st;

	snprintf(path, sizeof(path), "%s/result.json", f->dir);
	assert_int_equal(result_write(f->result, path, &err), 0);
	assert_int_equal(err.code, 0);
	assert_string_equal(list_dir(f->dir, names, sizeof(names)), "result.json");
	back = json_load_file(path, 0, &jerr);
	if (!back)
		fail_msg("%s: %s at line %d", path, jerr.text, jerr.line);
	assert_int_equal(int_at(back, "schema_version"), 1);
	assert_int_equal(
		json_integer_value(at(json_array_get(at(json_array_get(at(back, "jobs"), 0), "runs"), 0),
				      "ops.read.count")),
		4096);
	json_decref(back);
	/* The file is the dump and a newline. */
	char *text = result_dump(f->result);

	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, strlen(text) + 1);
	free(text);

	/* Writing again replaces the file, still leaving nothing else. */
	result_finish(f->result, true, "again");
	assert_int_equal(result_write(f->result, path, &err), 0);
	back = json_load_file(path, 0, &jerr);
	assert_non_null(back);
	assert_string_equal(json_string_value(at(back, "error")), "again");
	json_decref(back);
	assert_string_equal(list_dir(f->dir, names, sizeof(names)), "result.json");
	assert_int_equal(unlink(path), 0);
}

static void test_result_write_fails_cleanly(void **state)
{
	struct fixture *f = *state;
	struct dbio_err err = { 0 };
	char path[128], want[256], names[256];

	snprintf(path, sizeof(path), "%s/missing/result.json", f->dir);
	assert_int_equal(result_write(f->result, path, &err), -ENOENT);
	snprintf(want, sizeof(want), "%s: cannot write: No such file or directory", path);
	assert_string_equal(err.msg, want);
	assert_string_equal(list_dir(f->dir, names, sizeof(names)), "");

	/* A directory in the way: refused before a temporary file is made. */
	snprintf(path, sizeof(path), "%s/taken", f->dir);
	assert_int_equal(mkdir(path, 0755), 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(result_write(f->result, path, &err), DBIO_EINPUT);
	snprintf(want, sizeof(want), "%s: is a directory: expected a file name", path);
	assert_string_equal(err.msg, want);
	assert_string_equal(list_dir(f->dir, names, sizeof(names)), "taken");
	assert_int_equal(rmdir(path), 0);
}

static void test_result_hist_load_round_trip(void **state)
{
	struct fixture *f = *state;
	static const double pcts[] = { 1, 10, 50, 90, 95, 99, 99.5, 99.9, 99.99, 100 };
	struct hist *h = malloc(sizeof(*h));
	const struct hist *orig = &f->stats.ops[OP_READ].lat_ns;

	assert_non_null(h);
	assert_int_equal(result_hist_load(at(run0(f), "ops.read"), h), 0);
	assert_int_equal(h->count, 4096);
	assert_int_equal(h->min, 1000);
	assert_int_equal(h->max, 5095);
	assert_int_equal(h->sum, orig->sum);
	assert_memory_equal(h->buckets, orig->buckets, sizeof(h->buckets));
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		assert_int_equal(hist_percentile(h, pcts[i]), hist_percentile(orig, pcts[i]));
	assert_true(fabs(hist_stddev(h) - hist_stddev(orig)) < 1e-3);

	/* An op without samples loads as an empty histogram. */
	assert_int_equal(result_hist_load(at(run0(f), "ops.write"), h), 0);
	assert_int_equal(h->count, 0);
	assert_int_equal(h->min, UINT64_MAX);
	assert_int_equal(hist_percentile(h, 50), 0);
	free(h);
}

static void test_result_hist_load_rejects_malformed(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	json_t *op;

	(void)state;
	assert_non_null(h);
	op = json_pack("{s:{s:i, s:[[i, i]]}}", "lat_hist", "sub_bucket_bits", 6, "buckets", 5, 1);
	assert_int_equal(result_hist_load(op, h), DBIO_EFORMAT);
	json_decref(op);
	op = json_pack("{s:{s:i, s:[[i, i]]}}", "lat_hist", "sub_bucket_bits", 7, "buckets", HIST_NBUCKETS,
		       1);
	assert_int_equal(result_hist_load(op, h), DBIO_EFORMAT);
	json_decref(op);
	op = json_pack("{s:{s:i, s:[[i, i]]}}", "lat_hist", "sub_bucket_bits", 7, "buckets", -1, 1);
	assert_int_equal(result_hist_load(op, h), DBIO_EFORMAT);
	json_decref(op);
	op = json_pack("{s:{s:i, s:[[i, i]]}}", "lat_hist", "sub_bucket_bits", 7, "buckets", 5, -3);
	assert_int_equal(result_hist_load(op, h), DBIO_EFORMAT);
	json_decref(op);
	op = json_pack("{s:{s:i}}", "lat_hist", "sub_bucket_bits", 7);
	assert_int_equal(result_hist_load(op, h), DBIO_EFORMAT);
	json_decref(op);
	op = json_object();
	assert_int_equal(result_hist_load(op, h), DBIO_EFORMAT);
	json_decref(op);
	free(h);
}

/* One rule for every reader: an integer schema_version from 1 to
 * RESULT_SCHEMA_VERSION, tool.name "dbio" and a jobs array; each refusal
 * names the file and what is wrong. */
static void test_result_check(void **state)
{
	static const struct {
		const char *json, *msg;
	} bad[] = {
		{ "[1]", "r.json: not a dbio result: no schema_version" },
		{ "{\"tool\": {\"name\": \"dbio\"}, \"jobs\": []}",
		  "r.json: not a dbio result: no schema_version" },
		{ "{\"schema_version\": 1, \"jobs\": []}", "r.json: not a dbio result: no tool.name" },
		{ "{\"schema_version\": 1, \"tool\": {\"name\": \"fio\"}, \"jobs\": []}",
		  "r.json: not a dbio result: tool.name is 'fio', not 'dbio'" },
		{ "{\"schema_version\": 0, \"tool\": {\"name\": \"dbio\"}, \"jobs\": []}",
		  "r.json: not a dbio result: schema_version is not a whole number >= 1" },
		{ "{\"schema_version\": -1, \"tool\": {\"name\": \"dbio\"}, \"jobs\": []}",
		  "r.json: not a dbio result: schema_version is not a whole number >= 1" },
		{ "{\"schema_version\": 1.0, \"tool\": {\"name\": \"dbio\"}, \"jobs\": []}",
		  "r.json: not a dbio result: schema_version is not a whole number >= 1" },
		{ "{\"schema_version\": 2, \"tool\": {\"name\": \"dbio\"}, \"jobs\": []}",
		  "r.json: schema_version 2 is newer than this dbio's (1): read it with a newer dbio" },
		{ "{\"schema_version\": 1, \"tool\": {\"name\": \"dbio\"}, \"jobs\": {}}",
		  "r.json: not a dbio result: no jobs array" },
	};
	json_t *r =
		json_loads("{\"schema_version\": 1, \"tool\": {\"name\": \"dbio\"}, \"jobs\": []}", 0, NULL);
	struct dbio_err err = { 0 };

	assert_int_equal(result_check(r, "r.json", &err), 0);
	json_decref(r);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = (struct dbio_err){ 0 };
		r = json_loads(bad[i].json, 0, NULL);
		assert_non_null(r);
		assert_int_equal(result_check(r, "r.json", &err), DBIO_EINPUT);
		assert_string_equal(err.msg, bad[i].msg);
		json_decref(r);
	}
}

/* result_load reads, parses and checks: a missing file, text that is not
 * JSON (with its line), a repeated key and a file that is not a result are
 * each refused with the path in the message. */
static void test_result_load_refuses(void **state)
{
	struct fixture *f = *state;
	struct dbio_err err = { 0 };
	char path[128];
	json_t *r = (json_t *)1;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/missing.json", f->dir);
	assert_int_equal(result_load(path, &r, &err), DBIO_EINPUT);
	assert_null(r);
	assert_non_null(strstr(err.msg, "missing.json: cannot read: No such file or directory"));
	snprintf(path, sizeof(path), "%s/r.json", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("{\"schema_version\": 1,\n \"schema_version\": 1}\n", fp);
	fclose(fp);
	err = (struct dbio_err){ 0 };
	assert_int_equal(result_load(path, &r, &err), DBIO_EINPUT);
	assert_non_null(strstr(err.msg, "r.json: not JSON: duplicate object key near"));
	assert_non_null(strstr(err.msg, "(line 2)"));
	err = (struct dbio_err){ 0 };
	assert_int_equal(result_write(f->result, path, &err), 0);
	assert_int_equal(result_load(path, &r, &err), 0);
	assert_true(json_is_array(json_object_get(r, "jobs")));
	json_decref(r);
	json_object_set_new(f->result, "schema_version", json_integer(0));
	assert_int_equal(result_write(f->result, path, &err), 0);
	assert_int_equal(result_load(path, &r, &err), DBIO_EINPUT);
	assert_null(r);
	assert_non_null(
		strstr(err.msg, "r.json: not a dbio result: schema_version is not a whole number >= 1"));
	unlink(path);
}

/* What a run, the summary of repeats and the top level hold in memory is
 * what the file gives back, number for number: a view of the tree at the
 * end of a run shows what `dbio report` of its file shows. */
static void test_result_settled_tree_is_the_files(void **state)
{
	struct fixture *f = *state;
	json_t *real = json_real(148378.25000004), *back;
	json_error_t jerr;
	char *text;

	result_settle(real);
	assert_true(json_real_value(real) == 148378.25);
	json_real_set(real, 1.0 / 3);
	result_settle(real);
	assert_true(json_real_value(real) == 0.3333333333);
	json_decref(real);

	/* 4096 reads in 3 s and in 7 s: rates with no end of digits. */
	f->stats.elapsed_ns = 3000000000;
	assert_int_equal(result_add_run(f->result, 0, &f->job, &f->stats), 0);
	f->stats.elapsed_ns = 7000000000;
	assert_int_equal(result_add_run(f->result, 0, &f->job, &f->stats), 0);
	metric_summarize(f->result, 0);
	json_object_set_new(f->result, "ratio", json_real(2.0 / 3));
	result_finish(f->result, false, NULL);
	text = result_dump(f->result);
	assert_non_null(text);
	back = json_loads(text, 0, &jerr);
	free(text);
	assert_non_null(back);
	assert_true(json_equal(back, f->result));
	json_decref(back);
}

/* result_dumps: DEL and C1 escaped as jansson escapes C0, other UTF-8
 * kept, the text parsing back to the same string. */
static void test_result_dumps_escapes_controls(void **state)
{
	json_t *v = json_pack("{s:s}", "n", "a\x1b[31m\xc2\x9b\x7f\xc2\xa0\xc3\xa9z"), *back;
	char *text = result_dumps(v, JSON_COMPACT);

	(void)state;
	assert_non_null(text);
	assert_string_equal(text, "{\"n\":\"a\\u001B[31m\\u009B\\u007F\xc2\xa0\xc3\xa9z\"}");
	back = json_loads(text, 0, NULL);
	assert_non_null(back);
	assert_true(json_equal(v, back));
	json_decref(back);
	free(text);
	json_decref(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_result_top_level, setup, teardown),
		cmocka_unit_test_setup_teardown(test_result_run_read_figures, setup, teardown),
		cmocka_unit_test_setup_teardown(test_result_run_other_ops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_result_rusage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_result_options_every_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_result_options_large_randseed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_result_runs_append_by_index, setup, teardown),
		cmocka_unit_test_setup_teardown(test_result_write_atomic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_result_write_fails_cleanly, setup, teardown),
		cmocka_unit_test_setup_teardown(test_result_hist_load_round_trip, setup, teardown),
		cmocka_unit_test(test_result_hist_load_rejects_malformed),
		cmocka_unit_test(test_result_check),
		cmocka_unit_test(test_result_dumps_escapes_controls),
		cmocka_unit_test_setup_teardown(test_result_settled_tree_is_the_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_result_load_refuses, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
