/*
 * Option tables: the one source of truth for every job key. A table is a
 * list of keys (name, type, where its value lives, default, bounds, help)
 * that fill one struct: the job's own tables (below) fill struct job, and
 * each engine and workload that has keys of its own declares a table in its
 * own file that fills its own config struct (engine_ops.options,
 * workload_ops.options). The tables drive the command line (--key=value),
 * job files (key=value), `dbio help options`, docs/options.md, the man page
 * and the result schema. Where fio has a key for a thing, the name and
 * meaning are fio's; dbio's own keys say so (dbio_own).
 */
#ifndef DBIO_JOB_OPTION_H
#define DBIO_JOB_OPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* The largest value a number option takes: results record options as JSON
 * integers, which are signed 64-bit. */
#define OPT_MAX ((uint64_t)INT64_MAX)

enum opt_type {
	OPT_STR,      /* char[] field; any text up to its size */
	OPT_BOOL,     /* 0/1, also bare ("time_based") */
	OPT_UINT,     /* whole number in [min, max] */
	OPT_SIZE,     /* bytes with k/m/g/t suffix, in [min, max] */
	OPT_TIME,     /* duration with ns/us/ms/s/m/h suffix; bare in bare_unit_ns */
	OPT_ENUM,     /* one of values[] */
	OPT_PCT_LIST, /* struct opt_pcts: colon-separated percentiles, e.g. 99.5:99.99 */
	OPT_INTERVAL, /* struct opt_interval: a duration, or a count with 'ops' (1000ops) */
	OPT_RANGE,    /* struct opt_range: a size or "lo-hi" sizes */
};

/* OPT_RANGE: a size range "100-400" (bytes); lo == hi for a single size. */
struct opt_range {
	uint64_t lo;
	uint64_t hi;
};

/* OPT_INTERVAL: a time grid or a count grid (one of the two is non-zero). */
struct opt_interval {
	uint64_t ns;
	uint64_t ops;
};

#define OPT_MAX_PCTS 16

/* OPT_PCT_LIST: percentiles above 0 and at most 100, all different. */
struct opt_pcts {
	double v[OPT_MAX_PCTS];
	size_t n;
};

struct opt_enum {
	const char *name;
	int value;
	const char *help; /* NULL for an alias that is not listed in help */
};

struct option_def {
	const char *name;
	enum opt_type type;
	size_t offset;		       /* of the field in the table's struct */
	size_t size;		       /* OPT_STR: the field's size */
	const char *def;	       /* default, parsed like user input ("" = empty) */
	const struct opt_enum *values; /* OPT_ENUM, terminated by a NULL name */
	uint64_t min, max;	       /* OPT_UINT, OPT_SIZE, OPT_TIME bounds */
	uint64_t bare_unit_ns;	       /* OPT_TIME: unit of a bare number */
	const char *help;	       /* one paragraph, plain text */
	int dbio_own;		       /* 1: not a fio key */
	int brief;		       /* 1: always in a job's one-line summary (job_brief) */
	int never_brief;	       /* 1: never in the one-line summary: where or when, not what */
	int fio_noop; /* 1: fio's key, accepted and recorded, changes nothing dbio measures */
	/* OPT_ENUM: fio's "VALUE:TEXT" form (rw=randread:8, rw=read:-8k): TEXT,
	 * without the ':', goes into the char[suffix_size] field at
	 * suffix_offset ("" for a bare VALUE), and results show "read:-8k".
	 * suffix_size 0: no suffix. Its owner checks TEXT. */
	size_t suffix_offset, suffix_size;
	/* OPT_SIZE, OPT_UINT: fio's READ,WRITE[,TRIM] form (bs=8k,32k): the
	 * read value fills the field, the write value the uint64_t at
	 * pair_offset. A value with no comma after it
	 * applies to the kinds after it too (bs=8k; bs=4k,8k: trims 8k, fio's
	 * "the remainder inherits the last value"); an empty one is the default
	 * (bs=,8k). Results show "8192,32768" when the two differ. 0: one value. */
	size_t pair_offset;
	/* With pair_offset: the uint64_t the TRIM value goes to; 0: TRIM is
	 * checked and not kept. */
	size_t trim_offset;
	/* OPT_STR: a bare key is the empty value (fio's write_bw_log alone);
	 * 0: a bare key needs a value. */
	int bare_empty;
	/* OPT_UINT: a word that stands for the value 0, below min (repeat=auto);
	 * results show the word. NULL: none. */
	const char *word;
	/* OPT_UINT: fio's size suffixes on a count too (verify_backlog=1m is
	 * 1048576, as fio reads its integer keys); 0: digits only. */
	int suffixes;
};

/* Whom a table's keys belong to, and so which jobs may be given them. */
enum option_scope {
	OPTION_SCOPE_JOB,      /* every job */
	OPTION_SCOPE_FILES,    /* jobs of a workload that lays out files and drives an I/O engine */
	OPTION_SCOPE_WORKLOAD, /* jobs of one workload (owner) */
	OPTION_SCOPE_ENGINE,   /* jobs of one I/O engine (owner) */
	/* jobs of one part of a workload: those whose value of the workload's
	 * part key is owner (kv_engine=rocksdb); workload_ops.part_at */
	OPTION_SCOPE_PART,
};

struct option_table {
	const struct option_def *defs;
	size_t count;
	size_t conf_size; /* bytes of the struct the keys fill; 0: struct job's own fields */
};

/* Build a table from a const array of defs and the struct they fill. */
#define OPTION_TABLE(defs_array, conf_type)                                                                  \
	{                                                                                                    \
		.defs = (defs_array), .count = sizeof(defs_array) / sizeof((defs_array)[0]),                 \
		.conf_size = sizeof(conf_type)                                                               \
	}

/* The keys of every job, which fill struct job. (The keys of the workloads
 * that lay out files are workload/fileio/files.c's table.) */
extern const struct option_table option_job_table;

/* The key that name is fio's other name for ("readwrite" is "rw"), or name
 * itself; option_alias_of is the other way ("rw" has "readwrite"), or NULL.
 * Every lookup by name takes either. */
const char *option_canonical(const char *name);
const char *option_alias_of(const char *name);

/* The def named name (or an alias of it) in table, or NULL. */
const struct option_def *option_table_find(const struct option_table *table, const char *name);

/* Parse value (non-NULL) for def into the field at base + def->offset. On a
 * bad value: DBIO_EINPUT with "<where>: key '<key>': bad value '<v>'...:
 * expected <what is accepted>". where is "file:line" or "command line". */
int option_parse(const struct option_def *def, void *base, const char *value, const char *where,
		 struct dbio_err *err);

/* The value of def at base as text, the way a user would write it ("4096",
 * "read"; a duration in nanoseconds, "10000000000"). */
void option_format(const void *base, const struct option_def *def, char *buf, size_t len);

/* The accepted values of def, for help and messages. */
void option_accepted(const struct option_def *def, char *buf, size_t len);

/* Edit distance between two names (at most 99), for "did you mean". */
size_t option_distance(const char *a, const char *b);

/* The search for the key closest to an unknown name: start with
 * { .name = name }, offer every candidate, then read best: the first of
 * the closest within an edit distance of 2 (and less than the name's
 * length), or that starts with name when it has 3 letters or more; NULL
 * when there is none. */
struct option_closest {
	const char *name;
	const char *best;
	size_t best_d; /* 0 at the start: no candidate yet */
};
void option_closest_offer(struct option_closest *c, const char *cand);

/* The listed name of value in values ("wal"), or "?". */
const char *option_enum_name(const struct opt_enum *values, int value);

#endif
