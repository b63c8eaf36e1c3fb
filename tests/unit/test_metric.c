/*
 * Unit tests for the metric registry (src/analysis/metric.h): a walk of
 * every entry (well formed, names unique, each accepted by the one
 * --metric checker and found by name), the checker's refusals with their
 * exact messages, every metric read from a sample run with exact values,
 * the summary across repeats written and read back for every summarised
 * metric, and the rule of metric_figure (repeats, partial runs, op types
 * a job did not do). Every metric is also read from a run that
 * result_add_run wrote, so a run_path cannot drift from the result. A
 * metric added to the registry without a value here fails
 * test_metric_reads_every_metric_of_a_run.
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

#include "analysis/metric.h"
#include "analysis/tree.h"
#include "job/job.h"
#include "job/option.h"
#include "plan/plan.h"
#include "result/result.h"
#include "stats/opstats.h"
#include "stats/series.h"

/* The value each metric has in sample_run(k): the run's field times k,
 * times the metric's scale. */
static const struct {
	const char *name;
	double value;
} expected[] = {
	{ "iops", 500 },
	{ "bw", 1.953125 },
	{ "lat_mean", 1500.5 },
	{ "p50", 1200 },
	{ "p95", 2500 },
	{ "p99", 4000 },
	{ "p99_9", 8000 },
	{ "max", 16000 },
	{ "elapsed", 2e9 },
	{ "user", 0.25 },
	{ "sys", 0.5 },
	{ "cpu", 37.5 },
	{ "majflt", 3 },
	{ "minflt", 250 },
	{ "nvcsw", 40 },
	{ "nivcsw", 7 },
	{ "blocks_in", 16 },
	{ "blocks_out", 96 },
	{ "worst", 30e6 },
	{ "worst2", 20e6 },
	{ "engine_amp", 1.5 },
	{ "fs_amp", 2 },
	{ "device_amp", 3 },
	{ "compaction_s", 0.125 },
	{ "stall_s", 0.0625 },
	/* only phases hold the server's CPU: the sum of with_phases' two */
	{ "pg_user", 0.75 },
	{ "pg_sys", 1.5 },
	/* dbio crash's findings (result.c's durable_json) */
	{ "lost_max", 12 },
	{ "loss_states", 3 },
	{ "lost_total", 30 },
	{ "crash_states", 40 },
};

#define N(a)	  (sizeof(a) / sizeof((a)[0]))
#define COUNT_MAX 32

/* A run as result_add_run writes it, with reads and fsyncs and a series,
 * every figure k times that of k = 1. */
static json_t *sample_run(double k, bool partial)
{
	json_t *run = json_pack(
		"{s:b, s:f, s:{s:{s:I, s:I, s:f, s:f, s:{s:f, s:f, s:f, s:f, s:f, s:f}}, s:{s:I, s:I, "
		"s:f, s:f, s:{s:f}}}, s:{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}, s:{s:[{s:f}, {s:f}]}}",
		"partial", partial, "elapsed_ns", 2e9 * k, "ops", "read", "count", (json_int_t)(1000 * k),
		"bytes", (json_int_t)(4096000 * k), "iops", 500 * k, "bw_bytes", 2048000 * k, "lat_ns",
		"mean", 1500.5 * k, "p50", 1200 * k, "p95", 2500 * k, "p99", 4000 * k, "p99_9", 8000 * k,
		"max", 16000 * k, "fsync", "count", (json_int_t)(10 * k), "bytes", (json_int_t)0, "iops",
		5 * k, "bw_bytes", 0.0, "lat_ns", "p99", 9000 * k, "rusage", "user_s", 0.25 * k, "sys_s",
		0.5 * k, "cpu_pct", 37.5 * k, "majflt", 3 * k, "minflt", 250 * k, "nvcsw", 40 * k, "nivcsw",
		7 * k, "inblock", 16 * k, "oublock", 96 * k, "series", "worst", "duration_ns", 30e6 * k,
		"duration_ns", 20e6 * k);

	/* a kv run's write amplification, over its phases (result.c) */
	json_object_set_new(run, "figures",
			    json_pack("{s:f, s:f, s:f, s:f, s:f}", "engine_write_amp", 1.5 * k,
				      "fs_write_amp", 2 * k, "device_write_amp", 3 * k, "compaction_s",
				      0.125 * k, "stall_s", 0.0625 * k));
	json_object_set_new(run, "durability",
			    json_pack("{s:f, s:f, s:{s:f, s:f}}", "states", 40 * k, "states_with_losses",
				      3 * k, "acknowledged_lost", "max", 12 * k, "total", 30 * k));
	return run;
}

