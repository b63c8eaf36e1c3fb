/*
 * fio's aggregate bandwidth logs (--bandwidth-log): the watching thread
 * samples every 500 ms (fio's bwavgtime) the bytes the group's threads
 * read, wrote and trimmed so far (worker_live_add's live_dir_bytes), and
 * notes the KiB/s of each direction since the last sample, as fio's
 * calc_rate does ((1000 * bytes) / ms / 1024); the caller writes the
 * three files at the end of the run. See run.h and run_int.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "run/run_int.h"
#include "util/atomic.h"

#define AGG_INTERVAL_NS 500000000ull

/* fio's window is the run's, not a group's: its rate_prev_time and
 * rate_io_bytes go on from one stonewall group to the next, so a group's
 * tail after its last tick is in the next group's first line (with the
 * time between the groups). Only the first group starts the window. */
void run_aggbw_arm(struct run_group *g, uint64_t open_ns)
{
	struct run_agg_bw *agg = g->opts->agg_bw;

	if (!agg || agg->armed)
		return;
	agg->armed = true;
	agg->last_ns = open_ns;
	for (int d = 0; d < 3; d++)
		agg->last[d] = agg->base[d] = 0;
}

/* The bytes of g's threads so far, plus the groups' before it. */
static void run_bytes(const struct run_group *g, const struct run_agg_bw *agg, uint64_t bytes[3])
{
	for (int d = 0; d < 3; d++)
		bytes[d] = agg->base[d];
	for (size_t i = 0; i < g->started; i++)
		for (int d = 0; d < 3; d++)
			bytes[d] +=
				atomic_load_explicit(&g->slots[i].w.live_dir_bytes[d], memory_order_relaxed);
}

void run_aggbw_end(struct run_group *g)
{
	struct run_agg_bw *agg = g->opts->agg_bw;

	if (agg && agg->armed)
		run_bytes(g, agg, agg->base);
}

uint64_t run_aggbw_next(const struct run_group *g)
{
	return g->opts->agg_bw ? g->opts->agg_bw->last_ns + AGG_INTERVAL_NS : UINT64_MAX;
}

void run_aggbw_check(struct run_group *g, uint64_t now)
{
	struct run_agg_bw *agg = g->opts->agg_bw;
	uint64_t bytes[3];
	const uint64_t ms = agg ? (now - agg->last_ns) / 1000000 : 0;

	if (!agg || now < agg->last_ns + AGG_INTERVAL_NS || !ms)
		return;
	run_bytes(g, agg, bytes);
	if (agg->n == agg->cap) {
		size_t cap = agg->cap ? 2 * agg->cap : 256;
		struct run_agg_point *p = realloc(agg->pts, cap * sizeof(*p));

		if (!p) {
			agg->lost = true;
			return;
		}
		agg->pts = p;
		agg->cap = cap;
	}
	struct run_agg_point *pt = &agg->pts[agg->n++];

	pt->ms = (now - agg->origin_ns) / 1000000;
	for (int d = 0; d < 3; d++) {
		pt->kib_s[d] = (1000 * (bytes[d] - agg->last[d])) / ms / 1024;
		agg->last[d] = bytes[d];
	}
	agg->last_ns = now;
}

int run_agg_bw_write(const struct run_agg_bw *agg, int d, const char *path, struct dbio_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = 0;

	if (!f)
		return dbio_err_set(err, -ENOMEM, "%s: out of memory for the log", path);
	for (size_t i = 0; i < agg->n; i++)
		fprintf(f, "%" PRIu64 ", %" PRIu64 ", %d, 0, 0\n", agg->pts[i].ms, agg->pts[i].kib_s[d], d);
	if (fclose(f) || agg->lost)
		rc = dbio_err_set(err, -ENOMEM, "%s: out of memory for the log", path);
	if (!rc)
		rc = atomic_write(path, buf ? buf : "", len, err);
	free(buf);
	return rc;
}
