/*
 * The metric registry: every figure of a job that dbio shows by name —
 * the rows of `dbio compare` and of matrix's table, the columns of the
 * point tables (sweep, run --format csv), the sweep curves and comparison
 * bars of `dbio plot` and `dbio report`, the repeats' summaries of the
 * text and HTML reports — declared once, in one table, with how to read
 * it from a result tree. The statistics across repeats that a result
 * holds (jobs[].summary) are written from the same table
 * (metric_summarize), so a metric is read back under the key it was
 * written with. Views look metrics up here or iterate the table; none
 * keeps its own list of names.
 *
 * Adding a metric is one row in metric_registry[] (metric.c); if it has a
 * summary_key, the result schema (docs/result.schema.json) gains that key.
 */
#ifndef DBIO_ANALYSIS_METRIC_H
#define DBIO_ANALYSIS_METRIC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "stats/hist.h"
#include "stats/summary.h"
#include "util/err.h"

/* Which way a change is for the better. */
enum metric_better {
	METRIC_BETTER_NONE,   /* neither (cpu %): a change is never a regression */
	METRIC_BETTER_HIGHER, /* iops, bw */
	METRIC_BETTER_LOWER   /* latencies, times, faults */
};

/* What a metric is a figure of, and so where a run holds it. */
enum metric_scope {
	METRIC_PER_OP,	     /* of each op type: runs[].ops.<op>.<run_path> */
	METRIC_PER_OP_BYTES, /* the same, for op types that move bytes (reads, writes; not fsync) */
	METRIC_PER_RUN	     /* of the whole run, every op type together: runs[].<run_path> */
};

struct metric {
	const char *name;   /* as --metric takes it: "iops", "p99" */
	const char *label;  /* in prose, titles and plot axes, without the unit: "p99 latency" */
	const char *column; /* a text table's column title: "lat p99" */
	const char *unit;   /* of the figure: "ops/s", "MiB/s", "ns", "s", "%", "faults", "switches" */
	enum metric_better better;
	enum metric_scope scope;
	const char *run_path;	 /* dotted path (util: tree_get) in a run, or in its ops.<op> when per op */
	const char *summary_key; /* in jobs[].summary, or its ops.<op> when per op; NULL: not summarised */
	double scale;		 /* result value * scale = figure in unit */
	int decimals;		 /* digits after the point in the comparison's text (ns: units_fmt_ns) */
	bool by_default;	 /* in the default --metric list of compare, matrix and sweep */
	bool by_default_phases;	 /* instead, when every job went through phases (kv, import, meta) */
	/* only phases hold it (runs[].phases[].<run_path>): the whole run's
	 * figure is the sum of its phases' */
	bool sum_phases;
	/* in the default list, after the others, when every job was run on
	 * the power-cut layer (runs[].durability: dbio crash) */
	bool by_default_durable;
};

/* Every metric, in the order lists name them and summaries hold them. */
extern const struct metric metric_registry[];
extern const size_t metric_count;

/* The metric called name, or NULL. */
const struct metric *metric_find(const char *name);

/* Whether m is a figure of each op type (METRIC_PER_OP or _PER_OP_BYTES). */
bool metric_per_op(const struct metric *m);

/* Whether m's unit is ns: views print it with units_fmt_ns's unit (µs,
 * ms, s) or choose a time unit for a plot's axis. */
bool metric_in_ns(const struct metric *m);

/* The op names m has figures for, one per call: for a per-op metric the
 * k-th op type's name ("read", "write", … in stats/opstats.h order), for a
 * per-run metric "all" at k = 0; NULL past the last. */
const char *metric_op(const struct metric *m, size_t k);

/* The names of the metrics, separated by sep ("iops, bw, …"), into buf
 * (truncated to len); only the by_default ones when defaults_only.
 * Returns buf. For usage texts and messages. */
char *metric_names(char *buf, size_t len, const char *sep, bool defaults_only);

/* The default metrics for results[0..n) into out[0..max): the
 * by_default_phases ones (elapsed, user, sys, cpu, faults: what S0 and S1
 * asked of a database) when every job of every result went through phases;
 * elapsed alone (the time a fixed amount of work took: S4's figure) when
 * every job has number_ios and is not time_based; else the by_default ones
 * (iops, bw, p99). Returns how many. */
size_t metric_defaults(const json_t *const *results, size_t n, const struct metric **out, size_t max);

/* The names of the by_default_phases metrics, separated by sep, into buf
 * (truncated to len). Returns buf. For usage texts. */
char *metric_names_phased(char *buf, size_t len, const char *sep);

/* The one checker of --metric lists: parse the comma-separated list (NULL:
 * the by_default metrics) into out[0..max). Returns how many, or
 * DBIO_EINPUT with "<subject>: --metric <list>: '<item>' is not a metric:
 * expected a list of <names>" (an empty item is not a metric either) or
 * "<subject>: --metric <list>: more than <max> metrics" in err. */
int metric_parse_list(const char *subject, const char *list, const struct metric **out, size_t max,
		      struct dbio_err *err);

