/*
 * fileio: the fio-style file workload. Each operation is a read or write of
 * bs bytes at a block chosen by the offset generator, issued through the
 * job's engine, timed with one clock read per operation, and followed by an
 * fsync or fdatasync every N writes when the job asks for it.
 *
 * Two loops. Synchronous engines (psync, sync, mmap, null) run the tight
 * loop: one engine call and one clock read per operation, the end of one
 * operation being the start of the next. Queued engines (io_uring, libaio)
 * run the queued loop: fill the free slots (up to iodepth), submit them in
 * one batch, reap what has completed; an I/O's latency runs from the end of
 * the submit that carried it to the reap that returned it (fio's clat), and
 * its submission latency from the start of the batch to the end of the
 * submit (fio's slat). Before an fsync or fdatasync the queue is drained, so
 * that the sync covers every write before it, as in the synchronous loop.
 *
 * Memory: prepare makes one block, w->buf: iodepth buffers of bs bytes
 * (each 4 KiB aligned, all holding the same seeded data), then the loop's
 * own state (struct fileio_state) at a fixed offset behind them.
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

/* The worker's state beyond struct worker, behind the buffers in w->buf. */
struct fileio_state {
	int *fds;		   /* nfiles, for the engine's attach */
	void **bufs;		   /* nbufs pointers into w->buf */
	unsigned nbufs;		   /* iodepth for queued engines, else 1 */
	struct fileio_slot *slots; /* queued engines: nbufs */
	unsigned *free;		   /* free slot numbers, a stack */
	struct io_req **done;	   /* reap's output */
				   /* Submission latency of the measured reads and writes of a queued
				    * engine. struct worker has no field for it yet: the runner does not
				    * report it (see docs/engines.md). */
};

static uint64_t buf_stride(const struct job *job)
{
	return (job->bs + 4095) / 4096 * 4096;
}

static struct fileio_state *fileio_state(const struct worker *w)
{
	const struct job *job = w->job;
	unsigned nbufs = engine_find(job->ioengine)->caps & ENGINE_CAP_QUEUE ? (unsigned)job->iodepth : 1;

	return (struct fileio_state *)((char *)w->buf + buf_stride(job) * nbufs);
}