/* run with two phases, "import" and "index", that hold the server's CPU
 * (workload=postgres): user 0.25 and 0.5 s, sys 0.5 and 1 s. */
static json_t *with_phases(json_t *run)
{
	json_object_set_new(run, "phases",
			    json_pack("[{s:s, s:{s:f, s:f}}, {s:s, s:{s:f, s:f}}]", "name", "import",
				      "figures", "server_user_s", 0.25, "server_sys_s", 0.5, "name", "index",
				      "figures", "server_user_s", 0.5, "server_sys_s", 1.0));
	return run;
}

/* A result with one job of the runs sample_run(ks[i]). */
static json_t *sample_result(const double *ks, size_t n)
{
	json_t *r = json_pack("{s:[{s:s, s:[]}]}", "jobs", "name", "job", "runs");
	json_t *runs = json_object_get(json_array_get(json_object_get(r, "jobs"), 0), "runs");

	for (size_t i = 0; i < n; i++)
		json_array_append_new(runs, sample_run(ks[i], false));
	return r;
}

static const json_t *first_job(const json_t *r)
{
	return json_array_get(json_object_get(r, "jobs"), 0);
}

static double expected_of(const struct metric *m)
{
	for (size_t i = 0; i < N(expected); i++)
		if (!strcmp(expected[i].name, m->name))
			return expected[i].value;
	fail_msg("metric '%s' has no expected value in test_metric.c", m->name);
	return 0;
}

static void test_metric_registry_well_formed(void **state)
{
	const char *bad = NULL;

	assert_int_equal(metric_registry_check(&bad), 0);
	assert_null(bad);
	assert_int_equal(metric_count, N(expected));
	for (size_t i = 0; i < metric_count; i++) {
		const struct metric *m = &metric_registry[i];

		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(metric_registry[j].name, m->name);
		assert_true(strlen(m->label) > 0);
		assert_true(strlen(m->column) > 0 &&
			    strlen(m->column) <= 22); /* a table's column is 22 wide */
		assert_true(strlen(m->unit) > 0);
		assert_true(m->scale > 0);
		assert_ptr_equal(metric_find(m->name), m);
		/* A summary key is the summary's, which has no worst intervals. */
		if (m->summary_key)
			assert_null(strstr(m->run_path, "series"));
	}
	assert_null(metric_find("p98"));
	assert_null(metric_find(""));
}

/* Every name alone, and all of them in one list, pass the one checker. */
static void test_metric_checker_accepts_every_name(void **state)
{
	const struct metric *out[64];
	struct dbio_err err = { 0 };
	char all[512];

	for (size_t i = 0; i < metric_count; i++) {
		assert_int_equal(metric_parse_list("t", metric_registry[i].name, out, 1, &err), 1);
		assert_ptr_equal(out[0], &metric_registry[i]);
	}
	metric_names(all, sizeof(all), ",", false);
	assert_int_equal(metric_parse_list("t", all, out, N(out), &err), (int)metric_count);
	for (size_t i = 0; i < metric_count; i++)
		assert_ptr_equal(out[i], &metric_registry[i]);
	assert_int_equal(err.code, 0);
}

