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
 * issued, the queued loop after draining what is in flight, so that no
 * latency includes a wait; the clock is read again after it.
 *
 * Memory: prepare makes the thread's state (struct fileio_state, in
 * w->priv) and one block of iodepth buffers of bs bytes (each 4 KiB
 * aligned, all holding the same seeded data). oltp builds on the same page
 * I/O through fileio_pages_setup (workload_int.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/syscalls.h"
#include "util/units.h"
#include "workload/jobsync.h"
#include "workload/pace.h"
#include "workload/where.h"
#include "workload/workload.h"
#include "workload/workload_int.h"

static int open_flags(const struct job *job)
{
	int flags = O_NOFOLLOW | O_CLOEXEC;

	flags |= job_writes(job) ? O_RDWR : O_RDONLY;
	if (job->direct)
		flags |= O_DIRECT;
	if (job->sync == SYNC_SYNC)
		flags |= O_SYNC;
	else if (job->sync == SYNC_DSYNC)
		flags |= O_DSYNC;
	return flags;
}

/* The queued loop's per-request state; reap returns &slot->req. */
struct fileio_slot {
	struct io_req req; /* first */
	uint64_t sub_ns;   /* when the submit that carried it returned */
	bool measured;	   /* issued after the ramp */
};

/* The worker's state: its files' descriptors and its buffers for the
 * engine, and the queued loop's slots. */
struct fileio_state {
	void *buf;		   /* nbufs buffers of buf_stride bytes, 4 KiB aligned */
	int *fds;		   /* nfiles, for the engine's attach */
	void **bufs;		   /* nbufs pointers into buf */
	unsigned nbufs;		   /* iodepth for queued engines, else 1 */
	struct fileio_slot *slots; /* queued engines: nbufs */
	unsigned *free;		   /* free slot numbers, a stack */
	struct io_req **done;	   /* reap's output */
	struct where where;	   /* fileio: the next I/O and the budget */
	struct pace pace;	   /* fio's rate, thinktime and rate floor (fileio only) */
};

static uint64_t buf_stride(const struct job *job)
{
	return (job->max_bs + 4095) / 4096 * 4096;
}

static int open_files(struct worker *w)
{
	const struct job *job = w->job;

	for (size_t i = 0; i < w->nfiles; i++)
		w->files[i].fd = -1;
	for (size_t i = 0; i < w->nfiles; i++) {
		w->files[i].fd = dbio_sys->openat(w->files[i].dirfd, w->files[i].name, open_flags(job));
		if (w->files[i].fd < 0) {
			int rc = -errno;

			if (rc == -EINVAL && job->direct)
				return dbio_err_set(
					&w->err, DBIO_EINPUT,
					"%s: cannot open with direct=1: the filesystem does not support O_DIRECT",
					w->files[i].path);
			return dbio_err_set(&w->err, rc, "%s: cannot open: %s", w->files[i].path,
					    strerror(-rc));
		}
	}
	return 0;
}

/* The buffers, filled with data that neither compresses nor deduplicates,
 * the same every run and in every buffer; the queued loop's slots. */
static int make_buffers(struct worker *w, struct fileio_state *st, bool queued)
{
	const struct job *job = w->job;
	const uint64_t stride = buf_stride(job);
	struct rng fill;
	int rc;

	st->fds = calloc(w->nfiles ? w->nfiles : 1, sizeof(*st->fds));
	st->bufs = calloc(st->nbufs, sizeof(*st->bufs));
	if (queued) {
		st->slots = calloc(st->nbufs, sizeof(*st->slots));
		st->free = calloc(st->nbufs, sizeof(*st->free));
		st->done = calloc(st->nbufs, sizeof(*st->done));
	}
	if (!st->fds || !st->bufs || (queued && (!st->slots || !st->free || !st->done)))
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	if ((rc = posix_memalign(&st->buf, 4096, stride * st->nbufs))) {
		st->buf = NULL;
		return dbio_err_set(&w->err, -rc, "worker %u: cannot allocate %u buffers of %llu bytes",
				    w->index, st->nbufs, (unsigned long long)job->max_bs);
	}
	for (size_t i = 0; i < w->nfiles; i++)
		st->fds[i] = w->files[i].fd;
	rng_seed(&fill, (job->randseed + w->index) ^ 0x5eedf111ull);
	for (uint64_t i = 0; i + 8 <= job->max_bs; i += 8) {
		uint64_t x = rng_next(&fill);
		memcpy((char *)st->buf + i, &x, 8);
	}
	for (unsigned b = 0; b < st->nbufs; b++) {
		st->bufs[b] = (char *)st->buf + stride * b;
		if (b)
			memcpy(st->bufs[b], st->buf, job->max_bs);
		if (queued)
			st->slots[b].req =
				(struct io_req){ .buf = st->bufs[b], .len = job->max_bs, .slot = b };
	}
	return 0;
}

/* Set the job's engine up on the thread's files and buffers. */
static int start_engine(struct worker *w, struct fileio_state *st, const struct engine_conf *conf)
{
	const struct job *job = w->job;
	const struct engine_ops *ops = job->eng;
	int rc;

	w->eng.ops = ops;
	w->eng.sync_flags = job->sfr_flags;
	if ((rc = ops->setup(&w->eng, conf)))
		return dbio_err_set(&w->err, rc, "engine %s: setup failed: %s%s%s", ops->name, strerror(-rc),
				    ops->setup_hint ? ": " : "", ops->setup_hint ? ops->setup_hint : "");
	if (ops->attach) {
		const struct engine_files files = { .fds = st->fds,
						    .nfiles = w->nfiles,
						    .file_bytes = job_file_bytes(
							    job, job->share_files ? 0 : w->index),
						    .bufs = st->bufs,
						    .nbufs = st->nbufs,
						    .buf_bytes = buf_stride(job) };

		if ((rc = ops->attach(&w->eng, &files)))
			return dbio_err_set(&w->err, rc,
					    "engine %s: cannot attach %zu files and %u buffers: %s",
					    ops->name, w->nfiles, st->nbufs, strerror(-rc));
	}
	return 0;
}

int fileio_pages_setup(struct worker *w, struct fileio_state **out)
{
	const struct job *job = w->job;
	struct engine_conf conf;
	struct fileio_state *st = calloc(1, sizeof(*st));
	int rc;

	*out = st;
	for (size_t i = 0; i < w->nfiles; i++)
		w->files[i].fd = -1;
	if (!st)
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	workload_engine_conf(job, &conf);
	st->nbufs = conf.iodepth;
	hist_init(&w->slat_ns);
	if ((rc = open_files(w)) || (rc = make_buffers(w, st, job->eng->caps & ENGINE_CAP_QUEUE)) ||
	    (rc = start_engine(w, st, &conf)))
		return rc;
	rng_seed(&w->rng, (job->randseed + w->index) * 0x9e3779b97f4a7c15ull + 1);
	for (int t = 0; t < OP_NTYPES; t++)
		op_stats_init(&w->stats[t]);
	return 0;
}

void *fileio_pages_buffer(const struct fileio_state *st)
{
	return st->buf;
}

void fileio_pages_teardown(struct worker *w, struct fileio_state *st)
{
	if (w->eng.ops)
		w->eng.ops->teardown(&w->eng);
	w->eng.ops = NULL;
	for (size_t i = 0; i < w->nfiles; i++)
		if (w->files[i].fd >= 0)
			dbio_sys->close(w->files[i].fd);
	if (!st)
		return;
	free(st->fds);
	free(st->bufs);
	free(st->slots);
	free(st->free);
	free(st->done);
	free(st->buf);
	free(st);
}

static int fileio_prepare(struct worker *w)
{
	const struct job *job = w->job;
	struct fileio_state *st;
	int rc = fileio_pages_setup(w, &st);

	w->priv = st;
	if (rc)
		return rc;
	if (where_init(&st->where, w, job->randseed + w->index))
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory for the random map",
				    w->index);
	pace_init(&st->pace, job, (job->randseed + w->index) ^ 0x9ace5eedull, w->stop, w->job_stop);
	return 0;
}

