/* The text report; see text.h. Every figure carries its unit. */
#include "views/text.h"

#include <stdbool.h>
#include <string.h>

#include "analysis/metric.h"
#include "analysis/tree.h"
#include "stats/opstats.h"
#include "util/termesc.h"
#include "util/units.h"
#include "views/steady.h"
#include "views/views_int.h"

/* The job's one-line summary (jobs[].brief, made from the option tables
 * when the result was written). */
static void brief_line(FILE *fp, const json_t *job)
{
	const char *brief = tree_str(job, "brief");

	fputs(brief[0] ? brief : "(no summary: a result of an older dbio; its options are in the JSON)", fp);
}

/* A count read from a result: a negative or non-number (a file made or
 * edited elsewhere) is 0, not undefined behaviour (fuzz_result found it). */
static uint64_t tree_count(const json_t *o, const char *key)
{
	const double v = tree_num(o, key);

	return v > 0 && v < 1.8e19 ? (uint64_t)v : 0;
}

/* A job over several directories: each one's reads and writes over the
 * run (they add up to the job's), and its device's busy time. */
static void target_lines(FILE *fp, const json_t *targets)
{
	size_t i;
	json_t *t;

	if (!json_array_size(targets))
		return;
	fprintf(fp, "    per directory:\n");
	json_array_foreach (targets, i, t) {
		const json_t *rd = json_object_get(t, "read"), *wr = json_object_get(t, "write");
		const json_t *busy = json_object_get(t, "busy_ns");
		char el[32] = "-";

		fprintf(fp,
			"      %-32s busy %8s  read %10.1f ops/s %9.2f MiB/s  write %10.1f ops/s %9.2f MiB/s\n",
			tree_str(t, "directory"),
			json_is_integer(busy) ? units_fmt_ns(el, sizeof(el), tree_num(t, "busy_ns")) : el,
			tree_num(rd, "iops"), tree_num(rd, "bw_bytes") / 1048576.0, tree_num(wr, "iops"),
			tree_num(wr, "bw_bytes") / 1048576.0);
	}
}

static void op_table(FILE *fp, const json_t *ops, const char *unified)
{
	static const char *const cols[] = { "min", "mean", "p50", "p95", "p99", "p99_9", "max" };
	const char *name;
	json_t *op;

	fprintf(fp, "    %-15s %12s %12s %10s %9s %9s %9s %9s %9s %9s %9s\n", "op", "count", "ops/s", "MiB/s",
		"lat min", "mean", "p50", "p95", "p99", "p99.9", "max");
	json_object_foreach ((json_t *)ops, name, op) {
		const json_t *lat = json_object_get(op, "lat_ns");

		if (tree_num(op, "count") == 0 || text_mixed_skips(unified, name))
			continue;
		fprintf(fp, "    %-15s %12.0f %12.1f", name, tree_num(op, "count"), tree_num(op, "iops"));
		/* An op that moves no bytes (fsync, commit): "-", not 0.00 MiB/s. */
		if (tree_num(op, "bytes") > 0)
			fprintf(fp, " %10.2f", tree_num(op, "bw_bytes") / 1048576.0);
		else
			fprintf(fp, " %10s", "-");
		for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
			char buf[32];

			fprintf(fp, " %9s", units_fmt_ns(buf, sizeof(buf), tree_num(lat, cols[i])));
		}
		fputc('\n', fp);
		const json_t *extra = json_object_get(lat, "percentiles");
		const char *pct;
		json_t *v;

		json_object_foreach ((json_t *)extra, pct, v) {
			char buf[32];

			fprintf(fp, "    %-9s p%s = %s\n", "", pct,
				units_fmt_ns(buf, sizeof(buf), json_number_value(v)));
		}
	}
	text_mixed_row(fp, ops, unified);
}

/* continue_on_error: the errors the job went on after, next to the ops
 * they are not counted in. */
static void errors_line(FILE *fp, const json_t *errors)
{
	const char *name;
	json_t *n;

	if (!errors)
		return;
	fprintf(fp, "    I/O errors gone on after (continue_on_error, not counted above): %.0f",
		tree_num(errors, "total"));
	json_object_foreach ((json_t *)json_object_get(errors, "by_errno"), name, n)
		fprintf(fp, ", %s %lld", name, (long long)json_integer_value(n));
	if (json_object_get(errors, "first"))
		fprintf(fp, "; the first: %s", tree_str(errors, "first"));
	fputc('\n', fp);
}

