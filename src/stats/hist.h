/*
 * Latency histogram: log-linear buckets over the whole uint64 range in fixed
 * memory (HIST_NBUCKETS counters, 58 KiB), mergeable by adding buckets, with
 * exact count, sum, sum of squares, min and max kept beside the buckets.
 *
 * Scheme ("log-linear", sub_bucket_bits = HIST_SUB_BITS = 7): values below
 * 256 have a bucket each; above, every power-of-two range [2^m, 2^(m+1)) is
 * split into 128 equal buckets. A bucket's width is at most 1/128 of its
 * lower bound, and a percentile is reported as the middle of its bucket
 * (clamped to the exact min and max), so every percentile is within 1/256
 * (0.39 %) of the exact nearest-rank value of the recorded samples.
 *
 * Index of value v (m = floor(log2 v)):
 *     v < 128:  index = v
 *     else:     index = (m - 6) * 128 + (v >> (m - 7)) - 128
 */
#ifndef DBIO_STATS_HIST_H
#define DBIO_STATS_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS  7
#define HIST_SUB_COUNT (1u << HIST_SUB_BITS)
#define HIST_NBUCKETS  ((64 - HIST_SUB_BITS + 1) * HIST_SUB_COUNT)

struct hist {
	uint64_t count;
	uint64_t sum; /* saturates at UINT64_MAX (584 years of ns) */
	/* For the standard deviation, sums of (v - shift) and of its square,
	 * with shift = the first value: no cancellation when the spread is
	 * small against the values (1 s ± 100 ns). */
	uint64_t shift;
	double dsum;
	double dsumsq;
	uint64_t min; /* UINT64_MAX while empty */
	uint64_t max;
	uint64_t buckets[HIST_NBUCKETS];
};

/* Empty the histogram (min = UINT64_MAX, everything else 0). */
void hist_init(struct hist *h);

static inline unsigned hist_index(uint64_t v)
{
	if (v < HIST_SUB_COUNT)
		return (unsigned)v;
	unsigned m = 63u - (unsigned)__builtin_clzll(v);

	return (m - HIST_SUB_BITS + 1) * HIST_SUB_COUNT + (unsigned)(v >> (m - HIST_SUB_BITS)) -
	       HIST_SUB_COUNT;
}

/* Record one value; constant time, no allocation. */
static inline void hist_add(struct hist *h, uint64_t v)
{
	if (!h->count)
		h->shift = v;
	double d = (double)v - (double)h->shift;

	h->count++;
	h->sum = (h->sum + v < h->sum) ? UINT64_MAX : h->sum + v;
	h->dsum += d;
	h->dsumsq += d * d;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->buckets[hist_index(v)]++;
}

/* Smallest and largest value that fall into bucket idx. */
uint64_t hist_bucket_low(unsigned idx);
uint64_t hist_bucket_high(unsigned idx);

/* The value that stands for bucket idx: the middle of it (rounded down),
 * the value a percentile falling in it is reported as before clamping. */
uint64_t hist_bucket_mid(unsigned idx);

/* dst += src, exactly as if dst had recorded src's values too. */
void hist_merge(struct hist *dst, const struct hist *src);

/* Nearest-rank percentile (0 < pct <= 100) within the bound stated above;
 * 0 for an empty histogram. */
uint64_t hist_percentile(const struct hist *h, double pct);

double hist_mean(const struct hist *h);

/* Population standard deviation; 0 for fewer than two values. */
double hist_stddev(const struct hist *h);

/* Set the standard-deviation sums from a known mean and (population)
 * standard deviation of h->count values, as read back from a result. */
void hist_set_moments(struct hist *h, double mean, double stddev);

#endif
