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
#include "workload/stonewall.h"
#include "workload/workload.h"
#include "workload/fileio/files.h"

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
	bool fill;  /* fill the files even if this job does not read: a sharer does */
	bool carry; /* keep its files for a later group (fileio_files(job)->verify.files_for_later), unless
		       the group failed */
	const char *adopt; /* run_opts.adopt */
	bool adopt_any;	   /* run_opts.adopt_any */
};

/* The most bytes layout_fill writes at a time. */
#define LAYOUT_CHUNK (1u << 20)

/* Write f from byte from to its size in writes of chunk bytes (at most
 * LAYOUT_CHUNK) of buf, then fsync: 0, DBIO_ESTOPPED at a stop signal, or
 * -errno. */
int layout_fill(const struct layout_file *f, int fd, uint64_t from, char *buf, uint64_t chunk);

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

/* fio's steady state (steady.c): one unit per job with
 * steadystate_duration, or per reporting group with group_reporting,
 * judged on the sum of its threads' live counters once per interval. */
struct steady_unit {
	struct steady_window win;
	uint64_t t0_ns;	      /* the unit's clock: the gate, its startdelay and ramp_time */
	uint64_t interval_ns; /* the check interval */
	uint64_t first_ns;    /* from t0: the end of the first sample's interval */
	uint64_t next_ns;     /* the next check (absolute) */
	uint64_t prev_ns, prev_ios, prev_bytes, prev_lat_ns;
	uint64_t samples_ns; /* from t0: the start of the first sample's interval */
	uint64_t end_ns;     /* from t0: the last sample */
	bool primed;	     /* prev_* hold the totals at the start of an interval sampled */
	bool done;	     /* attained, or its threads have ended */
};

struct run_steady {
	struct steady_unit *units;
	size_t nunits;
	size_t *unit_of; /* per job of the group: its unit, or SIZE_MAX */
};

/* One worker thread. */
struct run_slot {
	struct worker w;
	struct run_gate *gate;
	int rc;
	atomic_int ended;	 /* its run returned (steady.c: no more samples of it) */
	struct schedstat sched;	 /* the thread's scheduler times over its run (taskstat_sched_self) */
	uint64_t sched_wall_ns;	 /* the wall-clock time they were taken over */
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
	struct tracer tracer; /* trace=block: bpftrace while the threads run */
	struct run_steady steady;
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
	struct flow *flows;	 /* n: one per flow_id of the jobs with flow= (run_flow_of) */
	atomic_int ended_all;	 /* 1 + the job whose thread ended with exit_what=all; 0: none */
	struct run_reach *reach; /* n, shared with mem_limit's child (limited.c); NULL without */
	atomic_int run_failed;	 /* a thread's measured loop failed (for run_opts.poll) */
	size_t nflows;
	struct stonewall *walls; /* n: stonewall_s of each job (threads 0: none) */
};

/* How far a job of mem_limit's child has got, in memory shared with dbio,
 * so that a child killed for memory can still be said to have done so
 * much: the threads' progress_ops and ops_total, summed. */
struct run_reach {
	atomic_uint_fast64_t ops, total;
};

/* Store the group's progress into g->reach (when there is one); from the
 * thread that watches the group. */
void run_reach_note(struct run_group *g);

/* mem_limit (limited.c): run body(g) — the group's steps from handing out
 * the work to collecting it — in a child process that joins g->mem's
 * cgroup, and bring g->stats back over a pipe; dbio's own process stays
 * outside the cgroup, so a kill for memory ends the child, never dbio.
 * Returns body's result, or when the child died without sending all of
 * it (the OOM killer: "the job exceeded mem_limit=8m (peak …)") -ENOMEM
 * or -EIO with the reason in err and g->stats empty. g->started is set:
 * the threads ran, in the child. */
int run_limited(struct run_group *g, int (*body)(struct run_group *, struct dbio_err *),
		struct dbio_err *err);

/* The stop signals' handlers for mem_limit's child (signal.c): as
 * run_signals_install, but a second signal does not kill. */
void run_signals_install_child(void);

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

/* fio's NUMA keys (numa.c) for the calling worker thread, from
 * run_thread_setup after its CPUs: numa_cpu_nodes (sched_setaffinity),
 * numa_mem_policy (set_mempolicy); 0 or -errno with w->err naming the job,
 * thread and call. */
int run_thread_numa(struct worker *w);
bool run_thread_delay(struct worker *w);
void run_thread_exit(struct run_group *g, const struct job *job, int rc);

/* fio's flow: the group's flow of job's flow_id (made the first time),
 * or NULL for a job without flow=. g->flows has room for one per job. */
struct flow *run_flow_of(struct run_group *g, const struct job *job);
/* fio's steady state over the group's jobs (steady.c). run_steady_init,
 * once the slots are assigned: a unit per job with steadystate_duration
 * (per reporting group with group_reporting), its workers' live counters
 * on; 0 or -ENOMEM. run_steady_start, when the gate opens at open_ns.
 * run_steady_next: when the next check is due (absolute ns), UINT64_MAX
 * for none. run_steady_check, from the watching thread at now: a sample
 * of every unit due, and its jobs stopped (job_stop) when attained.
 * run_steady_collect: job j's unit into its stats (a copy); 0 or -ENOMEM.
 * run_steady_release frees what run_steady_init made (safe when it did
 * not run). */
