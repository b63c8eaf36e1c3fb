/*
 * fileio: the fio-style file workload. Each operation is a read or write of
 * bs bytes at a block chosen by the offset generator, issued through the
 * job's engine, timed with one clock read per operation, and followed by an
 * fsync or fdatasync every N writes when the job asks for it (as fio: one
 * sync per write, the strongest due, and none after the last write of a job
 * bound by size, since fio syncs before the next I/O).
 *
 * Two loops. Synchronous engines (psync, sync, mmap, null) run the tight
 * loop: one engine call and one clock read per operation, the end of one
 * operation being the start of the next. Queued engines (io_uring, libaio)
 * run the queued loop: fill the free slots (up to iodepth), submitting
 * every iodepth_batch_submit of them (by default all at once), reap as
 * iodepth_batch_complete_min and _max say, down to iodepth_low once the
 * queue was full; an I/O's latency runs from the end of
 * the submit that carried it to the reap that returned it (fio's clat), and
 * its submission latency from the start of the batch to the end of the
 * submit (fio's slat). Before an fsync or fdatasync the queue is drained, so
 * that the sync covers every write before it, as in the synchronous loop.
 *
 * fio's pacing (pace.h: rate, thinktime, rate_min) waits before an I/O is
 * issued, the queued loop after draining what is in flight (but for a
 * rate wait with io_submit_mode=offload, which reaps as completions come:
 * pace_queue_pause), so that no latency includes a wait; the clock is
 * read again after it.
 *
 * Memory: prepare makes the thread's state (struct fileio_state, in
 * w->priv) and one block of iodepth buffers of bs bytes (each 4 KiB
 * aligned, all holding the same seeded data): fileio_pages.c, which oltp
 * builds on too (workload_int.h).
 */
#include <errno.h>
#include <string.h>

#include "util/clock.h"
#include "util/units.h"
#include "workload/fileio/fileio_int.h"
#include "workload/fileio/lattarget.h"
#include "workload/stonewall.h"
#include "workload/fileio/verify.h"
#include "workload/fileio/jobsync.h"
#include "workload/fileio/keys.h"
#include "workload/workload.h"
#include "workload/workload_int.h"
#include "workload/fileio/files.h"
#include "workload/fileio/replay.h"
#include "workload/fileio/fname.h"
#include "workload/fileio/durable.h"

static int fileio_prepare(struct worker *w)
{
	const struct job *job = w->job;
	struct fileio_state *st;
	int rc = fileio_pages_setup(w, &st);

	w->priv = st;
	if (rc)
		return rc;
	if (where_init(&st->where, w, worker_seed(w)))
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory for the random map",
				    w->index);
	pace_init(&st->pace, job, worker_seed(w) ^ 0x9ace5eedull, w->stop, w->job_stop);
	pace_attach_flow(&st->pace, w->flow);
	rng_seed(&st->prio_rng, worker_seed(w) ^ 0x10971011ull);
	if ((rc = replay_prepare(w)))
		return rc;
	rc = verify_prepare(&st->ver, w, &st->where, st->bufs, st->nbufs);
	return rc ? rc : fileio_durable_start(w, &st->where, &st->durable);
}

/* The sync due after a thread's writes-th write, as a bit (1 << op): as
 * fio, one per write, the strongest whose every-N count it is — fsync,
 * else fdatasync, else sync_file_range. */
static unsigned syncs_due(const struct job *job, uint64_t writes)
{
	if (fileio_files(job)->layout.fsync && !fileio_files(job)->layout.fsync_scope &&
	    writes % fileio_files(job)->layout.fsync == 0)
		return 1u << OP_FSYNC;
	if (fileio_files(job)->layout.fdatasync && !fileio_files(job)->layout.fsync_scope &&
	    writes % fileio_files(job)->layout.fdatasync == 0)
		return 1u << OP_FDATASYNC;
	return fileio_files(job)->layout.sfr_every && writes % fileio_files(job)->layout.sfr_every == 0
		       ? 1u << OP_SYNC_FILE_RANGE
		       : 0;
}

/* Run the syncs of due on fd, in that order, each timed; 0, or -errno with
 * the failed one in *op. */
