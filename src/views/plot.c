/*
 * Plots of result values with gnuplot; see plot.h. This file makes the
 * per-interval series and latency plots and the set; plot_sweep.c the
 * sweep curves and comparison bars; gnuplot.c writes the scripts and runs
 * gnuplot.
 */
#include "views/plot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/match.h"
#include "analysis/tree.h"
#include "result/result.h"
#include "stats/hist.h"
#include "stats/opstats.h"
#include "views/views_int.h"

/* The k-th op type's name in a result ("read", "insert", ...). */
static const char *op_name(size_t k)
{
	return op_type_name((enum op_type)k);
}

/* An op type timing a whole group of others (a kv batch, an oltp
 * transaction): its latency is the interval itself, not a part of it. */
static bool op_composite(const char *name)
{
	return !strcmp(name, "batch") || !strcmp(name, "transaction");
}

/* ---- per-interval series ------------------------------------------------ */

static const json_t *first_series(const json_t *runs)
{
	size_t r;
	json_t *run;

	json_array_foreach (runs, r, run)
		if (json_object_get(run, "series"))
			return json_object_get(run, "series");
	return NULL;
}

/* The largest lat_max_ns and duration_ns of the series of runs. */
static void series_max(const json_t *runs, double *lat_ns, double *dur_ns)
{
	size_t r, i;
	json_t *run, *pt;

	*lat_ns = *dur_ns = 0;
	json_array_foreach (runs, r, run) {
		json_array_foreach (json_object_get(json_object_get(run, "series"), "points"), i, pt) {
			const json_t *ops = json_object_get(pt, "ops");

			if (tree_num(pt, "duration_ns") > *dur_ns)
				*dur_ns = tree_num(pt, "duration_ns");
			for (size_t k = 0; k < OP_NTYPES; k++)
				if (tree_num(json_object_get(ops, op_name(k)), "lat_max_ns") > *lat_ns)
					*lat_ns = tree_num(json_object_get(ops, op_name(k)), "lat_max_ns");
		}
	}
}

static void run_name(char *buf, size_t len, size_t nruns, size_t r, const char *what)
{
	if (nruns > 1)
		snprintf(buf, len, "run %zu%s%s", r + 1, *what ? " " : "", what);
	else
		snprintf(buf, len, "%s", *what ? what : "all");
}

static void worst_block(struct plot_ctx *c, const json_t *series, bool time_grid, const char *label_prefix,
			struct plot_unit du)
{
	static const char *const rank[] = { "worst", "\"2nd worst\"" };
	const json_t *worst = json_object_get(series, "worst");
	size_t i;
	json_t *w;

	if (!json_array_size(worst))
		return;
	json_array_foreach (worst, i, w) {
		double dur = tree_num(w, "duration_ns");

		if (i >= 2)
			break;
		if (time_grid)
			fprintf(c->dat, "%.9g %.9g %s\n", tree_num(w, "end_ns") / 1e9,
				dur > 0 ? tree_num(w, "count") / (dur / 1e9) : 0, rank[i]);
		else
			fprintf(c->dat, "%.9g %.9g %s\n", tree_num(w, "index") + 1, dur / du.div, rank[i]);
	}
	int b = plot_block_end(c);

	fprintf(plot_curve(c, 0), "dat index %d using 1:2 with points pt 6 ps 2 lw 2 lc rgb '#d62728' title ",
		b);
	plot_gp_str(c->panel[0].fp, label_prefix);
	fprintf(plot_curve(c, 0),
		"dat index %d using 1:2:3 with labels offset 0,1.2 textcolor rgb '#d62728' notitle", b);
}

/* Block b of the data as one curve in each panel: column 2 (throughput)
 * above, column 3 (latency) below, both named name, in the next colour. */
static void two_curves(struct plot_ctx *c, int b, const char *name)
{
	for (int p = 0; p < 2; p++) {
		fprintf(plot_curve(c, p), "dat index %d using 1:%d with linespoints lt %d pt 7 ps 0.4 title ",
			b, p + 2, c->color);
		plot_gp_str(c->panel[p].fp, name);
	}
	c->color++;
}

/* Time grid: ops/s per interval and op type (and of reads and writes
 * together when a run did both, where the worst intervals are marked). */
