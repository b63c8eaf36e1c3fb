/*
 * The runner: runs a group of validated jobs together, in named steps —
 * lay out the files, hand each thread its share, start every thread of
 * every job at one gate, watch (system counters, progress), join, merge
 * the threads' statistics per job (collect.c), remove the files. Signals
 * only raise run_stop_signal (signal.c); workers poll it. Nothing here
 * prints: progress and warnings go through run_opts' callbacks.
 */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/logs.h"
#include "run/memlimit.h"
#include "run/run_int.h"
#include "util/clock.h"
#include "workload/fileio/flow.h"
#include "workload/fileio/files.h"

static void *worker_main(void *arg)
{
	struct run_slot *s = arg;
	const struct workload_ops *wl = s->w.job->wl;
	int rc = run_thread_setup(&s->w), prc = wl->prepare(&s->w);

	if ((rc = rc ? rc : prc)) {
		atomic_store(&s->gate->failed, 1);
		atomic_store(&s->group->run_failed, 1);
	}
	pthread_mutex_lock(&s->gate->lock);
	s->gate->ready++;
	pthread_cond_broadcast(&s->gate->cond);
	while (!s->gate->open)
		pthread_cond_wait(&s->gate->cond, &s->gate->lock);
	/* a job's time starts with its I/O, after its startdelay (fio's epoch) */
	s->w.origin_ns = s->gate->open_ns + fileio_files(s->w.job)->pacing.startdelay_lo_ns;
	pthread_mutex_unlock(&s->gate->lock);
	struct schedstat sched0, sched1;

	const uint64_t wall0 = clock_now_ns();

	taskstat_sched_self(&sched0);
	if (!rc && !atomic_load(&s->gate->failed) && run_thread_delay(&s->w) && (rc = wl->run(&s->w)))
		atomic_store(&s->group->run_failed, 1);
	taskstat_sched_self(&sched1);
	s->sched_wall_ns = clock_now_ns() - wall0;
	s->sched = (struct schedstat){ .run_ns = sched1.run_ns - sched0.run_ns,
				       .wait_ns = sched1.wait_ns - sched0.wait_ns,
				       .timeslices = sched1.timeslices - sched0.timeslices };
	stonewall_leave(&s->w); /* one that never passed it: the runner waits for no one */
	atomic_store(&s->ended, 1);
	run_thread_exit(s->group, s->w.job, rc);
	wl->cleanup(&s->w);
	s->rc = rc;
	pthread_mutex_lock(&s->gate->lock);
	s->gate->finished++;
	pthread_cond_broadcast(&s->gate->cond);
	pthread_mutex_unlock(&s->gate->lock);
	return NULL;
}

/* The progress of the running group, for opts->progress. */
static void report_progress(const struct run_group *g, uint64_t now, uint64_t *last_ops, uint64_t *last_ns,
			    bool done)
{
	const struct job *first = &g->jobs[0];
	const uint64_t elapsed = now - g->gate.open_ns;
	struct run_progress p = { .job = first->name, .elapsed_s = (double)elapsed / 1e9, .done = done };

	for (size_t i = 0; i < g->started; i++) {
		const struct job *job = g->slots[i].w.job;

		p.ops += atomic_load_explicit(&g->slots[i].w.progress_ops, memory_order_relaxed);
		if (!job->time_based)
			p.total += g->slots[i].w.ops_total;
	}
	if (first->runtime_ns)
		p.limit_s = (double)(first->runtime_ns + first->ramp_ns) / 1e9;
	if (elapsed > *last_ns)
		p.ops_per_s = (double)(p.ops - *last_ops) / ((double)(elapsed - *last_ns) / 1e9);
	p.mib_per_s = first->eng ? p.ops_per_s * (double)fileio_files(first)->layout.bs / 1048576.0 : 0;
	*last_ops = p.ops;
	*last_ns = elapsed;
	g->opts->progress(g->opts->progress_ctx, &p);
}

/* Whether this process failed while its threads run: a thread's measured
 * loop, or a stop signal (told to the other processes at once). */
