/*
 * stonewall_s in the runner (run_int.h): each job's stonewall
 * (workload/stonewall.h) made, armed at the gate, and decided by the
 * thread that watches the group — the only thread that may call MPI
 * (the coordinator's most, run/coord.h: an MPI_Allreduce under MPI). Every process decides the
 * same stonewalls in the same order (by stonewall_s, then job), also those
 * whose threads ended before it stood, so that the collectives match.
 */
#include <errno.h>
#include <stdlib.h>

#include "run/run_int.h"

int run_walls_init(struct run_group *g)
{
	if (!(g->walls = calloc(g->n, sizeof(*g->walls))))
		return -ENOMEM;
	for (size_t j = 0; j < g->n; j++) {
		const struct job *job = &g->jobs[j];
		int rc;

		if (job->stonewall_ns &&
		    (rc = stonewall_init(&g->walls[j], (unsigned)job->numjobs, job->stonewall_wearout)))
			return rc;
	}
	return 0;
}

void run_walls_arm(struct run_group *g, uint64_t open_ns)
{
	for (size_t j = 0; j < g->n; j++)
		if (g->walls[j].threads)
			stonewall_arm(&g->walls[j], open_ns + g->jobs[j].stonewall_ns);
}

/* The next stonewall to decide, or g->n: by stonewall_s, then job. */
static size_t next_wall(const struct run_group *g)
{
	size_t next = g->n;

	for (size_t j = 0; j < g->n; j++)
		if (g->walls[j].threads && !g->walls[j].decided &&
		    (next == g->n || g->jobs[j].stonewall_ns < g->jobs[next].stonewall_ns))
			next = j;
	return next;
}

uint64_t run_walls_next(const struct run_group *g)
{
	const size_t j = next_wall(g);

	return j < g->n ? g->walls[j].at_ns : UINT64_MAX;
}

void run_walls_decide(struct run_group *g, uint64_t now, bool all)
{
	size_t j;

	while ((j = next_wall(g)) < g->n && (all || now >= g->walls[j].at_ns)) {
		struct stonewall *s = &g->walls[j];
		struct run_stonewall *st = &g->stats[j].wall;
		uint64_t told_ns;

		stonewall_wait(s, &st->ops, &st->bytes, &told_ns);
		st->target_ops = run_coord_most(g->opts->coord, st->ops);
		stonewall_decide(s, st->target_ops);
		st->at_ns = g->jobs[j].stonewall_ns;
		st->wearout = s->wearout;
		st->told_ns = told_ns > g->gate.open_ns ? told_ns - g->gate.open_ns : 0;
	}
}

void run_walls_release(struct run_group *g)
{
	for (size_t j = 0; g->walls && j < g->n; j++)
		stonewall_release(&g->walls[j]);
	free(g->walls);
	g->walls = NULL;
}