static void test_metric_checker_refuses(void **state)
{
	const struct metric *out[4];
	struct dbio_err err = { 0 };
	char names[512];

	assert_int_equal(metric_parse_list("compare", "iops,p98", out, N(out), &err), DBIO_EINPUT);
	assert_string_equal(
		err.msg,
		"compare: --metric iops,p98: 'p98' is not a metric: expected a list of iops, bw, lat_mean, p50, p95, p99, p99_9, max, elapsed, user, sys, pg_user, pg_sys, cpu, majflt, minflt, nvcsw, nivcsw, blocks_in, blocks_out, worst, worst2, engine_amp, fs_amp, device_amp, compaction_s, stall_s, lost_max, loss_states, lost_total, crash_states");
	err = (struct dbio_err){ 0 };
	assert_int_equal(metric_parse_list("command line", "iops,", out, N(out), &err), DBIO_EINPUT);
	assert_non_null(strstr(err.msg, "command line: --metric iops,: '' is not a metric"));
	err = (struct dbio_err){ 0 };
	assert_int_equal(metric_parse_list("t", "iops,bw,p99,max,cpu", out, N(out), &err), DBIO_EINPUT);
	assert_string_equal(err.msg, "t: --metric iops,bw,p99,max,cpu: more than 4 metrics");
	/* No list: the default ones. */
	assert_int_equal(metric_parse_list("t", NULL, out, N(out), &err), 3);
	assert_string_equal(out[0]->name, "iops");
	assert_string_equal(out[1]->name, "bw");
	assert_string_equal(out[2]->name, "p99");
	assert_string_equal(metric_names(names, sizeof(names), ",", true), "iops,bw,p99");
}

static void test_metric_ops(void **state)
{
	const struct metric *iops = metric_find("iops"), *elapsed = metric_find("elapsed");
	size_t k;

	for (k = 0; metric_op(iops, k); k++)
		assert_string_equal(metric_op(iops, k), op_type_name((enum op_type)k));
	assert_int_equal(k, OP_NTYPES);
	assert_string_equal(metric_op(elapsed, 0), "all");
	assert_null(metric_op(elapsed, 1));
	assert_true(metric_per_op(metric_find("bw")));
	assert_false(metric_per_op(metric_find("worst")));
	assert_true(metric_in_ns(metric_find("p99")));
	assert_false(metric_in_ns(metric_find("user")));
}

/* Every metric from one run, exactly: reads for the per-op ones. */
static void test_metric_reads_every_metric_of_a_run(void **state)
{
	json_t *run = with_phases(sample_run(1, false));
	double v;

	for (size_t i = 0; i < metric_count; i++) {
		const struct metric *m = &metric_registry[i];

		assert_true(metric_run_value(m, run, "read", &v));
		if (v != expected_of(m))
			fail_msg("%s: read %.17g, expected %.17g", m->name, v, expected_of(m));
	}
	/* An op type the run did not do has no per-op figure. */
	assert_false(metric_run_value(metric_find("p99"), run, "write", &v));
	assert_true(v == 0);
	/* A phase's server CPU is its own; a run without phases has none. */
	assert_true(metric_run_value(metric_find("pg_sys"), run, "phase index", &v) && v == 1.0);
	json_object_del(run, "phases");
	assert_false(metric_run_value(metric_find("pg_user"), run, "all", &v));
	json_decref(run);
}

/* Every metric is in a run as result_add_run writes it: 6 reads and a
 * count-grid series of intervals of 2 reads that took 10, 30 and 20 ms. */
