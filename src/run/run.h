/*
 * The runner: turns validated jobs into threads doing I/O on files it lays
 * out, and collects what they measured. It guards the user's data: files are
 * created only inside the target directories, with O_EXCL and O_NOFOLLOW,
 * named dbio.<job>.<thread>.<file>, and removed at the end; a directory that
 * holds anything not named dbio.* is refused unless forced.
 */
#ifndef DBIO_RUN_RUN_H
#define DBIO_RUN_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "job/job.h"
#include "run/coord.h"
#include "stats/durable.h"
#include "stats/moments.h"
#include "stats/opstats.h"
#include "stats/series.h"
#include "stats/steady.h"
#include "run/probe.h"
#include "run/sampler.h"
#include "run/tracer.h"
#include "stats/usage.h"
#include "util/err.h"

#define RUN_SCRATCH_DEFAULT "./dbio-scratch"

/* What a running group has done so far, for a progress line. */
struct run_progress {
	const char *job;     /* the group's first job */
	double elapsed_s;    /* since the gate opened */
	double limit_s;	     /* runtime + ramp_time of the first job, 0 when none */
	uint64_t ops, total; /* operations (or records, rows) done, and to do (0: unknown) */
	double ops_per_s;    /* over the last second */
	double mib_per_s;    /* the same in MiB/s for a file job, else 0 */
	bool done;	     /* the last call of the group: clear the line */
};

struct run_opts {
	bool keep;  /* leave the files in place */
	bool force; /* accept directories that hold foreign files */
	/* Progress: called about once a second while a group runs, from the
	 * thread that called run_group, and once more with done set. NULL:
	 * none. */
	void (*progress)(void *ctx, const struct run_progress *p);
	void *progress_ctx;
	/* The warning channel: what the runner has to tell without failing
	 * (a file or directory it could not remove, direct=1 on a
	 * filesystem held in RAM). msg is one line, "<subject>: <what>:
	 * <reason>", without "dbio: " or a newline, valid only during the
	 * call. Called from the thread that called run_check_targets or
	 * run_group, never from a worker. NULL: warnings are dropped. */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
	/* Files kept by an earlier command (run_kept_make with this maker):
	 * the files a job names with filename= must be such, and are used as
	 * they are (not created, written before, or removed). NULL: none. */
	const char *adopt;
	/* With adopt: a file shorter than the job's size is taken too, and
	 * grows as the job writes it (sysbench's seqwr, which writes its files
	 * anew: run_kept_make with anew). */
	bool adopt_any;
	/* Many processes running the same jobs (MPI ranks): the coordinator
	 * (run/coord.h) whose barrier run_group passes at the phases of every
	 * group — "layout" (files laid out, before the threads), "start"
	 * (every thread prepared, before the gate opens) and "end" (threads
	 * joined and merged) — with this process's rc at that point, going on
	 * at 0 and stopping as after an error here at another process's
	 * error; every process passes the same barriers ("start" is skipped by
	 * all when "layout" failed anywhere). The watching thread polls it at
	 * each sample of the system counters (a failure here told, another's
	 * stopping every job here), and a job's stonewall takes the most
	 * reads and writes of any process from it (most). NULL: one
	 * process. */
	const struct run_coord *coord;
	/* fio's --bandwidth-log: the run's aggregate bandwidth, sampled by
	 * run_group every 500 ms (run_agg_bw). NULL: none. */
	struct run_agg_bw *agg_bw;
};

/* fio's aggregate bandwidth logs (--bandwidth-log[=NAME]): every 500 ms
 * of the run (fio's bwavgtime; the window goes on across stonewall
 * groups, as fio's), the KiB/s of all jobs' reads, writes and trims since
 * the last sample, at the time since origin_ns
 * (the run's start: fio's time since it started); written by the caller
 * with run_agg_bw_write. */
struct run_agg_bw {
	uint64_t origin_ns;
	uint64_t last_ns; /* the last sample, or the first group's start */
	uint64_t last[3]; /* the run's bytes of each direction then */
	uint64_t base[3]; /* the bytes of the groups that have ended */
	bool armed;	  /* the first group has started the window */
	struct run_agg_point {
		uint64_t ms, kib_s[3];
	} * pts;
	size_t n, cap;
	bool lost; /* a sample found no memory */
};

/* Write agg's lines for direction d (0 read, 1 write, 2 trim) in fio's
 * form "ms, KiB/s, d, 0, 0" into path, atomically (as --output); 0 or the
 * error in err. */
int run_agg_bw_write(const struct run_agg_bw *agg, int d, const char *path, struct dbio_err *err);