static int io_failed(struct worker *w, const struct io_req *req, size_t file, int rc)
{
	struct stat sb;

	atomic_store(w->job_stop, 1);
	/* The layout made every file whole, so an end of file inside it
	 * means someone cut the file short while the job ran; "No data
	 * available" alone would not say so. */
	if ((req->op == OP_READ || req->op == OP_WRITE) && rc == -ENODATA &&
	    fstat(w->files[file].fd, &sb) == 0 && (uint64_t)sb.st_size < req->off + req->len)
		return dbio_err_set(
			&w->err, rc,
			"%s: %s of %llu bytes at offset %llu: the file ends at %llu bytes now: truncated while the job ran?",
			w->files[file].path, op_type_name(req->op), (unsigned long long)req->len,
			(unsigned long long)req->off, (unsigned long long)sb.st_size);
	if (req->op == OP_READ || req->op == OP_WRITE)
		return dbio_err_set(&w->err, rc, "%s: %s of %llu bytes at offset %llu: %s",
				    w->files[file].path, op_type_name(req->op), (unsigned long long)req->len,
				    (unsigned long long)req->off, strerror(-rc));
	return dbio_err_set(&w->err, rc, "%s: %s: %s", w->files[file].path, op_type_name(req->op),
			    strerror(-rc));
}

