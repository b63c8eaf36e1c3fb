/*
 * The fileio workload's page I/O: each thread's files opened with the
 * job's flags, its buffers filled with what the first write carries
 * (content.h), the engine attached to both; and torn down. oltp builds on
 * the same (workload_int.h: fileio_pages_setup).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "util/syscalls.h"
#include "workload/fileio/fileio_int.h"
#include "workload/fileio/keys.h"
#include "workload/fileio/verify.h"
#include "workload/workload.h"
#include "workload/workload_int.h"
#include "workload/fileio/files.h"

static int open_flags(const struct job *job)
{
	int flags = O_NOFOLLOW | O_CLOEXEC;

	flags |= job_writes(job) || (job->eng->caps & ENGINE_CAP_RDWR) ? O_RDWR : O_RDONLY;
	if (fileio_files(job)->layout.direct)
		flags |= O_DIRECT;
	if (fileio_files(job)->layout.sync == SYNC_SYNC)
		flags |= O_SYNC;
	else if (fileio_files(job)->layout.sync == SYNC_DSYNC)
		flags |= O_DSYNC;
	return flags;
}

uint64_t fileio_buf_stride(const struct job *job)
{
	return (fileio_files(job)->where.max_bs + 4095) / 4096 * 4096;
}

/* fio's fadvise_hint: the advice for job's threads, or 0 for none. */
static int fadvise_advice(const struct job *job)
{
	switch (fileio_conf(job)->fadvise_hint) {
	case FADVISE_TYPE:
		return job_is_random(job) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
	case FADVISE_RANDOM:
		return POSIX_FADV_RANDOM;
	case FADVISE_SEQUENTIAL:
		return POSIX_FADV_SEQUENTIAL;
	default:
		return 0;
	}
}

static int open_files(struct worker *w)
{
	const struct job *job = w->job;
	const uint64_t t =
		fileio_files(job)->layout.share_files ? 0 : w->index; /* whose region, as where.c */
	const int advice = fadvise_advice(job);

	for (size_t i = 0; i < w->nfiles; i++)
		w->files[i].fd = -1;
	if (job->eng->caps & ENGINE_CAP_DISKLESS)
		return 0; /* null: none was made, each fd stays -1 */
	for (size_t i = 0; i < w->nfiles; i++) {
		w->files[i].fd = dbio_sys->openat(w->files[i].dirfd, w->files[i].name, open_flags(job));
		if (w->files[i].fd < 0) {
			int rc = -errno;

			if (rc == -EINVAL && fileio_files(job)->layout.direct)
				return dbio_err_set(
					&w->err, DBIO_EINPUT,
					"%s: cannot open with direct=1: the filesystem does not support O_DIRECT",
					w->files[i].path);
			return dbio_err_set(&w->err, rc, "%s: cannot open: %s", w->files[i].path,
					    strerror(-rc));
		}
		/* As fio, over the thread's region of the file (fio's
		 * file_offset and io_size); a failed hint is not the job's. */
		if (advice)
			(void)dbio_sys->posix_fadvise(w->files[i].fd, (off_t)job_file_offset(job, t),
						      (off_t)job_region_bytes(job, t), advice);
	}
	return 0;
}

/* The buffers, filled with what the first write carries (content.h: data
 * that neither compresses nor deduplicates, unless the buffer keys say
 * otherwise), the same every run and in every buffer; the queued loop's
 * slots. */
static int make_buffers(struct worker *w, struct fileio_state *st, bool queued)
{
	const struct job *job = w->job;
	const uint64_t stride = fileio_buf_stride(job);
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
				    w->index, st->nbufs, (unsigned long long)fileio_files(job)->where.max_bs);
	}
	for (size_t i = 0; i < w->nfiles; i++)
		st->fds[i] = w->files[i].fd;
	content_init(&st->content, job, w->index);
	content_first(&st->content, st->buf, fileio_files(job)->where.max_bs);
	for (unsigned b = 0; b < st->nbufs; b++) {
		st->bufs[b] = (char *)st->buf + stride * b;
		if (b)
			memcpy(st->bufs[b], st->buf, fileio_files(job)->where.max_bs);
		if (queued)
			st->slots[b].req = (struct io_req){ .buf = st->bufs[b],
							    .len = fileio_files(job)->where.max_bs,
							    .slot = b };
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
	w->eng.sync_flags = fileio_files(job)->layout.sfr_flags;
	if ((rc = ops->setup(&w->eng, conf)))
		return dbio_err_set(&w->err, rc, "engine %s: setup failed: %s%s%s", ops->name, strerror(-rc),
				    ops->setup_hint ? ": " : "", ops->setup_hint ? ops->setup_hint : "");
	if (ops->attach) {
		const struct engine_files files = {
			.fds = st->fds,
			.nfiles = w->nfiles,
			.file_bytes =
				job_file_bytes(job, fileio_files(job)->layout.share_files ? 0 : w->index),
			.bufs = st->bufs,
			.nbufs = st->nbufs,
			.buf_bytes = fileio_buf_stride(job)
		};

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
	queue_lat_init(&w->qlat);
	if ((rc = open_files(w)) || (rc = make_buffers(w, st, job->eng->caps & ENGINE_CAP_QUEUE)) ||
	    (rc = start_engine(w, st, &conf)))
		return rc;
	rng_seed(&w->rng, worker_seed(w) * 0x9e3779b97f4a7c15ull + 1);
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
	verify_free(st->ver);
	free(st);
}