static int run_syncs(struct worker *w, unsigned file, unsigned due, bool measuring, uint64_t *now,
		     enum op_type *op)
{
	static const enum op_type order[] = { OP_FSYNC, OP_FDATASYNC, OP_SYNC_FILE_RANGE };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		int rc;

		if (!(due & (1u << order[i])))
			continue;
		*op = order[i];
		const uint64_t t0 = *now;

		if ((rc = fileio_timed_sync(w, file, order[i], measuring, now)))
			return rc;
		if (measuring && ((struct fileio_state *)w->priv)->cap)
			replay_capture(((struct fileio_state *)w->priv)->cap,
				       &(struct io_req){ .op = order[i], .file = file }, t0);
	}
	return due & JOBSYNC_ROUND ? jobsync_run(w, measuring, now, op, &file) : 0;
}

/* fio's synchronous engines issue the sync due at the write count once
 * more when a new pass starts (where.resync), on the file last written;
 * 0, or the failure with *op the sync that failed. */
static int resync(struct worker *w, unsigned file, uint64_t writes, bool measuring, uint64_t *now,
		  enum op_type *op)
{
	struct fileio_state *st = w->priv;
	enum op_type failed;
	int rc = 0;

	st->where.resync = false;
	if (writes && (rc = run_syncs(w, file, syncs_due(w->job, writes), measuring, now, &failed)))
		*op = failed;
	return rc;
}

/* stonewall_wearout: whether the thread may issue one more I/O (past
 * the stonewall, one of the job's remainder); true without a stonewall
 * or before it. */
static inline bool wall_allows(struct worker *w)
{
	return !w->wall || !w->wall_told || stonewall_take(w->wall);
}

/* What a write carries (content.h); its latency leaves the filling out, as
 * fio's. */
static void fill_write(struct fileio_state *st, const struct io_req *req, uint64_t *now)
{
	content_write(&st->content, req->buf, req->len, req->off);
	if (st->content.refill)
		*now = clock_now_ns();
}

/* The end of either loop, when no I/O failed: end_fsync, then verify's
 * read back (fio's do_verify); the times and the usage of the thread. */
static int run_end(struct worker *w, uint64_t writes, bool measuring, uint64_t now, struct usage *u0)
{
	const struct fileio_state *st = w->priv;
	const struct io_req req = { .op = OP_FSYNC };
	struct usage u1;
	int rc;

	if (!w->err.code && fileio_files(w->job)->layout.end_fsync && writes && !atomic_load(w->stop) &&
	    !atomic_load(w->job_stop))
		for (unsigned f = 0; f < w->nfiles; f++)
			if ((rc = fileio_timed_sync(w, f, OP_FSYNC, measuring, &now))) {
				fileio_io_failed(w, &req, f, rc);
				break;
			}
	if (st->ver)
		verify_end(st->ver, w, st->bufs[0], measuring, &now);
	if (!measuring) {
		w->start_ns = now;
		usage_thread(u0);
	} else if (series_on(&w->series)) {
		series_finish(&w->series, now);
	}
	w->end_ns = now;
	usage_thread(&u1);
	w->usage = usage_sub(&u1, u0);
	return w->err.code;
}

/* A measured I/O of the synchronous loop that ended at t after lat_ns:
 * its statistics, series, steady-state counters, directory and log. */
static inline void sync_note(struct worker *w, const struct io_req *req, uint64_t lat_ns, uint64_t t,
			     bool series)
{
	op_stats_add(&w->stats[req->op], req->len, lat_ns);
	if (series)
		series_add(&w->series, req->op, req->len, lat_ns, t);
	worker_live_add(w, req->op, req->len, lat_ns);
	if (w->tio)
		target_add(w, req->file, req->op, req->len, t);
	if (w->iolog)
		logs_io(w->iolog, req, lat_ns, 0, t);
	if (((struct fileio_state *)w->priv)->cap)
		replay_capture(((struct fileio_state *)w->priv)->cap, req, t - lat_ns);
}

