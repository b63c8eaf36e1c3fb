/*
 * Private to src/views/: what the plot files (plot.c: series and latency,
 * plot_sweep.c: sweep curves and comparison bars, gnuplot.c: writing
 * scripts and running gnuplot) and the HTML files (html.c: the page,
 * html_jobs.c: environment and jobs) and text.c share. No other folder
 * includes this.
 */
#ifndef DBIO_VIEWS_VIEWS_INT_H
#define DBIO_VIEWS_VIEWS_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/metric.h"
#include "views/html.h"
#include "views/plot.h"

/* A count or batch grid series (result "series") by thread: each
 * thread's points are listed in turn. */
struct views_series_shape {
	size_t points;	   /* of every thread */
	size_t threads;	   /* with a point */
	size_t per_thread; /* points of the last thread (of each, when even) */
	double last_ops;   /* count grid: reads and writes of the last thread's
			    * partial last interval, 0 when it is whole */
	size_t partial;	   /* threads whose last interval is partial */
	bool even;	   /* every thread has per_thread points and the same last_ops */
};

/* The shape of series (text.c). */
void views_series_shape(const json_t *series, struct views_series_shape *sh);

#define PLOT_MAX_CURVES 24 /* a legend longer than this is not read */

/* A unit of an axis: a figure in the result's unit / div is in name. */
struct plot_unit {
	const char *name;
	double div;
};

/* For latencies around ns: the largest unit that keeps ns at least 1. */
struct plot_unit plot_time_unit(double ns);

/* For sizes around bytes: the largest binary unit that keeps them at least 1. */
struct plot_unit plot_size_unit(double bytes);

/* The plot being written: its data file, its script, and the plot
 * commands of up to two panels, gathered while the data is written. */
struct plot_ctx {
	const char *ops; /* the op types of the per-op plots (comma-separated), NULL: all */
	enum plot_format fmt;
	struct plot_set *set;
	struct dbio_err *err;
	struct plot *p;
	FILE *dat, *gp;
	int blocks; /* data blocks written */
	int color;  /* line type of the next curve, the same in both panels */
	struct plot_panel {
		char *buf;
		size_t len;
		FILE *fp;
		int curves;
	} panel[2];
};

/* Write s as a gnuplot single-quoted string: ' doubled (the only escape
 * there), control characters (C1 included) and bytes that are not UTF-8
 * as '?', so that the SVG gnuplot writes stays well-formed XML and holds
 * no terminal controls. */
void plot_gp_str(FILE *fp, const char *s);

/* name reduced to [A-Za-z0-9._-] (at most 40 of them) for a file name. */
void plot_safe_name(char *buf, size_t len, const char *name);

/* Start a plot of c->set: its data and script in memory, the terminal of
 * width x height and the title. 0 or -errno with detail in c->err; end
 * it with plot_end either way. */
int plot_begin(struct plot_ctx *c, enum plot_kind kind, size_t file, size_t job, const char *stem,
	       const char *title, int width, int height);

/* plot_begin of a plot of input f of nin, 900 x 560: named stem (stem-fN
 * with several inputs) and titled what (after the input's label with
 * several). */
int plot_begin_of_file(struct plot_ctx *c, enum plot_kind kind, const struct plot_input *in, size_t nin,
		       size_t f, const char *stem, const char *what);

/* Close the current data block; returns its index. */
int plot_block_end(struct plot_ctx *c);

/* Start the plot command of a curve in panel i ("plot" or ", "); returns
 * the panel's stream for the rest of it. */
FILE *plot_curve(struct plot_ctx *c, int i);

/* Write panel i's plot command into the script (nothing if it is empty). */
void plot_panel_flush(struct plot_ctx *c, int i);

/* Close the plot's streams; with rc 0 (and no failure closing them) the
 * plot joins the set, else it is freed. Returns rc or the failure. */
int plot_end(struct plot_ctx *c, int rc);

/* The bars of metric m of a matrix result in[f]: one per configuration,
 * named A, B … with the configuration in the legend (plot_sweep.c). */
int plot_matrix(struct plot_ctx *c, const struct plot_input *in, size_t f, const struct metric *m);

/* The elapsed time of each phase per job of input f, when its jobs have
 * phases (plot_phases.c). */
int plot_phases(struct plot_ctx *c, const struct plot_input *in, size_t nin, size_t f);

/* What one operation of op type name is ("I/Os", "records", "commits"),
 * the unit of its rate: ops/s of two op types with different ones are
 * never on one axis. "operations" for a name this dbio does not know. */
const char *plot_op_unit(const char *name);

/* Whether op is one of c->ops (or c->ops is NULL). */
bool plot_op_wanted(const struct plot_ctx *c, const char *op);

/* The sweep curves of the inputs that are sweeps over one key, and the
 * comparison bars of several inputs, of metric m (plot_sweep.c). 0 or
 * -errno with detail in c->err. */
