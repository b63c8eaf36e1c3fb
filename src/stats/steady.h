/*
 * fio's steady state, the arithmetic: a window of the last n samples of a
 * job's IOPS, bandwidth and mean completion latency, one sample per check
 * interval, and fio's two criteria over the samples of one of them (fio's
 * steadystate.c): the largest deviation of a sample from the window's mean,
 * or the least-squares slope of the samples against their index (0 the
 * oldest), each as such or in percent of the mean. The runner
 * (run/steady.c) takes the samples; this knows no clock and no thread.
 */
#ifndef DBIO_STATS_STEADY_H
#define DBIO_STATS_STEADY_H

#include <stdbool.h>
#include <stdint.h>

/* What is judged: fio's iops, bw and lat modes. */
enum steady_metric { STEADY_IOPS, STEADY_BW, STEADY_LAT, STEADY_NMETRICS };

/* The criterion: fio's steadystate=MODE:LIMIT. */
struct steady_rule {
	int metric;   /* enum steady_metric */
	bool slope;   /* MODE_slope: the slope, else the largest deviation */
	bool pct;     /* LIMIT was N%: of the window's mean */
	double limit; /* IOPS, bytes per second or ns; or percent */
};

struct steady_window {
	struct steady_rule rule;
	unsigned n;			 /* samples of a full window */
	uint64_t *data[STEADY_NMETRICS]; /* n each: IOPS, bytes per second, ns; a ring */
	unsigned next;			 /* where the next sample goes */
	uint64_t taken;			 /* samples added in all */
	/* The judgement of the last full window. */
	bool judged;	   /* the window has been full at least once */
	double mean;	   /* of the judged metric's samples */
	double deviation;  /* largest |sample - mean| */
	double slope;	   /* per sample (interval), least squares */
	double criterion;  /* deviation or slope, in percent of the mean when rule.pct */
	bool criterion_ok; /* false when a percentage of a mean of 0 (no criterion) */
	bool attained;	   /* the criterion was within the limit */
};

/* An empty window of n >= 2 samples for rule; 0 or -ENOMEM. */
int steady_init(struct steady_window *w, const struct steady_rule *rule, unsigned n);

/* Free the samples; w can be set up again after. Accepts a zeroed w. */
void steady_release(struct steady_window *w);

/* A deep copy of src into dst (empty before); 0 or -ENOMEM. */
int steady_copy(struct steady_window *dst, const struct steady_window *src);

/* Add one sample (IOPS, bytes per second, mean completion latency in ns
 * over the last interval); once the window is full, judge it. True when
 * the steady state is attained (it stays so: add nothing more). */
bool steady_add(struct steady_window *w, uint64_t iops, uint64_t bw, uint64_t lat_ns);

/* The samples the window holds (at most n). */
unsigned steady_count(const struct steady_window *w);

/* The i-th sample of metric in the window, 0 the oldest. */
uint64_t steady_at(const struct steady_window *w, int metric, unsigned i);

/* fio's criteria over the n samples of ring, ring[oldest] the oldest and
 * the rest after it (wrapping at n): the mean, the largest deviation from
 * it, and the least-squares slope of the samples against 0..n-1 (per
 * sample). n >= 2. */
void steady_stats(const uint64_t *ring, unsigned n, unsigned oldest, double *mean, double *deviation,
		  double *slope);

/* fio's mode name: "iops", "iops_slope", "bw", "bw_slope", "lat",
 * "lat_slope". */
const char *steady_mode_name(const struct steady_rule *rule);

#endif