/* Check every entry of the registry: a name of [a-z0-9_] that is unique,
 * a label, column and unit, a known better and scope, a run_path, a
 * positive scale and 0 to 6 decimals. 0, or -EINVAL with the first bad
 * entry's name in *bad. */
int metric_registry_check(const char **bad);

/* ---- reading a result tree (figure.c) ---- */

/* A per-run metric's op "phase index" is the figure of the run's phase
 * "index" alone (runs[].phases[]); any other op ("all", an op type's name)
 * the whole run's. */
#define METRIC_PHASE_PREFIX "phase "

/* The value of m in one run entry (jobs[].runs[i]) times m->scale into
 * *value: of op type op for a per-op metric; for a per-run metric of the
 * phase op names (METRIC_PHASE_PREFIX), else of the whole run.
 * False, with *value 0, when the run does not hold it as a number. */
bool metric_run_value(const struct metric *m, const json_t *run, const char *op, double *value);

/* Whether some run of a job entry went through the phase named phase
 * (runs[].phases[].name: import's schema, load, index; kv's insert,
 * lookup …). */
bool metric_phase_done(const json_t *job, const char *phase);

/* Whether the row op (an op type's name, or METRIC_PHASE_PREFIX and a
 * phase's) is one that --op list asks for: every row when list is NULL;
 * an op type's row when list names it; a phase's row when list names the
 * phase, bare ("index": the op type's and the phase's rows) or as the row
 * is labelled ("phase index": that row alone). */
bool metric_op_listed(const char *list, const char *op);

/* Whether job gets a row for its phase labelled op (METRIC_PHASE_PREFIX
 * and the phase's name) under --op list (NULL: every row): when list asks
 * for it (metric_op_listed) and the job went through more than one phase,
 * or list names this row as labelled. A job of one phase (kv's inserts
 * alone) would repeat the whole run's figures on it. */
bool metric_phase_row(const json_t *job, const char *list, const char *op);

/* The name of the k-th phase of a job entry (of its first run that has
 * phases), NULL past the last. Borrowed from job. */
const char *metric_job_phase(const json_t *job, size_t k);

/* The values of m for op in the complete (not partial) runs of a job
 * entry, scaled, into x (room for every run of the job); returns how
 * many. */
size_t metric_run_values(const struct metric *m, const json_t *job, const char *op, double *x);

/* Whether some run of a job entry did op: ops.<op>.count above 0 (with
 * need_bytes, ops.<op>.bytes above 0). Partial runs count. */
bool metric_op_done(const json_t *job, const char *op, bool need_bytes);

/* Add the latency histogram (lat_hist) of op type op of every run of a
 * job entry, partial runs too, into h (hist_init it first: the histograms
 * of several op types can be gathered in one); tmp is scratch. A run
 * without op, or whose histogram does not read back, adds nothing.
 * Returns whether h holds a value. */
bool metric_job_hist(const json_t *job, const char *op, struct hist *h, struct hist *tmp);

/* The statistics of m for op over the job entry's complete runs as its
 * summary (jobs[].summary) holds them, scaled (cv as it is); false, with
 * *s zeroed, when m has no summary_key or the summary lacks it. */
bool metric_summary(const struct metric *m, const json_t *job, const char *op, struct summary *s);

/* The figure of m for op of a job entry (a sweep point, a job of a run),
 * the one rule of tables and plots: with more than one run, the mean and
 * 95 % CI half-width over the complete runs (from the job's summary when
 * m is summarised and op is not a phase); with one run, that run's value
 * and 0. For a per-run metric op may name a phase ("phase index"). False,
 * with both 0, when the job has no run, or m is per op and no run of the
 * job did op, or op is a phase no run went through, or no run holds m
 * (the worst interval of a phase, of a run without a series). */
bool metric_figure(const struct metric *m, const json_t *job, const char *op, double *mean, double *ci95);

/* The MiB/s of op ("read" or "write") on the t-th directory of a job
 * entry over several (runs[].targets[t]: S3's disks), by the rule of
 * metric_figure: mean and 95 % CI over the complete runs, or the one
 * run's value and 0. Returns how many runs the figure is over (more than
 * one: print it with its "±"), 0 with both 0 when no complete run has
 * that directory or none moved bytes of op on it. */
size_t metric_target_figure(const json_t *job, size_t t, const char *op, double *mean, double *ci95);

/* The directory of the t-th target of a job entry's first run that has
 * one, NULL past the last. Borrowed from job. */
const char *metric_target_directory(const json_t *job, size_t t);

/* How many runs the figure of metric_figure is over: the complete runs
 * that hold m for op when the job has repeats (a figure over 2 or more is
 * mean ± CI, printed with its "±" even when the CI is 0: every run gave
 * the same), else 1 for the one run, 0 when there is none. */
size_t metric_figure_runs(const struct metric *m, const json_t *job, const char *op);

/* Add (or replace) jobs[index].summary of result: across the job's
 * complete runs, n, mean, stddev, min, max, ci95 and cv of every metric
 * that has a summary_key — the per-run ones at the top, the per-op ones
 * under ops.<op> for every op type some run did — and runs, the number of
 * complete runs. Nothing is added when out of memory. */
void metric_summarize(json_t *result, size_t index);

#endif
