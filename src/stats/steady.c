/*
 * fio's steady-state criteria over a window of samples; see steady.h. The
 * sums are fio's (steadystate.c: steadystate_deviation and
 * steadystate_slope), computed afresh over the window at each sample
 * instead of fio's running sums, which come to the same figures.
 */
#include "stats/steady.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int steady_init(struct steady_window *w, const struct steady_rule *rule, unsigned n)
{
	memset(w, 0, sizeof(*w));
	w->rule = *rule;
	w->n = n;
	for (int m = 0; m < STEADY_NMETRICS; m++)
		if (!(w->data[m] = calloc(n, sizeof(uint64_t)))) {
			steady_release(w);
			return -ENOMEM;
		}
	return 0;
}

void steady_release(struct steady_window *w)
{
	for (int m = 0; m < STEADY_NMETRICS; m++) {
		free(w->data[m]);
		w->data[m] = NULL;
	}
}

int steady_copy(struct steady_window *dst, const struct steady_window *src)
{
	*dst = *src;
	for (int m = 0; m < STEADY_NMETRICS; m++)
		dst->data[m] = NULL;
	for (int m = 0; m < STEADY_NMETRICS; m++) {
		if (!(dst->data[m] = malloc(src->n * sizeof(uint64_t)))) {
			steady_release(dst);
			return -ENOMEM;
		}
		memcpy(dst->data[m], src->data[m], src->n * sizeof(uint64_t));
	}
	return 0;
}

void steady_stats(const uint64_t *ring, unsigned n, unsigned oldest, double *mean, double *deviation,
		  double *slope)
{
	/* fio's sums: x_i = i, so sum_x = n(n-1)/2, sum_x^2 = (n-1)n(2n-1)/6 */
	const double dn = n, sum_x = dn * (dn - 1) / 2, sum_x_sq = (dn - 1) * dn * (2 * dn - 1) / 6;
	double sum_y = 0, sum_xy = 0, dev = 0;

	for (unsigned i = 0; i < n; i++) {
		const double y = (double)ring[(oldest + i) % n];

		sum_y += y;
		sum_xy += (double)i * y;
	}
	*mean = sum_y / dn;
	for (unsigned i = 0; i < n; i++) {
		const double d = fabs((double)ring[i] - *mean);

		if (d > dev)
			dev = d;
	}
	*deviation = dev;
	*slope = (sum_xy - sum_x * sum_y / dn) / (sum_x_sq - sum_x * sum_x / dn);
}

unsigned steady_count(const struct steady_window *w)
{
	return w->taken < w->n ? (unsigned)w->taken : w->n;
}

uint64_t steady_at(const struct steady_window *w, int metric, unsigned i)
{
	const unsigned count = steady_count(w), oldest = count < w->n ? 0 : w->next;

	return w->data[metric][(oldest + i) % w->n];
}

/* Judge the full window by its rule, as fio: the deviation (never
 * negative) or the slope's magnitude below the limit, strictly. */
static void judge(struct steady_window *w)
{
	double value;

	/* judged only full: the oldest sample is where the next one goes */
	steady_stats(w->data[w->rule.metric], w->n, w->next, &w->mean, &w->deviation, &w->slope);
	value = w->rule.slope ? w->slope : w->deviation;
	w->judged = true;
	w->criterion_ok = !w->rule.pct || w->mean > 0;
	w->criterion = !w->rule.pct ? value : w->criterion_ok ? 100.0 * value / w->mean : 0;
	w->attained = w->criterion_ok && fabs(w->criterion) < w->rule.limit;
}

bool steady_add(struct steady_window *w, uint64_t iops, uint64_t bw, uint64_t lat_ns)
{
	w->data[STEADY_IOPS][w->next] = iops;
	w->data[STEADY_BW][w->next] = bw;
	w->data[STEADY_LAT][w->next] = lat_ns;
	w->next = (w->next + 1) % w->n;
	w->taken++;
	if (w->taken >= w->n)
		judge(w);
	return w->attained;
}

const char *steady_mode_name(const struct steady_rule *rule)
{
	static const char *const names[STEADY_NMETRICS][2] = {
		{ "iops", "iops_slope" },
		{ "bw", "bw_slope" },
		{ "lat", "lat_slope" },
	};

	return names[rule->metric][rule->slope];
}
