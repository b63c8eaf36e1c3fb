/* Moments of a latency without its histogram; see moments.h. */
#include "stats/moments.h"

#include <math.h>

void moments_init(struct moments *m)
{
	*m = (struct moments){ .min = UINT64_MAX };
}

void moments_merge(struct moments *dst, const struct moments *src)
{
	if (!src->count)
		return;
	if (!dst->count)
		dst->shift = src->shift;
	/* src's sums re-centred on dst's shift: x + k for every x of src */
	const double k = (double)src->shift - (double)dst->shift, n = (double)src->count;

	dst->dsumsq += src->dsumsq + 2 * k * src->dsum + n * k * k;
	dst->dsum += src->dsum + n * k;
	dst->count += src->count;
	dst->sum = (dst->sum + src->sum < dst->sum) ? UINT64_MAX : dst->sum + src->sum;
	dst->min = src->min < dst->min ? src->min : dst->min;
	dst->max = src->max > dst->max ? src->max : dst->max;
}

double moments_mean(const struct moments *m)
{
	return m->count ? (double)m->sum / (double)m->count : 0.0;
}

double moments_stddev(const struct moments *m)
{
	if (m->count < 2)
		return 0.0;
	const double n = (double)m->count, mean = m->dsum / n, var = m->dsumsq / n - mean * mean;

	return var > 0 ? sqrt(var) : 0.0;
}

void moments_set(struct moments *m, uint64_t count, double mean, double stddev, uint64_t min, uint64_t max)
{
	const double n = (double)count;

	moments_init(m);
	if (!count)
		return;
	m->count = count;
	m->sum = (uint64_t)(mean * n + 0.5);
	m->shift = mean > 0 ? (uint64_t)(mean + 0.5) : 0;
	m->dsum = n * (mean - (double)m->shift);
	m->dsumsq = n * (stddev * stddev + (mean - (double)m->shift) * (mean - (double)m->shift));
	m->min = min;
	m->max = max;
}

void queue_lat_init(struct queue_lat *q)
{
	for (int t = 0; t < OP_NTYPES; t++) {
		moments_init(&q->slat[t]);
		moments_init(&q->lat[t]);
	}
}

void queue_lat_merge(struct queue_lat *dst, const struct queue_lat *src)
{
	for (int t = 0; t < OP_NTYPES; t++) {
		moments_merge(&dst->slat[t], &src->slat[t]);
		moments_merge(&dst->lat[t], &src->lat[t]);
	}
}