/* stonewall_s: the work done by the stonewall and IOR's stonewall rate
 * (under MPI, of all ranks; views/ranks.c adds each rank's). */
static void stonewall_line(FILE *fp, const json_t *wall)
{
	if (!wall)
		return;
	fprintf(fp,
		"    stonewall at %.2f s (passed at %.3f s): %.0f reads and writes done, stonewall rate %.1f ops/s, %.2f MiB/s",
		tree_num(wall, "at_ns") / 1e9, tree_num(wall, "passed_ns") / 1e9, tree_num(wall, "ops"),
		tree_num(wall, "iops"), tree_num(wall, "bw_bytes") / 1048576.0);
	if (json_is_true(json_object_get(wall, "wearout")))
		fprintf(fp, "; wear-out to %.0f per process", tree_num(wall, "target_ops"));
	fputc('\n', fp);
}

static void usage_lines(FILE *fp, const json_t *ru)
{
	fprintf(fp, "    cpu: user %.2f s, sys %.2f s, %.1f %% of one core\n", tree_num(ru, "user_s"),
		tree_num(ru, "sys_s"), tree_num(ru, "cpu_pct"));
	fprintf(fp,
		"    faults: %.0f major, %.0f minor; context switches: %.0f voluntary, %.0f involuntary\n",
		tree_num(ru, "majflt"), tree_num(ru, "minflt"), tree_num(ru, "nvcsw"),
		tree_num(ru, "nivcsw"));
	fprintf(fp, "    block I/O: %.0f in, %.0f out (512-byte blocks)\n", tree_num(ru, "inblock"),
		tree_num(ru, "oublock"));
}

/* Where the threads' time went (issue 30: "I/O wait" computed, not
 * guessed): user and system CPU, blocked, waiting for a CPU, of their
 * wall-clock time. */
static void time_line(FILE *fp, const json_t *run)
{
	const json_t *sched = json_object_get(run, "sched"), *ru = json_object_get(run, "rusage");
	const double wall = tree_num(sched, "wall_ns");

	if (wall <= 0)
		return;
	fprintf(fp,
		"    threads' time: %.1f %% in dbio (user), %.1f %% in the kernel, %.1f %% blocked (I/O wait), "
		"%.1f %% waiting for a CPU\n",
		tree_num(ru, "user_s") * 1e9 / wall * 100, tree_num(ru, "sys_s") * 1e9 / wall * 100,
		tree_num(sched, "blocked_ns") / wall * 100, tree_num(sched, "wait_ns") / wall * 100);
}

static void where_line(FILE *fp, const json_t *target)
{
	const json_t *bdev = json_object_get(target, "block_device");
	char bsz[32];

	if (!json_object_get(target, "fs_type")) {
		fprintf(fp, "%s", tree_str(target, "directory"));
		return;
	}
	fprintf(fp, "%s: %s on %s (device %s), mounted at %s (%s), block size %s",
		tree_str(target, "directory"), tree_str(target, "fs_type"), tree_str(target, "source"),
		tree_str(target, "device"), tree_str(target, "mount_point"),
		tree_str(target, "mount_options"),
		units_fmt_bytes(bsz, sizeof(bsz), tree_count(target, "fs_block_size_bytes")));
	if (bdev)
		fprintf(fp, "; disk %s, scheduler %s, %s", tree_str(bdev, "name"),
			json_object_get(bdev, "scheduler") ? tree_str(bdev, "scheduler") : "?",
			json_is_true(json_object_get(bdev, "rotational")) ? "rotational" : "non-rotational");
}

/* " 12.3 ± 0.4" of a summary, with the unit of a latency. */
static void mean_ci(FILE *fp, const struct summary *s, bool as_ns)
{
	char m[32], ci[32];

	if (as_ns)
		fprintf(fp, " %10s ± %-9s", units_fmt_ns(m, sizeof(m), s->mean),
			units_fmt_ns(ci, sizeof(ci), s->ci95));
	else
		fprintf(fp, " %10.1f ± %-9.1f", s->mean, s->ci95);
}

