/*
 * Statistics across repeated runs: mean, sample standard deviation, min,
 * max, the 95 % confidence interval of the mean (Student's t) and the
 * coefficient of variation; Student's t distribution and Welch's t-test,
 * for telling a change from noise.
 */
#ifndef DBIO_STATS_SUMMARY_H
#define DBIO_STATS_SUMMARY_H

#include <stddef.h>

struct summary {
	size_t n;
	double mean;
	double stddev; /* sample (n - 1); 0 for n < 2 */
	double min;
	double max;
	double ci95; /* half-width: the mean is mean ± ci95 with 95 % confidence; 0 for n < 2 */
	double cv;   /* stddev / mean; 0 when mean is 0 */
};

/* Summarise x[0..n); n may be 0 (all fields 0). */
void summary_of(const double *x, size_t n, struct summary *s);

/* P(T <= t) for Student's t with df > 0 degrees of freedom. */
double tdist_cdf(double t, double df);

/* The t with P(T <= t) = p, 0 < p < 1. */
double tdist_quantile(double p, double df);

/* Welch's unequal-variances t-test of a against b: the two-sided p-value,
 * and t and the Welch-Satterthwaite degrees of freedom through the
 * pointers (may be NULL). Returns 1.0 when either side has n < 2 or both
 * variances are 0 with equal means; 0.0 when variances are 0 and means
 * differ. */
double welch_p(const struct summary *a, const struct summary *b, double *t, double *df);

#endif
