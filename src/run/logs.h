/*
 * fio's log files of a group's threads (write_lat_log, write_bw_log,
 * write_iops_log): checked before anything runs, recorded by each worker
 * (stats/iolog.h) and written after the group, in fio's names, into the
 * current directory or the path in NAME. Each file is written as --output
 * is (util/atomic.h): a new file, or a regular file replaced whole; a
 * symlink planted by another user, a directory or a device is refused
 * before the run. Without per_job_logs every thread of a job (and every job
 * of the group naming the same file) writes into one file, thread by
 * thread.
 */
#ifndef DBIO_RUN_LOGS_H
#define DBIO_RUN_LOGS_H

#include "job/job.h"
#include "run/run_int.h"
#include "util/err.h"

/* Whether every log file of every job of set can be written
 * (atomic_write_check); 0 or the refusal in err. */
int run_logs_check(const struct jobset *set, struct dbio_err *err);

/* Give worker w of job its iolog when the job writes logs; 0 or -ENOMEM. */
int run_logs_assign(struct worker *w, const struct job *job);

/* Write the logs of g's threads once they have joined; 0 or the first
 * failure in err. */
int run_logs_write(struct run_group *g, struct dbio_err *err);

/* Free the iolog of w, if any. */
void run_logs_release(struct worker *w);

#endif
