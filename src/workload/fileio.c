/*
 * fileio: the fio-style file workload. Each operation is a read or write of
 * bs bytes at a block chosen by the offset generator, issued through the
 * job's engine, timed with one clock read per operation, and followed by an
 * fsync or fdatasync every N writes when the job asks for it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/syscalls.h"
#include "workload/workload.h"

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

static int fileio_prepare(struct worker *w)
{
	const struct job *job = w->job;
	const struct engine_conf conf = { .iodepth = 1, .direct = job->direct };
	enum offgen_mode mode = OFFGEN_SEQ;
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
	rc = posix_memalign(&w->buf, 4096, job->bs);
	if (rc) {
		w->buf = NULL;
		return dbio_err_set(&w->err, -rc, "worker %u: cannot allocate a %llu-byte buffer", w->index,
				    (unsigned long long)job->bs);
	}
	/* Data that neither compresses nor deduplicates, the same every run. */
	uint64_t seed = job->randseed + w->index;
	struct rng fill;

	rng_seed(&fill, seed ^ 0x5eedf111ull);
	for (uint64_t i = 0; i + 8 <= job->bs; i += 8) {
		uint64_t x = rng_next(&fill);
		memcpy((char *)w->buf + i, &x, 8);
	}

	w->eng.ops = engine_find(job->ioengine);
	rc = w->eng.ops->setup(&w->eng, &conf);
	if (rc)
		return dbio_err_set(&w->err, rc, "engine %s: setup failed: %s", job->ioengine, strerror(-rc));
	if (job_is_random(job))
		mode = job->norandommap ? OFFGEN_UNIFORM : OFFGEN_RANDMAP;
	offgen_init(&w->gen, mode, w->slice_len, seed);
	rng_seed(&w->rng, seed * 0x9e3779b97f4a7c15ull + 1);
	for (int t = 0; t < OP_NTYPES; t++)
		op_stats_init(&w->stats[t]);
	return 0;
}

static int io_failed(struct worker *w, const struct io_req *req, size_t file, int rc)
{
	atomic_store(w->job_stop, 1);
	if (req->op == OP_READ || req->op == OP_WRITE)
		return dbio_err_set(&w->err, rc, "%s: %s of %llu bytes at offset %llu: %s",
				    w->files[file].path, op_type_name(req->op), (unsigned long long)req->len,
				    (unsigned long long)req->off, strerror(-rc));
	return dbio_err_set(&w->err, rc, "%s: %s: %s", w->files[file].path, op_type_name(req->op),
			    strerror(-rc));
}

static int fileio_run(struct worker *w)
{
	const struct job *job = w->job;
	const uint64_t total = job->time_based ? UINT64_MAX : w->ops_per_pass * job->loops;
	const uint64_t bpf = w->blocks_per_file;
	const bool mixed = job->rw == RW_RANDRW || job->rw == RW_READWRITE;
	const enum op_type fixed_op = job_reads(job) ? OP_READ : OP_WRITE;
	const uint64_t fsync_every = job->fsync, fdatasync_every = job->fdatasync;
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
		req.fd = w->files[file].fd;
		req.off = (block % bpf) * job->bs;
		req.op = mixed ? (rng_below(&w->rng, 100) < job->rwmixread ? OP_READ : OP_WRITE) : fixed_op;
		rc = w->eng.ops->io(&w->eng, &req);
		uint64_t t = clock_now_ns();

		if (rc)
			break;
		if (measuring) {
			op_stats_add(&w->stats[req.op], req.len, t - now);
			if (series)
				series_add(&w->series, req.op, req.len, t - now, t);
		}
		now = t;
		done++;
		atomic_store_explicit(&w->progress_ops, done, memory_order_relaxed);
		if (req.op != OP_WRITE)
			continue;
		writes++;
		if (fsync_every && writes % fsync_every == 0) {
			req.op = OP_FSYNC;
			if ((rc = w->eng.ops->sync(&w->eng, req.fd, OP_FSYNC)))
				break;
			t = clock_now_ns();
			if (measuring) {
				op_stats_add(&w->stats[OP_FSYNC], 0, t - now);
				if (series)
					series_add(&w->series, OP_FSYNC, 0, t - now, t);
			}
			now = t;
		}
		if (fdatasync_every && writes % fdatasync_every == 0) {
			req.op = OP_FDATASYNC;
			if ((rc = w->eng.ops->sync(&w->eng, req.fd, OP_FDATASYNC)))
				break;
			t = clock_now_ns();
			if (measuring) {
				op_stats_add(&w->stats[OP_FDATASYNC], 0, t - now);
				if (series)
					series_add(&w->series, OP_FDATASYNC, 0, t - now, t);
			}
			now = t;
		}
	}
	if (rc) {
		io_failed(w, &req, file, rc);
	} else if (job->end_fsync && writes && !atomic_load(w->stop) && !atomic_load(w->job_stop)) {
		req.op = OP_FSYNC;
		for (file = 0; file < w->nfiles; file++) {
			if ((rc = w->eng.ops->sync(&w->eng, w->files[file].fd, OP_FSYNC))) {
				io_failed(w, &req, file, rc);
				break;
			}
			uint64_t t = clock_now_ns();

			if (measuring) {
				op_stats_add(&w->stats[OP_FSYNC], 0, t - now);
				if (series)
					series_add(&w->series, OP_FSYNC, 0, t - now, t);
			}
			now = t;
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

static void fileio_cleanup(struct worker *w)
{
	if (w->eng.ops)
		w->eng.ops->teardown(&w->eng);
	for (size_t i = 0; i < w->nfiles; i++)
		if (w->files[i].fd >= 0)
			dbio_sys->close(w->files[i].fd);
	free(w->buf);
	w->buf = NULL;
}

const struct workload_ops workload_fileio = {
	.name = "fileio",
	.prepare = fileio_prepare,
	.run = fileio_run,
	.cleanup = fileio_cleanup,
	.caps = WORKLOAD_CAP_FILES,
};
