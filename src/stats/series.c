/* Interval series; see series.h. */
#include "stats/series.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int series_init(struct series *s, uint64_t interval_ns, uint64_t interval_ops, size_t cap_hint)
{
	memset(s, 0, sizeof(*s));
	s->interval_ns = interval_ns;
	s->interval_ops = interval_ops;
	if (!series_on(s))
		return 0;
	s->cap = cap_hint ? cap_hint : 64;
	s->points = calloc(s->cap, sizeof(*s->points));
	return s->points ? 0 : -ENOMEM;
}

int series_init_manual(struct series *s, size_t cap_hint)
{
	memset(s, 0, sizeof(*s));
	s->manual = true;
	s->cap = cap_hint ? cap_hint : 64;
	s->points = calloc(s->cap, sizeof(*s->points));
	return s->points ? 0 : -ENOMEM;
}

void series_release(struct series *s)
{
	free(s->points);
	memset(s, 0, sizeof(*s));
}

void series_start(struct series *s, uint64_t origin_ns)
{
	s->origin_ns = origin_ns;
	s->start_ns = origin_ns;
	s->next_ns = origin_ns + s->interval_ns;
	s->ops_in = 0;
	memset(&s->cur, 0, sizeof(s->cur));
}

static void push(struct series *s, const struct series_point *p)
{
	if (s->npoints == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct series_point *grown = realloc(s->points, cap * sizeof(*grown));

		if (!grown) {
			s->truncated = true;
			return;
		}
		s->points = grown;
		s->cap = cap;
	}
	s->points[s->npoints++] = *p;
}

void series_close(struct series *s, uint64_t end_abs_ns, uint64_t duration_ns)
{
	s->cur.end_ns = end_abs_ns - s->origin_ns;
	s->cur.duration_ns = duration_ns;
	push(s, &s->cur);
	memset(&s->cur, 0, sizeof(s->cur));
	s->ops_in = 0;
	s->start_ns = end_abs_ns;
	if (s->interval_ns)
		s->next_ns += s->interval_ns;
}

void series_finish(struct series *s, uint64_t now_ns)
{
	bool any = false;

	if (!series_on(s))
		return;
	if (s->interval_ns)
		while (now_ns >= s->next_ns)
			series_close(s, s->next_ns, s->interval_ns);
	/* What is left after the whole intervals closed: the partial one. On
	 * the count grid an interval is of reads and writes: what came after
	 * the last of them (the commit of the last batch) makes no interval. */
	for (int t = 0; t < OP_NTYPES; t++)
		any |= s->cur.op[t].count > 0;
	if (s->interval_ns) {
		if (any)
			series_close(s, now_ns, now_ns - (s->next_ns - s->interval_ns));
	} else if (s->interval_ops ? s->ops_in > 0 : any) {
		series_close(s, now_ns, now_ns - s->start_ns);
	}
}

int series_merge(struct series *dst, const struct series *src)
{
	for (size_t i = 0; i < src->npoints; i++) {
		if (i == dst->npoints) {
			struct series_point empty = src->points[i];

			memset(empty.op, 0, sizeof(empty.op));
			push(dst, &empty);
			if (dst->npoints <= i)
				return -ENOMEM;
		}
		struct series_point *d = &dst->points[i];
		const struct series_point *p = &src->points[i];

		if (p->end_ns > d->end_ns) {
			d->end_ns = p->end_ns;
			d->duration_ns = p->duration_ns;
		}
		for (int t = 0; t < OP_NTYPES; t++) {
			d->op[t].count += p->op[t].count;
			d->op[t].bytes += p->op[t].bytes;
			d->op[t].lat_sum_ns += p->op[t].lat_sum_ns;
			if (p->op[t].lat_max_ns > d->op[t].lat_max_ns)
				d->op[t].lat_max_ns = p->op[t].lat_max_ns;
		}
	}
	dst->truncated |= src->truncated;
	return 0;
}
