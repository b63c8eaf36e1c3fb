/*
 * fileio's syncs, and sysbench's scope of them (fsync_scope=job): after
 * every N reads and writes counted over all threads of a job, the thread
 * that made the N-th fsyncs (or fdatasyncs) every file of the job, once
 * each, when any was written since the last round — sysbench fileio's
 * --file-fsync-freq. The count is one atomic in the job's shared state
 * (struct jobsync, the fileio workload's shared_size); a job without
 * fsync_scope=job never touches it. fileio's loops ask jobsync_due after
 * each read or write and run a due round (JOBSYNC_ROUND in their sync bits)
 * with jobsync_run when the syncs before it are done.
 */
#ifndef DBIO_WORKLOAD_JOBSYNC_H
#define DBIO_WORKLOAD_JOBSYNC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "job/job.h"
#include "stats/opstats.h"
#include "util/err.h"
#include "workload/workload.h"
#include "workload/fileio/files.h"

/* The bit of a round in fileio's sync bits (1 << op for the others). */
#define JOBSYNC_ROUND (1u << OP_NTYPES)

/* A job's shared count (zeroed by the runner, then jobsync_init). */
struct jobsync {
	atomic_uint_fast64_t requests; /* reads and writes of all threads */
	atomic_int dirty;	       /* a write since the last round */
	atomic_uint active;	       /* threads that have requests left */
	uint64_t every;		       /* N; 0: fsync_scope=file */
	enum op_type op;	       /* OP_FSYNC or OP_FDATASYNC */
};

/* The workload's shared_init: N and the sync of the job. Always 0. */
int jobsync_init(void *shared, const struct job *job, struct dbio_err *err);

/* The workload's shared_release: nothing to free. */
void jobsync_release(void *shared);

/* Count one read or write (op) of the job, more false when it was the
 * thread's last; JOBSYNC_ROUND when it was the N-th since the last round
 * and a write came in between, else 0. As sysbench, whose events run out
 * before a round that is due, no round after the job's last request: the
 * last of the threads to finish makes none after its last. */
unsigned jobsync_count(struct jobsync *js, enum op_type op, bool more);

/* jobsync_count when the job has fsync_scope=job, else 0 at the cost of a
 * test. */
static inline unsigned jobsync_due(struct worker *w, enum op_type op, bool more)
{
	return fileio_files(w->job)->layout.fsync_scope == FSYNC_SCOPE_JOB
		       ? jobsync_count(w->shared, op, more)
		       : 0;
}

/* One fsync, fdatasync or sync_file_range of the worker's file, timed and
 * counted when measuring (a queued job calls it with nothing in flight); a
 * sync keeps its directory busy as a write does. 0 or -errno. */
int fileio_timed_sync(struct worker *w, unsigned file, enum op_type op, bool measuring, uint64_t *now);

/* A round: the job's sync of every file of the worker (all the job's, as
 * jobsync_validate demands), each timed. 0, or -errno with *op the sync and
 * *file the file that failed. */
int jobsync_run(struct worker *w, bool measuring, uint64_t *now, enum op_type *op, unsigned *file);

/* fsync_scope=job's demands: fsync or fdatasync (one of them) and every
 * thread on every file (filename=, or numjobs=1). */
int jobsync_validate(const struct job *job, struct dbio_err *err);

#endif
