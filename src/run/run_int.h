/* Private to run/: the file layout used by the runner. */
#ifndef DBIO_RUN_RUN_INT_H
#define DBIO_RUN_RUN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/job.h"
#include "run/run.h"
#include "util/err.h"

struct layout_dir {
	char *path;
	int fd;
	bool created; /* dbio made it, so dbio removes it */
};

struct layout_file {
	size_t dir; /* index into layout.dirs */
	char *name;
	char *path; /* dir path + name, for messages */
	bool created;
};

struct layout {
	const struct job *job;
	struct layout_dir *dirs;
	size_t ndirs;
	struct layout_file *files; /* numjobs * nrfiles, or nrfiles when shared */
	size_t nfiles;
	bool keep;
};

/* Split job->directory, open (or, for the default scratch directory, make)
 * every directory and, when files, name every file. Writes nothing but the
 * default directory. */
int layout_init(struct layout *l, const struct job *job, bool files, bool keep, struct dbio_err *err);

/* For workloads that make their own files: remove (unless keep) every file
 * named dbio.<job>.<thread>.<anything> in thread's directory (thread t
 * works in directory t % ndirs). run_check_targets made sure none existed
 * before the run. */
void layout_remove_thread_files(struct layout *l);

/* Create, preallocate and (if the job needs it) fill every file. Stops with
 * DBIO_ESTOPPED when run_stop_signal is raised. */
int layout_create(struct layout *l, struct dbio_err *err);

/* Drop the files' pages from the page cache (POSIX_FADV_DONTNEED). */
int layout_invalidate(struct layout *l, struct dbio_err *err);

/* Remove the files dbio created (unless keep) and the directories it made,
 * then free everything. Each file or directory that cannot be removed is a
 * warning on opts' channel naming it and why, never an error: the run's
 * own error, if any, is what the run failed with. Safe after a failed
 * layout_init. */
void layout_release(struct layout *l, const struct run_opts *opts);

/* Format a warning and hand it to opts->warn (nothing when NULL). */
void run_warn(const struct run_opts *opts, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
