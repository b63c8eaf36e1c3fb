/*
 * The job model: one struct job per job of a job file or command line, every
 * field filled from the option table (option.h), so the parser, --help and
 * the docs agree by construction. A jobset is what `dbio run` executes: jobs
 * in order, consecutive jobs that share a `group` run together.
 */
#ifndef DBIO_JOB_JOB_H
#define DBIO_JOB_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

enum rw_mode { RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RANDRW, RW_READWRITE, RW_REWRITE };
enum sync_mode { SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };
enum falloc_mode { FALLOC_NONE, FALLOC_NATIVE, FALLOC_POSIX, FALLOC_KEEP };
enum prefill_mode { PREFILL_AUTO, PREFILL_ON, PREFILL_OFF };
enum cache_mode { CACHE_FADVISE, CACHE_DROP, CACHE_KEEP };
enum key_order { KEY_SEQ, KEY_RANDOM };
enum probe_kind { PROBE_NONE, PROBE_WRITE, PROBE_READ };
enum distribution { DIST_UNIFORM, DIST_ZIPF, DIST_PARETO };
enum journal_mode {
	JOURNAL_DELETE,
	JOURNAL_TRUNCATE,
	JOURNAL_PERSIST,
	JOURNAL_MEMORY,
	JOURNAL_WAL,
	JOURNAL_OFF
};
enum synchronous { SYNCHRONOUS_OFF, SYNCHRONOUS_NORMAL, SYNCHRONOUS_FULL, SYNCHRONOUS_EXTRA };

/* A size range "100-400" (bytes); lo == hi for a single size. */
struct job_range {
	uint64_t lo;
	uint64_t hi;
};

#define JOB_MAX_PCTS 16
#define JOB_MAX_OPTS 64

/* Where an option's value came from, for messages: "jobs/a.fio:12" or
 * "command line". */
struct job_origin {
	const char *file; /* NULL: command line; else owned by the jobset */
	int line;
};

/* log_interval: a time grid or a count grid (one of the two is non-zero). */
struct job_interval {
	uint64_t ns;
	uint64_t ops;
};

struct job {
	char name[128];
	char directory[4096]; /* one or more directories separated by ':' */
	char ioengine[32];
	char group[128];
	int rw;		    /* enum rw_mode */
	uint64_t rwmixread; /* percent of reads in mixed modes */
	uint64_t bs;	    /* bytes */
	uint64_t size;	    /* bytes of I/O per pass, per thread unless share_files */
	uint64_t filesize;  /* bytes per file */
	uint64_t nrfiles;
	uint64_t numjobs;
	bool direct;
	int sync;		  /* enum sync_mode */
	uint64_t fsync;		  /* fsync the file after every N writes; 0 = never */
	uint64_t fdatasync;	  /* fdatasync the file after every N writes */
	char sync_file_range[48]; /* as given: "wait_before,write:8", or "" */
	uint64_t sfr_every;	  /* parsed: sync_file_range after every N writes; 0 never */
	unsigned sfr_flags;	  /* parsed: SYNC_FILE_RANGE_* */
	bool end_fsync;
	uint64_t runtime_ns; /* 0 = no limit */
	bool time_based;
	uint64_t ramp_ns;
	uint64_t loops;
	bool invalidate;
	uint64_t randseed;
	bool randrepeat;
	bool norandommap;
	int fallocate; /* enum falloc_mode */
	int prefill;   /* enum prefill_mode */
	bool share_files;
	uint64_t repeat; /* runs of the job */
	int cache;	 /* enum cache_mode, before each run */
	struct job_interval log_interval;
	uint64_t mem_limit; /* bytes; 0 = no limit */
	double percentiles[JOB_MAX_PCTS];
	size_t npercentiles;
	char workload[32];  /* "fileio", "kv", ...: the workload registry's names */
	char kv_engine[16]; /* kv: gdbm, lmdb or sqlite */
	uint64_t records;   /* kv: records to insert, per thread */
	uint64_t batch;	    /* kv: records per batch (transaction, sync) */
	struct job_range value_size;
	int key_order;	      /* enum key_order */
	bool sync_each_batch; /* kv: make each batch durable */
	uint64_t lookups;     /* kv: random gets after the inserts */
	uint64_t updates;     /* kv: random overwrites after the lookups */
	uint64_t rows;	      /* import: rows to load, per thread */
	uint64_t indexes;     /* import: indexes on the table */
	uint64_t page_size;   /* import: SQLite page size, bytes */
	int journal_mode;     /* import: enum journal_mode */
	int synchronous;      /* import: enum synchronous */
	int probe;	      /* enum probe_kind */
	uint64_t probe_interval_ns;
	uint64_t probe_stall_ns;
	char random_distribution[32]; /* as given: random, zipf:1.2, pareto:0.9 */
	int dist;		      /* parsed: enum distribution */
	double dist_param;	      /* zipf's exponent or pareto's h */
	uint64_t oltp_reads;	      /* oltp: page reads per transaction */
	uint64_t oltp_writes;	      /* oltp: page writes per transaction */
	uint64_t group_commit;	      /* oltp: most commit records per log write + fdatasync */
	uint64_t log_record;	      /* oltp: bytes of a commit record */
	uint64_t iodepth;	      /* I/Os in flight per thread (queued engines) */
	bool registerfiles;	      /* io_uring: registered files */
	bool fixedbufs;		      /* io_uring: registered buffers */
	bool hipri;		      /* io_uring: polled completion */

