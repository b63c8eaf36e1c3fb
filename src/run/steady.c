/*
 * fio's steady state, the runner's part: the thread that watches a group
 * (runner.c: watch) takes, once per steadystate_check_interval, a sample
 * of each judged unit — a job, or with group_reporting the jobs of its
 * reporting group, as fio — from the live counters its workers keep
 * (worker_live_add: reads and writes of the measured phase, their bytes
 * and latency), and hands it to the unit's window (stats/steady.h). When
 * the window says attained, the unit's jobs stop as if their runtime
 * ended (job_stop). No thread of its own, no lock on the workers' path.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_int.h"
#include "workload/fileio/files.h"

_Static_assert((int)SS_IOPS == (int)STEADY_IOPS && (int)SS_BW == (int)STEADY_BW &&
		       (int)SS_LAT == (int)STEADY_LAT,
	       "job/'s ss_metric and stats/'s steady_metric name the same things");

/* The unit that job j joins: with group_reporting, the one of an earlier
 * job of its reporting group (plan_groups made them agree), else a new
 * one. */
static size_t unit_for(const struct run_group *g, size_t j)
{
	const struct job *job = &g->jobs[j];

	for (size_t k = 0; job->group_reporting && k < j; k++)
		if (g->steady.unit_of[k] != SIZE_MAX && g->jobs[k].group_reporting &&
		    g->jobs[k].groupid == job->groupid)
			return g->steady.unit_of[k];
	return g->steady.nunits;
}

int run_steady_init(struct run_group *g)
{
	struct run_steady *s = &g->steady;

	if (!(s->unit_of = malloc(g->n * sizeof(*s->unit_of))) ||
	    !(s->units = calloc(g->n, sizeof(*s->units))))
		return -ENOMEM;
	for (size_t j = 0; j < g->n; j++) {
		const struct job *job = &g->jobs[j];
		const struct steady_rule rule = { .metric = fileio_files(job)->steady.ss_metric,
						  .slope = fileio_files(job)->steady.ss_slope,
						  .pct = fileio_files(job)->steady.ss_pct,
						  .limit = fileio_files(job)->steady.ss_limit };
		size_t u;

		s->unit_of[j] = SIZE_MAX;
		if (!fileio_files(job)->steady.ss_dur_ns)
			continue;
		u = unit_for(g, j);
		s->unit_of[j] = u;
		if (u < s->nunits)
			continue;
		s->nunits++;
		s->units[u].interval_ns = fileio_files(job)->steady.ss_interval_ns;
		/* As fio: the first sample is of the first whole interval
		 * that starts after ss_ramp. */
		s->units[u].samples_ns = (fileio_files(job)->steady.ss_ramp_ns +
					  fileio_files(job)->steady.ss_interval_ns - 1) /
					 fileio_files(job)->steady.ss_interval_ns *
					 fileio_files(job)->steady.ss_interval_ns;
		s->units[u].first_ns = s->units[u].samples_ns + fileio_files(job)->steady.ss_interval_ns;
		if (steady_init(&s->units[u].win, &rule,
				(unsigned)(fileio_files(job)->steady.ss_dur_ns /
					   fileio_files(job)->steady.ss_interval_ns)))
			return -ENOMEM;
	}
	for (size_t i = 0; i < g->nworkers; i++)
		g->slots[i].w.live = s->unit_of[g->slots[i].w.job - g->jobs] != SIZE_MAX;
	return 0;
}

void run_steady_start(struct run_group *g, uint64_t open_ns)
{
	for (size_t j = 0; j < g->n; j++) {
		struct steady_unit *u;

		if (g->steady.unit_of[j] == SIZE_MAX)
			continue;
		u = &g->steady.units[g->steady.unit_of[j]];
		if (u->t0_ns)
			continue; /* the group's first job sets the clock */
		u->t0_ns = open_ns + fileio_files(&g->jobs[j])->pacing.startdelay_lo_ns + g->jobs[j].ramp_ns;
		/* the totals at the start of the first sample's interval: 0
		 * at the start, else read then */
		u->prev_ns = u->t0_ns;
		u->primed = u->samples_ns == 0;
		u->next_ns = u->t0_ns + (u->primed ? u->first_ns : u->samples_ns);
	}
}

