/*
 * The job model: plain data that every later stage reads. A job holds the
 * values of the keys of every job in struct job's fields (only what every
 * workload reads: name, directory, runtime, repeat ...; tests/cli/docs.bats
 * fails above 60 fields), and the values of every other table in that
 * table's config struct (job_keys), with where each key was given: the
 * file workloads' keys (rw, bs, size, verify, the logs ...) in
 * workload/fileio/files.h's struct fileio_files, each engine's and
 * workload's own keys in that plug-in's. The
 * tables of keys are option.h's; which tables a job has, and which of them
 * apply to it, is decided by plan/ (plan_job_init, plan_validate), which
 * knows every engine and workload. A jobset is what `dbio run` executes:
 * jobs in order; as in fio, consecutive jobs run together until one says
 * stonewall (job_run_groups).
 */
#ifndef DBIO_JOB_JOB_H
#define DBIO_JOB_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/option.h"
#include "util/err.h"

enum cache_mode { CACHE_FADVISE, CACHE_DROP, CACHE_KEEP };
enum probe_kind { PROBE_NONE, PROBE_WRITE, PROBE_READ };
enum trace_mode { TRACE_MODE_NONE, TRACE_MODE_BLOCK };

/* Where a key's value came from, for messages: "jobs/a.fio:12" or
 * "command line". */
struct job_origin {
	const char *file; /* NULL: command line; else owned by the jobset */
	int line;
	/* Given for several jobs at once ([global], or the command line over
	 * job files): a job it does not apply to ignores it, and it is wrong
	 * only when it applies to none of them. */
	bool shared;
};

/* A key's state in a job. */
struct job_key_state {
	bool set; /* given in a file or on the command line */
	struct job_origin origin;
};

/* The values of one option table for a job. */
struct job_keys {
	const struct option_table *table; /* static */
	enum option_scope scope;
	const char *owner;	     /* the engine's or workload's name (static); NULL for the job's own */
	void *conf;		     /* owned, table->conf_size bytes; NULL: the fields of struct job */
	struct job_key_state *state; /* owned, one per key of the table */
	bool applies;		     /* set by plan_validate: these keys are the job's */
};

struct workload_ops;
struct engine_ops;

struct job {
	/* Keys of every job (option_job_table). */
	char name[128];
	char directory[4096]; /* one or more directories separated by ':' */
	char workload[32];    /* the workload registry's names */
	bool stonewall;	      /* start after every job before it has finished */
	bool new_group;	      /* a new reporting group */
	char wait_for[128];   /* start after this job has finished */
	char description[256];
	bool group_reporting; /* fio's keys that change nothing measured (fio_noop) */
	bool gtod_reduce;
	bool thread;
	uint64_t threads;
	bool clat_percentiles;
	bool lat_percentiles;
	bool slat_percentiles;
	uint64_t numjobs;
	uint64_t runtime_ns; /* 0 = no limit */
	bool time_based;
	uint64_t ramp_ns;
	uint64_t stonewall_ns;	/* IOR's -D: stop issuing I/O this long after the common start; 0 = none */
	bool stonewall_wearout; /* then go on until every rank (process) has done the most any did */
	bool invalidate;
	uint64_t randseed;
	bool crash;	      /* crash=1: dbio run and sweep run it on the power-cut layer */
	char crash_model[16]; /* dbio crash's crash model, "" as its default */
	char crash_fault[48]; /* and its injected fault */
	bool randrepeat;
	uint64_t repeat; /* runs of the job; 0: repeat=auto */
	/* repeat=auto: at least 3 runs, then more until the 95 % CI of the
	 * headline figure is within repeat_ci_pct % of its mean, or
	 * repeat_max runs, or repeat_time_ns (0: no limit) since the first */
	uint64_t repeat_max, repeat_ci_pct, repeat_time_ns;
	int cache; /* enum cache_mode, before each run */
	struct opt_interval log_interval;
	uint64_t mem_limit; /* bytes; 0 = no limit */
	struct opt_pcts percentiles;
	int probe; /* enum probe_kind */
	uint64_t probe_interval_ns;
	uint64_t probe_stall_ns;
	int trace; /* enum trace_mode: bpftrace on the targets' devices */

