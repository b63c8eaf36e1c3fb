/*
 * fio's filename_format for the file workloads (fname.c): the names of a
 * job's files made from fio's keywords ($jobname, $jobnum, $filenum,
 * $clientuid), checked as filename='s names are, before the layout makes
 * them in directory=.
 */
#ifndef DBIO_WORKLOAD_FILEIO_FNAME_H
#define DBIO_WORKLOAD_FILEIO_FNAME_H

#include <stddef.h>
#include <stdint.h>

#include "job/job.h"
#include "util/err.h"

/* fmt with fio's keywords replaced (case-insensitive, as fio's): $jobname
 * by job, $jobnum by thread (the clone of numjobs, from 0), $filenum by
 * file (from 0), $clientuid by "" (fio's client address, empty outside its
 * client/server mode). Into buf; its length, or len when it does not fit. */
size_t fname_expand(const char *fmt, const char *job, uint64_t thread, uint64_t file, char *buf, size_t len);

/* filename_format checked, as fio means it: an absolute format without
 * directory= makes its directory the job's; names that do not depend on
 * the thread become filename='s list, which every thread (and every job
 * naming the same) shares; names of each thread stay the format's. Each
 * name is a name in the directory: no '/', '.' or '..'; no two alike. 0
 * or DBIO_EINPUT. */
int fname_validate(struct job *job, struct dbio_err *err);

/* The name of thread's file of job into buf, when its names are the
 * format's per thread; NULL otherwise (dbio's names, or filename=). */
const char *fname_at(const struct job *job, uint64_t thread, uint64_t file, char *buf, size_t len);

#endif