int plot_sweep(struct plot_ctx *c, const struct plot_input *in, size_t nin, const struct metric *m);
int plot_compare(struct plot_ctx *c, const struct plot_input *in, size_t nin, const struct metric *m);

/* ---- HTML (html.c, html_jobs.c) ---- */

/* The metrics of the side-by-side and sweep tables. */
#define HTML_METRICS	 "iops,bw,lat_mean,p99"
#define HTML_MAX_METRICS 8

/* A sweep or matrix of more jobs has the sections of the first
 * HTML_MAX_JOBS (and of those with a series plot): a page of 12,000 job
 * sections is 70 MB that no browser shows well; its table has every job. */
#define HTML_MAX_JOBS 64

/* A latency with its unit, "µs" rather than "us". */
void html_put_ns(FILE *fp, double ns);

/* A size in binary units. */
void html_put_bytes(FILE *fp, double bytes);

/* A header cell (text is markup), left-aligned when left. */
void html_th(FILE *fp, const char *text, bool left);

/* A left-aligned cell of text from a result (escaped). */
void html_td_text(FILE *fp, const char *s);

/* The plots of kind for file and job that were drawn, as figures. */
void html_figure(FILE *fp, const struct html_report *r, enum plot_kind kind, size_t file, size_t job);

/* The environment of a result: the system and every target, once. */
void html_environment(FILE *fp, const json_t *result);

/* Per job of input f: its options, warnings, op tables, repeats and
 * series, with its series plot. */
void html_jobs(FILE *fp, const struct html_report *r, size_t f);

/* ---- configurations, phases and the probe (html_db.c) ---- */

/* The short name of the configuration at index of a matrix result (or of
 * the result at index of several): "A" … "Z", then "AA" … "ZZ". */
void views_config_name(char *buf, size_t len, size_t index);

/* A job entry's matrix configuration (jobs[].config), or NULL. */
const json_t *views_job_config(const json_t *job);

/* match_label of the job, and for a job of a matrix " on A: ext2 -b 1024":
 * how the page's headings and the plots' titles call a job. Returns buf. */
char *views_job_title(const json_t *result, const json_t *job, char *buf, size_t len);

/* metric_figure, but false for a metric of bytes of an op type that
 * moves none (a commit's MiB/s): the page shows "–" there, not 0. */
bool html_figure_of(const struct metric *m, const json_t *job, const char *op, double *v, double *ci);

/* A figure v, and " ± ci" when spread (a figure over repeats, even when
 * ci is 0), in ns with its unit, or with decimals. */
void html_put_value(FILE *fp, double v, double ci, bool spread, bool ns, int decimals);

/* The change cell of v ± ci against v0 ± c0 in metric m's direction:
 * coloured, grey within the noise, empty without a first figure. */
void html_change_cell(FILE *fp, const struct metric *m, bool have0, double v0, double c0, double v,
		      double ci);

/* The start of a side-by-side table: heading (markup), what the colours
 * say, the change against what, and the header cells job, op (its title)
 * and figure; the caller adds a cell per result or configuration. */
void html_side_head(FILE *fp, const char *heading, const char *against, const char *op);

/* The statistics of the value at path (dotted) of phase name in the
 * complete runs of job; false when no run has it. */
bool views_phase_summary(const json_t *job, const char *phase, const char *path, struct summary *s);

/* A matrix result's configurations with their letters (nothing for other
 * results). */
void html_config_legend(FILE *fp, const json_t *result);

/* A matrix result's jobs with a column per configuration (nothing for
 * other results). */
void html_matrix_table(FILE *fp, const json_t *result);

/* A job's phases (runs[].phases), mean ± CI over its runs; nothing when
 * it has none. */
void html_phases(FILE *fp, const json_t *job);

/* The stall probe of each run; nothing when no run had one. */
void html_probe(FILE *fp, const json_t *runs);

/* html_explain.c: under the side-by-side figures of several results, the
 * counters that changed against the first (analysis/explain.h); nothing
 * when none was tested. */
void html_explain(FILE *fp, const struct html_report *r);

/* html_explain.c: the same for the configurations of one matrix result
 * (A, B ... as dbio compare of it names them), or nothing. */
void html_explain_matrix(FILE *fp, const json_t *result);

/* html_explain.c: the counters that move with a sweep's key, or nothing. */
void html_sweep_trends(FILE *fp, const json_t *result);

/* text_mixed.c: unified_rw_reporting (the run's job option, "" when
 * absent). text_mixed_skips: op's row is left out (mixed: read, write,
 * trim); text_mixed_row: the "mixed" row of mixed and both. */
bool text_mixed_skips(const char *unified, const char *op);
void text_mixed_row(FILE *fp, const json_t *ops, const char *unified);

#endif
