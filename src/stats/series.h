/*
 * Interval series: what a worker did in each interval of its measured
 * phase, either on a fixed time grid (every interval_ns from a common
 * origin, so threads merge by index) or per interval_ops reads and writes
 * (S2's "time for each 1,000 records"). Points are per interval, never
 * cumulative. Memory grows by doubling only when an interval closes, never
 * per operation.
 */
#ifndef DBIO_STATS_SERIES_H
#define DBIO_STATS_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/opstats.h"

struct series_op {
	uint64_t count;
	uint64_t bytes;
	uint64_t lat_sum_ns;
	uint64_t lat_max_ns;
};

struct series_point {
	uint64_t end_ns;      /* end of the interval, from the origin */
	uint64_t duration_ns; /* interval length (shorter for the last, partial one) */
	struct series_op op[OP_NTYPES];
};

struct series {
	uint64_t interval_ns;  /* time grid, or 0 */
	uint64_t interval_ops; /* count grid, or 0 */
	bool manual;	       /* batch grid: the workload closes intervals (series_close) */
	uint64_t origin_ns;
	uint64_t next_ns;  /* time grid: end of the current interval */
	uint64_t start_ns; /* count grid: start of the current interval */
	uint64_t ops_in;   /* count grid: reads and writes in the current interval */
	struct series_point cur;
	struct series_point *points;
	size_t npoints, cap;
	bool truncated; /* out of memory: later points were dropped */
};

/* An empty series on a time grid (interval_ns) or a count grid
 * (interval_ops); exactly one of them is non-zero, or both 0 for none.
 * Reserves cap_hint points. 0 or -ENOMEM. */
int series_init(struct series *s, uint64_t interval_ns, uint64_t interval_ops, size_t cap_hint);

/* An empty series whose intervals the workload closes itself with
 * series_close (a batch grid: one point per database batch). */
int series_init_manual(struct series *s, size_t cap_hint);

void series_release(struct series *s);

static inline bool series_on(const struct series *s)
{
	return s->interval_ns || s->interval_ops || s->manual;
}

/* Begin at origin_ns (absolute, CLOCK_MONOTONIC). */
void series_start(struct series *s, uint64_t origin_ns);

/* Close the current interval and start the next one (called by series_add). */
void series_close(struct series *s, uint64_t end_abs_ns, uint64_t duration_ns);

/* Record one operation that completed at now_ns. */
static inline void series_add(struct series *s, enum op_type t, uint64_t bytes, uint64_t lat_ns,
			      uint64_t now_ns)
{
	if (s->interval_ns) {
		while (now_ns >= s->next_ns)
			series_close(s, s->next_ns, s->interval_ns);
	}
	struct series_op *o = &s->cur.op[t];

	o->count++;
	o->bytes += bytes;
	o->lat_sum_ns += lat_ns;
	if (lat_ns > o->lat_max_ns)
		o->lat_max_ns = lat_ns;
	if (s->interval_ops && op_is_data(t) && ++s->ops_in == s->interval_ops)
		series_close(s, now_ns, now_ns - s->start_ns);
}

/* End of the measured phase at now_ns: keep the last, partial interval if
 * anything happened in it (on the count grid: if it holds reads or
 * writes; operations after the last of them belong to no interval). */
void series_finish(struct series *s, uint64_t now_ns);

/* Time grid: dst += src point by point (same origin and interval). 0 or
 * -ENOMEM. */
int series_merge(struct series *dst, const struct series *src);

#endif
