/*
 * Workloads: what a worker thread does. The runner (run/) creates the
 * threads, lays out the files and hands each thread a struct worker; the
 * workload drives an engine over it and counts into the worker's own stats.
 * One file per workload, one const struct workload_ops, one registry line.
 *
 * Hook contracts:
 *   prepare(w)  In the worker's thread before the start barrier: open files,
 *               allocate buffers, set up the engine. 0 or -errno; detail in
 *               w->err. Everything the run needs is allocated here.
 *   run(w)      The measured loop. Returns 0 or -errno (detail in w->err).
 *               Fills w->stats, w->usage, w->start_ns and w->end_ns. Never
 *               allocates, locks or prints. Stops early when *w->stop or
 *               *w->job_stop becomes non-zero.
 *   cleanup(w)  Undo prepare; called once even when prepare failed.
 *   shared_init(shared, job, err), shared_release(shared)  When
 *               shared_size is non-zero the runner allocates that many
 *               zeroed bytes per job, calls shared_init before any thread
 *               starts and shared_release after all have joined; every
 *               thread of the job sees it as w->shared (the oltp log).
 *   validate(job, err)  Check and complete the job's options for this
 *               workload before anything is written (job->wl_conf holds
 *               its own keys); 0 or DBIO_EINPUT via job_fail. NULL: the
 *               file checks (job_validate_files) for a workload that lays
 *               out files, none otherwise.
 *   work_items(job)  Units of work one thread does (records, rows), for
 *               the progress line; NULL for a workload that lays out
 *               files (its blocks are counted).
 *   series_points(job)  Points the per-batch series of one thread holds
 *               (records / batch), reserved before the run; NULL for a
 *               workload that lays out files (log_interval's grid).
 *   choices(buf, len)  What this build offers for a key of the workload
 *               whose values depend on the build, as "key: a, b, c"
 *               (kv: "kv_engine: gdbm, lmdb, sqlite"), for --version;
 *               NULL when nothing does.
 *
 * options: the workload's own keys (job/option.h), filling its config
 * struct, which the job holds as job->wl_conf; a key in it is refused for
 * a job of another workload (but one that borrows them). NULL when it has
 * none.
 *
 * State: a workload keeps its per-thread state in w->priv (made by
 * prepare, freed by cleanup), and, when it drives an engine, the engine
 * keeps its own in w->eng.priv.
 *
 * caps: WORKLOAD_CAP_FILES when the runner lays out the job's files
 * (size, nrfiles, ...). Otherwise each thread gets its directory and a
 * name prefix (dbio.<job>.<thread>.) for the files it makes itself; the
 * runner removes every file with that prefix afterwards.
 */
#ifndef DBIO_WORKLOAD_WORKLOAD_H
#define DBIO_WORKLOAD_WORKLOAD_H

#include <stdatomic.h>
#include <stdint.h>

#include "engine/engine.h"
#include "job/job.h"
#include "stats/durable.h"
#include "stats/moments.h"
#include "stats/opstats.h"
#include "stats/series.h"
#include "stats/usage.h"
#include "util/err.h"
#include "workload/offgen.h"

struct flow;
struct iolog;

struct wfile {
	int dirfd;	  /* owned by the runner */
	const char *name; /* inside dirfd; owned by the runner */
	const char *path; /* for messages; owned by the runner */
	int fd;		  /* opened by prepare */
	unsigned dir;	  /* the index of its directory in the job's directory list */
};

struct worker {
	/* Set by the runner. */
	const struct job *job;
	unsigned index;	     /* 0 .. numjobs-1 */
	struct wfile *files; /* the files of this worker's slice */
	size_t nfiles;
	uint64_t blocks_per_file; /* filesize / bs */
	uint64_t slice_first;	  /* this worker's blocks: [slice_first, +slice_len) */
	uint64_t slice_len;
	uint64_t ops_per_pass;
	uint64_t io_bytes; /* the thread's share of io_size (all of it unless share_files); 0: none */
	uint64_t
		ops_total; /* reads and writes in all (job_ops_total), for the progress line; 0: time_based */
	struct series series;	/* initialised (maybe off) and released by the runner */
	uint64_t origin_ns;	/* set when the gate opens (plus startdelay): the job's threads start then */
	const atomic_int *stop; /* set on SIGINT / SIGTERM */
	atomic_int *job_stop;	/* set by any worker of the job that fails */
	atomic_uint_fast64_t progress_ops; /* reads and writes so far, for the progress line */
	struct flow *flow; /* fio's flow= of the job's flow_id (workload/fileio/flow.h), or NULL */
	/* fio's steady state (live set by the runner): the measured phase's
	 * reads and writes so far, their bytes and summed latency, stored by
	 * the worker as it goes (worker_live_add), read by the runner's
	 * thread once per check interval. */
	bool live;
	atomic_uint_fast64_t live_ios, live_bytes, live_lat_ns;
	/* fio's --bandwidth-log (live_dirs set by the runner): the measured
	 * bytes so far of reads, writes and trims, read by the runner's
	 * thread every 500 ms. */
	bool live_dirs;
	atomic_uint_fast64_t live_dir_bytes[3];