/* The repeats of a job: per op type the mean ± CI of the columns' metrics
 * and the CV of its throughput, then elapsed and CPU. */
static void summary_block(FILE *fp, const json_t *job)
{
	const struct metric *cols[4], *iops = metric_find("iops");
	const json_t *sm = json_object_get(job, "summary");
	struct dbio_err err = { 0 };
	int ncols = metric_parse_list("text", "iops,bw,lat_mean,p99", cols, 4, &err);
	struct summary s, el, cpu;
	char a[32], b[32];
	const char *name;
	json_t *op;

	fprintf(fp, "  summary of %.0f complete runs: mean ± 95 %% confidence interval (Student's t)\n",
		tree_num(sm, "runs"));
	fprintf(fp, "    %-9s", "op");
	for (int c = 0; c < ncols; c++)
		fprintf(fp, " %10s %11s", cols[c]->column, "");
	fprintf(fp, " %s\n", "CV of ops/s");
	json_object_foreach (json_object_get(sm, "ops"), name, op) {
		double cv;

		fprintf(fp, "    %-9s", name);
		for (int c = 0; c < ncols; c++) {
			metric_summary(cols[c], job, name, &s);
			mean_ci(fp, &s, metric_in_ns(cols[c]));
		}
		metric_summary(iops, job, name, &s);
		cv = s.cv * 100;
		fprintf(fp, " %6.1f %%%s\n", cv, cv > 10 ? "  HIGH VARIATION (CV > 10 %)" : "");
	}
	metric_summary(metric_find("elapsed"), job, NULL, &el);
	metric_summary(metric_find("cpu"), job, NULL, &cpu);
	fprintf(fp, "    elapsed %s ± %s, cpu %.1f %% ± %.1f\n", units_fmt_ns(a, sizeof(a), el.mean),
		units_fmt_ns(b, sizeof(b), el.ci95), cpu.mean, cpu.ci95);
}

/* latency_target's outcome: the depth the threads found. */
static void lattarget_line(FILE *fp, const json_t *lt)
{
	char a[32], b[32];
	const double lo = tree_num(lt, "depth_min"), hi = tree_num(lt, "depth_max");

	if (!lt)
		return;
	fprintf(fp, "    latency target %s for %g %% of the I/Os, windows of %s: queue depth %.0f",
		units_fmt_ns(a, sizeof(a), tree_num(lt, "target_ns")), tree_num(lt, "percentile"),
		units_fmt_ns(b, sizeof(b), tree_num(lt, "window_ns")), lo);
	if (hi > lo)
		fprintf(fp, " to %.0f (threads differ)", hi);
	fputs(", the last window measured alone\n", fp);
}

/* A phase's figures (the server's view of workload=postgres), as named in
 * the result: the unit is in each name; sizes in bytes also readable. */
static void figure_lines(FILE *fp, const json_t *figures)
{
	const char *name;
	size_t n = 0;
	json_t *v;

	json_object_foreach ((json_t *)figures, name, v) {
		const double x = json_number_value(v);
		const size_t len = strlen(name);
		char sz[40] = "", h[32];

		if (len > 6 && !strcmp(name + len - 6, "_bytes"))
			snprintf(sz, sizeof(sz), " (%s)", units_fmt_bytes(h, sizeof(h), (uint64_t)x));
		fprintf(fp, "%s%s %.*f%s",
			n % 4 ? ", "
			: n   ? "\n            "
			      : "            ",
			name, x == (double)(uint64_t)x ? 0 : 2, x, sz);
		n++;
	}
	if (n)
		fputc('\n', fp);
}