	/* Bookkeeping, not options. */
	uint64_t set_mask;			/* bit i: option i was given */
	struct job_origin origin[JOB_MAX_OPTS]; /* where option i was given */
	struct job_origin section;		/* the job's [section] line */
};

struct jobset {
	struct job *jobs;
	size_t njobs;
	char **files; /* job file names the origins point into */
	size_t nfiles;
};

/* A job holding every option's default, named name. */
void job_defaults(struct job *job, const char *name);

/* Resolve derived values (filesize from size and nrfiles, ...) and check the
 * job is runnable; on failure DBIO_EINPUT with a message naming where the
 * offending key was given. Writes nothing anywhere. */
int job_validate(struct job *job, struct dbio_err *err);

/* The file checks of fileio (sizes, blocks, direct alignment), for the
 * workloads that lay out files. */
int job_validate_files(struct job *job, struct dbio_err *err);

/* Record "<where key was given>: key '<key>': <message> (job '<name>')" as
 * DBIO_EINPUT in err; for validators. */
int job_fail(const struct job *job, const char *key, struct dbio_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* job_fail for a value that is not one of choices ("a, b, c"); a value this
 * build left out (util/built.h) is told the package that brings it back. */
int job_fail_choice(const struct job *job, const char *key, const char *value, const char *choices,
		    struct dbio_err *err);

/* SQLite's names for journal_mode and synchronous ("wal", "full"). */
const char *job_journal_mode_name(int mode);
const char *job_synchronous_name(int mode);

/* The units of work of a database workload (records, rows), for progress
 * and series sizing; 0 for fileio. */
uint64_t job_work_items(const struct job *job);

/* True when key was given (in a file or on the command line). */
bool job_is_set(const struct job *job, const char *key);

/* True when the job issues reads / writes. */
bool job_reads(const struct job *job);
bool job_writes(const struct job *job);
bool job_is_random(const struct job *job);

/* The directories of a directory option, split at ':'. Returns their count
 * (names malloc'd into *out, the array too) or -ENOMEM. */
int job_split_dirs(const char *spec, char ***out);

/* Append a copy of job; 0 or -ENOMEM. */
int jobset_add(struct jobset *set, const struct job *job);

/* Free what the jobset holds; it can be reused after jobset_release. */
void jobset_release(struct jobset *set);

/* Parse an INI job file into set ([global] sections apply to the jobs after
 * them, as in fio); 0 or DBIO_EINPUT with "<file>:<line>: ..." in err. */
int jobfile_parse(struct jobset *set, const char *path, struct dbio_err *err);

/* The same from a string; name stands for the file name in messages. */
int jobfile_parse_string(struct jobset *set, const char *text, const char *name, struct dbio_err *err);

#endif
