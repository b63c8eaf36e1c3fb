/*
 * Plots of result values with gnuplot; see plot.h. Each plot is a data
 * file of gnuplot "index" blocks (one per curve, separated by two blank
 * lines) and a script that reads it by name. Strings from a result reach
 * gnuplot only as single-quoted strings with no enhanced-text markup, so a
 * job name is printed as it is and cannot change the script.
 */
#include "views/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "job/option.h"
#include "result/result.h"
#include "stats/hist.h"
#include "stats/opstats.h"
#include "util/utf8.h"

#define MAX_CURVES 24 /* a legend longer than this is not read */

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

static const struct plot_metric metrics[] = {
	{ "iops", "throughput", "iops", "iops", "ops/s", 1 },
	{ "bw", "bandwidth", "bw_bytes", "bw_bytes", "MiB/s", 1.0 / 1048576 },
	{ "lat_mean", "mean latency", "lat_ns.mean", "lat_mean_ns", NULL, 1 },
	{ "p50", "p50 latency", "lat_ns.p50", "lat_p50_ns", NULL, 1 },
	{ "p99", "p99 latency", "lat_ns.p99", "lat_p99_ns", NULL, 1 },
	{ "p99_9", "p99.9 latency", "lat_ns.p99_9", "lat_p99_9_ns", NULL, 1 },
	{ "max", "max latency", "lat_ns.max", "lat_max_ns", NULL, 1 },
};

const char plot_metric_names[] = "iops, bw, lat_mean, p50, p99, p99_9, max";

const char plot_no_gnuplot[] = "gnuplot not found: install Debian's gnuplot-nox";

const struct plot_metric *plot_metric_find(const char *name)
{
	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++)
		if (!strcmp(metrics[i].name, name))
			return &metrics[i];
	return NULL;
}

static double num(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : 0.0;
}

static const char *str(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}

static const json_t *path_get(const json_t *v, const char *path)
{
	char key[64];

	while (v && *path) {
		size_t len = strcspn(path, ".");

		snprintf(key, sizeof(key), "%.*s", (int)len, path);
		v = json_object_get(v, key);
		path += len + (path[len] == '.');
	}
	return v;
}

bool plot_figure(const json_t *job, const char *op, const struct plot_metric *m, double *mean, double *ci95)
{
	const json_t *runs = json_object_get(job, "runs");
	const json_t *sum = json_object_get(job, "summary");
	const json_t *run = json_array_get(runs, json_array_size(runs) - 1);
	const json_t *o = json_object_get(json_object_get(run, "ops"), op);

	*mean = *ci95 = 0;
	if (json_array_size(runs) > 1 && num(sum, "runs") > 1) {
		const json_t *s =
			json_object_get(json_object_get(json_object_get(sum, "ops"), op), m->sum_key);

		if (!s)
			return false;
		*mean = num(s, "mean") * m->scale;
		*ci95 = num(s, "ci95") * m->scale;
		return true;
	}
	if (!o || num(o, "count") == 0)
		return false;
	const json_t *v = path_get(o, m->run_path);

	*mean = json_is_number(v) ? json_number_value(v) * m->scale : 0;
	return true;
}

char *plot_job_label(const json_t *result, const json_t *job, char *buf, size_t len)
{
	const json_t *vary = json_object_get(json_object_get(result, "sweep"), "vary");
	const json_t *point = json_object_get(job, "point");
	size_t used, i;
	json_t *v;

	snprintf(buf, len, "%s", str(job, "name"));
	json_array_foreach (vary, i, v) {
		const char *key = str(v, "key");

		used = strlen(buf);
		if (used + 1 < len)
			snprintf(buf + used, len - used, " %s=%s", key, str(point, key));
	}
	return buf;
}

/* A unit for latencies around ns: the largest that keeps ns at least 1. */
struct unit {
	const char *name;
	double div;
};

static struct unit time_unit(double ns)
{
	if (ns >= 1e9)
		return (struct unit){ "s", 1e9 };
	if (ns >= 1e6)
		return (struct unit){ "ms", 1e6 };
	if (ns >= 1e3)
		return (struct unit){ "µs", 1e3 };
	return (struct unit){ "ns", 1 };
}

static struct unit size_unit(double bytes)
{
	static const char *const names[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double div = 1;
	int i = 0;

	while (i < 5 && bytes >= div * 1024) {
		div *= 1024;
		i++;
	}
	return (struct unit){ names[i], div };
}

/* ---- writing gnuplot ---------------------------------------------------- */

/* s as a gnuplot single-quoted string: ' doubled (the only escape there),
 * control characters (C1 included) and bytes that are not UTF-8 as '?', so
 * that the SVG gnuplot writes stays well-formed XML and holds no
 * terminal controls. */
static void gp_str(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);