static int fileio_run_sync(struct worker *w)
{
	const struct job *job = w->job;
	struct fileio_state *st = w->priv;
	struct where *wh = &st->where;
	const bool mixed =
		fileio_files(job)->layout.rw == RW_RANDRW || fileio_files(job)->layout.rw == RW_READWRITE;
	const enum op_type fixed_op = where_first_op(job);
	const bool rewrite = where_pairs(job);
	const bool series = series_on(&w->series);
	uint64_t now = clock_now_ns();
	const uint64_t ramp_end = now + job->ramp_ns;
	const uint64_t deadline = job->runtime_ns ? ramp_end + job->runtime_ns : UINT64_MAX;
	uint64_t stop_at = stonewall_stop_at(w, deadline); /* the stonewall, then the deadline */
	bool measuring = job->ramp_ns == 0;
	struct io_req req = { .buf = st->buf, .prio = fileio_files(job)->logs.cmdprio_default };
	uint64_t done = 0, writes = 0;
	struct usage u0 = { 0 };
	struct pace *pace = &st->pace;
	size_t file = 0;
	bool skipped = false;
	int rc = 0;

	pace_start(pace, now);
	if (measuring) {
		w->start_ns = now;
		usage_thread(&u0);
		series_start(&w->series, w->series.interval_ns ? w->origin_ns : now);
	}
	for (;;) {
		if (atomic_load_explicit(w->stop, memory_order_relaxed) ||
		    atomic_load_explicit(w->job_stop, memory_order_relaxed) ||
		    (now >= stop_at && !stonewall_past(w, now, deadline, &stop_at)))
			break;
		if (!measuring && now >= ramp_end) {
			/* The ramp's I/O does not count: a size-bound job
			 * measures its whole size after the ramp. */
			measuring = true;
			done = writes = 0;
			where_restart(wh);
			w->start_ns = now;
			usage_thread(&u0);
			series_start(&w->series, w->series.interval_ns ? w->origin_ns + job->ramp_ns : now);
			pace_start(pace, now);
		}
		/* the budget before the rate: no wait after the last I/O; and
		 * before the draw of a mixed job's direction, as fio's */
		if (!where_more(wh))
			break;
		req.op = mixed ? where_mix_op(wh) : fixed_op;
		if (pace->gate && !pace_rate_wait(pace, &req.op, &now, stop_at)) {
			if (now >= stop_at && stop_at < deadline)
				continue; /* the rate waited up to the stonewall: pass it above */
			break;
		}
		if (!where_next(wh, req.op, &req) || !wall_allows(w))
			break;
		if (wh->resync && (rc = resync(w, (unsigned)file, writes, measuring, &now, &req.op)))
			break;
		file = req.file;
		req.fd = w->files[file].fd;
		for (;;) {
			/* rw=rewrite writes back what it read, unchanged; trimwrite's writes are new */
			if (req.op == OP_WRITE && st->content.per_write &&
			    fileio_files(job)->layout.rw != RW_REWRITE)
				fill_write(st, &req, &now);
			if (st->ver && req.op == OP_WRITE)
				verify_write(st->ver, &req, wh->pass);
			rc = st->durable ? fileio_durable_io(w, &req) : w->eng.ops->io(&w->eng, &req);
			uint64_t t = clock_now_ns();

			if (rc && fileio_io_continue(w, &req, rc)) {
				rc = 0;
				skipped = true;
				now = t;
				break;
			}
			if (rc || (st->ver && req.op == OP_READ && (rc = verify_read_done(st->ver, w, &req))))
				break;
			if (pace->on) {
				pace_issued(pace, req.op, req.len);
				pace->completed++;
			}
			if (measuring)
				sync_note(w, &req, t - now, t, series);
			now = t;
			if (!rewrite || req.op == OP_WRITE)
				break;
			req.op = OP_WRITE; /* rewrite, trimwrite: the block is then written */
		}
		if (rc)
			break;
		done++;
		atomic_store_explicit(&w->progress_ops, done, memory_order_relaxed);
		if (skipped) {
			skipped = false; /* failed, counted in w->ioerr: nothing of it is done */
			continue;
		}
		if (pace->think && pace_think_due(pace, now))
			now = pace_think(pace, req.op, now, stop_at);
		if (pace->floor && measuring && (rc = pace_floor_check(pace, w, now)))
			break;
		writes += req.op == OP_WRITE;
		if (req.op == OP_WRITE && st->ver &&
		    (rc = verify_backlog(st->ver, w, st->buf, measuring, &now)))
			break;
		/* As fio: no sync after the last write of a job bound by size
		 * (fio syncs before the next I/O, and there is none). */
		const bool more = where_more(wh);
		const unsigned due = (more && req.op == OP_WRITE ? syncs_due(job, writes) : 0) |
				     jobsync_due(w, req.op, more);

		if (due && (rc = run_syncs(w, req.file, due, measuring, &now, &req.op)))
			break;
	}
	if (rc && !verify_filled(w, rc, req.op))
		fileio_io_failed(w, &req, file, rc);
	return run_end(w, writes, measuring, now, &u0);
}

