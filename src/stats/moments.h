/*
 * Moments of a latency without its histogram: exact count, sum, min and
 * max, and the sums for a standard deviation, as struct hist keeps them
 * beside its buckets (56 bytes instead of 58 KiB). The queued loop keeps
 * two per operation type: fio's submission latency (slat) and its total
 * latency (lat: slat + clat) of each I/O, which fio's JSON shows with
 * min, max, mean and stddev only.
 */
#ifndef DBIO_STATS_MOMENTS_H
#define DBIO_STATS_MOMENTS_H

#include <stdint.h>

#include "stats/opstats.h"

struct moments {
	uint64_t count;
	uint64_t sum;	/* saturates at UINT64_MAX */
	uint64_t shift; /* the first value: the sums below are of (v - shift) */
	double dsum;
	double dsumsq;
	uint64_t min; /* UINT64_MAX while empty */
	uint64_t max;
};

/* Empty m (min = UINT64_MAX, everything else 0). */
void moments_init(struct moments *m);

/* Record one value; constant time. */
static inline void moments_add(struct moments *m, uint64_t v)
{
	if (!m->count)
		m->shift = v;
	double d = (double)v - (double)m->shift;

	m->count++;
	m->sum = (m->sum + v < m->sum) ? UINT64_MAX : m->sum + v;
	m->dsum += d;
	m->dsumsq += d * d;
	if (v < m->min)
		m->min = v;
	if (v > m->max)
		m->max = v;
}

/* dst += src, exactly as if dst had recorded src's values too. */
void moments_merge(struct moments *dst, const struct moments *src);

/* The mean (0 when empty) and the population standard deviation (0 under
 * two values), as hist_mean and hist_stddev. */
double moments_mean(const struct moments *m);
double moments_stddev(const struct moments *m);

/* m made again from what a result keeps of it: count, mean, stddev, min
 * and max (the sum rounded from the mean). */
void moments_set(struct moments *m, uint64_t count, double mean, double stddev, uint64_t min, uint64_t max);

/* A queued engine's latencies besides its clat (op_stats), per operation
 * type: fio's slat and lat of each measured I/O that completed, so that
 * their means add up as fio's do (lat = slat + clat, I/O by I/O). */
struct queue_lat {
	struct moments slat[OP_NTYPES];
	struct moments lat[OP_NTYPES];
};

void queue_lat_init(struct queue_lat *q);
void queue_lat_merge(struct queue_lat *dst, const struct queue_lat *src);

static inline void queue_lat_add(struct queue_lat *q, enum op_type op, uint64_t slat_ns, uint64_t clat_ns)
{
	moments_add(&q->slat[op], slat_ns);
	moments_add(&q->lat[op], slat_ns + clat_ns);
}

#endif
