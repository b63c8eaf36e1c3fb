/*
 * fio's iologs: read_iolog's replay (replay.c) and write_iolog's capture
 * (capture.c), for workload=fileio.
 *
 * A replayed log is read twice: whole at validation (replay_validate), so
 * that a bad line is refused, with its line, before anything is written,
 * and the job takes the log's files (as filename= names them, through the
 * same checks), its block size, its file size and its directions; then by
 * each thread in prepare (replay_prepare), into its own list of actions,
 * which replay_run issues in order in place of fileio's loops.
 *
 * A captured log is kept by each thread in memory as its I/O completes
 * (one record per read, write, trim and sync, grown as fio grows its
 * logs) and written after the thread's run, in fio 3.33's version 3
 * format, as --output is written (util/atomic.h).
 */
#ifndef DBIO_WORKLOAD_FILEIO_REPLAY_H
#define DBIO_WORKLOAD_FILEIO_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "job/job.h"
#include "util/err.h"
#include "workload/workload.h"

/* The actions of a log line. */
enum replay_act {
	REPLAY_READ,
	REPLAY_WRITE,
	REPLAY_SYNC,
	REPLAY_DATASYNC,
	REPLAY_TRIM,
	REPLAY_WAIT, /* version 2 only: until off milliseconds after the start */
	REPLAY_ADD,
	REPLAY_OPEN,
	REPLAY_CLOSE,
	REPLAY_NACTS
};

struct replay_entry {
	uint64_t at_us; /* version 3: the line's timestamp; else 0 */
	uint64_t off;	/* bytes (after replay_scale and replay_align) */
	uint64_t len;
	uint32_t file; /* index into the log's files, in the order they were added */
	uint8_t act;   /* enum replay_act */
};

/* A log read whole. */
struct replay {
	unsigned version; /* 2 or 3 */
	struct replay_entry *e;
	size_t n, cap;
	char **names; /* the files, as the log names them (or replay_redirect) */
	size_t nnames;
	uint64_t counts[REPLAY_NACTS];
	uint64_t max_len; /* the largest read or write */
	uint64_t max_end; /* the furthest byte a read or write reaches */
	size_t bad_line;  /* the line of the first refusal; 0: none */
};

/* The keys of the iologs, checked, and a job replaying a log made to
 * replay it: its files, bs, size and rw from the log. 0 or DBIO_EINPUT
 * (-errno when the log cannot be read), with the refusal in err. Called
 * by fileio_validate before the file checks. */
int replay_validate(struct job *job, struct dbio_err *err);

/* Read job's read_iolog into r (released with replay_release whatever the
 * return); 0 or the refusal in err, naming the log's line. */
int replay_load(const struct job *job, struct replay *r, struct dbio_err *err);

void replay_release(struct replay *r);

/* Whether the job replays a log. */
bool replay_on(const struct job *job);

/* Worker w's log to replay (when it replays) and its capture (when it
 * writes one), made in prepare; 0 or the failure in w->err. */
int replay_prepare(struct worker *w);

/* Issue w's log, in order, each I/O timed; the thread's times and usage.
 * 0 or the first failure (in w->err). */
int replay_run(struct worker *w);

/* The capture of what a thread did (write_iolog), or NULL. */
struct replay_cap;

/* write_iolog checked: numjobs=1, and a path atomic_write_own can write,
 * before anything runs; 0 or the refusal in err. */
int replay_capture_validate(struct job *job, struct dbio_err *err);

/* w's capture, when its job writes an iolog (records reserved for the
 * I/Os it is bound to); 0 or the failure in w->err. */
int replay_capture_prepare(struct worker *w);

/* Free c; NULL is fine. */
void replay_capture_free(struct replay_cap *c);

/* Record an I/O or a sync of w that started at start_ns. */
void replay_capture(struct replay_cap *c, const struct io_req *req, uint64_t start_ns);

/* Write w's capture to write_iolog, once its run is over; 0 or the
 * failure in w->err (the run's own error, if any, stays first). */
int replay_capture_write(struct worker *w);

/* Free what prepare made for w. */
void replay_teardown(struct worker *w);

#endif