/* The queued loop's state, shared by its steps. */
struct qloop {
	struct worker *w;
	struct fileio_state *st;
	const struct engine_ops *ops;
	const struct job *job;
	struct where *wh; /* the next I/O and the budget */
	bool exhausted;	  /* the budget is spent: issue nothing more */
	bool mixed;	  /* reads and writes mixed by rwmixread */
	enum op_type op;  /* else: this one */
	bool series;	  /* a series is kept */
	bool measuring;	  /* past the ramp */
	bool stopping;	  /* issue nothing more; drain */
	bool at_wall;	  /* at the stonewall: issue nothing, drain, then pass it */
	uint64_t stop_at; /* the stonewall, then the deadline */
	uint64_t issued, done, writes;
	unsigned inflight, nfree;
	unsigned due, sync_file; /* syncs_due of the last write, and its file */
	bool verify_due;	 /* a verify_backlog check: fill nothing, drain, then read back */
	struct io_req failed;	 /* the first failure's request */
	int rc;			 /* the first failure */
	uint64_t now;
	struct usage u0;
	struct pace *pace;
	bool hold; /* the next I/O is held_op (the rate chose it) */
	enum op_type held_op, last_op;
	const struct fileio_conf *conf; /* the batch keys */
	bool poll;		   /* iodepth_batch_complete_min and _max 0: reap after every I/O, as fio */
	struct lattarget lt;	   /* latency_target's search for a depth */
	bool lt_drain, lt_restart; /* fill nothing until drained; then measure anew */
	uint64_t completed;	   /* I/Os completed, measured or not */
	bool serialize;		   /* serialize_overlap: no two I/Os in flight overlap */
	struct fileio_slot *held;  /* serialize_overlap: the next I/O, waiting for one it overlaps */
};

static inline void q_fail(struct qloop *q, int rc, const struct io_req *req)
{
	if (!q->rc) {
		q->rc = rc;
		q->failed = *req;
	}
	q->stopping = true;
}

/* Start measuring: at the start, or when the ramp ends (then what the
 * ramp issued and is still in flight is not counted, and the budget starts
 * over; at the start it is as prepare left it: verify_only spent it). */
static void q_measure(struct qloop *q, uint64_t origin_ns, bool ramp_end)
{
	struct worker *w = q->w;

	q->measuring = true;
	q->issued = q->done = q->writes = 0;
	if (ramp_end) {
		q->exhausted = false;
		where_restart(q->wh);
	}
	w->start_ns = q->now;
	usage_thread(&q->u0);
	series_start(&w->series, w->series.interval_ns ? origin_ns : q->now);
	pace_start(q->pace, q->now);
	lattarget_init(&q->lt, q->job, q->now, q->completed);
}

/* latency_target's search says what to do. */
static void q_lattarget(struct qloop *q, enum lattarget_act act, const struct io_req *req)
{
	char a[32], b[32];

	if (act == LT_DRAIN || act == LT_RESTART)
		q->lt_drain = true;
	q->lt_restart |= act == LT_RESTART;
	if (act == LT_DONE)
		q->stopping = true;
	if (act != LT_FAILED)
		return;
	q_fail(q,
	       dbio_err_set(&q->w->err, -ETIMEDOUT,
			    "job '%s' thread %u: latency_target=%s not met at queue depth 1: a %s took %s",
			    q->job->name, q->w->index, units_fmt_ns(a, sizeof(a), q->lt.target_ns),
			    op_type_name(req->op), units_fmt_ns(b, sizeof(b), q->lt.missed_lat_ns)),
	       req);
}