static void phase_lines(FILE *fp, const json_t *run)
{
	const json_t *db = json_object_get(run, "database");
	size_t i;
	json_t *ph;

	/* A phase's span and its CPU, no rate: the op table above has the
	 * ops/s of each op type (over the run); an index build is minutes per
	 * index, not a rate, so a phase shows its time per operation. */
	json_array_foreach (json_object_get(run, "phases"), i, ph) {
		const json_t *ru = json_object_get(ph, "rusage");
		const double ops = tree_num(ph, "ops"), el_ns = tree_num(ph, "elapsed_ns");
		char el[32], each[32];

		fprintf(fp, "    phase %-7s %.0f op%s in %s", tree_str(ph, "name"), ops, ops == 1 ? "" : "s",
			units_fmt_ns(el, sizeof(el), el_ns));
		if (ops > 1)
			fprintf(fp, " (%s of the phase per op)",
				units_fmt_ns(each, sizeof(each), el_ns / ops));
		fprintf(fp,
			", user %.2f s, sys %.2f s, %.1f %% cpu, %.0f major / %.0f minor faults, %.0f voluntary switches\n",
			tree_num(ru, "user_s"), tree_num(ru, "sys_s"), tree_num(ru, "cpu_pct"),
			tree_num(ru, "majflt"), tree_num(ru, "minflt"), tree_num(ru, "nvcsw"));
		figure_lines(fp, json_object_get(ph, "figures"));
	}
	if (db) {
		char sz[32];

		const json_t *version = json_object_get(db, "version"),
			     *asserts = json_object_get(db, "assertions");

		fprintf(fp, "    database: %s%s%s, %s on disk at the end\n", tree_str(db, "engine"),
			version ? " " : "", version ? json_string_value(version) : "",
			units_fmt_bytes(sz, sizeof(sz), (uint64_t)tree_num(db, "disk_bytes")));
		if (json_is_true(asserts))
			fprintf(fp,
				"    database: this %s library was built with assertions on (it calls assert()): slower than a release build, as db_bench warns\n",
				tree_str(db, "engine"));
	}
}

static void probe_lines(FILE *fp, const json_t *probe)
{
	const json_t *lat = json_object_get(probe, "lat_ns");
	const json_t *stalls = json_object_get(probe, "stalls");
	char iv[32], a[32], b[32], c[32], st[32];
	size_t i;
	json_t *s;

	if (!probe)
		return;
	fprintf(fp,
		"    probe: a 4 KiB %s every %s: %.0f probes, p50 %s, p99 %s, max %s; %zu stall%s of %s or more\n",
		!strcmp(tree_str(probe, "kind"), "write") ? "write + fdatasync" : "uncached read",
		units_fmt_ns(iv, sizeof(iv), tree_num(probe, "interval_ns")), tree_num(probe, "count"),
		units_fmt_ns(a, sizeof(a), tree_num(lat, "p50")),
		units_fmt_ns(b, sizeof(b), tree_num(lat, "p99")),
		units_fmt_ns(c, sizeof(c), tree_num(lat, "max")),
		json_array_size(stalls) + (size_t)tree_num(probe, "stalls_dropped"),
		json_array_size(stalls) == 1 ? "" : "s",
		units_fmt_ns(st, sizeof(st), tree_num(probe, "stall_ns")));
	json_array_foreach (stalls, i, s) {
		if (i == 10) {
			fprintf(fp, "      ... %zu more in the result\n", json_array_size(stalls) - 10);
			break;
		}
		fprintf(fp, "      stall at %s into the run: %s\n",
			units_fmt_ns(a, sizeof(a), tree_num(s, "t_ns")),
			units_fmt_ns(b, sizeof(b), tree_num(s, "lat_ns")));
	}
	if (json_object_get(probe, "error"))
		fprintf(fp, "      the probe failed: %s\n", tree_str(probe, "error"));
}

/* The reads and writes (inserts, lookups, updates, trims) of a series point. */
static double point_data_ops(const json_t *point)
{
	const json_t *ops = json_object_get(point, "ops");
	double n = 0;

	for (int t = 0; t < OP_NTYPES; t++)
		if (op_is_data(t))
			n += tree_num(json_object_get(ops, op_type_name(t)), "count");
	return n;
}