	fputc('\'', fp);
	while (left) {
		uint32_t cp = 0;
		int n = utf8_decode(p, left, &cp);

		if (n <= 0 || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
			fputc('?', fp);
			p++, left--;
			continue;
		}
		if (*p == '\'')
			fputc('\'', fp);
		fwrite(p, 1, (size_t)n, fp);
		p += n, left -= (size_t)n;
	}
	fputc('\'', fp);
}

/* name reduced to [A-Za-z0-9._-] for a file name. */
static void safe_name(char *buf, size_t len, const char *name)
{
	size_t i = 0;

	for (; *name && i + 1 < len && i < 40; name++)
		buf[i++] = (strchr("._-", *name) || (*name >= 'a' && *name <= 'z') ||
			    (*name >= 'A' && *name <= 'Z') || (*name >= '0' && *name <= '9'))
				   ? *name
				   : '_';
	buf[i] = 0;
}

/* The plot being written: its data file, its script, and the plot
 * commands of up to two panels, gathered while the data is written. */
struct ctx {
	enum plot_format fmt;
	struct plot_set *set;
	struct dbio_err *err;
	struct plot *p;
	FILE *dat, *gp;
	int blocks; /* data blocks written */
	int color;  /* line type of the next curve, the same in both panels */
	struct panel {
		char *buf;
		size_t len;
		FILE *fp;
		int curves;
	} panel[2];
};

static int ctx_fail(struct ctx *c, const char *what, int e)
{
	return dbio_err_set(c->err, -e, "plot %s: cannot make its %s: %s", c->p ? c->p->stem : "?", what,
			    strerror(e));
}

/* Start a plot: its files, the terminal and the title. */
static int plot_begin(struct ctx *c, enum plot_kind kind, size_t file, size_t job, const char *stem,
		      const char *title, int width, int height)
{
	struct plot *grown = realloc(c->set->plots, (c->set->count + 1) * sizeof(*grown));

	if (!grown)
		return dbio_err_set(c->err, -ENOMEM, "plot: out of memory");
	c->set->plots = grown;
	c->p = &grown[c->set->count];
	memset(c->p, 0, sizeof(*c->p));
	c->p->kind = kind;
	c->p->file = file;
	c->p->job = job;
	snprintf(c->p->stem, sizeof(c->p->stem), "%s", stem);
	snprintf(c->p->image, sizeof(c->p->image), "%s.%s", stem, c->fmt == PLOT_PNG ? "png" : "svg");
	snprintf(c->p->title, sizeof(c->p->title), "%s", title);
	c->blocks = 0;
	c->color = 1;
	c->dat = open_memstream(&c->p->data, &c->p->data_len);
	if (!c->dat)
		return ctx_fail(c, "data", errno);
	c->gp = open_memstream(&c->p->script, &c->p->script_len);
	if (!c->gp)
		return ctx_fail(c, "script", errno);
	for (int i = 0; i < 2; i++) {
		c->panel[i].curves = 0;
		c->panel[i].buf = NULL;
		c->panel[i].len = 0;
		c->panel[i].fp = open_memstream(&c->panel[i].buf, &c->panel[i].len);
		if (!c->panel[i].fp)
			return dbio_err_set(c->err, -ENOMEM, "plot: out of memory");
	}
	fprintf(c->gp, "# %s: drawn by `gnuplot %s.gp` in this directory\n", stem, stem);
	if (c->fmt == PLOT_PNG)
		fprintf(c->gp,
			"set terminal pngcairo size %d,%d noenhanced font 'sans,10' background '#ffffff'\n",
			width, height);
	else
		fprintf(c->gp,
			"set terminal svg size %d,%d dynamic noenhanced font 'sans,11' background '#ffffff'\n",
			width, height);
	/* By hand the script draws the image from the data file beside it;
	 * dbio passes out='' (standard output) and its own data (plot_render). */
	fprintf(c->gp,
		"set encoding utf8\nif (!exists(\"out\")) out = '%s'\nif (!exists(\"dat\")) dat = '%s.dat'\n"
		"if (out eq '') { set output } else { set output out }\n",
		c->p->image, stem);
	fprintf(c->gp,
		"set datafile missing '?'\nset grid\nset key below\nset border 3\nset tics nomirror\n");
	fprintf(c->gp, "set title ");
	gp_str(c->gp, title);
	fputc('\n', c->gp);
	return 0;
}

/* Close the current data block; returns its index. */
static int block_end(struct ctx *c)
{
	fputs("\n\n", c->dat);
	return c->blocks++;
}

/* Start the plot command of a curve in panel i: "plot" or ", ". */
static FILE *curve(struct ctx *c, int i)
{
	fputs(c->panel[i].curves++ ? ", \\\n     " : "plot ", c->panel[i].fp);
	return c->panel[i].fp;
}

