/* Private to run/: the file layout, the group of jobs the runner runs, and
 * the steps it shares between its files. */
#ifndef DBIO_RUN_RUN_INT_H
#define DBIO_RUN_RUN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pthread.h>
#include <stdatomic.h>

#include "job/job.h"
#include "run/memlimit.h"
#include "run/probe.h"
#include "run/run.h"
#include "run/sampler.h"
#include "util/err.h"
#include "workload/workload.h"

struct layout_dir {
	char *path;
	int fd;
	bool created; /* dbio made it, so dbio removes it */
};

struct layout_file {
	size_t dir; /* index into layout.dirs */
	char *name;
	char *path;    /* dir path + name, for messages */
	uint64_t size; /* bytes: the region of its threads and the offset before it (job_file_bytes) */
	bool created;
	bool borrowed; /* another job of the group lays it out (layout_share) */
};

struct layout {
	const struct job *job;
	struct layout_dir *dirs;
	size_t ndirs;
	struct layout_file *files; /* numjobs * nrfiles, or nrfiles when shared */
	size_t nfiles;
	bool keep;
	bool fill;	   /* fill the files even if this job does not read: a sharer does */
	const char *adopt; /* run_opts.adopt */
};

/* A file kept by an earlier command (run_opts.adopt), name in dirfd (path
 * for messages): a regular file, not a symlink, that carries maker's mark
 * and holds at least size bytes. 0, DBIO_EUNSAFE or DBIO_EINPUT with the
 * reason in err; reads nothing but the file's mark and size. */
int layout_adopt_check(int dirfd, const char *name, const char *path, uint64_t size, const char *maker,
		       struct dbio_err *err);

/* Split job->directory, open (or, for the default scratch directory, make)
 * every directory and, when files, name every file. Writes nothing but the
 * default directory. */
int layout_init(struct layout *l, const struct job *job, bool files, bool keep, struct dbio_err *err);

/* For workloads that make their own files: remove (unless keep) every file
 * named dbio.<job>.<thread>.<anything> in thread's directory (thread t
 * works in directory t % ndirs). run_check_targets made sure none existed
 * before the run; the layout's own files are left to layout_release.
 * Each thing that cannot be removed is a warning through
 * opts, naming it and why. */
void layout_remove_thread_files(struct layout *l, const struct run_opts *opts);

/* fio's filename: jobs of one group (layouts l[0..n)) that name one file
 * in one directory share it. The first job's layout creates it, filling
 * it when any of them reads; the others borrow it (they neither create
 * nor remove it). plan_groups made sure the sharers agree on its size. */
void layout_share(struct layout *l, size_t n);

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

/* The start gate: every worker prepares, then waits until all have. */
struct run_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned ready;
	bool open;
	uint64_t open_ns;
	unsigned finished;
	atomic_int failed;
};

/* One worker thread. */
struct run_slot {
	struct worker w;
	struct run_gate *gate;
	int rc;
	struct run_group *group; /* the group it runs in (exitall) */
};

/* A group of jobs running together, from run_group's first step to its
 * last. */
struct run_group {
	const struct job *jobs;
	size_t n;
	const struct run_opts *opts;
	struct run_stats *stats; /* n */
	struct run_gate gate;
	struct sampler sampler;
	struct memlimit mem;
	struct layout *layouts; /* n; laid of them initialised */
	size_t laid;
	atomic_int *job_stop; /* n */
	struct probe *probes; /* n */
	void **shared;	      /* n: the workloads' shared state */
	struct run_slot *slots;
	pthread_t *threads;
	struct wfile *wfiles;
	size_t nworkers, started;
};

/* Hand thread t of job its directory, files and slice of the blocks (a
 * file workload) or its units of work (others). files has room for the
 * thread's files. */
void run_assign(struct worker *w, const struct job *job, struct layout *l, struct wfile *files, unsigned t);

/* Merge what the started threads measured into g->stats, per job. 0 or
 * the first failure of a thread (its message in err). */
int run_collect(struct run_group *g, struct dbio_err *err);

/* fio's keys of a job's threads (thread.c), each for the calling worker
 * thread. run_thread_setup, before the thread prepares: its CPUs
 * (cpus_allowed or cpumask, by cpus_allowed_policy), nice and I/O priority;
 * 0 or -errno with w->err naming the job, thread and call. run_thread_delay,
 * after the gate opened: startdelay, until w->origin_ns (the gate plus the
 * job's least delay) and, for a range, a draw of the rest; false when a
 * stop came first. run_thread_exit, when its run returned rc: with exitall (any job
 * of the job files) or exitall_on_error and a failure, stop the jobs of g
 * that exit_what names. */
int run_thread_setup(struct worker *w);
bool run_thread_delay(struct worker *w);
void run_thread_exit(struct run_group *g, const struct job *job, int rc);

/* Format a warning and hand it to opts->warn (nothing when NULL). */
void run_warn(const struct run_opts *opts, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
