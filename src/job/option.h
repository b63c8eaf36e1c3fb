/*
 * The option table: the one source of truth for every job key. It drives the
 * command line (--key=value), job files (key=value), `dbio help options`,
 * docs/options.md and the man page. Where fio has a key for a thing, the
 * name and meaning are fio's; dbio's own keys say so in their help.
 */
#ifndef DBIO_JOB_OPTION_H
#define DBIO_JOB_OPTION_H

#include <stddef.h>
#include <stdint.h>

#include "job/job.h"
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
	OPT_PCT_LIST, /* colon-separated percentiles, e.g. 99.5:99.99 */
	OPT_INTERVAL, /* struct job_interval: a duration, or a count with 'ops' (1000ops) */
	OPT_RANGE,    /* struct job_range: a size or "lo-hi" sizes */
};

struct opt_enum {
	const char *name;
	int value;
	const char *help; /* NULL for an alias that is not listed in help */
};

struct option_def {
	const char *name;
	enum opt_type type;
	size_t offset;		       /* of the field in struct job */
	size_t size;		       /* OPT_STR: the field's size */
	const char *def;	       /* default, parsed like user input ("" = empty) */
	const struct opt_enum *values; /* OPT_ENUM, terminated by a NULL name */
	uint64_t min, max;	       /* OPT_UINT, OPT_SIZE, OPT_TIME bounds */
	uint64_t bare_unit_ns;	       /* OPT_TIME: unit of a bare number */
	const char *help;	       /* one paragraph, plain text */
	int dbio_own;		       /* 1: not a fio key */
};

extern const struct option_def option_table[];
extern const size_t option_count;

/* The option named name, or NULL. */
const struct option_def *option_find(const char *name);

/* The index of def in option_table. */
size_t option_index(const struct option_def *def);

/* The closest known key to an unknown one (edit distance <= 2 or a prefix
 * match), or NULL. */
const char *option_suggest(const char *name);

/* Set key=value on job (value NULL for a bare key). On a bad key or value:
 * DBIO_EINPUT with "<where>: key '<key>': <what>: <what is accepted>". where
 * is "file:line" or "command line". */
int option_set(struct job *job, const char *key, const char *value, const struct job_origin *origin,
	       struct dbio_err *err);

/* "file:line" or "command line" for origin, into buf. */
const char *option_where(const struct job_origin *origin, char *buf, size_t len);

/* The option's current value on job as text, the way a user would write it
 * ("4096", "read", "10s" is printed as nanoseconds "10000000000"). */
void option_format(const struct job *job, const struct option_def *def, char *buf, size_t len);

/* The accepted values of def, for help and messages. */
void option_accepted(const struct option_def *def, char *buf, size_t len);

#endif