static void series_time(struct plot_ctx *c, const json_t *runs, struct plot_unit lu)
{
	size_t nruns = json_array_size(runs), r, i;
	json_t *run, *pt;

	json_array_foreach (runs, r, run) {
		const json_t *series = json_object_get(run, "series");
		const json_t *points = json_object_get(series, "points");
		const json_t *ops = json_object_get(run, "ops");
		bool rw_both = tree_num(json_object_get(ops, "read"), "count") > 0 &&
			       tree_num(json_object_get(ops, "write"), "count") > 0;
		char name[64];

		if (!json_array_size(points))
			continue;
		for (size_t k = 0; k < OP_NTYPES; k++) {
			if (tree_num(json_object_get(ops, op_name(k)), "count") == 0)
				continue;
			json_array_foreach (points, i, pt) {
				const json_t *o = json_object_get(json_object_get(pt, "ops"), op_name(k));
				double dur = tree_num(pt, "duration_ns") / 1e9;

				fprintf(c->dat, "%.9g %.9g ", tree_num(pt, "end_ns") / 1e9,
					dur > 0 ? tree_num(o, "count") / dur : 0);
				if (o)
					fprintf(c->dat, "%.9g\n", tree_num(o, "lat_max_ns") / lu.div);
				else
					fputs("?\n", c->dat);
			}
			int b = plot_block_end(c);

			run_name(name, sizeof(name), nruns, r, op_name(k));
			two_curves(c, b, name);
		}
		if (rw_both) {
			json_array_foreach (points, i, pt) {
				const json_t *o = json_object_get(pt, "ops");
				double dur = tree_num(pt, "duration_ns") / 1e9;
				double n = tree_num(json_object_get(o, "read"), "count") +
					   tree_num(json_object_get(o, "write"), "count");

				fprintf(c->dat, "%.9g %.9g\n", tree_num(pt, "end_ns") / 1e9,
					dur > 0 ? n / dur : 0);
			}
			int b = plot_block_end(c);

			run_name(name, sizeof(name), nruns, r, "reads+writes");
			fprintf(plot_curve(c, 0), "dat index %d using 1:2 with lines lt %d dt 2 title ", b,
				c->color++);
			plot_gp_str(c->panel[0].fp, name);
		}
		run_name(name, sizeof(name), nruns, r, "worst intervals");
		worst_block(c, series, true, name, (struct plot_unit){ "s", 1 });
	}
}

/* Count grid: the time each interval of N operations took, per thread; a
 * batch grid likewise, an interval per database batch. The lower panel is
 * the longest single operation of the interval (not a batch itself). */
static void series_ops(struct plot_ctx *c, const json_t *runs, struct plot_unit du, struct plot_unit lu)
{
	size_t nruns = json_array_size(runs), r, i;
	json_t *run, *pt;

	json_array_foreach (runs, r, run) {
		const json_t *series = json_object_get(run, "series");
		const json_t *points = json_object_get(series, "points");
		size_t n = json_array_size(points);
		char name[64], what[32];

		for (i = 0; i < n;) {
			double thread = tree_num(json_array_get(points, i), "thread");
			size_t idx = 0;

			for (; i < n && tree_num((pt = json_array_get(points, i)), "thread") == thread; i++) {
				const json_t *ops = json_object_get(pt, "ops");
				double lat = -1;

				for (size_t k = 0; k < OP_NTYPES; k++) {
					const json_t *o = json_object_get(ops, op_name(k));

					if (o && !op_composite(op_name(k)) && tree_num(o, "lat_max_ns") > lat)
						lat = tree_num(o, "lat_max_ns");
				}
				fprintf(c->dat, "%zu %.9g ", ++idx, tree_num(pt, "duration_ns") / du.div);
				if (lat >= 0)
					fprintf(c->dat, "%.9g\n", lat / lu.div);
				else
					fputs("?\n", c->dat);
			}
			int b = plot_block_end(c);

			snprintf(what, sizeof(what), "thread %.0f", thread);
			run_name(name, sizeof(name), nruns, r, what);
			two_curves(c, b, name);
		}
		run_name(name, sizeof(name), nruns, r, "worst intervals");
		worst_block(c, series, false, name, du);
	}
}