static void test_metric_reads_every_metric_result_add_run_writes(void **state)
{
	static char *argv[] = { "dbio", "run" };
	const uint64_t ms = 1000000, ends[] = { 5, 10, 25, 40, 50, 60 };
	struct run_stats st;
	struct series s;
	struct job job;
	json_t *r = result_new(2, argv);
	struct dbio_err err = { 0 };
	double v;

	assert_int_equal(plan_job_init(&job, "job"), 0);
	assert_int_equal(job_set(&job, "size", "24k", NULL, &err), 0);
	assert_int_equal(job_set(&job, "directory", "/tmp", NULL, &err), 0);
	assert_int_equal(plan_validate(&job, &err), 0);
	run_stats_init(&st);
	assert_int_equal(series_init(&s, 0, 2, 8), 0);
	series_start(&s, 0);
	for (size_t i = 0; i < 6; i++) {
		op_stats_add(&st.ops[OP_READ], 4096, 1000 * (i + 1));
		series_add(&s, OP_READ, 4096, 1000 * (i + 1), ends[i] * ms);
	}
	series_finish(&s, 60 * ms);
	st.series = &s;
	st.nseries = 1;
	/* two phases of a kv job, the second putting nothing: the run's
	 * write amplification is over the bytes both put */
	st.phases[0] = (struct run_phase){ .name = "insert",
					   .figures = { { "user_bytes", 1000 },
							{ "engine_write_bytes", 1500 },
							{ "fs_write_bytes", 1800 },
							{ "device_write_bytes", 4096 },
							{ "compaction_s", 0.5 },
							{ "stall_s", 0.25 } },
					   .nfigures = 6 };
	st.phases[1] = (struct run_phase){
		.name = "update",
		.figures = { { "user_bytes", 1000 }, { "fs_write_bytes", 2200 }, { "compaction_s", 0.25 } },
		.nfigures = 3
	};
	st.nphases = 2;
	st.elapsed_ns = 2000000000;
	st.threads = 1;
	st.durable =
		(struct durable_tally){ .on = true, .setting = "gdbm no gdbm_sync", .states = 4, .lossy = 1 };
	st.usage = (struct usage){ .user_s = 0.5,
				   .sys_s = 0.25,
				   .majflt = 1,
				   .minflt = 2,
				   .nvcsw = 3,
				   .nivcsw = 4,
				   .inblock = 5,
				   .oublock = 6 };
	assert_non_null(r);
	assert_int_equal(result_add_run(r, 0, &job, &st), 0);
	const json_t *run = tree_get(r, "jobs.0.runs.0");

	for (size_t i = 0; i < metric_count; i++)
		if (!metric_registry[i].sum_phases && /* this run has no phases */
		    !metric_run_value(&metric_registry[i], run, "read", &v))
			fail_msg("%s: not in the run result_add_run wrote (%s)", metric_registry[i].name,
				 metric_registry[i].run_path);
	assert_true(metric_run_value(metric_find("iops"), run, "read", &v) && v == 3);
	assert_true(metric_run_value(metric_find("majflt"), run, "all", &v) && v == 1);
	assert_true(metric_run_value(metric_find("blocks_in"), run, "all", &v) && v == 5);
	assert_true(metric_run_value(metric_find("blocks_out"), run, "all", &v) && v == 6);
	assert_true(metric_run_value(metric_find("worst"), run, "all", &v) && v == 30 * ms);
	assert_true(metric_run_value(metric_find("worst2"), run, "all", &v) && v == 20 * ms);
	assert_true(metric_run_value(metric_find("engine_amp"), run, "all", &v) && v == 0.75);
	assert_true(metric_run_value(metric_find("fs_amp"), run, "all", &v) && v == 2);
	assert_true(metric_run_value(metric_find("device_amp"), run, "all", &v) && v == 2.048);
	assert_true(metric_run_value(metric_find("compaction_s"), run, "all", &v) && v == 0.75);
	assert_true(metric_run_value(metric_find("stall_s"), run, "all", &v) && v == 0.25);
	/* a phase's own, in its row */
	assert_true(metric_run_value(metric_find("engine_amp"), run, METRIC_PHASE_PREFIX "insert", &v) &&
		    v == 1.5);
	assert_true(metric_run_value(metric_find("fs_amp"), run, METRIC_PHASE_PREFIX "update", &v) &&
		    v == 2.2);
	assert_false(metric_run_value(metric_find("engine_amp"), run, METRIC_PHASE_PREFIX "update", &v));
	st.series = NULL;
	st.nseries = 0;
	series_release(&s);
	run_stats_release(&st);
	json_decref(r);
	job_release(&job);
}

/* The summary written from the registry holds, for every summarised
 * metric, the statistics of the runs' values; read back scaled. */