	void *shared;	      /* the job's shared state (shared_size), or NULL */
	int dirfd;	      /* without WORKLOAD_CAP_FILES: the thread's directory ... */
	const char *dir_path; /* ... its path, for messages ... */
	char prefix[192];     /* ... and "dbio.<job>.<thread>." for its files */
	/* workload_db_dir: a directory of the thread's own for a database
	 * library's files (db_dir[0] is 0 until it is made). */
	int db_dirfd;
	char db_dir[4096];   /* its path, for messages */
	char db_lib_dir[32]; /* "/proc/self/fd/<db_dirfd>": the path to give a library */

	/* Filled by the workload. */
	void *priv;	   /* the workload's per-thread state (prepare makes it, cleanup frees it) */
	struct engine eng; /* the engine the workload drives, if any */
	struct offgen gen;
	struct rng rng;
	struct op_stats stats[OP_NTYPES];
	struct hist slat_ns;   /* queued engines: submission latency of each batch */
	struct queue_lat qlat; /* queued engines: fio's slat and lat of each completed I/O, per op type */
	struct target_io *tio; /* a job with several directories: per directory (runner-owned), else NULL */
	struct iolog *iolog;   /* fio's log files (write_*_log; runner-owned), else NULL */
	struct usage usage;    /* of the measured phase */
	uint64_t start_ns;     /* start of the measured phase (after ramp) */
	uint64_t end_ns;
	struct dbio_err err;
	uint64_t disk_bytes;	/* bytes the workload's files occupy at the end (st_blocks) */
	const char *db_engine;	/* static: the database a workload drove ("sqlite"), or NULL */
	const char *db_version; /* static: its library's version ("7.8.3"), or NULL */
	int db_assertions;	/* its library calls assert(): 1, does not: 0, unknown: -1 */
				/* The phases of a workload that has them (meta: up to five; kv: load,
				 * read ...; kv's benchmarks= list: up to WORKLOAD_MAX_PHASES) */
#define WORKLOAD_MAX_PHASES 12
	struct phase {
		const char *name; /* static */
		uint64_t start_ns, end_ns;
		uint64_t ops; /* the phase's own operations (inserts, rows, indexes) */
		struct usage usage;
		/* Figures a workload adds to the phase (postgres: the server's
		 * view, such as wal_bytes), in the result under the phase's
		 * "figures"; the unit is in the name. */
#define PHASE_MAX_FIGURES 16
		struct phase_figure {
			const char *name; /* static */
			double value;
		} figures[PHASE_MAX_FIGURES];
		unsigned nfigures;
		/* Appended: the latencies of the phase's own operations as op
		 * type lat_op (kv's benchmarks=: a write's batches, a read's
		 * gets), apart from the run's of that type, which every phase
		 * having it adds to; NULL when the workload keeps none. Owned
		 * by the worker, freed by the runner with its thread. */
		enum op_type lat_op;
		struct op_stats *lat;
	} phases[WORKLOAD_MAX_PHASES];
	unsigned nphases;
	unsigned lat_depth;	/* latency_target: the queue depth the search found (0: none) */
	struct io_errors ioerr; /* continue_on_error: what the thread went on after */
	/* Appended. stonewall_s (set by the runner): the job's stonewall,
	 * which all its threads share, or NULL; whether this thread has told
	 * it its work (stonewall.h). */
	struct stonewall *wall;
	bool wall_told;
	/* Appended. dbio crash: the crash states checked and what they lost
	 * (on false for a run that was not checked). */
	struct durable_tally durable;
	/* Appended. fio's verify_state_load (set by the runner from the
	 * state file, run/vstate.c): the thread reads back at most
	 * vstate_writes blocks, the writes the saved thread completed. */
	bool vstate;
	uint64_t vstate_writes;
};

/* One measured read, write or trim (op) of len bytes that took lat_ns,
 * for the runner's steady-state check when w->live and its aggregate
 * bandwidth log when w->live_dirs; only the worker stores, so a relaxed
 * load and store each (no locked instruction). */
static inline void worker_live_add(struct worker *w, enum op_type op, uint64_t len, uint64_t lat_ns)
{
	if (w->live_dirs) {
		atomic_uint_fast64_t *b = &w->live_dir_bytes[op == OP_READ ? 0 : op == OP_WRITE ? 1 : 2];

		atomic_store_explicit(b, atomic_load_explicit(b, memory_order_relaxed) + len,
				      memory_order_relaxed);
	}
	if (!w->live)
		return;
	atomic_store_explicit(&w->live_ios, atomic_load_explicit(&w->live_ios, memory_order_relaxed) + 1,
			      memory_order_relaxed);
	atomic_store_explicit(&w->live_bytes,
			      atomic_load_explicit(&w->live_bytes, memory_order_relaxed) + len,
			      memory_order_relaxed);
	atomic_store_explicit(&w->live_lat_ns,
			      atomic_load_explicit(&w->live_lat_ns, memory_order_relaxed) + lat_ns,
			      memory_order_relaxed);
}