static int plot_series(struct plot_ctx *c, const struct plot_input *in, size_t nin, size_t f, size_t j)
{
	const json_t *job = json_array_get(json_object_get(in[f].result, "jobs"), j);
	const json_t *runs = json_object_get(job, "runs");
	const json_t *series = first_series(runs);
	char label[512], title[1024], stem[128], safe[48], iv[64];
	double lat_max, dur_max;
	bool time_grid, batch_grid;
	int rc;

	if (!series)
		return 0;
	time_grid = !strcmp(tree_str(series, "grid"), "time");
	batch_grid = !strcmp(tree_str(series, "grid"), "batch");
	series_max(runs, &lat_max, &dur_max);
	struct plot_unit lu = plot_time_unit(lat_max), du = plot_time_unit(dur_max);

	if (time_grid) {
		struct plot_unit iu = plot_time_unit(tree_num(series, "interval_ns"));

		snprintf(iv, sizeof(iv), "%g %s", tree_num(series, "interval_ns") / iu.div, iu.name);
	} else if (batch_grid) {
		snprintf(iv, sizeof(iv), "batch");
	} else {
		snprintf(iv, sizeof(iv), "%.0f operations", tree_num(series, "interval_ops"));
	}
	views_job_title(in[f].result, job, label, sizeof(label));
	snprintf(title, sizeof(title), "%s%sjob %s: %s per %s%s", nin > 1 ? in[f].label : "",
		 nin > 1 ? ": " : "", label, time_grid ? "ops/s and max latency" : "time and max latency",
		 batch_grid ? "" : "interval of ", iv);
	plot_safe_name(safe, sizeof(safe), tree_str(job, "name"));
	if (nin > 1)
		snprintf(stem, sizeof(stem), "series-f%zu-j%zu-%s", f + 1, j + 1, safe);
	else
		snprintf(stem, sizeof(stem), "series-j%zu-%s", j + 1, safe);
	rc = plot_begin(c, PLOT_SERIES, f, j, stem, title, 900, 680);
	if (rc)
		return plot_end(c, rc);
	fprintf(c->gp, "set multiplot layout 2,1 title ");
	plot_gp_str(c->gp, title);
	fprintf(c->gp, "\nunset title\nset lmargin 12\nset rmargin 4\n");
	if (time_grid) {
		series_time(c, runs, lu);
		fprintf(c->gp, "set xlabel 'time into the run (s)'\nset ylabel 'ops/s'\nset yrange [0:*]\n");
	} else if (batch_grid) {
		series_ops(c, runs, du, lu);
		fprintf(c->gp,
			"set xlabel 'batch, per thread (number)'\n"
			"set ylabel 'time the batch took (%s)'\nset yrange [0:*]\n",
			du.name);
	} else {
		series_ops(c, runs, du, lu);
		fprintf(c->gp,
			"set xlabel 'interval of %.0f reads and writes, per thread (number)'\n"
			"set ylabel 'time the interval took (%s)'\nset yrange [0:*]\n",
			tree_num(series, "interval_ops"), du.name);
	}
	plot_panel_flush(c, 0);
	fprintf(c->gp, "unset key\nset logscale y\nset yrange [*:*]\nset ylabel 'max latency %s (%s)'\n",
		batch_grid ? "of one operation in the batch" : "in the interval", lu.name);
	plot_panel_flush(c, 1);
	fprintf(c->gp, "unset multiplot\n");
	return plot_end(c, 0);
}

/* ---- latency distribution ----------------------------------------------- */

/* The histogram of op type op over all runs of job; false when empty. */
static bool job_hist(const json_t *job, const char *op, struct hist *h, struct hist *tmp)
{
	hist_init(h);
	return metric_job_hist(job, op, h, tmp);
}

/* One curve: latency against 1/(1 - q) for the fraction q of operations
 * at or below it, a step per bucket; the last step is drawn at rank
 * count - 1 so that it stays finite. */
static void latency_curve(FILE *dat, const struct hist *h, struct plot_unit u)
{
	double total = (double)h->count, seen = 0;

	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		uint64_t mid = hist_bucket_mid(i);
		double x0 = total / (total - seen), x1;

		mid = mid < h->min ? h->min : mid > h->max ? h->max : mid;
		seen += (double)h->buckets[i];
		x1 = seen >= total ? total : total / (total - seen);
		fprintf(dat, "%.9g %.9g\n%.9g %.9g\n", x0, (double)mid / u.div, x1, (double)mid / u.div);
	}
}