/* What one run of one job measured. */
struct run_stats {
	struct op_stats ops[OP_NTYPES];
	struct hist slat_ns;	    /* queued engines: submission latency (fio's slat) */
	struct queue_lat qlat;	    /* queued engines: fio's slat and lat per op type, I/O by I/O */
	struct target_io *targets;  /* a job with several directories: reads and writes per directory */
	size_t ntargets;	    /* 0, or the number of directories (owned) */
	struct usage usage;	    /* summed over the job's threads, measured phase only */
	uint64_t elapsed_ns;	    /* first thread's start to last thread's end */
	uint64_t measured_start_ns; /* CLOCK_MONOTONIC: that first start; 0 when none started */
	uint64_t started_wall_ns;
	unsigned threads;
	bool partial;	/* stopped early: signal or error */
	bool ended_all; /* a thread of the job ended with exitall and exit_what=all: fio runs nothing after */
	struct series
		*series; /* log_interval: one merged series (time grid) or one per thread (count grid) */
	size_t nseries;
	/* exec_prerun, exec_postrun: run (ran) and their exit status (128 + a signal) */
	struct run_exec {
		bool ran;
		int status;
		const char *command; /* the job's key, as given */
	} prerun, postrun;
	uint64_t mem_limit_bytes;  /* the cgroup limit in force, 0 for none */
	uint64_t mem_peak_bytes;   /* the cgroup's peak use, page cache included */
	struct sampler counters;   /* system counters sampled while the group ran */
	struct trace_stats *trace; /* trace=block: what bpftrace counted (owned), or NULL */
	struct schedstat sched;	   /* the threads' scheduler times from the gate to their end, summed */
	uint64_t sched_wall_ns;	   /* the wall-clock time of those, summed over the threads */
	const char *db_engine;	   /* the database the workload drove, or NULL */
	const char *db_version;	   /* its library's version, or NULL (workload.h) */
	int db_assertions;	   /* 1: built with assertions, 0: without, -1: unknown */
	uint64_t disk_bytes;	   /* what the workload's own files occupy at the end (databases) */
	unsigned lat_depth_min, lat_depth_max; /* latency_target: the depths its threads found */
	struct io_errors ioerr;		       /* continue_on_error: summed; the first thread's first */
	/* stonewall_s: the job's stonewall in this process (at_ns 0: none) */
	struct run_stonewall {
		uint64_t at_ns;	     /* stonewall_s: after the group's start */
		uint64_t ops, bytes; /* reads and writes, and their bytes, when the threads passed it */
		uint64_t told_ns;    /* when the last thread passed it, after the group's start */
		uint64_t target_ops; /* the most reads and writes any process had done then */
		bool wearout;	     /* stonewall_wearout: every process then went on to target_ops */
	} wall;
	struct run_phase {
		const char *name;
		uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC: earliest start, latest end */
		uint64_t elapsed_ns;	   /* end_ns - start_ns */
		uint64_t ops;		   /* the phase's operations, summed over threads */
		struct usage usage;	   /* summed over the threads */
		struct run_figure {
			const char *name; /* static: the unit is in it */
			double value;	  /* summed over the threads */
		} figures[16];		  /* as struct phase's (PHASE_MAX_FIGURES) */
		unsigned nfigures;
		/* Appended: struct phase's lat, merged over the threads
		 * (owned; NULL when the phase has none). */
		enum op_type lat_op;
		struct op_stats *lat;
	} phases[12]; /* as struct worker's (WORKLOAD_MAX_PHASES, workload.h) */
	unsigned nphases;
	/* fio's steady state (steadystate_duration): the window of the job's
	 * samples (of its reporting group's, with group_reporting) and its
	 * judgement; steady.n is 0 when the job had none. */
	struct steady_window steady;
	uint64_t steady_samples_ns; /* when the samples started, from the job's start (after ramp_time) */
	uint64_t steady_end_ns;	    /* when the last sample was taken, from the job's start */
	struct run_probe {
		int kind;		    /* enum probe_kind; PROBE_NONE: no probe ran */
		struct hist *lat;	    /* every probe's latency (owned) */
		struct probe_stall *stalls; /* owned */
		size_t nstalls;
		uint64_t stalls_dropped;
		int error; /* -errno of the first failed probe */
	} probe;
	struct durable_tally durable; /* dbio crash: what its cuts found (on false: none) */
};

/* Set by the handler of the stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT)
 * to the signal number. */
extern atomic_int run_stop_signal;

/* The process that sent that signal (its si_pid; 0 for the kernel or a
 * signal run_stop_signal was raised for without one), so that a rank of an
 * MPI job can tell its launcher ending the job (mpirun, orted or slurmstepd:
 * its parent) from a signal to this rank alone. */