enum workload_caps {
	WORKLOAD_CAP_FILES = 1u << 0,
	/* Appended. A database library (or server) reads, writes and syncs
	 * the job's files itself, not through dbio_sys: DBIO_FAULT
	 * (util/fault.h) cannot reach that I/O. */
	WORKLOAD_CAP_LIBRARY_IO = 1u << 1,
	/* Appended. The workload's threads stop at the job's stonewall_s and
	 * honour stonewall_wearout (workload/stonewall.h); a job of any
	 * other workload that gives either key is refused. */
	WORKLOAD_CAP_STONEWALL = 1u << 2,
};

/* A part of a workload with keys of its own (workload_ops.part_at). */
struct workload_part {
	const char *key;   /* the workload's key that chooses the part: "kv_engine" */
	const char *value; /* the part's value of it: "rocksdb" */
	const struct option_table *options;
};

struct workload_ops {
	const char *name;
	int (*prepare)(struct worker *w);
	int (*run)(struct worker *w);
	void (*cleanup)(struct worker *w);
	unsigned caps;
	int (*validate)(struct job *job, struct dbio_err *err);
	size_t shared_size; /* bytes of per-job state the threads share, or 0 */
	int (*shared_init)(void *shared, const struct job *job, struct dbio_err *err);
	void (*shared_release)(void *shared);
	/* Appended; see the contracts at the top. */
	const struct option_table *options;
	uint64_t (*work_items)(const struct job *job);
	uint64_t (*series_points)(const struct job *job);
	void (*choices)(char *buf, size_t len);
	/* Appended: the names of the phases the workload may record in
	 * w->phases, NULL-terminated (NULL: it records none), so that a
	 * phase can be asked for (`dbio sweep --op index`) before any run. */
	const char *const *phases;
	/* Appended: the workload whose own keys this one's jobs take too
	 * (oltp: fileio's, as its page I/O and checks are fileio's; it
	 * refuses by name those it does not honour), or NULL. The keys stay
	 * the other workload's: job->wl_conf is this workload's own. */
	const char *borrows;
	/* Appended: the i-th part of the workload that has keys of its own
	 * (kv's kv_engine=rocksdb and its write_buffer_size ...), into *part;
	 * false past the last. NULL: no part has keys. A part's keys apply to
	 * a job of this workload whose value of part->key is part->value, and
	 * are refused, naming the part, on any other job. */
	bool (*part_at)(size_t i, struct workload_part *part);
};

/* The registry (registry.c), in the order help lists it. */
extern const struct workload_ops *const workload_registry[];
extern const size_t workload_count;

/* The workload named name, or NULL. */
const struct workload_ops *workload_find(const char *name);

/* Whether some workload of the registry may record a phase called the
 * len bytes at name. */
bool workload_phase_known(const char *name, size_t len);

/* Every phase name of the registry that is not an op type's, once each,
 * "verify schema load ..." into buf (for messages). */
void workload_phase_names(char *buf, size_t len);

/* "fileio, kv" into buf. */
void workload_list(char *buf, size_t len);

/* What a job of a file workload sets its engine up and checks it with
 * (job->eng resolved). */
void workload_engine_conf(const struct job *job, struct engine_conf *conf);

/*
 * Make the thread's private directory <prefix>db (dbio.<job>.<thread>.db)
 * in its directory, mode 0700, for the files a database library creates by
 * name beside the database (LMDB's -lock, SQLite's -journal, -wal and
 * -shm): nobody else can plant a name in it, and libraries are given paths
 * through db_lib_dir, /proc/self/fd/<fd> of the directory dbio opened, so
 * even a rename of the directory cannot send them elsewhere. 0, or
 * DBIO_EUNSAFE when it exists or was swapped, or -errno; detail in w->err.
 * The descriptor stays open after workload_db_dir_close (the workload is
 * done with it) until the runner calls workload_db_dir_remove.
 */
int workload_db_dir(struct worker *w);

void workload_db_dir_close(struct worker *w);

/* Unless keep, remove what is in the thread's private directory through
 * the descriptor opened when it was made, and its name in the thread's
 * directory only while that name still is it (another user who can rename
 * in the target may have swapped something in); close the descriptor. 0,
 * or nonzero with a warning for the user in why. */
int workload_db_dir_remove(struct worker *w, bool keep, char *why, size_t len);

#endif
