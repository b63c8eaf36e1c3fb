/*
 * fio's log files (write_lat_log, write_bw_log, write_iops_log), kept by
 * one worker thread: each measured read and write is recorded as it
 * completes, and written out after the run in fio's line format
 *
 *     time (ms), value[, value1], direction (0 read, 1 write), block size (bytes)[, offset (bytes)],
 *     priority[, issue time (ns)]
 *
 * for each kind of log: lat, clat and slat (ns), bw (KiB/s) and iops.
 * Without a window (log_avg_msec 0) one record per I/O is kept (struct
 * iolog_io, 40 bytes), so that every kind of log can be written from it;
 * with one, one record per direction per window (its means, maxima, bytes
 * and I/Os), as fio's windowed logs.
 *
 * Memory: records go into chunks reserved before the run (iolog_init's
 * hint: a job bound by size reserves one per I/O); when a chunk is full a
 * new one twice as large is allocated on the spot, as fio grows its logs.
 * A thread without logs has no iolog (the worker's pointer is NULL), and
 * the loop's one test of that pointer is all it pays.
 */
#ifndef DBIO_STATS_IOLOG_H
#define DBIO_STATS_IOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum iolog_kind { IOLOG_LAT, IOLOG_CLAT, IOLOG_SLAT, IOLOG_BW, IOLOG_IOPS, IOLOG_NKINDS };

/* One I/O. */
/* fio's directions in a log line: read, write, trim. */
#define IOLOG_NDIRS 3

struct iolog_io {
	uint64_t end_ns;  /* completion, from the epoch */
	uint64_t clat_ns; /* submission (or start) to completion */
	uint64_t slat_ns; /* start of the batch to the end of its submit; 0: none (sync engines) */
	uint64_t off;	  /* bytes into its file */
	uint32_t bs;	  /* bytes */
	uint16_t prio;	  /* its ioprio value */
	uint8_t dir;	  /* 0 read, 1 write, 2 trim (fio's) */
};

/* One window of one direction. */
struct iolog_win {
	uint64_t end_ms; /* when it was closed, from the epoch */
	uint64_t spent_ms;
	uint64_t ios, bytes;
	uint64_t sum_ns[3], max_ns[3]; /* lat, clat, slat */
	uint8_t dir;
};

struct iolog_chunk {
	struct iolog_chunk *next;
	size_t n, cap; /* records used, and room */
		       /* the records follow */
};

struct iolog {
	const uint64_t *epoch_ns; /* the start of the thread's measured phase (w->start_ns) */
	uint64_t window_ms;	  /* log_avg_msec; 0: a record per I/O */
	struct iolog_chunk *head, *tail;
	size_t rec_size;
	uint64_t lost; /* records that found no memory */
	struct iolog_win cur[IOLOG_NDIRS];
	uint64_t last_ms[IOLOG_NDIRS]; /* the start of each direction's current window */
};

/* Set l up: window_ms as log_avg_msec, hint records reserved now; epoch
 * points at the start of the measured phase, read at each record. 0 or
 * -ENOMEM. */
int iolog_init(struct iolog *l, uint64_t window_ms, size_t hint, const uint64_t *epoch_ns);

/* Free what l holds. */
void iolog_release(struct iolog *l);

/* Room for the next record, a new chunk when the last is full; NULL (and
 * the record counted lost) without memory. */
void *iolog_grow(struct iolog *l);

static inline void *iolog_slot(struct iolog *l)
{
	struct iolog_chunk *c = l->tail;

	if (c->n == c->cap)
		return iolog_grow(l);
	return (char *)(c + 1) + l->rec_size * c->n++;
}

/* Close direction dir's window at now_ms (iolog_add, and iolog_finish for
 * the last ones). */
void iolog_close_window(struct iolog *l, int dir, uint64_t now_ms);

/* Add one I/O to a window. */
void iolog_window_add(struct iolog *l, const struct iolog_io *io);

/* Record one measured read, write or trim (dir 0, 1 or 2) that completed at end_ns
 * (CLOCK_MONOTONIC). */
static inline void iolog_add(struct iolog *l, int dir, uint64_t bs, uint64_t off, unsigned prio,
			     uint64_t clat_ns, uint64_t slat_ns, uint64_t end_ns)
{
	const struct iolog_io io = { .end_ns = end_ns - *l->epoch_ns,
				     .clat_ns = clat_ns,
				     .slat_ns = slat_ns,
				     .off = off,
				     .bs = (uint32_t)bs,
				     .prio = (uint16_t)prio,
				     .dir = (uint8_t)dir };
	struct iolog_io *rec;

	if (l->window_ms) {
		iolog_window_add(l, &io);
	} else if ((rec = iolog_slot(l))) {
		*rec = io;
	}
}

/* The end of the measured phase at end_ns: close the windows that hold
 * I/O, as fio does when a thread ends. */
void iolog_finish(struct iolog *l, uint64_t end_ns);

/* What a window's line holds (fio's log_window_value): the mean, the
 * largest, or both (the mean, then the largest: fio's value1 column). */
enum iolog_window_value { IOLOG_WIN_AVG, IOLOG_WIN_MAX, IOLOG_WIN_BOTH };

/* How a log is written. */
struct iolog_format {
	bool offset;	  /* log_offset: an offset column */
	bool prio;	  /* log_prio: the ioprio value in hex, else 1 for class RT, 0 for others */
	bool issue_time;  /* log_issue_time: a last column, the I/O's issue time (ns from the epoch) */
	int window_value; /* log_window_value (enum iolog_window_value) */
	uint64_t base_ms; /* added to every time (log_unix_epoch, log_alternate_epoch) */
	bool slat;	  /* the engine has a submission latency (queued engines); else no slat lines */
};

/* Write the lines of l's log of kind into f, in fio's format; 0 or -errno
 * of the stream. */
int iolog_write(const struct iolog *l, enum iolog_kind kind, const struct iolog_format *fmt, FILE *f);

/* The suffix of kind's file name: "lat", "clat", "slat", "bw", "iops". */
const char *iolog_kind_name(enum iolog_kind kind);

#endif