	/* Bookkeeping, not options. */
	struct job_keys *keys; /* every table of the build (plan_job_init), owned */
	size_t nkeys;
	struct job_origin section; /* the job's [section] line */
	/* Resolved by plan_groups. */
	bool starts_group; /* the first job of a group that runs together */
	uint64_t groupid;  /* fio's reporting group: 0, then one more at each stonewall or new_group */
	/* Resolved by plan_validate. */
	const struct workload_ops *wl;
	const struct engine_ops *eng; /* NULL for a workload that drives no engine */
	const void *wl_conf;	      /* the workload's own keys, or NULL */
	const void *eng_conf;	      /* the engine's own keys, or NULL */
	const char *engine_warning;   /* static: what the engine says of this job (warn), or NULL */
};

struct jobset {
	struct job *jobs;
	size_t njobs;
	char **files; /* job file names the origins point into */
	size_t nfiles;
	/* fio's --section NAME (repeated): only the job sections of these
	 * names are read from job files, [global] always; the others are
	 * skipped unread, their keys too, as fio skips them. 0: every one. */
	const char *const *sections;
	size_t nsections;
};

/* Set key=value on job, in every table of job->keys that has the key (the
 * same name may be two workloads' own key). value NULL is a bare key: 1 for
 * a boolean, an error otherwise. On a bad key or value: DBIO_EINPUT with
 * "<where>: key '<key>': <what>: <what is accepted>". */
int job_set(struct job *job, const char *key, const char *value, const struct job_origin *origin,
	    struct dbio_err *err);

/* The def named key among job's tables (the first), or NULL; *keys says
 * which table, when keys is not NULL. */
const struct option_def *job_find(const struct job *job, const char *key, const struct job_keys **keys);

/* Where the values of k's table live for job: k->conf, or job itself. */
void *job_keys_base(const struct job *job, const struct job_keys *k);

/* True when key was given (in a file or on the command line). */
bool job_is_set(const struct job *job, const char *key);

/* Where key was given, or the job's section when it was not. */
const struct job_origin *job_origin_of(const struct job *job, const char *key);

/* "file:line" or "command line" for origin, into buf. */
const char *job_where(const struct job_origin *origin, char *buf, size_t len);

/* Record "<where key was given>: key '<key>': <message> (job '<name>')" as
 * DBIO_EINPUT in err; for validators. */
int job_fail(const struct job *job, const char *key, struct dbio_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* job_fail for a value that is not one of choices ("a, b, c"); a value this
 * build left out (util/built.h) is told the package that brings it back. */
int job_fail_choice(const struct job *job, const char *key, const char *value, const char *choices,
		    struct dbio_err *err);

/* dst becomes a copy of src with its own tables; 0 or -ENOMEM (dst is then
 * empty, safe to release). dst holds nothing before. */
int job_copy(struct job *dst, const struct job *src);

/* Free what job holds; it can be set up again after job_release. */
void job_release(struct job *job);

/* The job's one-line summary into buf, the way a user writes keys: "rw=read
 * bs=4 KiB size=1 GiB nrfiles=1 ioengine=psync numjobs=4 fsync=1" — the
 * keys of its own tables marked brief, and every other key that was given
 * (but name and directory, which a report shows apart), workload first.
 * plan_validate must have run. */
void job_brief(const struct job *job, char *buf, size_t len);

/* The directories of a directory option, split at ':'. Returns their count
 * (names malloc'd into *out, the array too) or -ENOMEM. */
int job_split_dirs(const char *spec, char ***out);

/* Append a copy of job (job_copy); 0 or -ENOMEM. */
int jobset_add(struct jobset *set, const struct job *job);

/* Free what the jobset holds; it can be reused after jobset_release. */
void jobset_release(struct jobset *set);

#endif
