/*
 * fileio's timed sync, and sysbench's rounds of syncs over a whole job
 * (fsync_scope=job); see jobsync.h. Runs in the worker threads; the count
 * is the only shared write, and only for a job that asks for it.
 */
#include "workload/fileio/jobsync.h"
#include "workload/fileio/durable.h"

#include "util/clock.h"
#include "workload/fileio/files.h"

int jobsync_init(void *shared, const struct job *job, struct dbio_err *err)
{
	struct jobsync *js = shared;

	(void)err;
	atomic_init(&js->requests, 0);
	atomic_init(&js->dirty, 0);
	atomic_init(&js->active, (unsigned)job->numjobs);
	js->every = fileio_files(job)->layout.fsync_scope == FSYNC_SCOPE_JOB
			    ? (fileio_files(job)->layout.fsync ? fileio_files(job)->layout.fsync
							       : fileio_files(job)->layout.fdatasync)
			    : 0;
	js->op = fileio_files(job)->layout.fsync ? OP_FSYNC : OP_FDATASYNC;
	return 0;
}

void jobsync_release(void *shared)
{
	(void)shared;
}

unsigned jobsync_count(struct jobsync *js, enum op_type op, bool more)
{
	const uint64_t n = atomic_fetch_add_explicit(&js->requests, 1, memory_order_relaxed) + 1;

	/* Only a change is written: readers of a set flag share its line. */
	if (op == OP_WRITE && !atomic_load_explicit(&js->dirty, memory_order_relaxed))
		atomic_store_explicit(&js->dirty, 1, memory_order_relaxed);
	/* the job's last request: nobody has requests left */
	if (!more && atomic_fetch_sub_explicit(&js->active, 1, memory_order_relaxed) == 1)
		return 0;
	if (n % js->every)
		return 0;
	/* A write at the boundary makes the round whatever the flag says: a
	 * thread late to the boundary before may have taken the flag this
	 * window's writes set (the unit test lost one round in 1,000 so). */
	return atomic_exchange_explicit(&js->dirty, 0, memory_order_relaxed) || op == OP_WRITE ? JOBSYNC_ROUND
											       : 0;
}

int fileio_timed_sync(struct worker *w, unsigned file, enum op_type op, bool measuring, uint64_t *now)
{
	int rc = w->eng.ops->sync(&w->eng, w->files[file].fd, op);
	uint64_t t = clock_now_ns();

	if (rc)
		return rc;
	fileio_durable_synced(file, op);
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

int jobsync_run(struct worker *w, bool measuring, uint64_t *now, enum op_type *op, unsigned *file)
{
	const struct jobsync *js = w->shared;

	*op = js->op;
	for (*file = 0; *file < w->nfiles; ++*file) {
		int rc = fileio_timed_sync(w, *file, js->op, measuring, now);

		if (rc)
			return rc;
	}
	return 0;
}

int jobsync_validate(const struct job *job, struct dbio_err *err)
{
	if (fileio_files(job)->layout.fsync_scope != FSYNC_SCOPE_JOB)
		return 0;
	if (!fileio_files(job)->layout.fsync == !fileio_files(job)->layout.fdatasync)
		return job_fail(
			job, "fsync_scope", err,
			fileio_files(job)->layout.fsync
				? "job takes one of fsync=N and fdatasync=N, not both"
				: "job needs fsync=N or fdatasync=N: the number of reads and writes between two rounds");
	if (job->numjobs > 1 && !fileio_files(job)->layout.filename[0])
		return job_fail(
			job, "fsync_scope", err,
			"job needs every thread on all the files: name them with filename=, or use numjobs=1 (share_files=1 gives each thread a slice)");
	return 0;
}