static void test_metric_summary_round_trip(void **state)
{
	const double ks[] = { 1, 2, 3 };
	json_t *r = sample_result(ks, N(ks));
	const json_t *job = first_job(r), *sum;
	struct summary s;
	double mean, ci;

	metric_summarize(r, 0);
	sum = json_object_get(job, "summary");
	assert_int_equal(tree_num(sum, "runs"), 3);
	assert_non_null(tree_get(sum, "ops.read.lat_p99_ns"));
	assert_non_null(tree_get(sum, "ops.fsync.iops"));
	assert_null(tree_get(sum, "ops.write"));
	for (size_t i = 0; i < metric_count; i++) {
		const struct metric *m = &metric_registry[i];

		if (!m->summary_key) {
			assert_false(metric_summary(m, job, "read", &s));
			continue;
		}
		assert_true(metric_summary(m, job, "read", &s));
		assert_int_equal(s.n, 3);
		if (fabs(s.mean - 2 * expected_of(m)) > 1e-9 * expected_of(m))
			fail_msg("%s: summary mean %.17g, expected %.17g", m->name, s.mean,
				 2 * expected_of(m));
		if (fabs(s.stddev - expected_of(m)) > 1e-9 * expected_of(m))
			fail_msg("%s: summary stddev %.17g, expected %.17g", m->name, s.stddev,
				 expected_of(m));
		assert_true(metric_figure(m, job, "read", &mean, &ci));
		assert_true(mean == s.mean && ci == s.ci95);
	}
	/* Not summarised: the same statistics, from the runs. */
	assert_true(metric_figure(metric_find("worst"), job, "read", &mean, &ci));
	assert_true(mean == 60e6);
	assert_true(fabs(ci - 30e6 * 4.302652729749464 / sqrt(3)) < 1);
	json_decref(r);
}

/* One run: its value, no CI; partial runs are left out of the statistics;
 * an op type the job did not do, or a job without runs, has no figure. */
/* A run over two directories: d1 wrote w MiB/s, d2 read 3 MiB/s. */
static json_t *targets_run(double w, bool partial)
{
	return json_pack("{s:b, s:[{s:s, s:{s:i, s:f}, s:{s:i, s:f}}, {s:s, s:{s:i, s:f}, s:{s:i, s:f}}]}",
			 "partial", partial, "targets", "directory", "/d1", "read", "bytes", 0, "bw_bytes",
			 0.0, "write", "bytes", 4096, "bw_bytes", w * 1048576.0, "directory", "/d2", "read",
			 "bytes", 8192, "bw_bytes", 3 * 1048576.0, "write", "bytes", 0, "bw_bytes", 0.0);
}

/* Each directory's MiB/s by metric_figure's rule: mean and CI over the
 * complete runs, "no figure" where it moved no bytes that way, and the
 * directories by index until the last. */
static void test_metric_target_figure(void **state)
{
	json_t *job = json_pack("{s:[o, o, o]}", "runs", targets_run(10, false), targets_run(20, false),
				targets_run(1000, true));
	double mean, ci;

	assert_non_null(job);
	assert_string_equal(metric_target_directory(job, 0), "/d1");
	assert_string_equal(metric_target_directory(job, 1), "/d2");
	assert_null(metric_target_directory(job, 2));
	assert_int_equal(metric_target_figure(job, 0, "write", &mean, &ci), 2);
	assert_true(mean == 15);
	/* Two runs, stddev 7.07 MiB/s: t(0.975, 1) 12.706 * 7.071 / sqrt(2). */
	assert_true(fabs(ci - 12.706204736174707 * sqrt(50) / sqrt(2)) < 1e-6);
	assert_false(metric_target_figure(job, 0, "read", &mean, &ci));
	assert_true(mean == 0 && ci == 0);
	assert_int_equal(metric_target_figure(job, 1, "read", &mean, &ci), 2);
	assert_true(mean == 3 && ci == 0);
	assert_false(metric_target_figure(job, 2, "write", &mean, &ci));
	json_decref(job);
}

