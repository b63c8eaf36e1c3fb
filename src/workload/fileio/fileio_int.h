/*
 * Private to the fileio workload (fileio.c, fileio_pages.c): the worker's
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
};

/* Bytes between two buffers: the largest I/O, rounded up to 4 KiB. */
uint64_t fileio_buf_stride(const struct job *job);

#endif