/* The search is over: what was measured at other depths goes, and the
 * last window measures the depth found (fio's reset_io_stats; the budget
 * goes on). */
static void q_lattarget_restart(struct qloop *q)
{
	struct worker *w = q->w;

	for (int t = 0; t < OP_NTYPES; t++)
		op_stats_init(&w->stats[t]);
	hist_init(&w->slat_ns);
	queue_lat_init(&w->qlat);
	q->done = 0;
	w->start_ns = q->now;
	usage_thread(&q->u0);
	if (q->series)
		series_start(&w->series, q->now);
	q->lt_restart = false;
}

static void q_submit(struct qloop *q, unsigned k, uint64_t t0);

/* The direction of the next request, or PACE_RATE set when the rate makes it
 * wait (the direction is then held for after the wait). */
static bool q_next_op(struct qloop *q, enum op_type *op)
{
	uint64_t wait;

	*op = q->hold ? q->held_op : q->mixed ? where_mix_op(q->wh) : q->op;
	q->hold = false;
	if (!q->pace->gate || !(wait = pace_queue_wait_ns(q->pace, op, q->now)))
		return true;
	q->hold = true;
	q->held_op = *op;
	q->pace->pause = PACE_RATE;
	q->pace->pause_until = q->now + wait;
	return false;
}

/* Queue the request of slot (its place and req->op drawn): its file,
 * priority, data; the syncs and pauses it makes due. false when the
 * engine refused it (the loop then stops). */
static bool q_issue(struct qloop *q, struct fileio_slot *slot)
{
	struct worker *w = q->w;
	struct fileio_state *st = q->st;
	struct io_req *req = &slot->req;
	const enum op_type op = req->op;
	int rc;

	req->fd = w->files[req->file].fd;
	q->last_op = op;
	req->prio = cmdprio_pick(q->job, &st->prio_rng, op, req->len);
	slot->measured = q->measuring;
	if (op == OP_WRITE && st->content.per_write)
		content_write(&st->content, req->buf, req->len, req->off);
	if (st->ver && op == OP_WRITE)
		verify_write(st->ver, req, q->wh->pass);
	if ((rc = q->ops->queue(&w->eng, req))) {
		q->nfree++;
		q_fail(q, rc, req);
		return false;
	}
	slot->inflight = true;
	q->issued++;
	if (op == OP_WRITE) {
		q->writes++;
		q->due = where_more(q->wh) ? syncs_due(q->job, q->writes) : 0; /* as above */
		q->sync_file = req->file;
	}
	q->due |= jobsync_due(w, op, where_more(q->wh)); /* fsync_scope=job */
	if (q->pace->on) {
		pace_issued(q->pace, op, req->len);
		if (q->pace->think && pace_think_due(q->pace, q->now))
			q->pace->pause = PACE_THINK;
	}
	return true;
}

/* serialize_overlap's held request: dropped when the loop stops, kept
 * while it overlaps an I/O in flight (or a sync or pause is due), else
 * issued first. false: fill nothing now. */
static bool q_held(struct qloop *q, unsigned *k)
{
	struct fileio_slot *slot = q->held;

	if (!slot)
		return true;
	if (q->stopping) {
		q->held = NULL;
		q->st->free[q->nfree++] = slot->req.slot; /* free again */
		return false;
	}
	if (q->at_wall || q->due || q->pace->pause || q->lt_drain || overlaps_inflight(q->st, slot))
		return false;
	q->held = NULL;
	q->st->free[q->nfree] = slot->req.slot; /* where a slot just taken is: q_submit finds it */
	if (!q_issue(q, slot))
		return false;
	++*k;
	return true;
}

/* Fill the free slots with requests, none past a due sync or pause,
 * submitting every iodepth_batch_submit of them and what is left at the
 * end. */