static int fileio_prepare(struct worker *w)
{
	const struct job *job = w->job;
	const struct engine_ops *ops = engine_find(job->ioengine);
	const bool queued = ops->caps & ENGINE_CAP_QUEUE;
	const struct engine_conf conf = { .iodepth = queued ? (unsigned)job->iodepth : 1,
					  .direct = job->direct,
					  .writable = job_writes(job),
					  .registerfiles = job->registerfiles,
					  .fixedbufs = job->fixedbufs,
					  .hipri = job->hipri };
	const unsigned nbufs = conf.iodepth;
	const uint64_t stride = buf_stride(job);
	enum offgen_mode mode = OFFGEN_SEQ;
	struct fileio_state *st;
	int rc;

	for (size_t i = 0; i < w->nfiles; i++)
		w->files[i].fd = -1;
	for (size_t i = 0; i < w->nfiles; i++) {
		w->files[i].fd = dbio_sys->openat(w->files[i].dirfd, w->files[i].name, open_flags(job));
		if (w->files[i].fd < 0) {
			rc = -errno;
			if (rc == -EINVAL && job->direct)
				return dbio_err_set(
					&w->err, DBIO_EINPUT,
					"%s: cannot open with direct=1: the filesystem does not support O_DIRECT",
					w->files[i].path);
			return dbio_err_set(&w->err, rc, "%s: cannot open: %s", w->files[i].path,
					    strerror(-rc));
		}
	}
	rc = posix_memalign(&w->buf, 4096, stride * nbufs + sizeof(struct fileio_state));
	if (rc) {
		w->buf = NULL;
		return dbio_err_set(&w->err, -rc, "worker %u: cannot allocate %u buffers of %llu bytes",
				    w->index, nbufs, (unsigned long long)job->bs);
	}
	st = fileio_state(w);
	memset(st, 0, sizeof(*st));
	st->nbufs = nbufs;
	st->fds = calloc(w->nfiles ? w->nfiles : 1, sizeof(*st->fds));
	st->bufs = calloc(nbufs, sizeof(*st->bufs));
	if (queued) {
		st->slots = calloc(nbufs, sizeof(*st->slots));
		st->free = calloc(nbufs, sizeof(*st->free));
		st->done = calloc(nbufs, sizeof(*st->done));
	}
	if (!st->fds || !st->bufs || (queued && (!st->slots || !st->free || !st->done)))
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	hist_init(&w->slat_ns);
	for (size_t i = 0; i < w->nfiles; i++)
		st->fds[i] = w->files[i].fd;

	/* Data that neither compresses nor deduplicates, the same every run
	 * and in every buffer. */
	uint64_t seed = job->randseed + w->index;
	struct rng fill;

	rng_seed(&fill, seed ^ 0x5eedf111ull);
	for (uint64_t i = 0; i + 8 <= job->bs; i += 8) {
		uint64_t x = rng_next(&fill);
		memcpy((char *)w->buf + i, &x, 8);
	}
	for (unsigned b = 0; b < nbufs; b++) {
		st->bufs[b] = (char *)w->buf + stride * b;
		if (b)
			memcpy(st->bufs[b], w->buf, job->bs);
		if (queued)
			st->slots[b].req = (struct io_req){ .buf = st->bufs[b], .len = job->bs, .slot = b };
	}

	w->eng.ops = ops;
	w->eng.sync_flags = job->sfr_flags;
	rc = ops->setup(&w->eng, &conf);
	if (rc)
		return dbio_err_set(&w->err, rc, "engine %s: setup failed: %s%s%s", job->ioengine,
				    strerror(-rc), ops->setup_hint ? ": " : "",
				    ops->setup_hint ? ops->setup_hint : "");
	if (ops->attach) {
		const struct engine_files files = { .fds = st->fds,
						    .nfiles = w->nfiles,
						    .file_bytes = job->filesize,
						    .bufs = st->bufs,
						    .nbufs = nbufs,
						    .buf_bytes = stride };

		rc = ops->attach(&w->eng, &files);
		if (rc)
			return dbio_err_set(&w->err, rc,
					    "engine %s: cannot attach %zu files and %u buffers: %s",
					    job->ioengine, w->nfiles, nbufs, strerror(-rc));
	}
	if (job_is_random(job))
		mode = job->norandommap ? OFFGEN_UNIFORM : OFFGEN_RANDMAP;
	if (job_is_random(job) && job->dist != DIST_UNIFORM)
		offgen_init_skewed(&w->gen, job->dist == DIST_ZIPF ? OFFGEN_ZIPF : OFFGEN_PARETO,
				   job->dist_param, w->slice_len, seed);
	else
		offgen_init(&w->gen, mode, w->slice_len, seed);
	rng_seed(&w->rng, seed * 0x9e3779b97f4a7c15ull + 1);
	for (int t = 0; t < OP_NTYPES; t++)
		op_stats_init(&w->stats[t]);
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

/* One fsync, fdatasync or sync_file_range of the worker's file, timed and
 * counted when measuring (a queued job calls it with nothing in flight); a
 * sync keeps its directory busy as a write does. 0 or -errno. */
static int timed_sync(struct worker *w, unsigned file, enum op_type op, bool measuring, uint64_t *now)
{
	int rc = w->eng.ops->sync(&w->eng, w->files[file].fd, op);
	uint64_t t = clock_now_ns();

	if (rc)
		return rc;
	if (measuring) {
		op_stats_add(&w->stats[op], 0, t - *now);
		if (series_on(&w->series))
			series_add(&w->series, op, 0, t - *now, t);
		if (w->tio)
			w->tio[w->files[file].dir].last_ns = t;
	}
	*now = t;
	return 0;
}

/* The syncs due after a thread's writes-th write: a bit (1 << op) for each
 * of fsync, fdatasync and sync_file_range whose every-N count it is. */
static unsigned syncs_due(const struct job *job, uint64_t writes)
{
	return (job->fsync && writes % job->fsync == 0 ? 1u << OP_FSYNC : 0) |
	       (job->fdatasync && writes % job->fdatasync == 0 ? 1u << OP_FDATASYNC : 0) |
	       (job->sfr_every && writes % job->sfr_every == 0 ? 1u << OP_SYNC_FILE_RANGE : 0);
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
		if ((rc = timed_sync(w, file, order[i], measuring, now)))
			return rc;
	}
	return 0;
}