/* Write panel i's plot command into the script (nothing if it is empty). */
static void panel_flush(struct ctx *c, int i)
{
	fclose(c->panel[i].fp);
	c->panel[i].fp = NULL;
	if (c->panel[i].curves) {
		fwrite(c->panel[i].buf, 1, c->panel[i].len, c->gp);
		fputc('\n', c->gp);
	}
	free(c->panel[i].buf);
	c->panel[i].buf = NULL;
}

/* Close the files; on success the plot joins the set. */
static int plot_end(struct ctx *c, int rc)
{
	for (int i = 0; i < 2; i++) {
		if (c->panel[i].fp)
			fclose(c->panel[i].fp);
		free(c->panel[i].buf);
		c->panel[i].fp = NULL;
		c->panel[i].buf = NULL;
	}
	if (c->dat && (ferror(c->dat) | fclose(c->dat)) && !rc)
		rc = ctx_fail(c, "data", errno ? errno : ENOMEM);
	if (c->gp && (ferror(c->gp) | fclose(c->gp)) && !rc)
		rc = ctx_fail(c, "script", errno ? errno : ENOMEM);
	c->dat = c->gp = NULL;
	if (!rc) {
		c->set->count++;
	} else if (c->p) {
		free(c->p->data);
		free(c->p->script);
	}
	c->p = NULL;
	return rc;
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

			if (num(pt, "duration_ns") > *dur_ns)
				*dur_ns = num(pt, "duration_ns");
			for (size_t k = 0; k < OP_NTYPES; k++)
				if (num(json_object_get(ops, op_name(k)), "lat_max_ns") > *lat_ns)
					*lat_ns = num(json_object_get(ops, op_name(k)), "lat_max_ns");
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

static void worst_block(struct ctx *c, const json_t *series, bool time_grid, const char *label_prefix,
			struct unit du)
{
	static const char *const rank[] = { "worst", "\"2nd worst\"" };
	const json_t *worst = json_object_get(series, "worst");
	size_t i;
	json_t *w;

	if (!json_array_size(worst))
		return;
	json_array_foreach (worst, i, w) {
		double dur = num(w, "duration_ns");

		if (i >= 2)
			break;
		if (time_grid)
			fprintf(c->dat, "%.9g %.9g %s\n", num(w, "end_ns") / 1e9,
				dur > 0 ? num(w, "count") / (dur / 1e9) : 0, rank[i]);
		else
			fprintf(c->dat, "%.9g %.9g %s\n", num(w, "index") + 1, dur / du.div, rank[i]);
	}
	int b = block_end(c);

	fprintf(curve(c, 0), "dat index %d using 1:2 with points pt 6 ps 2 lw 2 lc rgb '#d62728' title ", b);
	gp_str(c->panel[0].fp, label_prefix);
	fprintf(curve(c, 0),
		"dat index %d using 1:2:3 with labels offset 0,1.2 textcolor rgb '#d62728' notitle", b);
}

/* Time grid: ops/s per interval and op type (and of reads and writes
 * together when a run did both, where the worst intervals are marked). */
static void series_time(struct ctx *c, const json_t *runs, struct unit lu)
{
	size_t nruns = json_array_size(runs), r, i;
	json_t *run, *pt;

	json_array_foreach (runs, r, run) {
		const json_t *series = json_object_get(run, "series");
		const json_t *points = json_object_get(series, "points");
		const json_t *ops = json_object_get(run, "ops");
		bool rw_both = num(json_object_get(ops, "read"), "count") > 0 &&
			       num(json_object_get(ops, "write"), "count") > 0;
		char name[64];

		if (!json_array_size(points))
			continue;
		for (size_t k = 0; k < OP_NTYPES; k++) {
			if (num(json_object_get(ops, op_name(k)), "count") == 0)
				continue;
			json_array_foreach (points, i, pt) {
				const json_t *o = json_object_get(json_object_get(pt, "ops"), op_name(k));
				double dur = num(pt, "duration_ns") / 1e9;

				fprintf(c->dat, "%.9g %.9g ", num(pt, "end_ns") / 1e9,
					dur > 0 ? num(o, "count") / dur : 0);
				if (o)
					fprintf(c->dat, "%.9g\n", num(o, "lat_max_ns") / lu.div);
				else
					fputs("?\n", c->dat);
			}
			int b = block_end(c);

			run_name(name, sizeof(name), nruns, r, op_name(k));
			fprintf(curve(c, 0),
				"dat index %d using 1:2 with linespoints lt %d pt 7 ps 0.4 title ", b,
				c->color);
			gp_str(c->panel[0].fp, name);
			fprintf(curve(c, 1),
				"dat index %d using 1:3 with linespoints lt %d pt 7 ps 0.4 title ", b,
				c->color++);
			gp_str(c->panel[1].fp, name);
		}
		if (rw_both) {
			json_array_foreach (points, i, pt) {
				const json_t *o = json_object_get(pt, "ops");
				double dur = num(pt, "duration_ns") / 1e9;
				double n = num(json_object_get(o, "read"), "count") +
					   num(json_object_get(o, "write"), "count");

				fprintf(c->dat, "%.9g %.9g\n", num(pt, "end_ns") / 1e9,
					dur > 0 ? n / dur : 0);
			}
			int b = block_end(c);

			run_name(name, sizeof(name), nruns, r, "reads+writes");
			fprintf(curve(c, 0), "dat index %d using 1:2 with lines lt %d dt 2 title ", b,
				c->color++);
			gp_str(c->panel[0].fp, name);
		}
		run_name(name, sizeof(name), nruns, r, "worst intervals");
		worst_block(c, series, true, name, (struct unit){ "s", 1 });
	}
}

/* Count grid: the time each interval of N operations took, per thread; a
 * batch grid likewise, an interval per database batch. The lower panel is
 * the longest single operation of the interval (not a batch itself). */
static void series_ops(struct ctx *c, const json_t *runs, struct unit du, struct unit lu)
{
	size_t nruns = json_array_size(runs), r, i;
	json_t *run, *pt;

	json_array_foreach (runs, r, run) {
		const json_t *series = json_object_get(run, "series");
		const json_t *points = json_object_get(series, "points");
		size_t n = json_array_size(points);
		char name[64], what[32];

		for (i = 0; i < n;) {
			double thread = num(json_array_get(points, i), "thread");
			size_t idx = 0;

			for (; i < n && num((pt = json_array_get(points, i)), "thread") == thread; i++) {
				const json_t *ops = json_object_get(pt, "ops");
				double lat = -1;

				for (size_t k = 0; k < OP_NTYPES; k++) {
					const json_t *o = json_object_get(ops, op_name(k));

					if (o && !op_composite(op_name(k)) && num(o, "lat_max_ns") > lat)
						lat = num(o, "lat_max_ns");
				}
				fprintf(c->dat, "%zu %.9g ", ++idx, num(pt, "duration_ns") / du.div);
				if (lat >= 0)
					fprintf(c->dat, "%.9g\n", lat / lu.div);
				else
					fputs("?\n", c->dat);
			}
			int b = block_end(c);

			snprintf(what, sizeof(what), "thread %.0f", thread);
			run_name(name, sizeof(name), nruns, r, what);
			fprintf(curve(c, 0),
				"dat index %d using 1:2 with linespoints lt %d pt 7 ps 0.4 title ", b,
				c->color);
			gp_str(c->panel[0].fp, name);
			fprintf(curve(c, 1),
				"dat index %d using 1:3 with linespoints lt %d pt 7 ps 0.4 title ", b,
				c->color++);
			gp_str(c->panel[1].fp, name);
		}
		run_name(name, sizeof(name), nruns, r, "worst intervals");
		worst_block(c, series, false, name, du);
	}
}

static int plot_series(struct ctx *c, const struct plot_input *in, size_t nin, size_t f, size_t j)
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
	time_grid = !strcmp(str(series, "grid"), "time");
	batch_grid = !strcmp(str(series, "grid"), "batch");
	series_max(runs, &lat_max, &dur_max);
	struct unit lu = time_unit(lat_max), du = time_unit(dur_max);

	if (time_grid) {
		struct unit iu = time_unit(num(series, "interval_ns"));

		snprintf(iv, sizeof(iv), "%g %s", num(series, "interval_ns") / iu.div, iu.name);
	} else if (batch_grid) {
		snprintf(iv, sizeof(iv), "batch");
	} else {
		snprintf(iv, sizeof(iv), "%.0f operations", num(series, "interval_ops"));
	}
	plot_job_label(in[f].result, job, label, sizeof(label));
	snprintf(title, sizeof(title), "%s%sjob %s: %s per %s%s", nin > 1 ? in[f].label : "",
		 nin > 1 ? ": " : "", label, time_grid ? "ops/s and max latency" : "time and max latency",
		 batch_grid ? "" : "interval of ", iv);
	safe_name(safe, sizeof(safe), str(job, "name"));
	if (nin > 1)
		snprintf(stem, sizeof(stem), "series-f%zu-j%zu-%s", f + 1, j + 1, safe);
	else
		snprintf(stem, sizeof(stem), "series-j%zu-%s", j + 1, safe);
	rc = plot_begin(c, PLOT_SERIES, f, j, stem, title, 900, 680);
	if (rc)
		return plot_end(c, rc);
	fprintf(c->gp, "set multiplot layout 2,1 title ");
	gp_str(c->gp, title);
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
			num(series, "interval_ops"), du.name);
	}
	panel_flush(c, 0);
	fprintf(c->gp, "unset key\nset logscale y\nset yrange [*:*]\nset ylabel 'max latency %s (%s)'\n",
		batch_grid ? "of one operation in the batch" : "in the interval", lu.name);
	panel_flush(c, 1);
	fprintf(c->gp, "unset multiplot\n");
	return plot_end(c, 0);
}