static bool failed_here(struct run_group *g)
{
	return atomic_load(&g->run_failed) || atomic_load(&run_stop_signal);
}

/* Between the gate and the last thread's end, the main thread samples the
 * system counters at the sampler's interval and reports progress every
 * second. Called and returns with gate.lock held. */
static void watch(struct run_group *g)
{
	const bool progress = g->opts->progress != NULL;
	uint64_t next_sample = g->gate.open_ns + g->sampler.interval_ns,
		 next_line = g->gate.open_ns + 1000000000ull;
	uint64_t last_ops = 0, last_ns = 0;
	bool reported = false;

	while (g->gate.finished < g->started) {
		uint64_t wake = progress && next_line < next_sample ? next_line : next_sample;
		const uint64_t steady = run_steady_next(g);

		const uint64_t wall = run_walls_next(g), agg = run_aggbw_next(g);

		wake = agg < wake ? agg : wake;
		wake = steady < wake ? steady : wake;
		wake = wall < wake ? wall : wake;
		struct timespec ts = { .tv_sec = (time_t)(wake / 1000000000u),
				       .tv_nsec = (long)(wake % 1000000000u) };

		pthread_cond_timedwait(&g->gate.cond, &g->gate.lock, &ts);
		uint64_t now = clock_now_ns();

		/* another process failed: stop every job here as after a failure
		 * (and a failure here is told before the loop may end) */
		if (run_coord_poll(g->opts->coord, failed_here(g)))
			for (size_t j = 0; j < g->n; j++)
				atomic_store(&g->job_stop[j], 1);
		if (g->gate.finished >= g->started)
			break;
		if (now >= wall) { /* the threads must be able to finish meanwhile */
			pthread_mutex_unlock(&g->gate.lock);
			run_walls_decide(g, now, false);
			pthread_mutex_lock(&g->gate.lock);
		}
		run_steady_check(g, now);
		run_aggbw_check(g, now);
		if (now >= next_sample) {
			sampler_take(&g->sampler, now);
			run_reach_note(g);
			while (next_sample <= now)
				next_sample += g->sampler.interval_ns;
		}
		if (progress && now >= next_line) {
			report_progress(g, now, &last_ops, &last_ns, false);
			reported = true;
			while (next_line <= now)
				next_line += 1000000000ull;
		}
	}
	if (failed_here(g))
		run_coord_poll(g->opts->coord, true); /* told once, if not yet */
	/* every process decides every stonewall, also one whose threads ended before it */
	run_walls_decide(g, UINT64_MAX, true);
	if (reported)
		report_progress(g, clock_now_ns(), &last_ops, &last_ns, true);
}

/* A stop signal is this process's failure: under MPI the others hear of
 * it at the next phase, with the signal named, and stop too. */
static int signalled(int rc, struct dbio_err *err)
{
	int sig = atomic_load(&run_stop_signal);

	if (sig && (!rc || rc == DBIO_ESTOPPED))
		return dbio_err_set(err, DBIO_ESTOPPED, "interrupted by %s", run_signal_name(sig));
	return rc;
}