void views_series_shape(const json_t *series, struct views_series_shape *sh)
{
	const json_t *points = json_object_get(series, "points");
	bool batches = !strcmp(tree_str(series, "grid"), "batch");
	double per = tree_num(series, "interval_ops");
	size_t i, run = 0;
	json_t *p;

	*sh = (struct views_series_shape){ .points = json_array_size(points), .even = true };
	json_array_foreach (points, i, p) {
		bool ends = i + 1 == sh->points ||
			    tree_num(json_array_get(points, i + 1), "thread") != tree_num(p, "thread");
		double ops;

		run++;
		if (!ends)
			continue;
		ops = batches ? per : point_data_ops(p);
		ops = ops < per ? ops : 0;
		sh->partial += ops > 0;
		sh->even &= !sh->threads || (run == sh->per_thread && ops == sh->last_ops);
		sh->per_thread = run, sh->last_ops = ops, run = 0, sh->threads++;
	}
}

/* The count and batch grids' line: each thread's points are listed in
 * turn, so the count is per thread. */
static void series_per_thread(FILE *fp, const json_t *series, const char *trunc)
{
	bool batches = !strcmp(tree_str(series, "grid"), "batch");
	double per = tree_num(series, "interval_ops");
	struct views_series_shape sh;

	views_series_shape(series, &sh);
	if (batches && sh.even)
		fprintf(fp, "    series: %zu batches per thread%s\n", sh.per_thread, trunc);
	else if (batches)
		fprintf(fp, "    series: %zu batches of %zu threads%s\n", sh.points, sh.threads, trunc);
	else if (sh.even && sh.last_ops > 0)
		fprintf(fp,
			"    series: %zu intervals of %.0f data operations per thread, the last of %.0f%s\n",
			sh.per_thread, per, sh.last_ops, trunc);
	else if (sh.even)
		fprintf(fp, "    series: %zu intervals of %.0f data operations per thread%s\n", sh.per_thread,
			per, trunc);
	else
		fprintf(fp,
			"    series: %zu intervals of %.0f data operations of %zu threads, %zu of them partial%s\n",
			sh.points, per, sh.threads, sh.partial, trunc);
}

static void series_lines(FILE *fp, const json_t *series)
{
	static const char *const rank[] = { "worst", "second-worst" };
	const json_t *worst = json_object_get(series, "worst");
	bool time_grid = !strcmp(tree_str(series, "grid"), "time");
	size_t i;
	json_t *w;

	if (!series)
		return;
	if (time_grid) {
		char iv[32];

		fprintf(fp, "    series: %zu intervals of %s%s\n",
			json_array_size(json_object_get(series, "points")),
			units_fmt_ns(iv, sizeof(iv), tree_num(series, "interval_ns")),
			json_is_true(json_object_get(series, "truncated")) ? " (TRUNCATED: out of memory)"
									   : "");
	} else {
		series_per_thread(fp, series,
				  json_is_true(json_object_get(series, "truncated"))
					  ? " (TRUNCATED: out of memory)"
					  : "");
	}
	json_array_foreach (worst, i, w) {
		char end[32], dur[32];

		units_fmt_ns(end, sizeof(end), tree_num(w, "end_ns"));
		units_fmt_ns(dur, sizeof(dur), tree_num(w, "duration_ns"));
		if (time_grid)
			fprintf(fp,
				"    %s interval: #%.0f, ending %s into the run: %.0f data operations (%.1f ops/s)\n",
				rank[i], tree_num(w, "index") + 1, end, tree_num(w, "count"),
				tree_num(w, "count") / (tree_num(w, "duration_ns") / 1e9));
		else
			fprintf(fp,
				"    %s interval: #%.0f of thread %.0f, ending %s into the run: %.0f data operations took %s\n",
				rank[i], tree_num(w, "index") + 1, tree_num(w, "thread"), end,
				tree_num(w, "count"), dur);
	}
}

/* Print view(result) to fp with control characters escaped: the text
 * goes to a terminal. */
static void escaped(FILE *fp, void (*view)(FILE *, const json_t *), const json_t *result)
{
	FILE *out = termesc_open(fp);

	if (!out)
		return; /* out of memory: nothing rather than raw control characters */
	view(out, result);
	fclose(out);
}