/* Count a read or write of the worker's file toward its directory, in a job
 * with several (w->tio). */
static inline void target_add(struct worker *w, unsigned file, enum op_type op, uint64_t len, uint64_t end_ns)
{
	struct target_io *t = &w->tio[w->files[file].dir];

	t->ops[op == OP_WRITE]++;
	t->bytes[op == OP_WRITE] += len;
	t->last_ns = end_ns;
}

/* The sync due after a thread's writes-th write, as a bit (1 << op): as
 * fio, one per write, the strongest whose every-N count it is — fsync,
 * else fdatasync, else sync_file_range. */
static unsigned syncs_due(const struct job *job, uint64_t writes)
{
	if (job->fsync && !job->fsync_scope && writes % job->fsync == 0)
		return 1u << OP_FSYNC;
	if (job->fdatasync && !job->fsync_scope && writes % job->fdatasync == 0)
		return 1u << OP_FDATASYNC;
	return job->sfr_every && writes % job->sfr_every == 0 ? 1u << OP_SYNC_FILE_RANGE : 0;
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
		if ((rc = fileio_timed_sync(w, file, order[i], measuring, now)))
			return rc;
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

static int fileio_run_sync(struct worker *w)
{
	const struct job *job = w->job;
	struct fileio_state *st = w->priv;
	struct where *wh = &st->where;
	const bool mixed = job->rw == RW_RANDRW || job->rw == RW_READWRITE;
	const enum op_type fixed_op = job_reads(job) ? OP_READ : OP_WRITE;
	const bool rewrite = job->rw == RW_REWRITE;
	const bool series = series_on(&w->series);
	uint64_t now = clock_now_ns();
	const uint64_t ramp_end = now + job->ramp_ns;
	const uint64_t deadline = job->runtime_ns ? ramp_end + job->runtime_ns : UINT64_MAX;
	bool measuring = job->ramp_ns == 0;
	struct io_req req = { .buf = st->buf };
	uint64_t done = 0, writes = 0;
	struct usage u0 = { 0 }, u1;
	struct pace *pace = &st->pace;
	size_t file = 0;
	int rc = 0;

	pace_start(pace, now);
	if (measuring) {
		w->start_ns = now;
		usage_thread(&u0);
		series_start(&w->series, w->series.interval_ns ? w->origin_ns : now);
	}
	for (;;) {
		if (atomic_load_explicit(w->stop, memory_order_relaxed) ||
		    atomic_load_explicit(w->job_stop, memory_order_relaxed) || now >= deadline)
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
		req.op = mixed ? (rng_below(&w->rng, 100) < job->rwmixread ? OP_READ : OP_WRITE) : fixed_op;
		/* the budget before the rate: no wait after the last I/O */
		if (!where_more(wh) || (pace->rate && !pace_rate_wait(pace, &req.op, &now, deadline)))
			break;
		if (!where_next(wh, req.op, &req))
			break;
		if (wh->resync && (rc = resync(w, (unsigned)file, writes, measuring, &now, &req.op)))
			break;
		file = req.file;
		req.fd = w->files[file].fd;
		for (;;) {
			rc = w->eng.ops->io(&w->eng, &req);
			uint64_t t = clock_now_ns();

			if (rc)
				break;
			if (pace->on) {
				pace_issued(pace, req.op, req.len);
				pace->completed++;
			}
			if (measuring) {
				op_stats_add(&w->stats[req.op], req.len, t - now);
				if (series)
					series_add(&w->series, req.op, req.len, t - now, t);
				if (w->tio)
					target_add(w, req.file, req.op, req.len, t);
			}
			now = t;
			if (!rewrite || req.op == OP_WRITE)
				break;
			req.op = OP_WRITE; /* rw=rewrite: the block just read is written back */
		}
		if (rc)
			break;
		done++;
		atomic_store_explicit(&w->progress_ops, done, memory_order_relaxed);
		if (pace->think && pace_think_due(pace, now))
			now = pace_think(pace, req.op, now, deadline);
		if (pace->floor && measuring && (rc = pace_floor_check(pace, w, now)))
			break;
		writes += req.op == OP_WRITE;
		/* As fio: no sync after the last write of a job bound by size
		 * (fio syncs before the next I/O, and there is none). */
		const bool more = where_more(wh);
		const unsigned due = (more && req.op == OP_WRITE ? syncs_due(job, writes) : 0) |
				     jobsync_due(w, req.op, more);

		if (due && (rc = run_syncs(w, req.file, due, measuring, &now, &req.op)))
			break;
	}
	if (rc) {
		io_failed(w, &req, file, rc);
	} else if (job->end_fsync && writes && !atomic_load(w->stop) && !atomic_load(w->job_stop)) {
		req.op = OP_FSYNC;
		for (file = 0; file < w->nfiles; file++) {
			if ((rc = fileio_timed_sync(w, (unsigned)file, OP_FSYNC, measuring, &now))) {
				io_failed(w, &req, file, rc);
				break;
			}
		}
	}
	if (!measuring) {
		w->start_ns = now;
		usage_thread(&u0);
	} else if (series) {
		series_finish(&w->series, now);
	}
	w->end_ns = now;
	usage_thread(&u1);
	w->usage = usage_sub(&u1, &u0);
	return w->err.code;
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
	uint64_t issued, done, writes;
	unsigned inflight, nfree;
	unsigned due, sync_file; /* syncs_due of the last write, and its file */
	struct io_req failed;	 /* the first failure's request */
	int rc;			 /* the first failure */
	uint64_t now;
	struct usage u0;
	struct pace *pace;
	enum { Q_GO, Q_RATE, Q_THINK } pause; /* once drained: wait for the rate, or think */
	uint64_t pause_until;		      /* Q_RATE: until then */
	bool hold;			      /* the next I/O is held_op (the rate chose it) */
	enum op_type held_op, last_op;
	bool poll; /* iodepth_batch_complete_min and _max 0: reap after every I/O, as fio */
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
 * ramp issued and is still in flight is not counted). */
static void q_measure(struct qloop *q, uint64_t origin_ns)
{
	struct worker *w = q->w;

	q->measuring = true;
	q->issued = q->done = q->writes = 0;
	q->exhausted = false;
	where_restart(q->wh);
	w->start_ns = q->now;
	usage_thread(&q->u0);
	series_start(&w->series, w->series.interval_ns ? origin_ns : q->now);
	pace_start(q->pace, q->now);
}

static void q_submit(struct qloop *q, unsigned k, uint64_t t0);

/* The direction of the next request, or Q_RATE set when the rate makes it
 * wait (the direction is then held for after the wait). */
static bool q_next_op(struct qloop *q, enum op_type *op)
{
	uint64_t wait;

	*op = q->hold	 ? q->held_op
	      : q->mixed ? (rng_below(&q->w->rng, 100) < q->job->rwmixread ? OP_READ : OP_WRITE)
			 : q->op;
	q->hold = false;
	if (!q->pace->rate || !(wait = pace_rate_wait_ns(q->pace, op, q->now)))
		return true;
	q->hold = true;
	q->held_op = *op;
	q->pause = Q_RATE;
	q->pause_until = q->now + wait;
	return false;
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

	/* the budget before the rate: no wait after the last I/O */
	while (!q->stopping && !q->due && !q->pause && q->nfree && !(q->exhausted |= !where_more(q->wh)) &&
	       q_next_op(q, &op)) {
		struct fileio_slot *slot = &st->slots[st->free[q->nfree - 1]];
		struct io_req *req = &slot->req;
		int rc;

		if (!where_next(q->wh, op, req)) {
			q->exhausted = true;
			break;
		}
		q->nfree--;
		req->fd = w->files[req->file].fd;
		req->op = q->last_op = op;
		slot->measured = q->measuring;
		if ((rc = q->ops->queue(&w->eng, req))) {
			q->nfree++;
			q_fail(q, rc, req);
			break;
		}
		k++;
		q->issued++;
		if (req->op == OP_WRITE) {
			q->writes++;
			q->due = where_more(q->wh) ? syncs_due(q->job, q->writes) : 0; /* as above */
			q->sync_file = req->file;
		}
		q->due |= jobsync_due(w, op, where_more(q->wh)); /* fsync_scope=job */
		if (q->pace->on) {
			pace_issued(q->pace, op, req->len);
			if (q->pace->think && pace_think_due(q->pace, q->now))
				q->pause = Q_THINK;
		}
		if (k == q->job->iodepth_batch_submit || q->poll) {
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
	const uint64_t lo = q->job->iodepth_batch_complete_min, hi = q->job->iodepth_batch_complete_max;
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

		q->inflight--;
		st->free[q->nfree++] = req->slot;
		if (req->rc) {
			q_fail(q, req->rc, req);
			continue;
		}
		if (!slot->measured)
			continue;
		op_stats_add(&w->stats[req->op], req->len, t - slot->sub_ns);
		if (q->series)
			series_add(&w->series, req->op, req->len, t - slot->sub_ns, t);
		if (w->tio)
			target_add(w, req->file, req->op, req->len, t);
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
			   .mixed = job->rw == RW_RANDRW || job->rw == RW_READWRITE,
			   .op = job_reads(job) ? OP_READ : OP_WRITE,
			   .series = series_on(&w->series),
			   .now = clock_now_ns(),
			   .pace = &((struct fileio_state *)w->priv)->pace,
			   .poll = !job->iodepth_batch_complete_min && !job->iodepth_batch_complete_max };
	const uint64_t ramp_end = q.now + job->ramp_ns;
	const uint64_t deadline = job->runtime_ns ? ramp_end + job->runtime_ns : UINT64_MAX;
	struct usage u1;
	int rc;

	q.nfree = q.st->nbufs;
	for (unsigned i = 0; i < q.nfree; i++)
		q.st->free[i] = q.nfree - 1 - i;
	pace_start(q.pace, q.now);
	if (job->ramp_ns == 0)
		q_measure(&q, w->origin_ns);
	for (;;) {
		if (!q.stopping &&
		    (atomic_load_explicit(w->stop, memory_order_relaxed) ||
		     atomic_load_explicit(w->job_stop, memory_order_relaxed) || q.now >= deadline))
			q.stopping = true;
		if (!q.measuring && q.now >= ramp_end)
			q_measure(&q, w->origin_ns + job->ramp_ns);
		if (q.pause && !q.inflight) {
			/* Drained, as fio before a pause: no latency runs through it. */
			if (q.pause == Q_THINK && !q.stopping) {
				q.now = pace_think(q.pace, q.last_op, q.now, deadline);
			} else if (!q.stopping) {
				pace_sleep(q.pace, q.pause_until < deadline ? q.pause_until : deadline);
				q.now = clock_now_ns();
			}
			q.pause = Q_GO;
			continue;
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
		q_fill(&q);
		if (!q.inflight) {
			if (q.stopping || (q.exhausted && !q.due && !q.pause))
				break;
			continue;
		}
		/* A full queue is reaped down to iodepth_low, as fio. */
		const bool full = !q.nfree;
		bool ok;

		while ((ok = q_reap(&q)) && full && q.inflight > job->iodepth_low)
			;
		if (!ok)
			break;
	}
	if (q.rc) {
		io_failed(w, &q.failed, q.failed.file, q.rc);
	} else if (job->end_fsync && q.writes && !atomic_load(w->stop) && !atomic_load(w->job_stop)) {
		for (unsigned f = 0; f < w->nfiles; f++) {
			if ((rc = fileio_timed_sync(w, f, OP_FSYNC, q.measuring, &q.now))) {
				q.failed.op = OP_FSYNC;
				io_failed(w, &q.failed, f, rc);
				break;
			}
		}
	}
	if (!q.measuring) {
		w->start_ns = q.now;
		usage_thread(&q.u0);
	} else if (q.series) {
		series_finish(&w->series, q.now);
	}
	w->end_ns = q.now;
	usage_thread(&u1);
	w->usage = usage_sub(&u1, &q.u0);
	return w->err.code;
}

static int fileio_run(struct worker *w)
{
	if (w->eng.ops->caps & ENGINE_CAP_QUEUE)
		return fileio_run_queued(w);
	return fileio_run_sync(w);
}

static void fileio_cleanup(struct worker *w)
{
	struct fileio_state *st = w->priv;

	if (st)
		where_release(&st->where);
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
	return workload_check_memory(job, key, queued ? "bs * iodepth * numjobs" : "bs * numjobs",
				     "I/O buffers",
				     buf_stride(job) * (queued ? job->iodepth : 1) * job->numjobs,
				     queued ? "lower bs, iodepth or numjobs" : "lower bs or numjobs", err);
}

static int fileio_validate(struct job *job, struct dbio_err *err)
{
	int rc = job_validate_files(job, err);

	if (!rc)
		rc = pace_validate(job, err);
	if (!rc)
		rc = jobsync_validate(job, err);
	return rc ? rc : fileio_check_buffers(job, err);
}

const struct workload_ops workload_fileio = {
	.name = "fileio",
	.prepare = fileio_prepare,
	.run = fileio_run,
	.cleanup = fileio_cleanup,
	.caps = WORKLOAD_CAP_FILES,
	.validate = fileio_validate,
	.shared_size = sizeof(struct jobsync),
	.shared_init = jobsync_init,
	.shared_release = jobsync_release,
};
