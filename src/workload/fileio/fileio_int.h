/*
 * Private to the fileio workload (fileio.c, fileio_pages.c, ioerr.c): the worker's
 * state, and the page I/O that oltp builds on too (workload_int.h).
 */
#ifndef DBIO_WORKLOAD_FILEIO_INT_H
#define DBIO_WORKLOAD_FILEIO_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "workload/fileio/content.h"
#include "workload/fileio/pace.h"
#include "workload/fileio/where.h"

/* The queued loop's per-request state; reap returns &slot->req. */
struct fileio_slot {
	struct io_req req; /* first */
	uint64_t sub_ns;   /* when the submit that carried it returned */
	uint64_t slat_ns;  /* its submission latency (fio's slat) */
	bool measured;	   /* issued after the ramp */
	bool inflight;	   /* queued and not yet reaped */
};

/* The worker's state: its files' descriptors and its buffers for the
 * engine, and the queued loop's slots. */
struct fileio_state {
	void *buf;		   /* nbufs buffers of buf_stride bytes, 4 KiB aligned */
	int *fds;		   /* nfiles, for the engine's attach */
	void **bufs;		   /* nbufs pointers into buf */
	unsigned nbufs;		   /* iodepth for queued engines, else 1 */
	struct fileio_slot *slots; /* queued engines: nbufs */
	unsigned *free;		   /* free slot numbers, a stack */
	struct io_req **done;	   /* reap's output */
	struct where where;	   /* fileio: the next I/O and the budget */
	struct pace pace;	   /* fio's rate, thinktime and rate floor (fileio only) */
	struct content content;	   /* what the writes carry */
	struct verify *ver;	   /* verify=: headers, the log, the checks (fileio only); or NULL */
	struct rng prio_rng;	   /* cmdprio's draws, apart: they change no other draw */
	struct replay *replay;	   /* read_iolog: the log this thread replays (replay.c); or NULL */
	struct replay_cap *cap;	   /* write_iolog: what it did, as it completes; or NULL */
	bool durable;		   /* dbio crash checks its writes (durable.h) */
};

struct worker;

/* req on file failed with rc: the job stops (its stop flag set) and the
 * message, naming the file, the op and where, goes into w->err (a read
 * past the end of a file the layout made whole: truncated while the job
 * ran); returns rc. */
int fileio_io_failed(struct worker *w, const struct io_req *req, size_t file, int rc);

/* continue_on_error: whether the job goes on after rc of the engine on
 * req (fio's non-fatal errors, EIO and EILSEQ, of the ops the key names;
 * never a sync, whose failure may have lost data), counting it. The I/O is
 * not counted as done. */
bool fileio_io_continue(struct worker *w, const struct io_req *req, int rc);

/* Whether slot's request shares a byte of its file with a request in
 * flight (serialize_overlap): a scan of the iodepth slots. */
static inline bool overlaps_inflight(const struct fileio_state *st, const struct fileio_slot *slot)
{
	const struct io_req *r = &slot->req;

	for (unsigned i = 0; i < st->nbufs; i++) {
		const struct io_req *o = &st->slots[i].req;

		if (st->slots[i].inflight && o->file == r->file && o->off < r->off + r->len &&
		    r->off < o->off + o->len)
			return true;
	}
	return false;
}

/* Bytes between two buffers: the largest I/O, rounded up to 4 KiB. */
uint64_t fileio_buf_stride(const struct job *job);

#endif
