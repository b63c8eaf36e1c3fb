/*
 * The comparison of result files (`dbio compare`): a view computed from
 * result values only, never from live state. Jobs and sweep points are
 * aligned by name and point parameters (and, for a name that appears twice,
 * by position among equals). For each aligned job, op type and metric the
 * comparison holds every file's value — the mean and 95 % confidence
 * interval over its complete runs — and, for each file after the first,
 * the change against the first in percent with Welch's t-test over the
 * per-run values, so a change can be told from noise. It also lists the
 * environment fields (host, kernel, vm settings, filesystems, devices, job
 * options) that differ between the files. Printed as text, CSV or JSON;
 * the text and CSV with control characters escaped (util/termesc.h).
 *
 * The comparison borrows the result trees it was built from: they must
 * outlive it.
 */
#ifndef DBIO_VIEWS_COMPARE_H
#define DBIO_VIEWS_COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stats/summary.h"
#include "util/err.h"

/* Files are labelled A, B, C … in text and a_, b_ … in CSV columns. */
#define COMPARE_MAX_FILES   26
#define COMPARE_MAX_METRICS 16

/* Which way is worse for a metric. */
enum compare_worse {
	COMPARE_WORSE_NONE,  /* neither (cpu %): a change is never a regression */
	COMPARE_WORSE_LOWER, /* iops, bw */
	COMPARE_WORSE_HIGHER /* latencies */
};

struct compare_metric {
	const char *name;     /* as --metric takes it: iops, bw, p99 … */
	const char *unit;     /* of every figure of the metric: ops/s, MiB/s, ns, % */
	const char *run_path; /* dotted path under runs[].ops.<op>, or under runs[] when per_run */
	bool per_run;	      /* a figure of the whole run (cpu), not of an op type */
	double scale;	      /* result value * scale = figure in unit */
	int decimals;	      /* printed with this many decimals (latencies: units_fmt_ns) */
	enum compare_worse worse;
};

/* The metric names --metric accepts, for messages: "iops, bw, …". */
extern const char compare_metric_names[];

/* The default --metric list. */
extern const char compare_default_metrics[];

/* Parse a comma-separated list of metric names into out[0..max). Returns
 * the number parsed, or DBIO_EINPUT with a message naming the first item
 * that is not a metric (or an empty item, or too many). */
int compare_parse_metrics(const char *list, const struct compare_metric **out, size_t max,
			  struct dbio_err *err);

/* The change of one file's value against the first file's. */
struct compare_change {
	bool has_pct;	   /* false when the first file's mean is 0 and this one's is not */
	double change_pct; /* (mean - base mean) / |base mean| * 100 */
	bool tested;	   /* both sides have at least 2 complete runs */
	double p_value;	   /* Welch's two-sided p; meaningful when tested */
	bool significant;  /* tested and p_value < alpha */
	bool regression;   /* significant, in the metric's worse direction */
};

/* The change of other against base (summaries of per-run values) for a
 * metric that is worse in direction worse, at significance level alpha. */
void compare_change_of(const struct summary *base, const struct summary *other, enum compare_worse worse,
		       double alpha, struct compare_change *c);

/* One line of the comparison: an aligned job (or sweep point), op type and
 * metric. */
struct compare_row {
	const char *job;     /* jobs[].name, borrowed from the first file */
	const json_t *point; /* jobs[].point of the first file, or NULL */
	size_t occurrence;   /* 1, or n for the n-th job of the same name and point */
	const char *op;	     /* "read", "write", "fsync", "fdatasync", or "all" (per-run metrics) */
	const struct compare_metric *metric;
	struct summary *values;		/* [nfiles]: over the complete runs; n = 0 when there are none */
	struct compare_change *changes; /* [nfiles]: [0] unused, [i] file i against file 0 */
};

/* One environment field that is not the same in every file. */
struct compare_diff {
	char *field; /* JSON path: "system.kernel_release", "targets[0].fs_block_size_bytes", "options.bs" */
	char *jobs;  /* NULL for system fields, else "'a', 'b'" (the jobs it differs for) */
	json_t *values; /* array [nfiles]: each file's value, null when absent */
};

struct comparison {
	size_t nfiles;
	const char *const *names; /* file names, borrowed */
	double alpha;
	const char *ops; /* the op types that get rows (comma-separated), or NULL for all; borrowed */
	struct compare_row *rows;
	size_t nrows;
	struct compare_diff *diffs;
	size_t ndiffs;
	char **warnings; /* for stderr: jobs left out, partial results */
	size_t nwarnings;
};

/* Build the comparison of results[0..n) (n >= 2, each passed result_check), named
 * names[], over metrics[0..nmetrics) at significance level alpha, with rows
 * only for the op types in the comma-separated ops (NULL: all). Jobs not
 * in every file are left out with a warning; none in common is DBIO_EINPUT
 * with a message listing each file's jobs. 0, DBIO_EINPUT or -ENOMEM; the
 * comparison is to be released either way. */
int compare_build(struct comparison *c, const json_t *const *results, const char *const *names, size_t n,
		  const struct compare_metric *const *metrics, size_t nmetrics, double alpha, const char *ops,
		  struct dbio_err *err);

/* Free what the comparison holds (not the results it borrows). */
void compare_release(struct comparison *c);

/* "'name'", "'name' numjobs=2 bs=4k", "'name' #2": a row's job for messages. */
void compare_row_label(const struct compare_row *r, char *buf, size_t len);

/* The text of row r's change cell for file f >= 1: "+16.7 %, p=0.0805,
 * within noise", "-48.3 %, p=0.0011, significant, regression", "+2.0 %,
 * n/a (no repeats)". */
void compare_change_text(const struct compare_row *r, size_t f, char *buf, size_t len);

/* The verdict alone: "within noise", "significant", "significant,
 * regression", "significant, improvement", "n/a (no repeats)" or "n/a (no
 * complete run)". */
const char *compare_verdict(const struct compare_row *r, size_t f);

/* The seed-report view: the files (A, B …), the environment differences
 * ("environment: identical" when none), then a table with a row per job
 * or point, op type and metric, a column per file (mean ± 95 % CI, with its
 * unit) and a column per later file with the change against A. */
void compare_print_text(FILE *fp, const struct comparison *c);

/* CSV: one header row — the point keys, job, op, metric, unit, then per
 * file <x>_value, <x>_ci95, <x>_runs and, after the first, <x>_change_pct,
 * <x>_p_value, <x>_significant, <x>_regression (x = a, b, …) — and a row
 * per row of the comparison. Figures are in the row's unit; n/a is empty. */
void compare_print_csv(FILE *fp, const struct comparison *c);

/* The comparison as a JSON document (docs/compare.md); NULL when out of
 * memory. */
json_t *compare_json(const struct comparison *c);

#endif