/* Every allocation of the group, before anything is made on disk. */
static int group_alloc(struct run_group *g, struct dbio_err *err)
{
	pthread_condattr_t cattr;
	size_t nfiles = 0;

	pthread_condattr_init(&cattr);
	pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
	pthread_cond_init(&g->gate.cond, &cattr);
	pthread_condattr_destroy(&cattr);
	pthread_mutex_init(&g->gate.lock, NULL);
	sampler_init(&g->sampler, g->jobs, g->n);
	for (size_t j = 0; j < g->n; j++) {
		run_stats_init(&g->stats[j]);
		g->stats[j].threads = (unsigned)g->jobs[j].numjobs;
		g->nworkers += g->jobs[j].numjobs;
		/* A shared slice can straddle a file boundary: one extra each. */
		nfiles += (fileio_files(&g->jobs[j])->layout.nrfiles + 1) * g->jobs[j].numjobs;
	}
	g->layouts = calloc(g->n, sizeof(*g->layouts));
	g->job_stop = calloc(g->n, sizeof(*g->job_stop));
	g->probes = calloc(g->n, sizeof(*g->probes));
	g->shared = calloc(g->n, sizeof(*g->shared));
	g->slots = calloc(g->nworkers, sizeof(*g->slots));
	g->threads = calloc(g->nworkers, sizeof(*g->threads));
	g->wfiles = calloc(nfiles, sizeof(*g->wfiles));
	g->flows = calloc(g->n, sizeof(*g->flows));
	if (run_walls_init(g))
		return dbio_err_set(err, -ENOMEM, "out of memory for the stonewalls");
	for (size_t j = 0; g->probes && j < g->n; j++)
		g->probes[j].fd = -1;
	if (!g->layouts || !g->job_stop || !g->probes || !g->shared || !g->slots || !g->threads ||
	    !g->wfiles || !g->flows)
		return dbio_err_set(err, -ENOMEM, "out of memory for %zu threads", g->nworkers);
	return 0;
}

/* The memory limit, the files, the workloads' shared state, the probes
 * and the page cache: everything before the threads. */
static int group_prepare(struct run_group *g, struct dbio_err *err)
{
	uint64_t limit = 0;
	bool drop = false;
	int rc = 0;

	for (size_t j = 0; j < g->n; j++)
		if (g->jobs[j].mem_limit && (!limit || g->jobs[j].mem_limit < limit))
			limit = g->jobs[j].mem_limit;
	if (limit && (rc = memlimit_make(&g->mem, limit, err)))
		return rc;
	if (limit)
		sampler_cgroup(&g->sampler, g->mem.path);
	for (g->laid = 0; g->laid < g->n && !rc; g->laid++)
		rc = layout_init(&g->layouts[g->laid], &g->jobs[g->laid],
				 g->jobs[g->laid].wl->caps & WORKLOAD_CAP_FILES, g->opts->keep, err);
	for (size_t j = 0; j < g->laid; j++) {
		g->layouts[j].adopt = g->opts->adopt;
		g->layouts[j].adopt_any = g->opts->adopt_any;
	}
	if (!rc)
		layout_share(g->layouts, g->n);
	for (size_t j = 0; j < g->n && !rc; j++)
		if (g->jobs[j].wl->caps & WORKLOAD_CAP_FILES)
			layout_clear_leftovers(&g->layouts[j], g->opts);
	for (size_t j = 0; j < g->n && !rc; j++) {
		const struct job *job = &g->jobs[j];
		const bool files = job->wl->caps & WORKLOAD_CAP_FILES;

		if (files)
			rc = layout_create(&g->layouts[j], err);
		/* Under mem_limit the layout's pages were cached outside the
		 * limit (by dbio, not the job's process): dropped, so that the
		 * job reads through its own limited cache. */
		if (!rc && files && (job->cache == CACHE_FADVISE || g->mem.made))
			rc = layout_invalidate(&g->layouts[j], err);
		drop |= job->cache == CACHE_DROP;
	}
	for (size_t j = 0; j < g->n && !rc; j++) {
		const struct workload_ops *wl = g->jobs[j].wl;

		if (!wl->shared_size)
			continue;
		if (!(g->shared[j] = calloc(1, wl->shared_size)))
			rc = dbio_err_set(err, -ENOMEM, "out of memory");
		else if ((rc = wl->shared_init(g->shared[j], &g->jobs[j], err))) {
			free(g->shared[j]);
			g->shared[j] = NULL;
		}
	}
	for (size_t j = 0; j < g->n && !rc; j++)
		if (g->jobs[j].probe != PROBE_NONE)
			rc = probe_init(&g->probes[j], &g->jobs[j], g->layouts[j].dirs[0].fd,
					g->layouts[j].dirs[0].path, err);
	if (!rc && drop)
		rc = run_drop_caches(err);
	return rc;
}

