/*
 * Per-worker counters for each operation type. A worker owns one
 * struct op_stats per type and updates it without locks; the runner merges
 * workers after they have joined.
 */
#ifndef DBIO_STATS_OPSTATS_H
#define DBIO_STATS_OPSTATS_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/hist.h"

/* The first four are always in a result; the others when they happened.
 * New types are appended. */
enum op_type {
	OP_READ,
	OP_WRITE,
	OP_FSYNC,
	OP_FDATASYNC,
	OP_INSERT,	    /* a database put of a new key */
	OP_LOOKUP,	    /* a database get */
	OP_UPDATE,	    /* a database put over an existing key */
	OP_COMMIT,	    /* a database's commit or sync at the end of a batch */
	OP_BATCH,	    /* a whole batch: its operations and its commit */
	OP_INDEX,	    /* building one index (CREATE INDEX) */
	OP_TXN,		    /* a whole transaction: its reads, writes and commit */
	OP_LOG,		    /* a write to a database log (write-ahead log, journal) */
	OP_SYNC_FILE_RANGE, /* sync_file_range(2) of the file just written */
	OP_CREATE,	    /* creating a file (open O_CREAT | O_EXCL, its data, close) */
	OP_STAT,	    /* stat of a file */
	OP_DELETE,	    /* unlink of a file */
	OP_TRIM,	    /* fio's trim: a range discarded (falloc: a hole punched) */
	OP_RENAME,	    /* rename of a file within its directory */
	OP_NTYPES
};

/* Operations on data (counted by a series' count grid): fio's reads,
 * writes and trims, the databases' puts and gets. */
static inline int op_is_data(enum op_type t)
{
	return t == OP_READ || t == OP_WRITE || t == OP_INSERT || t == OP_LOOKUP || t == OP_UPDATE ||
	       t == OP_TRIM;
}

/* Always present in a result's ops, even with a count of 0. */
static inline int op_always_reported(enum op_type t)
{
	return t <= OP_FDATASYNC;
}

struct op_stats {
	uint64_t bytes;
	struct hist lat_ns; /* count, min, max, sum live here */
};

/* The reads and writes that went to one target directory of a job with
 * several (scenario S3: one job over several disks): [0] reads, [1] writes. */
struct target_io {
	uint64_t ops[2];
	uint64_t bytes[2];
	uint64_t last_ns;    /* CLOCK_MONOTONIC end of its last read or write */
	uint64_t elapsed_ns; /* run: from the run's start to last_ns (how long the directory had I/O) */
	uint64_t busy_ns;    /* run: its device's busy time over the run (diskstats io_ticks) */
	bool busy_known;     /* false: no block device under it (tmpfs), or no samples */
};

/* "read", "write", "fsync", "fdatasync": the names used in JSON and text. */
const char *op_type_name(enum op_type t);

void op_stats_init(struct op_stats *s);
void op_stats_merge(struct op_stats *dst, const struct op_stats *src);

static inline void op_stats_add(struct op_stats *s, uint64_t bytes, uint64_t lat_ns)
{
	s->bytes += bytes;
	hist_add(&s->lat_ns, lat_ns);
}

/* continue_on_error (fio's): the I/O errors a thread went on after, only
 * fio's non-fatal ones (EIO, EILSEQ); the I/O is not counted as done. */
/* The kinds counted, named by io_errors_name. */
enum { IOERR_EIO, IOERR_EILSEQ, IOERR_KINDS };
struct io_errors {
	uint64_t total;
	uint64_t by_kind[IOERR_KINDS];
	int first_kind;	 /* IOERR_*, of the first one */
	char first[512]; /* the first one, said as a failure would be; "" when none */
};

/* The errno name of kind (IOERR_*): "EIO", "EILSEQ". */
const char *io_errors_name(int kind);

/* Count rc (-EIO or -EILSEQ) in e, keeping the message of the first; false
 * (nothing counted) for any other rc, which no job goes on after. */
bool io_errors_add(struct io_errors *e, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
