/*
 * fio's latency target (latency_target, latency_window,
 * latency_percentile, latency_run): the queued loop looks for the deepest
 * queue whose I/Os meet the target. It starts at depth 1; after each
 * window in which the share of I/Os at or under the target reaches the
 * percentile, it doubles the depth (or bisects towards the last depth
 * that failed), and after a window that misses, or at once when an I/O
 * misses and the percentile is 100, it halves towards the last depth that
 * met the target and drains the queue. When a success leaves the depth
 * where it was, the search is over: the queue drains, the measurement
 * starts over, and one more window at that depth ends the job (unless
 * latency_run: then it goes on searching until the job ends). An I/O over
 * the target at depth 1 with percentile 100 fails the job, as in fio.
 */
#ifndef DBIO_WORKLOAD_LATTARGET_H
#define DBIO_WORKLOAD_LATTARGET_H

#include <stdbool.h>
#include <stdint.h>

struct job;

struct lattarget {
	bool on;
	uint64_t target_ns, window_ns;
	double percentile;	/* of the I/Os of a window at or under the target */
	bool run;		/* latency_run: keep searching */
	unsigned iodepth;	/* the job's: the deepest the search goes */
	unsigned depth;		/* the queue's depth now */
	unsigned low, high;	/* the depths known to meet and to miss it */
	unsigned stable;	/* successes in a row one below high */
	uint64_t window_start;	/* this window's start */
	uint64_t ios_at_start;	/* completions before this window */
	uint64_t missed;	/* I/Os over the target in this window */
	bool end_run;		/* the search is over: the last window */
	uint64_t missed_lat_ns; /* fatal: the I/O that missed at depth 1 */
};

/* What the loop must do after lattarget_complete or lattarget_check. */
enum lattarget_act {
	LT_GO,	    /* carry on */
	LT_DRAIN,   /* the depth went down: drain the queue first */
	LT_RESTART, /* the search is over: drain, start the measurement over */
	LT_DONE,    /* the last window is over: the job ends */
	LT_FAILED,  /* an I/O over the target at depth 1, percentile 100 */
};

/* Parse latency_percentile and check the keys against the job's engine;
 * 0 or DBIO_EINPUT. */
struct dbio_err;
int lattarget_validate(struct job *job, struct dbio_err *err);

void lattarget_init(struct lattarget *lt, const struct job *job, uint64_t now, uint64_t ios);

/* An I/O completed after lat_ns. */
enum lattarget_act lattarget_complete(struct lattarget *lt, uint64_t lat_ns, uint64_t now, uint64_t ios);

/* Once per turn of the loop: ios completions in all so far. */
enum lattarget_act lattarget_check(struct lattarget *lt, uint64_t now, uint64_t ios);

#endif