/* Points to reserve so that a series normally never grows while running. */
static size_t series_hint(const struct job *job, const struct worker *w)
{
	uint64_t n = 64;

	if (job->log_interval.ns && job->runtime_ns)
		n = (job->ramp_ns + job->runtime_ns) / job->log_interval.ns + 2;
	else if (job->log_interval.ops && !job->time_based)
		n = w->ops_total / job->log_interval.ops + 2;
	return n > (1u << 20) ? 1u << 20 : (size_t)n;
}

/* log_interval's grid, or for workloads without files (databases) one
 * point per batch when no log_interval is given. */
static int init_series(const struct job *job, struct worker *w)
{
	if (job->wl->series_points && !job->log_interval.ns && !job->log_interval.ops)
		return series_init_manual(&w->series, job->wl->series_points(job) + 8);
	return series_init(&w->series, job->log_interval.ns, job->log_interval.ops, series_hint(job, w));
}

/* Hand every thread of every job its share: files, blocks, series, and
 * per-directory counters for a file job over several directories. */
static int group_assign(struct run_group *g, struct dbio_err *err)
{
	size_t s = 0, fi = 0;

	for (size_t j = 0; j < g->n; j++) {
		const struct job *job = &g->jobs[j];
		const size_t ndirs = g->layouts[j].ndirs;
		const bool per_dir = ndirs > 1 && (job->wl->caps & WORKLOAD_CAP_FILES);

		if (per_dir) {
			if (!(g->stats[j].targets = calloc(ndirs, sizeof(struct target_io))))
				return dbio_err_set(err, -ENOMEM, "out of memory");
			g->stats[j].ntargets = ndirs;
		}
		for (unsigned t = 0; t < job->numjobs; t++, s++) {
			struct worker *w = &g->slots[s].w;

			run_assign(w, job, &g->layouts[j], &g->wfiles[fi], t);
			fi += w->nfiles;
			/* verify_state_load: read again, as the check read it */
			if (fileio_files(job)->verify.verify_state_load &&
			    (job->wl->caps & WORKLOAD_CAP_FILES)) {
				int rc = run_vstate_load(job, g->layouts[j].dirs[0].fd,
							 g->layouts[j].dirs[0].path, t, &w->vstate_writes,
							 err);

				if (rc)
					return rc;
				w->vstate = true;
			}
			w->stop = &run_stop_signal;
			w->job_stop = &g->job_stop[j];
			w->shared = g->shared[j];
			w->flow = run_flow_of(g, job);
			w->live_dirs = g->opts->agg_bw != NULL;
			w->wall = g->walls[j].threads ? &g->walls[j] : NULL;
			g->slots[s].gate = &g->gate;
			g->slots[s].group = g;
			if (init_series(job, w))
				return dbio_err_set(err, -ENOMEM, "out of memory for the time series");
			if (run_logs_assign(w, job))
				return dbio_err_set(err, -ENOMEM, "out of memory for the log files");
			if (per_dir && !(w->tio = calloc(ndirs, sizeof(struct target_io))))
				return dbio_err_set(err, -ENOMEM, "out of memory");
		}
	}
	return run_steady_init(g) ? dbio_err_set(err, -ENOMEM, "out of memory for the steady state") : 0;
}

/* Whether a job of the group asked for trace=block (validation keeps it
 * from mem_limit, so bpftrace never runs in the limited child). */
static bool traced(const struct run_group *g)
{
	for (size_t j = 0; j < g->n; j++)
		if (g->jobs[j].trace == TRACE_MODE_BLOCK)
			return true;
	return false;
}

/* After the threads' last I/O: bpftrace's counts, to every job of the
 * group that asked (they share the devices). rc: the group's so far. */
