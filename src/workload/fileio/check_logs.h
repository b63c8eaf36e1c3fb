/*
 * fio's keys of log files and command priorities (workload/fileio/check_logs.c): the
 * names of a thread's log files, and cmdprio's forms parsed into the job's
 * table of priorities per direction and block size. The worker records
 * (stats/iolog.h), picks each I/O's priority (workload/cmdprio.h) and the
 * runner writes the files (run/logs.c).
 */
#ifndef DBIO_WORKLOAD_FILEIO_CHECK_LOGS_H
#define DBIO_WORKLOAD_FILEIO_CHECK_LOGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/fileio/files.h"
#include "util/err.h"

/* ioprio(2)'s value of class, level and hint, as fio's ioprio_value: class
 * 0 is best-effort. */
unsigned job_ioprio_value(unsigned cls, unsigned level, unsigned hint);

/* Parse and check the log keys and cmdprio's keys of job into nlogs,
 * cmdprio_default and the cmdprio tables. 0 or DBIO_EINPUT naming the
 * key. */
int job_validate_logs(struct job *job, struct dbio_err *err);

/* The first of the log and cmdprio keys given for job, or NULL; for a
 * workload that does not honour them. */
const char *job_logs_key_given(const struct job *job);

/* The NAME of job's log of key (write_lat_log, write_bw_log or
 * write_iops_log): its value, or the job's name when it was given empty;
 * NULL when the key was not given. */
const char *job_log_name(const struct job *job, const char *key);

/* The path of a log into buf, as fio names it: NAME_kind.N.log for fio's
 * thread number N (from 1), NAME_kind.log without per_job_logs; false
 * when it does not fit. */
bool job_log_path(const struct job *job, const char *name, const char *kind, uint64_t thread, char *buf,
		  size_t len);

#endif