static void report_text(FILE *fp, const json_t *result)
{
	const json_t *jobs = json_object_get(result, "jobs");
	size_t i;
	json_t *job;

	json_array_foreach (jobs, i, job) {
		const json_t *runs = json_object_get(job, "runs");
		size_t r;
		json_t *run;

		fprintf(fp, "job %s: ", tree_str(job, "name"));
		brief_line(fp, job);
		fputc('\n', fp);
		size_t k;
		json_t *warning;

		json_array_foreach (json_object_get(job, "warnings"), k, warning)
			fprintf(fp, "  warning: %s\n", json_string_value(warning));
		if (json_object_get(job, "skipped")) {
			fprintf(fp, "  not run: %s\n\n", tree_str(job, "skipped"));
			continue;
		}
		json_array_foreach (runs, r, run) {
			char el[32];
			double threads = tree_num(run, "threads");

			fprintf(fp, "  run %zu: elapsed %s, %.0f thread%s%s\n", r + 1,
				units_fmt_ns(el, sizeof(el), tree_num(run, "elapsed_ns")), threads,
				threads == 1 ? "" : "s",
				json_is_true(json_object_get(run, "partial")) ? ", PARTIAL (stopped early)"
									      : "");
			op_table(fp, json_object_get(run, "ops"),
				 tree_str(json_object_get(job, "options"), "unified_rw_reporting"));
			errors_line(fp, json_object_get(run, "errors"));
			stonewall_line(fp, json_object_get(run, "stonewall"));
			target_lines(fp, json_object_get(run, "targets"));
			usage_lines(fp, json_object_get(run, "rusage"));
			time_line(fp, run);
			text_trace(fp, run);
			if (json_object_get(run, "memory"))
				fprintf(fp,
					"    memory cgroup: limit %.0f MiB, peak %.1f MiB (page cache included)\n",
					tree_num(json_object_get(run, "memory"), "limit_bytes") / 1048576.0,
					tree_num(json_object_get(run, "memory"), "peak_bytes") / 1048576.0);
			phase_lines(fp, run);
			text_durability(fp, run);
			probe_lines(fp, json_object_get(run, "probe"));
			steady_text_line(fp, run);
			if (json_object_get(run, "submission")) {
				const json_t *sl =
					json_object_get(json_object_get(run, "submission"), "lat_ns");
				char a[32], b[32], c[32];

				fprintf(fp,
					"    submission latency (the io_uring_submit or io_submit call that carried each I/O): %.0f I/Os, mean %s, p99 %s, max %s\n",
					tree_num(json_object_get(run, "submission"), "count"),
					units_fmt_ns(a, sizeof(a), tree_num(sl, "mean")),
					units_fmt_ns(b, sizeof(b), tree_num(sl, "p99")),
					units_fmt_ns(c, sizeof(c), tree_num(sl, "max")));
			}
			lattarget_line(fp, json_object_get(run, "latency_target"));
			series_lines(fp, json_object_get(run, "series"));
		}
		if (json_array_size(runs) > 1 && json_object_get(job, "summary"))
			summary_block(fp, job);
		if (json_object_get(job, "repeat_auto")) /* why repeat=auto stopped */
			fprintf(fp, "  %s\n", tree_str(json_object_get(job, "repeat_auto"), "text"));
		fputc('\n', fp);
	}
}

void text_report(FILE *fp, const json_t *result)
{
	escaped(fp, report_text, result);
}

/* The closing table's columns, from the metric registry: per op type,
 * then cpu of the whole run on a job's first row. */
static const char *const summary_metrics[] = { "iops", "bw", "lat_mean", "p99", "cpu" };
#define SUMMARY_NCOLS (sizeof(summary_metrics) / sizeof(summary_metrics[0]))
/* What fits a mail: the width compare and matrix tables keep to. */
#define SUMMARY_TEXT_COLUMNS 80

/* A figure of the closing table: metric_figure's (the mean over the
 * complete runs when there are repeats, with its 95 % CI at the same
 * precision), with the unit of a latency and of cpu. */