int run_steady_init(struct run_group *g);
void run_steady_start(struct run_group *g, uint64_t open_ns);
uint64_t run_steady_next(const struct run_group *g);
void run_steady_check(struct run_group *g, uint64_t now);
int run_steady_collect(struct run_group *g, size_t j);
void run_steady_release(struct run_group *g);

/* fio's --bandwidth-log (aggbw.c), when g->opts->agg_bw: run_aggbw_arm
 * when the gate opens, run_aggbw_next when the next sample is due
 * (UINT64_MAX: never), run_aggbw_check from the watching thread at now. */
void run_aggbw_arm(struct run_group *g, uint64_t open_ns);
uint64_t run_aggbw_next(const struct run_group *g);
void run_aggbw_check(struct run_group *g, uint64_t now);
/* g's threads have ended: their bytes join those of the groups before. */
void run_aggbw_end(struct run_group *g);

/* stonewall_s (stonewall.c): each job's stonewall, made for its threads
 * (0 or -errno), armed when the gate opens, decided by the thread that
 * watches the group: run_walls_next is when the next one stands
 * (UINT64_MAX: none left), and run_walls_decide, called without the
 * gate's lock, decides every one that stands by now (all: every one left,
 * once the threads are done), in the order every process takes (by time,
 * then job), each with one run_coord_most across the processes; its
 * figures go to the job's stats. */
int run_walls_init(struct run_group *g);
void run_walls_arm(struct run_group *g, uint64_t open_ns);
uint64_t run_walls_next(const struct run_group *g);
void run_walls_decide(struct run_group *g, uint64_t now, bool all);
void run_walls_release(struct run_group *g);

/* The mark (util/mark.h) on the data files a run lays out while it runs:
 * a file of the job's name that carries it was left by a run of dbio
 * that did not finish (SIGKILL, a crash, a power cut). A kept file
 * (--keep) has it replaced by RUN_MARK_KEPT. */
#define RUN_MARK_LIVE "run"
/* The mark --keep leaves instead: the file is the user's (a later run
 * refuses it, never removes it), and verify_only may read it back as one
 * dbio wrote. */
#define RUN_MARK_KEPT "kept"
/* The mark on a verify state file dbio saved (vstate.c). */
#define RUN_MARK_VSTATE "verify-state"

/* fio's verify state between runs on kept files (vstate.c). The name of
 * thread t's state file: dbio.<job>.verify.<fio's thread number>.state. */
void run_vstate_name(const struct job *job, unsigned t, char *out, size_t len);
/* Before anything is written, for a job whose first directory is dir:
 * with verify_state_load every thread's state read and checked; when the
 * job will save one (--keep), each name absent or a state dbio saved.
 * 0 or an error in err naming the file. */
int run_vstate_check(const struct job *job, const char *dir, const struct run_opts *opts,
		     struct dbio_err *err);
/* Thread t's state in dirfd (dir for messages), every field checked
 * against the job: the writes it saved into *writes. 0 or an error. */
int run_vstate_load(const struct job *job, int dirfd, const char *dir, unsigned t, uint64_t *writes,
		    struct dbio_err *err);
/* After the group's threads: with --keep, each started thread of a job
 * that saves its verify state writes it, in the job's first directory.
 * 0 or the first error (kept in err unless it holds one). */
int run_vstate_save(struct run_group *g, struct dbio_err *err);

/* Record a file a group creates for a later group (carried.c); whether
 * st is one recorded. */
struct stat;
int run_carried_add(const struct stat *st);
bool run_carried_has(const struct stat *st);

/* Whether name, in a directory, is a file the job would make:
 * dbio.<job>.<thread>.<rest>, dbio.<job>.shared.<rest> or dbio.<job>.probe
 * (so job 'a' does not claim job 'a.b''s). */
bool run_is_job_file(const struct job *job, const char *name);

/* Whether dirfd/name is a leftover of dbio's: a regular file of dbio's
 * user with one link, carrying RUN_MARK_LIVE, opened without following a
 * symlink. */
bool run_leftover_ours(int dirfd, const char *name);
/* The same for a file an earlier run kept (RUN_MARK_KEPT), which a job
 * that verifies its reads reads back (job_verifies_reads). */
bool run_kept_ours(int dirfd, const char *name);

/* Remove the job's leftovers (run_leftover_ours) from its directories,
 * each named in a warning on opts; what cannot be removed is a warning
 * too (the layout then says the name exists). */
void layout_clear_leftovers(struct layout *l, const struct run_opts *opts);

/* Format a warning and hand it to opts->warn (nothing when NULL). */
void run_warn(const struct run_opts *opts, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* exec.c: the job's exec_prerun (post false) or exec_postrun, if given,
 * its output to JOBNAME.prerun.txt or .postrun.txt; rec says whether it
 * ran and its status. 0; -ECANCELED for a prerun that exited other than
 * 0; DBIO_EUNSAFE for a symlink or what is not a regular file at the
 * output's path; -errno, with err set. */
int run_exec(const struct job *job, bool post, struct run_exec *rec, struct dbio_err *err);

#endif
