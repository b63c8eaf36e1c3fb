/* Log-linear latency histogram; the scheme and its error bound are in hist.h. */
#include "stats/hist.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

uint64_t hist_bucket_low(unsigned idx)
{
	if (idx < HIST_SUB_COUNT)
		return idx;
	unsigned group = idx / HIST_SUB_COUNT; /* m - 6 */
	uint64_t sub = idx % HIST_SUB_COUNT;
	unsigned shift = group - 1; /* m - 7 */

	return (HIST_SUB_COUNT + sub) << shift;
}

uint64_t hist_bucket_high(unsigned idx)
{
	if (idx + 1 >= HIST_NBUCKETS)
		return UINT64_MAX;
	return hist_bucket_low(idx + 1) - 1;
}

uint64_t hist_bucket_mid(unsigned idx)
{
	uint64_t lo = hist_bucket_low(idx);

	return lo + (hist_bucket_high(idx) - lo) / 2;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return;
	if (!dst->count)
		dst->shift = src->shift;
	/* Re-centre src's sums on dst's shift: x + k for every x of src. */
	double k = (double)src->shift - (double)dst->shift, n = (double)src->count;

	dst->dsumsq += src->dsumsq + 2 * k * src->dsum + n * k * k;
	dst->dsum += src->dsum + n * k;
	dst->count += src->count;
	dst->sum = (dst->sum + src->sum < dst->sum) ? UINT64_MAX : dst->sum + src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

uint64_t hist_percentile(const struct hist *h, double pct)
{
	if (!h->count)
		return 0;
	double exact_rank = pct / 100.0 * (double)h->count;
	uint64_t rank = (uint64_t)ceil(exact_rank - 1e-9);
	uint64_t seen = 0;

	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		seen += h->buckets[i];
		if (seen < rank)
			continue;
		uint64_t mid = hist_bucket_mid(i);

		if (mid < h->min)
			mid = h->min;
		if (mid > h->max)
			mid = h->max;
		return mid;
	}
	return h->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double hist_stddev(const struct hist *h)
{
	if (h->count < 2)
		return 0.0;
	double n = (double)h->count, m = h->dsum / n;
	double var = h->dsumsq / n - m * m;

	return var > 0 ? sqrt(var) : 0.0;
}

void hist_set_moments(struct hist *h, double mean, double stddev)
{
	double n = (double)h->count;

	h->shift = mean > 0 ? (uint64_t)(mean + 0.5) : 0;
	double m = mean - (double)h->shift;

	h->dsum = n * m;
	h->dsumsq = n * (stddev * stddev + m * m);
}