/* ---- latency distribution ----------------------------------------------- */

/* The histogram of op type op over all runs of job; false when empty. */
static bool job_hist(const json_t *job, const char *op, struct hist *h, struct hist *tmp)
{
	size_t r;
	json_t *run;

	hist_init(h);
	json_array_foreach (json_object_get(job, "runs"), r, run) {
		const json_t *o = json_object_get(json_object_get(run, "ops"), op);

		if (o && num(o, "count") > 0 && !result_hist_load(o, tmp))
			hist_merge(h, tmp);
	}
	return h->count > 0;
}

/* One curve: latency against 1/(1 - q) for the fraction q of operations
 * at or below it, a step per bucket; the last step is drawn at rank
 * count - 1 so that it stays finite. */
static void latency_curve(FILE *dat, const struct hist *h, struct unit u)
{
	double total = (double)h->count, seen = 0;

	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
		uint64_t mid = lo + (hi - lo) / 2;
		double x0 = total / (total - seen), x1;

		mid = mid < h->min ? h->min : mid > h->max ? h->max : mid;
		seen += (double)h->buckets[i];
		x1 = seen >= total ? total : total / (total - seen);
		fprintf(dat, "%.9g %.9g\n%.9g %.9g\n", x0, (double)mid / u.div, x1, (double)mid / u.div);
	}
}