static void test_metric_figure_rules(void **state)
{
	const double one[] = { 2 }, none[] = { 0 };
	json_t *r = sample_result(one, 1), *empty = sample_result(none, 0);
	json_t *runs = json_object_get((json_t *)first_job(r), "runs");
	const struct metric *iops = metric_find("iops"), *cpu = metric_find("cpu");
	double mean, ci;

	assert_true(metric_figure(iops, first_job(r), "read", &mean, &ci));
	assert_true(mean == 1000 && ci == 0);
	assert_true(metric_figure(cpu, first_job(r), "all", &mean, &ci));
	assert_true(mean == 75);
	assert_false(metric_figure(iops, first_job(r), "write", &mean, &ci));
	assert_true(mean == 0 && ci == 0);
	assert_true(metric_op_done(first_job(r), "fsync", false));
	assert_false(metric_op_done(first_job(r), "fsync", true));
	assert_false(metric_figure(cpu, first_job(empty), "all", &mean, &ci));

	assert_int_equal(metric_figure_runs(iops, first_job(r), "read"), 1);
	assert_int_equal(metric_figure_runs(cpu, first_job(empty), "all"), 0);

	/* A second run, partial: the statistics are of the complete one. */
	json_array_append_new(runs, sample_run(4, true));
	metric_summarize(r, 0);
	assert_true(metric_figure(iops, first_job(r), "read", &mean, &ci));
	assert_true(mean == 1000 && ci == 0);
	assert_int_equal(metric_figure_runs(iops, first_job(r), "read"), 1);
	/* Then a complete one that gave the same: a figure over 2 runs, CI 0. */
	json_array_append_new(runs, sample_run(2, false));
	metric_summarize(r, 0);
	assert_true(metric_figure(iops, first_job(r), "read", &mean, &ci));
	assert_true(mean == 1000 && ci == 0);
	assert_int_equal(metric_figure_runs(iops, first_job(r), "read"), 2);
	json_array_remove(runs, 2);
	metric_summarize(r, 0);
	assert_true(metric_figure(metric_find("worst"), first_job(r), "all", &mean, &ci));
	assert_true(mean == 60e6 && ci == 0);
	json_decref(r);
	json_decref(empty);
}

/* A per-run metric of op "phase <name>" is that phase's own figure; the
 * figure over repeats comes from the runs (phases are not summarised). */
static void test_metric_phases(void **state)
{
	const double ks[] = { 1, 3 };
	json_t *r = sample_result(ks, 2);
	json_t *runs = json_object_get((json_t *)first_job(r), "runs");
	const struct metric *el = metric_find("elapsed"), *worst = metric_find("worst");
	double mean, ci, v;
	size_t i;
	json_t *run;

	json_array_foreach (runs, i, run)
		json_object_set_new(run, "phases",
				    json_pack("[{s:s, s:f, s:{s:f}}, {s:s, s:f, s:{s:f}}]", "name", "load",
					      "elapsed_ns", 1e9 * (double)(i + 1), "rusage", "majflt", 2.0,
					      "name", "index", "elapsed_ns", 3e9 * (double)(i + 1), "rusage",
					      "majflt", 5.0 * (double)(i + 1)));
	metric_summarize(r, 0);
	assert_string_equal(metric_job_phase(first_job(r), 0), "load");
	assert_string_equal(metric_job_phase(first_job(r), 1), "index");
	assert_null(metric_job_phase(first_job(r), 2));
	assert_true(metric_phase_done(first_job(r), "index"));
	assert_false(metric_phase_done(first_job(r), "schema"));
	assert_true(metric_run_value(el, json_array_get(runs, 0), "phase index", &v) && v == 3e9);
	assert_true(metric_run_value(metric_find("majflt"), json_array_get(runs, 1), "phase index", &v) &&
		    v == 10);
	/* Any other op is the whole run, as before. */
	assert_true(metric_run_value(el, json_array_get(runs, 0), "read", &v) && v == 2e9);
	/* Two runs: the mean of 3 s and 6 s, with the t interval of n = 2
	 * (12.706 * s / sqrt(2), s = 2.1213 s). */
	assert_true(metric_figure(el, first_job(r), "phase index", &mean, &ci));
	assert_true(mean == 4.5e9);
	assert_true(fabs(ci - 12.7062047 * 1.5e9) < 1e3);
	/* The whole run's from the summary: 2 s and 6 s. */
	assert_true(metric_figure(el, first_job(r), "all", &mean, &ci));
	assert_true(mean == 4e9);
	/* No such phase, and no worst interval in a phase: no figure. */
	assert_false(metric_figure(el, first_job(r), "phase schema", &mean, &ci));
	assert_false(metric_figure(worst, first_job(r), "phase index", &mean, &ci));
	json_decref(r);
}