static void summary_cell(const struct metric *m, const json_t *job, const char *op, char *buf, size_t len)
{
	double v, ci;
	char a[32], b[32];
	const int d = m->decimals;

	/* MiB/s of an op that moves no bytes (fsync, commit): "-", not 0.00,
	 * as the sweep's table and the page say it. */
	if (m->scope == METRIC_PER_OP_BYTES && !metric_op_done(job, op, true)) {
		snprintf(buf, len, "-");
		return;
	}
	metric_figure(m, job, op, &v, &ci);
	const bool spread = metric_figure_runs(m, job, op) > 1; /* "± 0" when every run gave the same */

	if (metric_in_ns(m) && spread)
		snprintf(buf, len, "%s ± %s", units_fmt_ns(a, sizeof(a), v), units_fmt_ns(b, sizeof(b), ci));
	else if (metric_in_ns(m))
		units_fmt_ns(buf, len, v);
	else if (spread)
		snprintf(buf, len, "%.*f ± %.*f%s", d, v, d, ci, strcmp(m->unit, "%") ? "" : " %");
	else
		snprintf(buf, len, "%.*f%s", d, v, strcmp(m->unit, "%") ? "" : " %");
}

/* Columns on the screen: UTF-8 continuation bytes take none. */
static int cols_of(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* The closing table's columns [from, to) of the figures (2 ..
 * SUMMARY_NCOLS + 2), the note after them or not; job and op always. */
struct summary_cols {
	size_t from, to;
	bool note;
};

/* One row of the closing table: cells padded to width[] (figures to the
 * right). */
static void summary_row(FILE *fp, char cells[][48], const int *width, const struct summary_cols *sc)
{
	for (size_t k = 0; k < 2; k++)
		fprintf(fp, "%s%s%*s", k ? "  " : "", cells[k],
			width[k] - cols_of(cells[k]) > 0 ? width[k] - cols_of(cells[k]) : 0, "");
	for (size_t k = sc->from; k < sc->to; k++) {
		int pad = width[k] - cols_of(cells[k]);

		fprintf(fp, "  %*s%s", pad > 0 ? pad : 0, "", cells[k]);
	}
	/* the note, left-aligned: no trailing blanks */
	if (sc->note && cells[SUMMARY_NCOLS + 2][0])
		fprintf(fp, "  %s", cells[SUMMARY_NCOLS + 2]);
	fputc('\n', fp);
}

/* The cells of job's row for op (NULL: the header), the job's name and
 * cpu on its first row only; the last cell says what the figures are. */
static void summary_cells(const json_t *job, const char *op, bool first, char cells[][48])
{
	static const char *const head[] = { "job", "op", "ops/s", "MiB/s", "lat mean", "lat p99", "cpu", "" };
	size_t nruns = json_array_size(json_object_get(job, "runs"));

	if (!job) {
		for (size_t k = 0; k < SUMMARY_NCOLS + 3; k++)
			snprintf(cells[k], 48, "%s", head[k]);
		return;
	}
	snprintf(cells[0], 48, "%s", first ? tree_str(job, "name") : "");
	snprintf(cells[1], 48, "%s", op);
	for (size_t c = 0; c < SUMMARY_NCOLS; c++) {
		const struct metric *m = metric_find(summary_metrics[c]);

		cells[2 + c][0] = '\0';
		if (m && (first || metric_per_op(m)))
			summary_cell(m, job, op, cells[2 + c], 48);
	}
	cells[SUMMARY_NCOLS + 2][0] = '\0';
	if (first && nruns > 1)
		snprintf(cells[SUMMARY_NCOLS + 2], 48, "mean of %.0f runs",
			 tree_num(json_object_get(job, "summary"), "runs"));
}

/* Walk the rows of the closing table: measure (fp NULL) or print the
 * columns sc. */
static void summary_rows(FILE *fp, const json_t *jobs, int *width, const struct summary_cols *sc)
{
	char cells[SUMMARY_NCOLS + 3][48];
	size_t i;
	json_t *job;

	summary_cells(NULL, NULL, true, cells);
	for (size_t k = 0; k < SUMMARY_NCOLS + 3; k++)
		if (!fp && cols_of(cells[k]) > width[k])
			width[k] = cols_of(cells[k]);
	if (fp)
		summary_row(fp, cells, width, sc);
	json_array_foreach (jobs, i, job) {
		bool first = true;

		if (fp && json_object_get(job, "skipped"))
			fprintf(fp, "%-*s  not run (skipped)\n", width[0], tree_str(job, "name"));
		for (int t = 0; t < OP_NTYPES; t++) {
			const char *op = op_type_name((enum op_type)t);

			if (!metric_op_done(job, op, false))
				continue;
			summary_cells(job, op, first, cells);
			first = false;
			for (size_t k = 0; !fp && k < SUMMARY_NCOLS + 3; k++)
				if (cols_of(cells[k]) > width[k])
					width[k] = cols_of(cells[k]);
			if (fp)
				summary_row(fp, cells, width, sc);
		}
	}
}

