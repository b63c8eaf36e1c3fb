/*
 * Why a comparison changed: for each job aligned across the files of a
 * comparison (analysis/compare.h), the counters of the counter registry
 * (analysis/counter.h) whose per-run figures differ between the first
 * file and another, by Welch's test over the repeats at the comparison's
 * alpha, ordered by effect size: |log| of the ratio of the means less
 * 1.96 standard errors of it (the delta method: sqrt(cv_a^2 / n_a +
 * cv_b^2 / n_b)), so that of two counters with one ratio the exact one
 * ranks above the noisy one; a counter that was 0, or became 0, first. The headline beside them is the
 * comparison's first row of the job for its most frequent data operation
 * (a change of throughput, usually). For a sweep, the counters whose
 * figure moves with the swept variable (Spearman's rank correlation over
 * the points, in the sweep's order). Computed from result values only;
 * views/explain.h prints it.
 */
#ifndef DBIO_ANALYSIS_EXPLAIN_H
#define DBIO_ANALYSIS_EXPLAIN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/compare.h"
#include "analysis/counter.h"

/* One counter of one job, file f against the first. */
struct explain_item {
	const struct counter *counter;
	double base, other; /* the means of the per-run figures */
	double ratio;	    /* other / base; INFINITY when base is 0 */
	double p_value;	    /* Welch's two-sided p */
	double effect;	    /* |log ratio| less 1.96 of its standard error: how far from 1 at least */
	bool significant;   /* p_value < alpha, both sides with 2 runs or more */
};

struct explain_job {
	char label[256];		/* "'name'" (compare_row_label) */
	size_t file;			/* the file compared with the first (1 …) */
	char per[COMPARE_OP_MAX];	/* the op the figures are per ("write"); "" when none */
	const struct compare_row *head; /* the headline row, or NULL */
	bool tested;			/* both sides had 2 complete runs or more */
	struct explain_item *items;	/* the significant ones, by effect size */
	size_t nitems;
};

struct explanation {
	struct explain_job *jobs;
	size_t njobs;
};

/* The explanation of c, built from results[0..c->nfiles) (the trees c was
 * built from). 0 or -ENOMEM; released either way. */
int explain_build(struct explanation *x, const struct comparison *c, const json_t *const *results);

void explain_release(struct explanation *x);

#define EXPLAIN_MIN_POINTS 4

/* One counter's rank correlation with the swept variable. */
struct explain_trend {
	const struct counter *counter;
	double rho; /* Spearman's, -1 … 1 */
	size_t points;
};

/* The counters of a sweep result (jobs[] in point order; of a job file
 * with several jobs, the jobs named as the first) whose mean figure over
 * each point's complete runs has |rho| >= min_rho with the point's
 * position and whose largest figure is at least 1.25 times its smallest,
 * strongest first, at most max into out. A sweep of fewer than
 * EXPLAIN_MIN_POINTS points has none (with 3, a perfect order comes by
 * chance one time in three), nor a counter some point lacks. Returns how
 * many. */
size_t explain_sweep(const json_t *result, double min_rho, struct explain_trend *out, size_t max);

/* Counter c's mean figure over each point's complete runs, in point
 * order (the jobs named as the first), into y[0..max): how many points,
 * or 0 when a point lacks it or there are more than max. */
size_t explain_sweep_figures(const json_t *result, const struct counter *c, double *y, size_t max);

/* Spearman's rank correlation of y[0..n) with 0..n-1 (ties averaged); 0
 * when y is constant or n < 2. */
double explain_spearman(const double *y, size_t n);

#endif