/* --op LIST and the rows: a bare name is the op type's row and the
 * phase's; "phase NAME" the phase's alone; a job's only phase (the whole
 * run again) gets a row only when asked for as labelled. */
static void test_metric_op_rows(void **state)
{
	const double ks[] = { 1 };
	json_t *r = sample_result(ks, 1);
	json_t *run = json_array_get(json_object_get((json_t *)first_job(r), "runs"), 0);

	assert_true(metric_op_listed(NULL, "read"));
	assert_true(metric_op_listed(NULL, "phase index"));
	assert_true(metric_op_listed("index", "index"));
	assert_true(metric_op_listed("index", "phase index"));
	assert_true(metric_op_listed("read,phase index", "phase index"));
	assert_false(metric_op_listed("phase index", "index"));
	assert_false(metric_op_listed("load", "phase index"));
	assert_false(metric_op_listed("phase", "phase index"));

	json_object_set_new(run, "phases", json_pack("[{s:s, s:f}]", "name", "insert", "elapsed_ns", 1e9));
	assert_false(metric_phase_row(first_job(r), NULL, "phase insert"));
	assert_false(metric_phase_row(first_job(r), "insert", "phase insert"));
	assert_true(metric_phase_row(first_job(r), "phase insert", "phase insert"));
	json_array_append_new(json_object_get(run, "phases"),
			      json_pack("{s:s, s:f}", "name", "lookup", "elapsed_ns", 1e9));
	assert_true(metric_phase_row(first_job(r), NULL, "phase insert"));
	assert_true(metric_phase_row(first_job(r), "insert", "phase insert"));
	assert_false(metric_phase_row(first_job(r), "lookup", "phase insert"));
	json_decref(r);
}

/* The default metrics follow the jobs' kind: with phases, what S0 asked
 * (elapsed, user, sys, cpu, faults); without, iops, bw, p99. */
static void test_metric_defaults(void **state)
{
	const double ks[] = { 1 };
	json_t *r = sample_result(ks, 1);
	const struct metric *out[COUNT_MAX];
	const json_t *rs[] = { r };
	char names[256];
	size_t n;

	n = metric_defaults(rs, 1, out, COUNT_MAX);
	/* iops, bw, p99, then what a cut lost (sample_run has durability) */
	assert_int_equal(n, 6);
	assert_string_equal(out[0]->name, "iops");
	assert_string_equal(out[2]->name, "p99");
	assert_string_equal(out[3]->name, "lost_max");
	assert_string_equal(out[4]->name, "loss_states");
	assert_string_equal(out[5]->name, "crash_states");
	json_object_del(json_array_get(json_object_get((json_t *)first_job(r), "runs"), 0), "durability");
	assert_int_equal(metric_defaults(rs, 1, out, COUNT_MAX), 3);
	json_object_set_new(json_array_get(json_object_get((json_t *)first_job(r), "runs"), 0), "phases",
			    json_pack("[{s:s}]", "name", "insert"));
	n = metric_defaults(rs, 1, out, COUNT_MAX);
	assert_int_equal(n, 6);
	assert_string_equal(metric_names_phased(names, sizeof(names), ","),
			    "elapsed,user,sys,cpu,majflt,minflt");
	for (size_t i = 0; i < n; i++)
		assert_false(metric_per_op(out[i]));
	json_decref(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric_registry_well_formed),
		cmocka_unit_test(test_metric_checker_accepts_every_name),
		cmocka_unit_test(test_metric_checker_refuses),
		cmocka_unit_test(test_metric_ops),
		cmocka_unit_test(test_metric_reads_every_metric_of_a_run),
		cmocka_unit_test(test_metric_reads_every_metric_result_add_run_writes),
		cmocka_unit_test(test_metric_summary_round_trip),
		cmocka_unit_test(test_metric_figure_rules),
		cmocka_unit_test(test_metric_target_figure),
		cmocka_unit_test(test_metric_phases),
		cmocka_unit_test(test_metric_op_rows),
		cmocka_unit_test(test_metric_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