uint64_t run_steady_next(const struct run_group *g)
{
	uint64_t next = UINT64_MAX;

	for (size_t u = 0; u < g->steady.nunits; u++)
		if (!g->steady.units[u].done && g->steady.units[u].next_ns < next)
			next = g->steady.units[u].next_ns;
	return next;
}

/* The unit's totals so far; false when none of its threads runs any more. */
static bool unit_totals(const struct run_group *g, size_t unit, uint64_t *ios, uint64_t *bytes,
			uint64_t *lat_ns)
{
	bool running = false;

	*ios = *bytes = *lat_ns = 0;
	for (size_t i = 0; i < g->started; i++) {
		const struct worker *w = &g->slots[i].w;

		if (g->steady.unit_of[w->job - g->jobs] != unit)
			continue;
		running |= !atomic_load_explicit(&g->slots[i].ended, memory_order_relaxed);
		*ios += atomic_load_explicit(&w->live_ios, memory_order_relaxed);
		*bytes += atomic_load_explicit(&w->live_bytes, memory_order_relaxed);
		*lat_ns += atomic_load_explicit(&w->live_lat_ns, memory_order_relaxed);
	}
	return running;
}

/* The unit's jobs stop as at the end of their runtime. */
static void unit_stop(struct run_group *g, size_t unit)
{
	for (size_t j = 0; j < g->n; j++)
		if (g->steady.unit_of[j] == unit)
			atomic_store(&g->job_stop[j], 1);
}

/* Take unit u's totals at now; from its first sample's interval on, one
 * sample per interval: fio's IOPS and bytes per second over the time
 * since the last check, and the mean latency of the I/Os completed in
 * it (0 when none). */
static void unit_check(struct run_group *g, size_t u, uint64_t now)
{
	struct steady_unit *su = &g->steady.units[u];
	uint64_t ios, bytes, lat_ns;
	const bool running = unit_totals(g, u, &ios, &bytes, &lat_ns);

	if (!running) {
		su->done = true;
		return;
	}
	if (su->primed && now > su->prev_ns) {
		const uint64_t dios = ios - su->prev_ios, dt = now - su->prev_ns;
		const uint64_t iops = (uint64_t)((double)dios * 1e9 / (double)dt);
		const uint64_t bw = (uint64_t)((double)(bytes - su->prev_bytes) * 1e9 / (double)dt);
		const uint64_t lat = dios ? (lat_ns - su->prev_lat_ns) / dios : 0;

		su->end_ns = now - su->t0_ns;
		if (steady_add(&su->win, iops, bw, lat)) {
			su->done = true;
			unit_stop(g, u);
		}
	}
	su->primed = true;
	su->prev_ns = now;
	su->prev_ios = ios;
	su->prev_bytes = bytes;
	su->prev_lat_ns = lat_ns;
	while (su->next_ns <= now)
		su->next_ns += su->interval_ns;
}

void run_steady_check(struct run_group *g, uint64_t now)
{
	for (size_t u = 0; u < g->steady.nunits; u++)
		if (!g->steady.units[u].done && g->steady.units[u].next_ns <= now)
			unit_check(g, u, now);
}

int run_steady_collect(struct run_group *g, size_t j)
{
	const struct steady_unit *su;
	struct run_stats *st = &g->stats[j];

	if (!g->steady.unit_of || g->steady.unit_of[j] == SIZE_MAX)
		return 0;
	su = &g->steady.units[g->steady.unit_of[j]];
	st->steady_samples_ns = su->samples_ns;
	st->steady_end_ns = su->end_ns;
	return steady_copy(&st->steady, &su->win);
}

void run_steady_release(struct run_group *g)
{
	for (size_t u = 0; g->steady.units && u < g->steady.nunits; u++)
		steady_release(&g->steady.units[u].win);
	free(g->steady.units);
	free(g->steady.unit_of);
	memset(&g->steady, 0, sizeof(g->steady));
}