static int plot_latency(struct ctx *c, const struct plot_input *in, size_t nin, size_t f)
{
	const json_t *jobs = json_object_get(in[f].result, "jobs");
	struct hist *h = malloc(2 * sizeof(*h));
	char title[1024], stem[64], label[512], name[600];
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
	struct unit u = time_unit(typical);

	snprintf(title, sizeof(title), "%s%slatency by percentile (each op type, all runs)",
		 nin > 1 ? in[f].label : "", nin > 1 ? ": " : "");
	if (nin > 1)
		snprintf(stem, sizeof(stem), "latency-f%zu", f + 1);
	else
		snprintf(stem, sizeof(stem), "latency");
	rc = plot_begin(c, PLOT_LATENCY, f, 0, stem, title, 900, 560);
	if (rc)
		goto out_end;
	json_array_foreach (jobs, j, job) {
		for (size_t k = 0; k < OP_NTYPES; k++) {
			if (ncurves == MAX_CURVES || !job_hist(job, op_name(k), &h[0], &h[1]))
				continue;
			latency_curve(c->dat, &h[0], u);
			int b = block_end(c);

			plot_job_label(in[f].result, job, label, sizeof(label));
			snprintf(name, sizeof(name), "%s %s", label, op_name(k));
			fprintf(curve(c, 0), "dat index %d using 1:2 with lines lw 1.5 title ", b);
			gp_str(c->panel[0].fp, name);
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
	panel_flush(c, 0);
out_end:
	rc = plot_end(c, rc);
out:
	free(h);
	return rc;
}

/* ---- sweep curves --------------------------------------------------------- */

struct sweep_curve {
	char name[600];
	size_t file;
	size_t npts;
	double x[256], y[256], ci[256];
};

/* The x value of a sweep point: the job's resolved option when the key is
 * numeric, else the position of its text among cats[]. */
static bool sweep_x(const char *key, const json_t *job, char cats[][128], size_t *ncats, double *x)
{
	const struct option_def *def = option_find(key);
	const json_t *opt = json_object_get(json_object_get(job, "options"), key);
	const char *text = str(json_object_get(job, "point"), key);

	if (def && (def->type == OPT_UINT || def->type == OPT_SIZE || def->type == OPT_TIME) &&
	    json_is_number(opt)) {
		*x = json_number_value(opt);
		return true;
	}
	for (size_t i = 0; i < *ncats; i++)
		if (!strcmp(cats[i], text)) {
			*x = (double)i;
			return true;
		}
	if (*ncats == 64)
		return false;
	snprintf(cats[*ncats], 128, "%s", text);
	*x = (double)(*ncats)++;
	return true;
}

static struct sweep_curve *find_curve(struct sweep_curve *cv, size_t *n, const char *name, size_t file)
{
	for (size_t i = 0; i < *n; i++)
		if (cv[i].file == file && !strcmp(cv[i].name, name))
			return &cv[i];
	if (*n == MAX_CURVES)
		return NULL;
	memset(&cv[*n], 0, sizeof(cv[*n]));
	snprintf(cv[*n].name, sizeof(cv[*n].name), "%s", name);
	cv[*n].file = file;
	return &cv[(*n)++];
}

static int plot_sweep(struct ctx *c, const struct plot_input *in, size_t nin, const struct plot_metric *m)
{
	const char *xkey = NULL;
	struct sweep_curve *cv = calloc(MAX_CURVES, sizeof(*cv));
	char(*cats)[128] = calloc(64, 128);
	size_t ncv = 0, ncats = 0, nfiles = 0;
	double ymax = 0, xmin = 0, xmax = 0;
	char title[1024], stem[64];
	int rc = 0;

	if (!cv || !cats) {
		rc = dbio_err_set(c->err, -ENOMEM, "plot: out of memory");
		goto out;
	}
	for (size_t f = 0; f < nin; f++) {
		const json_t *sweep = json_object_get(in[f].result, "sweep");
		const json_t *vary = json_object_get(sweep, "vary");
		size_t nvary = json_array_size(vary), j;
		const char *key = str(json_array_get(vary, nvary - 1), "key");
		bool many_jobs = num(sweep, "jobs_per_point") > 1;
		json_t *job;

		if (!nvary || (xkey && strcmp(key, xkey)))
			continue; /* not a sweep, or over another key */
		xkey = key;
		nfiles++;
		json_array_foreach (json_object_get(in[f].result, "jobs"), j, job) {
			double x;

			if (!sweep_x(xkey, job, cats, &ncats, &x))
				continue;
			for (size_t k = 0; k < OP_NTYPES; k++) {
				char name[600];
				size_t used = 0;
				double y, ci;

				if (!plot_figure(job, op_name(k), m, &y, &ci))
					continue;
				name[0] = 0;
				if (nin > 1)
					used += snprintf(name, sizeof(name), "%s ", in[f].label);
				if (many_jobs && used < sizeof(name))
					used += snprintf(name + used, sizeof(name) - used, "%s ",
							 str(job, "name"));
				for (size_t v = 0; v + 1 < nvary && used < sizeof(name); v++) {
					const char *vk = str(json_array_get(vary, v), "key");

					used += snprintf(name + used, sizeof(name) - used, "%s=%s ", vk,
							 str(json_object_get(job, "point"), vk));
				}
				if (used < sizeof(name))
					snprintf(name + used, sizeof(name) - used, "%s", op_name(k));
				struct sweep_curve *s = find_curve(cv, &ncv, name, f);

				if (!s || s->npts == 256)
					continue;
				s->x[s->npts] = x;
				s->y[s->npts] = y;
				s->ci[s->npts++] = ci;
				ymax = y + ci > ymax ? y + ci : ymax;
				if ((!xmin || x < xmin) && x > 0)
					xmin = x;
				xmax = x > xmax ? x : xmax;
			}
		}
	}
	if (!ncv)
		goto out;
	const struct option_def *def = option_find(xkey);
	bool numeric = !ncats;
	struct unit xu = { "count", 1 }, yu = { m->unit, 1 };

	if (numeric && def && def->type == OPT_SIZE)
		xu = size_unit(xmin);
	else if (numeric && def && def->type == OPT_TIME)
		xu = time_unit(xmin);
	else if (numeric && !strcmp(xkey, "rwmixread"))
		xu = (struct unit){ "% reads", 1 };
	if (!m->unit)
		yu = time_unit(ymax);
	snprintf(title, sizeof(title), "%s (mean, 95 %% CI) by %s%s%s", m->label, xkey,
		 nfiles > 1 ? ", per result" : "", "");
	snprintf(stem, sizeof(stem), "sweep-%s", m->name);
	rc = plot_begin(c, PLOT_SWEEP, 0, 0, stem, title, 900, 560);
	if (rc)
		goto out_end;
	for (size_t i = 0; i < ncv; i++) {
		for (size_t p = 0; p < cv[i].npts; p++)
			fprintf(c->dat, "%.9g %.9g %.9g\n", numeric ? cv[i].x[p] / xu.div : cv[i].x[p],
				cv[i].y[p] / yu.div, cv[i].ci[p] / yu.div);
		int b = block_end(c);

		fprintf(curve(c, 0), "dat index %d using 1:2:3 with yerrorlines pt 7 ps 0.8 lw 1.5 title ",
			b);
		gp_str(c->panel[0].fp, cv[i].name);
	}
	/* Ticks at the values swept. */
	fprintf(c->gp, "set xtics (");
	if (numeric) {
		double done[256];
		size_t ndone = 0;

		for (size_t i = 0; i < ncv; i++)
			for (size_t p = 0; p < cv[i].npts; p++) {
				bool seen = false;

				for (size_t d = 0; d < ndone; d++)
					seen |= done[d] == cv[i].x[p];
				if (seen || ndone == 256)
					continue;
				done[ndone] = cv[i].x[p];
				fprintf(c->gp, "%s'%g' %.9g", ndone++ ? ", " : "", cv[i].x[p] / xu.div,
					cv[i].x[p] / xu.div);
			}
	} else {
		for (size_t i = 0; i < ncats; i++) {
			fputs(i ? ", " : "", c->gp);
			gp_str(c->gp, cats[i]);
			fprintf(c->gp, " %zu", i);
		}
	}
	fprintf(c->gp, ")\n");
	if (numeric && xmin > 0 && xmax / xmin >= 8)
		fprintf(c->gp, "set logscale x 2\nset xrange [%.9g:%.9g]\n", xmin / xu.div / 1.2,
			xmax / xu.div * 1.2);
	else if (numeric)
		fprintf(c->gp, "set offsets graph 0.05, graph 0.05, 0, 0\n");
	else
		fprintf(c->gp, "set xrange [-0.5:%zu.5]\n", ncats - 1);
	fprintf(c->gp, "set xlabel ");
	char xl[256];

	snprintf(xl, sizeof(xl), "%s (%s)", xkey, numeric ? xu.name : "value");
	gp_str(c->gp, xl);
	fprintf(c->gp, "\nset ylabel '%s (%s)'\nset yrange [0:%.9g]\n", m->label, yu.name,
		ymax / yu.div * 1.05);
	panel_flush(c, 0);
out_end:
	rc = plot_end(c, rc);
out:
	free(cv);
	free(cats);
	return rc;
}

/* ---- comparison bars ------------------------------------------------------ */

static int plot_compare(struct ctx *c, const struct plot_input *in, size_t nin, const struct plot_metric *m)
{
	char(*rows)[600] = calloc(MAX_CURVES, 600);
	size_t nrows = 0;
	double ymax = 0;
	char title[256], stem[64];
	int rc = 0;

	if (!rows)
		return dbio_err_set(c->err, -ENOMEM, "plot: out of memory");
	/* The rows: every job and op type of any result, in order of appearance. */
	for (size_t f = 0; f < nin; f++) {
		size_t j;
		json_t *job;

		json_array_foreach (json_object_get(in[f].result, "jobs"), j, job) {
			for (size_t k = 0; k < OP_NTYPES; k++) {
				char label[512], row[600];
				double y, ci;
				bool dup = false;

				if (!plot_figure(job, op_name(k), m, &y, &ci))
					continue;
				plot_job_label(in[f].result, job, label, sizeof(label));
				snprintf(row, sizeof(row), "%s %s", label, op_name(k));
				for (size_t i = 0; i < nrows; i++)
					dup |= !strcmp(rows[i], row);
				if (!dup && nrows < MAX_CURVES)
					memcpy(rows[nrows++], row, sizeof(row));
				ymax = y + ci > ymax ? y + ci : ymax;
			}
		}
	}
	if (!nrows)
		goto out;
	struct unit yu = m->unit ? (struct unit){ m->unit, 1 } : time_unit(ymax);

	snprintf(title, sizeof(title), "%s per job and op type (mean, 95 %% CI), one bar per result",
		 m->label);
	snprintf(stem, sizeof(stem), "compare-%s", m->name);
	rc = plot_begin(c, PLOT_COMPARE, 0, 0, stem, title, 900, 560);
	if (rc)
		goto out_end;
	/* One line per row: the row's number, then value and CI of each result. */
	for (size_t i = 0; i < nrows; i++) {
		fprintf(c->dat, "%zu", i);
		for (size_t f = 0; f < nin; f++) {
			double y = 0, ci = 0;
			bool found = false;
			size_t j;
			json_t *job;

			json_array_foreach (json_object_get(in[f].result, "jobs"), j, job) {
				for (size_t k = 0; k < OP_NTYPES && !found; k++) {
					char label[512], row[600];

					plot_job_label(in[f].result, job, label, sizeof(label));
					snprintf(row, sizeof(row), "%s %s", label, op_name(k));
					if (!strcmp(row, rows[i]))
						found = plot_figure(job, op_name(k), m, &y, &ci);
				}
				if (found)
					break;
			}
			if (found)
				fprintf(c->dat, " %.9g %.9g", y / yu.div, ci / yu.div);
			else
				fprintf(c->dat, " ? ?");
		}
		fputc('\n', c->dat);
	}
	block_end(c);
	for (size_t f = 0; f < nin; f++) {
		fprintf(curve(c, 0), "dat using %zu:%zu title ", 2 + 2 * f, 3 + 2 * f);
		gp_str(c->panel[0].fp, in[f].label);
	}
	fprintf(c->gp, "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
		       "set style fill solid 0.7 border -1\nset boxwidth 0.9\nset grid noxtics\n"
		       "set xtics rotate by -20 left (");
	for (size_t i = 0; i < nrows; i++) {
		fputs(i ? ", " : "", c->gp);
		gp_str(c->gp, rows[i]);
		fprintf(c->gp, " %zu", i);
	}
	fprintf(c->gp,
		")\nset xrange [-0.6:%zu.6]\nset xlabel 'job and op type (name)'\n"
		"set ylabel '%s (%s)'\nset yrange [0:*]\n",
		nrows - 1, m->label, yu.name);
	panel_flush(c, 0);
out_end:
	rc = plot_end(c, rc);
out:
	free(rows);
	return rc;
}

int plot_prepare(const struct plot_input *in, size_t n, const struct plot_metric *m, enum plot_format fmt,
		 struct plot_set *set, struct dbio_err *err)
{
	struct ctx c = { .fmt = fmt, .set = set, .err = err };
	int rc = 0;

	memset(set, 0, sizeof(*set));
	for (size_t f = 0; f < n && !rc; f++) {
		size_t njobs = json_array_size(json_object_get(in[f].result, "jobs"));

		for (size_t j = 0; j < njobs && !rc; j++)
			rc = plot_series(&c, in, n, f, j);
		if (!rc)
			rc = plot_latency(&c, in, n, f);
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

/* ---- running gnuplot ------------------------------------------------------ */

bool plot_have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char dir[4096], file[4096 + 16];

	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");

		snprintf(dir, sizeof(dir), "%.*s", (int)len, len ? path : ".");
		snprintf(file, sizeof(file), "%s/gnuplot", dir);
		if (!access(file, X_OK))
			return true;
		path += len + (path[len] == ':');
	}
	return false;
}

/* An anonymous file (memfd) holding len bytes of data, at offset 0, or -1. */
static int mem_file(const char *name, const char *data, size_t len)
{
	int fd = memfd_create(name, 0);

	if (fd < 0)
		return -1;
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)n;
	}
	if (lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The whole of the anonymous file fd into a new buffer; NULL when out of memory. */
static char *mem_read(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	char *buf;

	*len = 0;
	if (end < 0 || lseek(fd, 0, SEEK_SET) < 0 || !(buf = malloc((size_t)end + 1)))
		return NULL;
	while (*len < (size_t)end) {
		ssize_t n = read(fd, buf + *len, (size_t)end - *len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	buf[*len] = '\0';
	return buf;
}

int plot_render(const struct plot *p, char **image, size_t *image_len, struct dbio_err *err)
{
	/* Everything gnuplot reads and writes is an anonymous file of dbio's:
	 * no name in a directory that someone could swap for a symlink or for
	 * a script of their own while gnuplot runs as root. */
	char *const argv[] = { "gnuplot", "-e", "out=''; dat='/proc/self/fd/3'", "/proc/self/fd/4", NULL };
	int dat = mem_file("dbio-plot.dat", p->data, p->data_len);
	int gp = mem_file("dbio-plot.gp", p->script, p->script_len);
	int out = memfd_create("dbio-plot.out", 0), msgs = memfd_create("dbio-plot.err", 0);
	int status, rc = 0;
	char *msg = NULL;
	size_t msg_len;
	pid_t pid = -1;

	*image = NULL;
	*image_len = 0;
	if (dat < 0 || gp < 0 || out < 0 || msgs < 0) {
		rc = dbio_err_set(err, -errno, "plot: cannot run gnuplot: %s", strerror(errno));
		goto out_close;
	}
	pid = fork();
	if (pid < 0) {
		rc = dbio_err_set(err, -errno, "plot: cannot run gnuplot: %s", strerror(errno));
		goto out_close;
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);

		if (nul < 0 || dup2(nul, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 ||
		    dup2(msgs, STDERR_FILENO) < 0 || dup2(dat, 3) < 0 || dup2(gp, 4) < 0)
			_exit(126);
		execvp("gnuplot", argv);
		_exit(errno == ENOENT ? 127 : 126);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			rc = dbio_err_set(err, -errno, "plot: cannot run gnuplot: %s", strerror(errno));
			goto out_close;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		rc = dbio_err_set(err, -ENOENT, "%s", plot_no_gnuplot);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char *line, *last = NULL, *save = NULL;

		msg = mem_read(msgs, &msg_len);
		for (line = msg ? strtok_r(msg, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save))
			if (strspn(line, " \t^") < strlen(line))
				last = line;
		rc = dbio_err_set(err, DBIO_EFORMAT, "plot %s: gnuplot failed: %s", p->image,
				  last ? last : "no message");
	} else if (!(*image = mem_read(out, image_len))) {
		rc = dbio_err_set(err, -ENOMEM, "plot %s: out of memory", p->image);
	}
out_close:
	free(msg);
	for (int i = 0, fds[] = { dat, gp, out, msgs }; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return rc;
}