static int fileio_run_sync(struct worker *w)
{
	const struct job *job = w->job;
	const uint64_t total = job->time_based ? UINT64_MAX : w->ops_per_pass * job->loops;
	const uint64_t bpf = w->blocks_per_file;
	const bool mixed = job->rw == RW_RANDRW || job->rw == RW_READWRITE;
	const enum op_type fixed_op = job_reads(job) ? OP_READ : OP_WRITE;
	const bool rewrite = job->rw == RW_REWRITE;
	const bool series = series_on(&w->series);
	uint64_t now = clock_now_ns();
	const uint64_t ramp_end = now + job->ramp_ns;
	const uint64_t deadline = job->runtime_ns ? ramp_end + job->runtime_ns : UINT64_MAX;
	bool measuring = job->ramp_ns == 0;
	struct io_req req = { .buf = w->buf, .len = job->bs };
	uint64_t done = 0, writes = 0;
	struct usage u0 = { 0 }, u1;
	size_t file = 0;
	int rc = 0;

	if (measuring) {
		w->start_ns = now;
		usage_thread(&u0);
		series_start(&w->series, w->series.interval_ns ? w->origin_ns : now);
	}
	while (done < total) {
		if (atomic_load_explicit(w->stop, memory_order_relaxed) ||
		    atomic_load_explicit(w->job_stop, memory_order_relaxed) || now >= deadline)
			break;
		if (!measuring && now >= ramp_end) {
			/* The ramp's I/O does not count: a size-bound job
			 * measures its whole size after the ramp. */
			measuring = true;
			done = writes = 0;
			w->gen.pos = 0;
			w->start_ns = now;
			usage_thread(&u0);
			series_start(&w->series, w->series.interval_ns ? w->origin_ns + job->ramp_ns : now);
		}
		if (w->gen.pos == w->ops_per_pass)
			offgen_new_pass(&w->gen);
		uint64_t block = w->slice_first + offgen_next(&w->gen);

		file = block / bpf;
		req.file = (unsigned)file;
		req.fd = w->files[file].fd;
		req.off = (block % bpf) * job->bs;
		req.op = mixed ? (rng_below(&w->rng, 100) < job->rwmixread ? OP_READ : OP_WRITE) : fixed_op;
		for (;;) {
			rc = w->eng.ops->io(&w->eng, &req);
			uint64_t t = clock_now_ns();

			if (rc)
				break;
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
		if (req.op != OP_WRITE)
			continue;
		writes++;
		const unsigned due = syncs_due(job, writes);

		if (due && (rc = run_syncs(w, req.file, due, measuring, &now, &req.op)))
			break;
	}
	if (rc) {
		io_failed(w, &req, file, rc);
	} else if (job->end_fsync && writes && !atomic_load(w->stop) && !atomic_load(w->job_stop)) {
		req.op = OP_FSYNC;
		for (file = 0; file < w->nfiles; file++) {
			if ((rc = timed_sync(w, (unsigned)file, OP_FSYNC, measuring, &now))) {
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

static int fileio_run_queued(struct worker *w)
{
	const struct job *job = w->job;
	const struct engine_ops *ops = w->eng.ops;
	struct fileio_state *st = fileio_state(w);
	const unsigned depth = st->nbufs;
	const uint64_t total = job->time_based ? UINT64_MAX : w->ops_per_pass * job->loops;
	const uint64_t bpf = w->blocks_per_file;
	const bool mixed = job->rw == RW_RANDRW || job->rw == RW_READWRITE;
	const enum op_type fixed_op = job_reads(job) ? OP_READ : OP_WRITE;
	const bool series = series_on(&w->series);
	uint64_t now = clock_now_ns();
	const uint64_t ramp_end = now + job->ramp_ns;
	const uint64_t deadline = job->runtime_ns ? ramp_end + job->runtime_ns : UINT64_MAX;
	bool measuring = job->ramp_ns == 0, stopping = false;
	uint64_t issued = 0, done = 0, writes = 0;
	unsigned inflight = 0, nfree = depth;
	unsigned due = 0, sync_file = 0; /* syncs_due of the last write, and its file */
	struct io_req failed = { 0 };
	struct usage u0 = { 0 }, u1;
	int rc = 0;

	for (unsigned i = 0; i < depth; i++)
		st->free[i] = depth - 1 - i;
	if (measuring) {
		w->start_ns = now;
		usage_thread(&u0);
		series_start(&w->series, w->series.interval_ns ? w->origin_ns : now);
	}
	for (;;) {
		if (!stopping && (atomic_load_explicit(w->stop, memory_order_relaxed) ||
				  atomic_load_explicit(w->job_stop, memory_order_relaxed) || now >= deadline))
			stopping = true;
		if (!measuring && now >= ramp_end) {
			/* As in the synchronous loop; I/O issued during the
			 * ramp and still in flight is not counted. */
			measuring = true;
			issued = done = writes = 0;
			w->gen.pos = 0;
			w->start_ns = now;
			usage_thread(&u0);
			series_start(&w->series, w->series.interval_ns ? w->origin_ns + job->ramp_ns : now);
		}
		if (due && !inflight) {
			if (!stopping && (rc = run_syncs(w, sync_file, due, measuring, &now, &failed.op))) {
				failed.file = sync_file;
				stopping = true;
			}
			due = 0;
		}

		/* Fill the free slots, then one submit for the batch. */
		const uint64_t t0 = now;
		unsigned k = 0;

		while (!stopping && !due && nfree && issued < total) {
			if (w->gen.pos == w->ops_per_pass)
				offgen_new_pass(&w->gen);
			uint64_t block = w->slice_first + offgen_next(&w->gen);
			struct fileio_slot *slot = &st->slots[st->free[--nfree]];
			struct io_req *req = &slot->req;
			unsigned file = (unsigned)(block / bpf);

			req->file = file;
			req->fd = w->files[file].fd;
			req->off = (block % bpf) * job->bs;
			req->op = mixed ? (rng_below(&w->rng, 100) < job->rwmixread ? OP_READ : OP_WRITE)
					: fixed_op;
			slot->measured = measuring;
			if ((rc = ops->queue(&w->eng, req))) {
				nfree++;
				failed = *req;
				stopping = true;
				break;
			}
			k++;
			issued++;
			if (req->op == OP_WRITE) {
				writes++;
				due = syncs_due(job, writes);
				sync_file = file;
			}
		}
		if (k) {
			int n = ops->submit(&w->eng);
			uint64_t t1 = clock_now_ns();

			if (n < 0) {
				/* Nothing of the batch is in flight. */
				if (!rc) {
					rc = n;
					failed = st->slots[st->free[nfree]].req;
				}
				nfree += k;
				stopping = true;
			} else {
				for (unsigned i = 0; i < k; i++) {
					struct fileio_slot *slot = &st->slots[st->free[nfree + i]];

					slot->sub_ns = t1;
					if (slot->measured)
						hist_add(&w->slat_ns, t1 - t0);
				}
				inflight += k;
			}
			now = t1;
		}
		if (!inflight) {
			if (stopping || (issued >= total && !due))
				break;
			continue;
		}

		/* Reap at least one; take every completion there is. */
		int n = ops->reap(&w->eng, st->done, inflight, 1);
		uint64_t t = clock_now_ns();

		if (n < 0) {
			/* The queue itself failed: what is in flight is lost. */
			if (!rc) {
				rc = n;
				failed = st->slots[0].req;
			}
			now = t;
			break;
		}
		for (int i = 0; i < n; i++) {
			struct io_req *req = st->done[i];
			struct fileio_slot *slot = (struct fileio_slot *)req;

			inflight--;
			st->free[nfree++] = req->slot;
			if (req->rc) {
				if (!rc) {
					rc = req->rc;
					failed = *req;
				}
				stopping = true;
				continue;
			}
			if (!slot->measured)
				continue;
			op_stats_add(&w->stats[req->op], req->len, t - slot->sub_ns);
			if (series)
				series_add(&w->series, req->op, req->len, t - slot->sub_ns, t);
			if (w->tio)
				target_add(w, req->file, req->op, req->len, t);
			done++;
		}
		atomic_store_explicit(&w->progress_ops, done, memory_order_relaxed);
		now = t;
	}
	if (rc) {
		io_failed(w, &failed, failed.file, rc);
	} else if (job->end_fsync && writes && !atomic_load(w->stop) && !atomic_load(w->job_stop)) {
		for (unsigned f = 0; f < w->nfiles; f++) {
			if ((rc = timed_sync(w, f, OP_FSYNC, measuring, &now))) {
				failed.op = OP_FSYNC;
				io_failed(w, &failed, f, rc);
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

static int fileio_run(struct worker *w)
{
	if (w->eng.ops->caps & ENGINE_CAP_QUEUE)
		return fileio_run_queued(w);
	return fileio_run_sync(w);
}

static void fileio_cleanup(struct worker *w)
{
	if (w->eng.ops)
		w->eng.ops->teardown(&w->eng);
	for (size_t i = 0; i < w->nfiles; i++)
		if (w->files[i].fd >= 0)
			dbio_sys->close(w->files[i].fd);
	if (w->buf) {
		struct fileio_state *st = fileio_state(w);

		free(st->fds);
		free(st->bufs);
		free(st->slots);
		free(st->free);
		free(st->done);
	}
	free(w->buf);
	w->buf = NULL;
}

/* Declared in workload_int.h for every workload; here beside its first
 * user. */
int workload_check_memory(const struct job *job, const char *key, const char *what, const char *purpose,
			  uint64_t need, const char *fix, struct dbio_err *err)
{
	const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	const uint64_t ram = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
	const bool limited = job->mem_limit && (!ram || job->mem_limit < ram);
	const uint64_t base = limited ? job->mem_limit : ram;
	char n[32], cap[32], of[32];

	if (!base || need <= base / 2)
		return 0;
	units_fmt_bytes(n, sizeof(n), need);
	units_fmt_bytes(cap, sizeof(cap), base / 2);
	units_fmt_bytes(of, sizeof(of), base);
	return job_fail(job, key, err, "%s = %s of %s, more than the %s accepted (half of %s%s%s): %s", what,
			n, purpose, cap, limited ? "mem_limit=" : "the machine's ", of,
			limited ? "" : " of RAM", fix);
}

/* The threads' I/O buffers (prepare: iodepth buffers of bs, rounded up to
 * 4 KiB, per thread) against the machine's memory. The message points at
 * bs unless only the other keys were given. */
static int fileio_check_buffers(const struct job *job, struct dbio_err *err)
{
	const bool queued = engine_find(job->ioengine)->caps & ENGINE_CAP_QUEUE;
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

	return rc ? rc : fileio_check_buffers(job, err);
}

const struct workload_ops workload_fileio = {
	.name = "fileio",
	.prepare = fileio_prepare,
	.run = fileio_run,
	.cleanup = fileio_cleanup,
	.caps = WORKLOAD_CAP_FILES,
	.validate = fileio_validate,
};