static void q_fill(struct qloop *q)
{
	struct worker *w = q->w;
	struct fileio_state *st = q->st;
	uint64_t t0 = q->now;
	unsigned k = 0;
	enum op_type op;

	if (!q_held(q, &k))
		return;

	/* the budget before the rate: no wait after the last I/O */
	while (!q->stopping && !q->at_wall && !q->due && !q->pace->pause && q->nfree && !q->lt_drain &&
	       !(q->verify_due |= st->ver && verify_backlog_due(st->ver)) &&
	       (!q->lt.on || q->inflight + k < q->lt.depth) && !(q->exhausted |= !where_more(q->wh)) &&
	       q_next_op(q, &op)) {
		struct fileio_slot *slot = &st->slots[st->free[q->nfree - 1]];
		struct io_req *req = &slot->req;

		req->op = op; /* a mixed job's, drawn again at a new pass */
		if (!where_next(q->wh, op, req) || !wall_allows(w)) {
			q->exhausted = true;
			break;
		}
		q->nfree--;
		if (q->serialize && overlaps_inflight(st, slot)) {
			/* issued once what it overlaps is reaped; out of the
			 * stack, so that the batch is free[nfree .. + k) */
			q->held = slot;
			memmove(&st->free[q->nfree], &st->free[q->nfree + 1], k * sizeof(st->free[0]));
			break;
		}
		if (!q_issue(q, slot))
			break;
		k++;
		if (k == q->conf->iodepth_batch_submit || q->poll) {
			q_submit(q, k, t0);
			t0 = q->now;
			k = 0;
			if (q->poll)
				break;
		}
	}
	if (k)
		q_submit(q, k, t0);
}

/* One submit for the k requests queued since t0; each gets its submission
 * latency (fio's slat) and the time its completion latency starts from. */
static void q_submit(struct qloop *q, unsigned k, uint64_t t0)
{
	struct fileio_state *st = q->st;
	int n = q->ops->submit(&q->w->eng);
	uint64_t t1 = clock_now_ns();

	if (n < 0) {
		/* Nothing of the batch is in flight. */
		q_fail(q, n, &st->slots[st->free[q->nfree]].req);
		q->nfree += k;
	} else {
		for (unsigned i = 0; i < k; i++) {
			struct fileio_slot *slot = &st->slots[st->free[q->nfree + i]];

			slot->sub_ns = t1;
			slot->slat_ns = t1 - t0;
			if (slot->measured)
				hist_add(&q->w->slat_ns, t1 - t0);
		}
		q->inflight += k;
	}
	q->now = t1;
}

/* Reap as fio does: wait for iodepth_batch_complete_min completions (at
 * least one, at most what is in flight) and take up to _max of them;
 * false when the queue itself failed (what is in flight is then lost). */
static bool q_reap(struct qloop *q)
{
	struct worker *w = q->w;
	struct fileio_state *st = q->st;
	const uint64_t lo = q->conf->iodepth_batch_complete_min, hi = q->conf->iodepth_batch_complete_max;
	const unsigned min = lo && lo < q->inflight ? (unsigned)lo : lo ? q->inflight : 1;
	const unsigned max = hi < q->inflight ? (hi > min ? (unsigned)hi : min) : q->inflight;
	int n = q->ops->reap(&w->eng, st->done, max, min);
	uint64_t t = clock_now_ns();

	q->now = t;
	if (n < 0) {
		q_fail(q, n, &st->slots[0].req);
		return false;
	}
	for (int i = 0; i < n; i++) {
		struct io_req *req = st->done[i];
		struct fileio_slot *slot = (struct fileio_slot *)req;

		slot->inflight = false;
		q->inflight--;
		q->completed++;
		st->free[q->nfree++] = req->slot;
		if (req->rc && fileio_io_continue(w, req, req->rc))
			continue;
		if (req->rc ||
		    (st->ver && req->op == OP_READ && (req->rc = verify_read_done(st->ver, w, req)))) {
			q_fail(q, req->rc, req);
			continue;
		}
		if (!slot->measured)
			continue;
		if (q->lt.on)
			q_lattarget(q, lattarget_complete(&q->lt, t - slot->sub_ns, t, q->completed), req);
		op_stats_add(&w->stats[req->op], req->len, t - slot->sub_ns);
		queue_lat_add(&w->qlat, req->op, slot->slat_ns, t - slot->sub_ns);
		if (q->series)
			series_add(&w->series, req->op, req->len, t - slot->sub_ns, t);
		worker_live_add(w, req->op, req->len, t - slot->sub_ns);
		if (w->tio)
			target_add(w, req->file, req->op, req->len, t);
		if (w->iolog)
			logs_io(w->iolog, req, t - slot->sub_ns, slot->slat_ns, t);
		if (st->cap)
			replay_capture(st->cap, req, slot->sub_ns - slot->slat_ns);
		q->done++;
	}
	atomic_store_explicit(&w->progress_ops, q->done, memory_order_relaxed);
	q->pace->completed += (unsigned)n;
	if (q->pace->floor && q->measuring && !q->rc && (n = pace_floor_check(q->pace, w, t)))
		q_fail(q, n, &st->slots[0].req);
	return true;
}