static int trace_end(struct run_group *g, int rc, struct dbio_err *err)
{
	struct trace_stats *ts = NULL;
	int trc = tracer_stop(&g->tracer, &ts, err);

	for (size_t j = 0; !trc && j < g->n; j++) {
		if (g->jobs[j].trace != TRACE_MODE_BLOCK)
			continue;
		if (!(g->stats[j].trace = malloc(sizeof(*ts)))) {
			trc = dbio_err_set(err, -ENOMEM, "out of memory");
			break;
		}
		memcpy(g->stats[j].trace, ts, sizeof(*ts));
	}
	free(ts);
	return rc ? rc : trc;
}

/* Start every thread; once all have prepared, open the gate, start the
 * probes and watch until the last thread is done, then join them. */
static int group_start(struct run_group *g, struct dbio_err *err)
{
	int rc = 0;

	for (size_t j = 0; j < g->n; j++)
		g->stats[j].started_wall_ns = clock_wall_ns();
	/* A lone worker thread would get a malloc arena of its own, which
	 * made gdbm inserts 7-8 % slower than the same calls on the main
	 * thread (bench/README.md); with one thread there is nothing to
	 * contend for, so it shares the main arena. */
	if (g->nworkers == 1)
		mallopt(M_ARENA_MAX, 1);
	for (g->started = 0; g->started < g->nworkers; g->started++) {
		int prc = pthread_create(&g->threads[g->started], NULL, worker_main, &g->slots[g->started]);

		if (prc) {
			atomic_store(&g->gate.failed, 1);
			rc = dbio_err_set(err, -prc, "cannot start thread %zu of %zu: %s", g->started + 1,
					  g->nworkers, strerror(prc));
			break;
		}
	}
	for (size_t i = g->started; i < g->nworkers; i++)
		stonewall_leave(&g->slots[i].w); /* never started: nothing to wait for */
	pthread_mutex_lock(&g->gate.lock);
	while (g->gate.ready < g->started)
		pthread_cond_wait(&g->gate.cond, &g->gate.lock);
	/* the other processes' threads are ready too: all start at once */
	if (g->opts->coord && (rc = run_coord_barrier(g->opts->coord, "start", signalled(rc, err), err)))
		atomic_store(&g->gate.failed, 1);
	if (!rc && traced(g) && (rc = tracer_start(&g->tracer, &g->sampler, &run_stop_signal, err))) {
		tracer_release(&g->tracer); /* killed and reaped now, before the threads end */
		atomic_store(&g->gate.failed, 1);
	}
	g->gate.open = true;
	g->gate.open_ns = clock_now_ns();
	g->sampler.origin_ns = g->gate.open_ns;
	run_walls_arm(g, g->gate.open_ns);
	run_steady_start(g, g->gate.open_ns);
	run_aggbw_arm(g, g->gate.open_ns);
	sampler_take(&g->sampler, g->gate.open_ns);
	pthread_cond_broadcast(&g->gate.cond);
	for (size_t j = 0; j < g->n; j++)
		if (g->jobs[j].probe != PROBE_NONE && !rc)
			rc = probe_start(&g->probes[j], g->gate.open_ns, err);
	watch(g);
	pthread_mutex_unlock(&g->gate.lock);
	for (size_t j = 0; j < g->n; j++)
		probe_stop(&g->probes[j]);
	sampler_take(&g->sampler, clock_now_ns());
	if (g->tracer.pid)
		rc = trace_end(g, rc, err);
	for (size_t i = 0; i < g->started; i++)
		pthread_join(g->threads[i], NULL);
	run_aggbw_end(g);
	return rc;
}