static int plot_latency(struct plot_ctx *c, const struct plot_input *in, size_t nin, size_t f)
{
	const json_t *jobs = json_object_get(in[f].result, "jobs");
	struct hist *h = malloc(2 * sizeof(*h));
	char label[512], name[600];
	double total_max = 0, typical = 0;
	int ncurves = 0, rc = 0;
	size_t j;
	json_t *job;

	if (!h)
		return dbio_err_set(c->err, -ENOMEM, "plot: out of memory");
	/* The unit: the one that keeps the smallest median at least 1. */
	json_array_foreach (jobs, j, job)
		for (size_t k = 0; k < OP_NTYPES; k++)
			if (job_hist(job, op_name(k), &h[0], &h[1])) {
				double p50 = (double)hist_percentile(&h[0], 50);

				if (!typical || p50 < typical)
					typical = p50;
				if ((double)h[0].count > total_max)
					total_max = (double)h[0].count;
			}
	if (!total_max)
		goto out;
	struct plot_unit u = plot_time_unit(typical);

	rc = plot_begin_of_file(c, PLOT_LATENCY, in, nin, f, "latency",
				"latency by percentile (each op type, all runs)");
	if (rc)
		goto out_end;
	json_array_foreach (jobs, j, job) {
		for (size_t k = 0; k < OP_NTYPES; k++) {
			if (ncurves == PLOT_MAX_CURVES || !plot_op_wanted(c, op_name(k)) ||
			    !job_hist(job, op_name(k), &h[0], &h[1]))
				continue;
			latency_curve(c->dat, &h[0], u);
			int b = plot_block_end(c);

			views_job_title(in[f].result, job, label, sizeof(label));
			snprintf(name, sizeof(name), "%s %s", label, op_name(k));
			fprintf(plot_curve(c, 0), "dat index %d using 1:2 with lines lw 1.5 title ", b);
			plot_gp_str(c->panel[0].fp, name);
			ncurves++;
		}
	}
	fprintf(c->gp,
		"set logscale xy\nset xrange [1:*]\nset xlabel 'percentile (%%, log scale of 1/(1 - p))'\n"
		"set ylabel 'latency (%s)'\nset xtics (",
		u.name);
	/* Ticks at 0, 50, 90, 99, 99.9 ... up to the count. */
	fprintf(c->gp, "'0' 1, '50' 2");
	for (double x = 10; x <= total_max * 10 && x <= 1e12; x *= 10)
		fprintf(c->gp, ", '%.10g' %.0f", 100 - 100 / x, x);
	fprintf(c->gp, ")\n");
	plot_panel_flush(c, 0);
out_end:
	rc = plot_end(c, rc);
out:
	free(h);
	return rc;
}

/* The longest worst interval of the series of a job's runs; -1 without
 * a series. */
static double job_worst_ns(const json_t *job)
{
	double worst = -1;
	size_t r;
	json_t *run;

	json_array_foreach (json_object_get(job, "runs"), r, run) {
		const json_t *s = json_object_get(run, "series");
		double w = tree_num(json_array_get(json_object_get(s, "worst"), 0), "duration_ns");

		if (s && w > worst)
			worst = w;
		else if (s && worst < 0)
			worst = 0;
	}
	return worst;
}

/* Mark in draw[] (one per job) the jobs of jobs whose series to plot: all
 * that have one, or the PLOT_MAX_SERIES with the longest worst interval
 * (the earlier of two equal ones). Returns how many jobs have a series. */
static size_t series_choice(const json_t *jobs, bool *draw, double *worst)
{
	size_t n = json_array_size(jobs), with = 0, j;
	json_t *job;

	json_array_foreach (jobs, j, job)
		with += (worst[j] = job_worst_ns(job)) >= 0;
	if (with <= PLOT_MAX_SERIES) {
		for (j = 0; j < n; j++)
			draw[j] = worst[j] >= 0;
		return with;
	}
	/* The PLOT_MAX_SERIES-th longest: a partial selection, O(n) per pick. */
	for (size_t k = 0; k < PLOT_MAX_SERIES; k++) {
		size_t best = n;

		for (j = 0; j < n; j++)
			if (worst[j] >= 0 && !draw[j] && (best == n || worst[j] > worst[best]))
				best = j;
		draw[best] = true;
	}
	return with;
}

int plot_prepare(const struct plot_input *in, size_t n, const struct metric *m, const char *ops,
		 enum plot_format fmt, struct plot_set *set, struct dbio_err *err)
{
	struct plot_ctx c = { .ops = ops, .fmt = fmt, .set = set, .err = err };
	int rc = 0;

	memset(set, 0, sizeof(*set));
	for (size_t f = 0; f < n && !rc; f++) {
		const json_t *jobs = json_object_get(in[f].result, "jobs");
		size_t njobs = json_array_size(jobs);
		bool *draw = calloc(njobs + 1, sizeof(*draw));
		double *worst = calloc(njobs + 1, sizeof(*worst));

		if (!draw || !worst) {
			free(draw);
			free(worst);
			return dbio_err_set(err, -ENOMEM, "plot: out of memory");
		}
		set->series_jobs += series_choice(jobs, draw, worst);
		for (size_t j = 0; j < njobs && !rc; j++)
			if (draw[j] && !(rc = plot_series(&c, in, n, f, j)))
				set->series_drawn++;
		free(draw);
		free(worst);
		if (!rc)
			rc = plot_latency(&c, in, n, f);
		if (!rc)
			rc = plot_phases(&c, in, n, f);
		if (!rc)
			rc = plot_matrix(&c, in, f, m);
	}
	if (!rc)
		rc = plot_sweep(&c, in, n, m);
	if (!rc && n > 1)
		rc = plot_compare(&c, in, n, m);
	return rc;
}

void plot_set_release(struct plot_set *set)
{
	for (size_t i = 0; i < set->count; i++) {
		free(set->plots[i].data);
		free(set->plots[i].script);
	}
	free(set->plots);
	set->plots = NULL;
	set->count = 0;
}