static int fileio_run_queued(struct worker *w)
{
	const struct job *job = w->job;
	struct qloop q = { .w = w,
			   .st = w->priv,
			   .ops = w->eng.ops,
			   .job = job,
			   .wh = &((struct fileio_state *)w->priv)->where,
			   .mixed = fileio_files(job)->layout.rw == RW_RANDRW ||
				    fileio_files(job)->layout.rw == RW_READWRITE,
			   .op = where_first_op(job),
			   .series = series_on(&w->series),
			   .now = clock_now_ns(),
			   .pace = &((struct fileio_state *)w->priv)->pace,
			   .conf = fileio_conf(job),
			   .poll = !fileio_conf(job)->iodepth_batch_complete_min &&
				   !fileio_conf(job)->iodepth_batch_complete_max,
			   .serialize = fileio_conf(job)->serialize_overlap };
	const uint64_t ramp_end = q.now + job->ramp_ns;
	const uint64_t deadline = job->runtime_ns ? ramp_end + job->runtime_ns : UINT64_MAX;
	int rc;

	q.stop_at = stonewall_stop_at(w, deadline);
	q.nfree = q.st->nbufs;
	for (unsigned i = 0; i < q.nfree; i++)
		q.st->free[i] = q.nfree - 1 - i;
	pace_start(q.pace, q.now);
	if (job->ramp_ns == 0)
		q_measure(&q, w->origin_ns, false);
	for (;;) {
		if (!q.stopping &&
		    (atomic_load_explicit(w->stop, memory_order_relaxed) ||
		     atomic_load_explicit(w->job_stop, memory_order_relaxed) || q.now >= deadline))
			q.stopping = true;
		if (!q.stopping && q.now >= q.stop_at)
			q.at_wall = true;
		if (q.at_wall && !q.inflight) { /* drained: the work done at the stonewall is told */
			q.at_wall = false;
			q.stopping = !stonewall_past(w, q.now, deadline, &q.stop_at);
		}
		if (!q.measuring && q.now >= ramp_end)
			q_measure(&q, w->origin_ns + job->ramp_ns, true);
		if (q.pace->pause &&
		    pace_queue_pause(q.pace, &w->eng, q.inflight, q.stopping || q.at_wall || !q.nfree,
				     q.last_op, &q.now, q.stop_at))
			continue;
		if (q.lt_drain && !q.inflight) {
			q.lt_drain = false;
			if (q.lt_restart)
				q_lattarget_restart(&q);
		}
		if (q.due && !q.inflight) {
			/* The queue is drained: the syncs cover every write before. */
			if (!q.stopping &&
			    (rc = run_syncs(w, q.sync_file, q.due, q.measuring, &q.now, &q.failed.op))) {
				q.failed.file = q.sync_file;
				q.rc = rc;
				q.stopping = true;
			}
			q.due = 0;
		}
		if (q.verify_due && !q.inflight) {
			/* Drained: each write of the backlog is done, as fio reads back only those. */
			q.verify_due = false;
			if (!q.stopping &&
			    (rc = verify_backlog_run(q.st->ver, w, q.st->bufs[0], q.measuring, &q.now))) {
				q.failed.op = OP_READ;
				q.rc = rc;
				q.stopping = true;
			}
		}
		q_fill(&q);
		if (!q.inflight) {
			if (q.stopping || (q.exhausted && !q.due && !q.pace->pause))
				break;
			continue;
		}
		/* A full queue is reaped down to iodepth_low, as fio. */
		const bool full = !q.nfree;
		bool ok;

		while ((ok = q_reap(&q)) && full && q.inflight > q.conf->iodepth_low)
			;
		if (!ok)
			break;
		if (q.lt.on && q.measuring && !q.lt_drain)
			q_lattarget(&q, lattarget_check(&q.lt, q.now, q.completed), &q.failed);
	}
	if (q.rc && !verify_filled(w, q.rc, q.failed.op))
		fileio_io_failed(w, &q.failed, q.failed.file, q.rc);
	w->lat_depth = q.lt.on ? q.lt.depth : 0;
	return run_end(w, q.writes, q.measuring, q.now, &q.u0);
}