/* Undo everything group_alloc and group_prepare made, files last. */
static void group_release(struct run_group *g)
{
	if (g->mem.made) {
		uint64_t peak = 0;

		memlimit_peak(&g->mem, &peak);
		for (size_t j = 0; j < g->n; j++) {
			g->stats[j].mem_limit_bytes = g->mem.limit_bytes;
			g->stats[j].mem_peak_bytes = peak;
		}
	}
	for (size_t j = 0; g->probes && j < g->n; j++)
		probe_release(&g->probes[j]);
	for (size_t j = 0; g->shared && j < g->n; j++)
		if (g->shared[j]) {
			g->jobs[j].wl->shared_release(g->shared[j]);
			free(g->shared[j]);
		}
	for (size_t i = 0; g->slots && i < g->nworkers; i++) {
		char why[4400];

		if (workload_db_dir_remove(&g->slots[i].w, g->opts->keep, why, sizeof(why)))
			run_warn(g->opts, "%s", why);
	}
	while (g->layouts && g->laid-- > 0) {
		layout_remove_thread_files(&g->layouts[g->laid],
					   g->opts); /* what the threads made themselves */
		layout_release(&g->layouts[g->laid], g->opts);
	}
	memlimit_remove(&g->mem);
	for (size_t i = 0; g->slots && i < g->nworkers; i++) {
		series_release(&g->slots[i].w.series);
		run_logs_release(&g->slots[i].w);
		free(g->slots[i].w.tio);
		for (unsigned p = 0; p < WORKLOAD_MAX_PHASES; p++)
			free(g->slots[i].w.phases[p].lat);
	}
	tracer_release(&g->tracer); /* bpftrace killed, if a failure left it running */
	sampler_release(&g->sampler);
	run_steady_release(g);
	run_walls_release(g);
	pthread_cond_destroy(&g->gate.cond);
	pthread_mutex_destroy(&g->gate.lock);
	free(g->wfiles);
	free(g->flows);
	free(g->threads);
	free(g->slots);
	free(g->job_stop);
	free(g->probes);
	free(g->shared);
	free(g->layouts);
}

/* From handing out the work to the logs: what runs in mem_limit's child
 * process (limited.c), or in dbio's without one. */
static int group_body(struct run_group *g, struct dbio_err *err)
{
	const struct run_opts *opts = g->opts;
	int rc = group_assign(g, err);

	if (opts->coord) /* under MPI: every rank laid out, or every rank stops */
		rc = run_coord_barrier(opts->coord, "layout", signalled(rc, err), err);
	if (!rc && (group_start(g, err) | run_collect(g, err)))
		rc = err->code;				  /* the first failure */
	if (g->started && run_vstate_save(g, err) && !rc) /* fio saves it after a failure too */
		rc = err->code;
	if (g->started && run_logs_write(g, err) && !rc) /* fio writes its logs after a failure too */
		rc = err->code;
	if (opts->coord)
		rc = run_coord_barrier(opts->coord, "end", signalled(rc, err), err);
	return rc;
}

int run_group(const struct job *jobs, size_t n, const struct run_opts *opts, struct run_stats *stats,
	      struct dbio_err *err)
{
	struct run_group g = { .jobs = jobs, .n = n, .opts = opts, .stats = stats };
	int rc = group_alloc(&g, err);
	size_t execd = 0; /* the jobs whose prerun, if any, succeeded */

	if (!rc)
		rc = group_prepare(&g, err);
	for (; execd < n && !rc; execd++) /* fio: after the layout, before the I/O */
		if ((rc = run_exec(&jobs[execd], false, &stats[execd].prerun, err)))
			break;
	if (!rc)
		rc = g.mem.made ? run_limited(&g, group_body, err) : group_body(&g, err);
	else if (opts->coord) /* under MPI: the others wait at these two; tell them */
		rc = run_coord_barrier(opts->coord, "end",
				       run_coord_barrier(opts->coord, "layout", signalled(rc, err), err),
				       err);
	for (size_t j = 0; j < execd; j++) { /* not after a failed prerun, as fio */
		struct dbio_err perr = { 0 };

		if (run_exec(&jobs[j], true, &stats[j].postrun, &perr) && !rc)
			rc = dbio_err_set(err, perr.code, "%s", perr.msg);
	}
	rc = signalled(rc, err);
	if (rc)
		for (size_t j = 0; j < n; j++) {
			stats[j].partial = true;
			if (j < g.laid)
				g.layouts[j].carry = false; /* no later group will run */
		}
	if (atomic_load(&g.ended_all))
		stats[atomic_load(&g.ended_all) - 1].ended_all = true;
	group_release(&g);
	return rc;
}