extern atomic_int run_stop_sender;

#define RUN_DROP_CACHES "/proc/sys/vm/drop_caches"

/* sync(2), then drop the page cache, dentries and inodes (root only). 0 or
 * -errno with the reason in err. */
int run_drop_caches(struct dbio_err *err);

/* Install the handlers of the stop signals: SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT each set run_stop_signal, so that a closed terminal or a quit key
 * ends the run as SIGTERM does (partial result, files removed, exit 128 +
 * the signal) instead of killing dbio with its files left behind. A SIGHUP
 * ignored when dbio starts (nohup) stays ignored. A second one of the same
 * signal kills at once. */
void run_signals_install(void);

/* "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT" for the stop signals, "a signal"
 * for any other; static. */
const char *run_signal_name(int sig);

/* Files kept between commands (`dbio sysbench fileio prepare`, then run,
 * then cleanup): the n names in dir, each made with O_CREAT|O_EXCL|
 * O_NOFOLLOW, marked as maker's (util/mark.h), written with incompressible
 * data in writes of chunk bytes (at most 1 MiB; 0: 1 MiB) up to bytes and
 * fsync'd. The size of the writes matters after: Linux caches a file
 * written in 1 MiB writes in large folios, and random 16 KiB writes into
 * it then ran at 40 % of the speed they reach in a file written 16 KiB at
 * a time (6.18, ext4), so a tool's layout is copied with its write size.
 * A name that exists and carries maker's mark is taken as it is when it
 * holds bytes or more, and written on from its end when it holds fewer
 * (sysbench's "Reusing" and "Extending"); one without the mark, or not a
 * regular file, is refused (DBIO_EUNSAFE: nothing of it is touched). */
enum run_kept_how { RUN_KEPT_MADE, RUN_KEPT_EXTENDED, RUN_KEPT_REUSED };

struct run_kept {
	const char *dir, *maker;
	char *const *names;
	size_t n;
	uint64_t bytes, chunk;
	/* Each file emptied instead (made empty when missing): sysbench's
	 * seqwr run, which writes its files anew; bytes is not used. */
	bool anew;
	/* Told of each name before it is written (NULL: not told). */
	void (*each)(void *ctx, size_t i, enum run_kept_how how);
	void *ctx;
};

/* *written: the bytes written. */
int run_kept_make(const struct run_kept *k, uint64_t *written, struct dbio_err *err);

/* The size of each of the n names in dir into sizes[]: 0, or, at the
 * first that is missing, -ENOENT (*first its index), or DBIO_EUNSAFE when
 * one does not carry maker's mark or is not a regular file. */
int run_kept_sizes(const char *dir, char *const *names, size_t n, const char *maker, uint64_t *sizes,
		   size_t *first, struct dbio_err *err);

/* Remove those of the n names in dir that carry maker's mark; a missing
 * one is skipped, one without the mark (or not a regular file) is left in
 * place and is the error (DBIO_EUNSAFE), after the others are removed.
 * *removed counts the removed. */
int run_kept_remove(const char *dir, char *const *names, size_t n, const char *maker, size_t *removed,
		    struct dbio_err *err);

/* Check, without writing anything, that every job's directories exist (or
 * are the default scratch directory) and hold only dbio's files (unless
 * opts->force). DBIO_EINPUT or DBIO_EUNSAFE with the reason in err. */
int run_check_targets(const struct jobset *set, const struct run_opts *opts, struct dbio_err *err);

/* The default suite's O_DIRECT with a fallback, after run_check_targets:
 * every direct=1 job whose directories do not all take an O_DIRECT open
 * (tmpfs before Linux 6.6, ramfs, some FUSE filesystems) is made buffered
 * (direct=0), and counted in *fellback. The check makes an empty file
 * dbio.<job>.direct in each directory (O_EXCL, O_NOFOLLOW) and removes it.
 * 0, or -errno / DBIO_EUNSAFE with the reason in err. */
int run_direct_fallback(struct jobset *set, size_t *fellback, struct dbio_err *err);

/* Run jobs[0..n) together: lay out their files, start all their threads at
 * once, wait, collect into stats[0..n), remove the files. Returns 0, the
 * first error (-errno, detail in err), or DBIO_ESTOPPED after a signal; the
 * stats are filled as far as the jobs got, with partial set. */
int run_group(const struct job *jobs, size_t n, const struct run_opts *opts, struct run_stats *stats,
	      struct dbio_err *err);

/* Empty stats: zero counters, empty histograms, no series. */
void run_stats_init(struct run_stats *stats);

/* Free the series stats holds; stats can be reused after run_stats_init. */
void run_stats_release(struct run_stats *stats);

#endif