/* The closing table: in one piece when it fits COMPARE_TEXT_COLUMNS or
 * wide, else cut between figures into pieces that do, each led by the job
 * and op columns (a blank line between), the note where it still fits. */
static void summary_tables(FILE *fp, const json_t *jobs, bool wide)
{
	const size_t last = SUMMARY_NCOLS + 2;
	int width[SUMMARY_NCOLS + 3] = { 0 };
	int lead, line;

	summary_rows(NULL, jobs, width, NULL);
	lead = width[0] + 2 + width[1];
	for (size_t from = 2, to; from < last; from = to) {
		line = lead;
		for (to = from;
		     to < last && (wide || to == from || line + 2 + width[to] <= SUMMARY_TEXT_COLUMNS); to++)
			line += 2 + width[to];
		if (from > 2)
			fputc('\n', fp);
		summary_rows(fp, jobs, width,
			     &(struct summary_cols){
				     .from = from,
				     .to = to,
				     .note = to == last &&
					     (wide || line + 2 + width[last] <= SUMMARY_TEXT_COLUMNS) });
	}
}

static void summary_text(FILE *fp, const json_t *result, bool wide)
{
	const json_t *jobs = json_object_get(result, "jobs");
	const json_t *seen_targets[64];
	size_t nseen = 0;
	size_t i;
	json_t *job;

	summary_tables(fp, jobs, wide);
	json_array_foreach (jobs, i, job)
		if (json_array_size(json_object_get(job, "runs")) > 1) {
			fprintf(fp, "(a mean of runs ± the 95 %% confidence interval of that mean)\n");
			break;
		}
	json_array_foreach (jobs, i, job) {
		const json_t *targets = json_object_get(job, "targets");
		size_t t;
		json_t *target;

		json_array_foreach (targets, t, target) {
			bool dup = false;

			for (size_t k = 0; k < nseen; k++)
				dup |= !strcmp(tree_str(seen_targets[k], "directory"),
					       tree_str(target, "directory")) &&
				       !strcmp(tree_str(seen_targets[k], "device"),
					       tree_str(target, "device"));
			if (!dup && nseen < 64)
				seen_targets[nseen++] = target;
		}
	}
	for (size_t k = 0; k < nseen; k++) {
		fprintf(fp, "%s", k ? "         " : "ran in:  ");
		where_line(fp, seen_targets[k]);
		fputc('\n', fp);
	}
}

/* Whether warning w of a job was printed already: the same subject (the
 * text before its first ':', "page cache") of an earlier job entry. */
static bool warned_before(const json_t *jobs, size_t upto, const char *w)
{
	const size_t n = strcspn(w, ":");
	const json_t *job, *v;
	size_t i, k;

	json_array_foreach (jobs, i, job) {
		if (i >= upto)
			break;
		json_array_foreach (json_object_get(job, "warnings"), k, v) {
			const char *o = json_string_value(v);

			if (o && strcspn(o, ":") == n && !strncmp(o, w, n))
				return true;
		}
	}
	return false;
}

static void warnings_text(FILE *fp, const json_t *result)
{
	const json_t *jobs = json_object_get(result, "jobs"), *job, *v;
	size_t i, k;

	json_array_foreach (jobs, i, job)
		json_array_foreach (json_object_get(job, "warnings"), k, v) {
			const char *w = json_string_value(v);

			if (w && !warned_before(jobs, i, w))
				fprintf(fp, "warning: %s\n", w);
		}
}

void text_warnings(FILE *fp, const json_t *result)
{
	escaped(fp, warnings_text, result);
}

void text_summary(FILE *fp, const json_t *result, bool wide)
{
	FILE *out = termesc_open(fp);

	if (!out)
		return; /* out of memory: nothing rather than raw control characters */
	summary_text(out, result, wide);
	fclose(out);
}
