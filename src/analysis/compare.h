/*
 * The comparison of result files (`dbio compare`, matrix's table): a model
 * computed from result values only, never from live state, and printed by
 * views/comparison.h. Jobs and sweep points are aligned by name and point
 * parameters (analysis/match.h). For each aligned job, op type and metric
 * (analysis/metric.h) the comparison holds every file's value — the mean
 * and 95 % confidence interval over its complete runs — and, for each
 * file after the first, the change against the first in percent with
 * Welch's t-test over the per-run values, so a change can be told from
 * noise. It also lists the environment fields (host, kernel, vm settings,
 * filesystems, devices, job options) that differ between the files.
 *
 * The comparison borrows the result trees it was built from: they must
 * outlive it.
 */
#ifndef DBIO_ANALYSIS_COMPARE_H
#define DBIO_ANALYSIS_COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/metric.h"
#include "stats/summary.h"
#include "util/err.h"

/* Files are labelled A, B, C … in text and a_, b_ … in CSV columns. */
#define COMPARE_MAX_FILES   26
#define COMPARE_MAX_METRICS 32
/* Room for a row's op: an op type, "all" or "phase <name>". */
#define COMPARE_OP_MAX 48

/* The change of one file's value against the first file's. */
struct compare_change {
	bool has_pct;	   /* false when the first file's mean is 0 and this one's is not */
	double change_pct; /* (mean - base mean) / |base mean| * 100 */
	bool tested;	   /* both sides have at least 2 complete runs */
	double p_value;	   /* Welch's two-sided p; meaningful when tested */
	bool significant;  /* tested and p_value < alpha */
	bool regression;   /* significant, for the worse in the metric's direction */
	/* a side's mean is under the figure's resolution (0.00 s at 2
	 * decimals): no percentage (has_pct false), never significant */
	bool under_resolution;
};

/* The change of other against base (summaries of per-run values) for a
 * metric that is better in direction better, at significance level
 * alpha. */
void compare_change_of(const struct summary *base, const struct summary *other, enum metric_better better,
		       double alpha, struct compare_change *c);

/* How a figure (mean ± ci95) stands against the first file's, judged by
 * the overlap of the two confidence intervals (the HTML page's
 * side-by-side table; `dbio compare` tests instead). */
enum compare_side {
	COMPARE_SIDE_NONE,   /* no change to show: no first figure, or it is 0 */
	COMPARE_SIDE_NOISE,  /* no change, intervals that overlap, or no better direction */
	COMPARE_SIDE_BETTER, /* for the better in m's direction */
	COMPARE_SIDE_WORSE
};

/* The side-by-side verdict on v ± ci against the first file's v0 ± c0 for
 * metric m, with the change in percent in *pct (0 for COMPARE_SIDE_NONE). */
enum compare_side compare_side_of(const struct metric *m, double v0, double c0, double v, double ci,
				  double *pct);

/* One line of the comparison: an aligned job (or sweep point), op type and
 * metric. */
struct compare_row {
	const char *job;     /* jobs[].name, borrowed from the first file */
	const json_t *point; /* jobs[].point of the first file, or NULL */
	size_t occurrence;   /* 1, or n for the n-th job of the same name and point */
	/* an op type's name ("read", "insert" …); for per-run metrics "all"
	 * (the whole run) or "phase <name>" (one phase of it) */
	char op[COMPARE_OP_MAX];
	const struct metric *metric;
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

/* Build the comparison of results[0..n) (n >= 2, each passed result_check),
 * named names[], over metrics[0..nmetrics) at significance level alpha,
 * with rows only for the op types in the comma-separated ops (NULL: all).
 * Rows of a per-op metric are made for every op type some file's job did
 * (with METRIC_PER_OP_BYTES, moved bytes in), in op-type order; the
 * per-run metrics' rows (op "all") follow, then those of each phase of the
 * first file's job (op "phase <name>", when ops is NULL or names it). Jobs not in every file are left
 * out with a warning; none in common is DBIO_EINPUT with a message listing
 * each file's jobs. 0, DBIO_EINPUT or -ENOMEM; the comparison is to be
 * released either way. */
int compare_build(struct comparison *c, const json_t *const *results, const char *const *names, size_t n,
		  const struct metric *const *metrics, size_t nmetrics, double alpha, const char *ops,
		  struct dbio_err *err);

/* A result of `dbio matrix` as one result per configuration, to compare
 * as files: views[k] a copy of result with only the jobs of the k-th
 * configuration that ran (jobs[].config.index), their point removed so
 * that they align; names[k] its label ("ext2 -b 1024"), borrowed from
 * result. At most max. Returns how many (0 when result is no matrix's),
 * or -ENOMEM with nothing to free; json_decref each view after. */
int compare_split_matrix(const json_t *result, json_t **views, const char **names, size_t max);

/* Free what the comparison holds (not the results it borrows). */
void compare_release(struct comparison *c);

/* "'name'", "'name' numjobs=2 bs=4k", "'name' #2": a row's job for
 * messages (match_quoted). */
void compare_row_label(const struct compare_row *r, char *buf, size_t len);

/* The verdict on row r's change for file f >= 1: "within noise",
 * "significant", "significant, regression", "significant, improvement",
 * "n/a (no repeats)", "n/a (no run holds it)" or "n/a (under the
 * resolution)" (a side shown as zero at the metric's decimals). */
const char *compare_verdict(const struct compare_row *r, size_t f);

#endif
