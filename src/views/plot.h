/*
 * Plots of result values, drawn by gnuplot: a view of result trees like
 * the text report, never of live state. plot_prepare() turns the results
 * into each plot's data and gnuplot script, in memory (nothing is run);
 * plot_render() runs gnuplot on one (fork and execvp, no shell) and
 * returns the image, in memory too. `dbio plot` writes the three into its
 * --out directory; `dbio report` embeds the SVG in the page.
 *
 * The plots:
 *   PLOT_SERIES   per job (at most PLOT_MAX_SERIES per input, those with
 *                 the longest worst interval): the per-interval series of its runs (log_interval)
 *                 — ops/s per interval on a time grid, the time each N-op
 *                 interval took on a count grid — over max latency per
 *                 interval, with the worst intervals marked;
 *   PLOT_LATENCY  per result: latency against percentile (log axes) per job
 *                 and op type, from lat_hist merged over the runs;
 *   PLOT_SWEEP    once for all results that are sweeps: the metric against
 *                 the varied value (the last --vary), mean with 95 % CI
 *                 error bars, a curve per op type (one, "all", for a
 *                 metric of the whole run) and result;
 *   PLOT_COMPARE  with several results: bars of the metric per job and op
 *                 type, one bar (with its 95 % CI) per result, named A, B …
 *                 with the file in the legend;
 *   PLOT_MATRIX   per matrix result: the same bars, one per configuration
 *                 (A: ext2 -b 1024 …);
 *   PLOT_PHASES   per result whose jobs have phases (database workloads):
 *                 each phase's elapsed time per job, a bar per phase.
 *
 * A metric of operations per second is never drawn for two op types that
 * count different things (records, commits, batches) on one axis: the
 * sweep curves and bars of each are a plot of their own. The per-op plots
 * take only the op types of the ops list given to plot_prepare.
 *
 * The metric is any of the registry's (analysis/metric.h), its figures
 * metric_figure's: the same numbers as the tables.
 */
#ifndef DBIO_VIEWS_PLOT_H
#define DBIO_VIEWS_PLOT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/metric.h"
#include "util/err.h"

enum plot_format { PLOT_SVG, PLOT_PNG };

enum plot_kind { PLOT_SERIES, PLOT_LATENCY, PLOT_SWEEP, PLOT_COMPARE, PLOT_MATRIX, PLOT_PHASES };

struct plot_input {
	const char *label;    /* the result's name in titles and legends: its path */
	const json_t *result; /* owned by the caller */
};

struct plot {
	enum plot_kind kind;
	size_t file;	 /* PLOT_SERIES, PLOT_LATENCY: index of the input */
	size_t job;	 /* PLOT_SERIES: index in the input's jobs[] */
	char stem[128];	 /* stem.dat, stem.gp and stem.svg or .png */
	char image[144]; /* stem.svg or stem.png */
	char title[512]; /* plain text (UTF-8 from the result: escape before markup) */
	char *data;	 /* the data file's text (owned) */
	size_t data_len;
	char *script; /* the gnuplot script (owned): run by hand beside stem.dat, it draws image */
	size_t script_len;
};

/* At most this many series plots per input: those of the jobs whose
 * worst interval is longest (a sweep of 12,000 points would otherwise
 * draw 12,000 plots that nobody reads). */
#define PLOT_MAX_SERIES 32

struct plot_set {
	struct plot *plots;
	size_t count;
	size_t series_jobs;  /* jobs of the inputs that have a series */
	size_t series_drawn; /* of those, how many have a series plot (PLOT_MAX_SERIES per input) */
};

/* Make the data and gnuplot script of every plot the n inputs make; the
 * sweep curves and comparison bars show metric m, of the op types in the
 * comma-separated ops (NULL: every one). Fills set
 * (plot_set_release frees it; empty when the results have nothing to
 * plot). 0 or -errno with detail in err. */
int plot_prepare(const struct plot_input *in, size_t n, const struct metric *m, const char *ops,
		 enum plot_format fmt, struct plot_set *set, struct dbio_err *err);

void plot_set_release(struct plot_set *set);

/* Whether an executable gnuplot is on PATH. */
bool plot_have_gnuplot(void);

/* The message for a missing gnuplot, naming the package to install. */
extern const char plot_no_gnuplot[];

/* Run gnuplot on p's script and data, handed to it as anonymous files
 * (memfd), with standard input from /dev/null; the image it draws into
 * *image (*image_len bytes, NUL-terminated, the caller frees). 0, or
 * -ENOENT when gnuplot is missing, or DBIO_EFORMAT when gnuplot failed,
 * with its last line of errors in err. */
int plot_render(const struct plot *p, char **image, size_t *image_len, struct dbio_err *err);

#endif