static int fileio_run(struct worker *w)
{
	int rc = replay_on(w->job)		       ? replay_run(w)
		 : w->eng.ops->caps & ENGINE_CAP_QUEUE ? fileio_run_queued(w)
						       : fileio_run_sync(w);

	if (((struct fileio_state *)w->priv)->cap && !rc)
		rc = replay_capture_write(w);
	pace_leave_flow(&((struct fileio_state *)w->priv)->pace); /* as fio's thread when it ends */
	if (((struct fileio_state *)w->priv)->durable)
		fileio_durable_finish(w);
	return rc;
}

static void fileio_cleanup(struct worker *w)
{
	struct fileio_state *st = w->priv;

	if (st && st->durable)
		fileio_durable_finish(w);
	if (st)
		where_release(&st->where);
	replay_teardown(w);
	fileio_pages_teardown(w, w->priv);
	w->priv = NULL;
}

/* The threads' I/O buffers (prepare: iodepth buffers of bs, rounded up to
 * 4 KiB, per thread) against the machine's memory. The message points at
 * bs unless only the other keys were given. */
static int fileio_check_buffers(const struct job *job, struct dbio_err *err)
{
	const bool queued = job->eng->caps & ENGINE_CAP_QUEUE;
	const char *key = "bs";

	if (!job_is_set(job, "bs") && queued && job_is_set(job, "iodepth"))
		key = "iodepth";
	else if (!job_is_set(job, "bs") && job_is_set(job, "numjobs"))
		key = "numjobs";
	return workload_check_memory(
		job, key, queued ? "bs * iodepth * numjobs" : "bs * numjobs", "I/O buffers",
		fileio_buf_stride(job) * (queued ? fileio_files(job)->layout.iodepth : 1) * job->numjobs,
		queued ? "lower bs, iodepth or numjobs" : "lower bs or numjobs", err);
}

/* Each part's checks, in order: the first that fails says why. */
static int fileio_validate(struct job *job, struct dbio_err *err)
{
	int rc = fname_validate(job, err);

	rc = rc ? rc : replay_validate(job, err);
	rc = rc ? rc : job_validate_files(job, err);
	rc = rc ? rc : pace_validate(job, err);
	rc = rc ? rc : fileio_validate_buffers(job, err);
	rc = rc ? rc : lattarget_validate(job, err);
	rc = rc ? rc : logs_validate(job, err);
	rc = rc ? rc : verify_validate(job, err);
	rc = rc ? rc : jobsync_validate(job, err);
	return rc ? rc : fileio_check_buffers(job, err);
}

const struct workload_ops workload_fileio = {
	.name = "fileio",
	.prepare = fileio_prepare,
	.run = fileio_run,
	.cleanup = fileio_cleanup,
	.caps = WORKLOAD_CAP_FILES | WORKLOAD_CAP_STONEWALL,
	.validate = fileio_validate,
	.shared_size = sizeof(struct jobsync),
	.shared_init = jobsync_init,
	.shared_release = jobsync_release,
	.options = &fileio_options,
};
