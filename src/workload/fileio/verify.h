/*
 * fio's data verification for fileio (verify=, do_verify, verify_backlog,
 * verify_only ...): each written block of verify_interval bytes carries a
 * header — fio's magic 0xacca, fio's verify type, its length, its offset
 * in the file, the job's seed, the writing thread, a crc32c of the file's
 * name and a crc32c of the header — and the checksum of the rest of the block (crc32c, xxhash,
 * md5, sha*), or the rest is verify_pattern. As fio, a job that writes
 * logs every write it issues and, after its writes (or after every
 * verify_backlog of them, by fio's rule, verify_backlog_batch at a time),
 * reads the logged blocks back and checks them; those reads count as
 * reads, as in fio's JSON. A queued engine drains its queue first and
 * reads back iodepth at once. experimental_verify keeps no log: a second
 * where, made as the thread's, replays the offsets after the writes. A
 * time_based job reads back nothing after its runtime, as fio; its log
 * is a window of the backlog. Where fio might have
 * written a block twice (norandommap, rw=write:N, io_size above size) a
 * later write of it replaces the earlier one in the log, as fio's sorted
 * log does, within a loop of loops=. A job that only reads checks each
 * block it reads.
 *
 * A bad block is reported (file, offset, what was expected and found) and
 * fails the job: the reports go into the worker's error, one line each,
 * and the run exits 1, never folding bad data into a figure.
 *
 * fileio makes it in prepare (verify_prepare, after where_init), calls
 * verify_write before it issues each write, verify_read_done after each
 * read of a job that only reads, and verify_readback after its loop and
 * every verify_backlog writes (verify_backlog; the queued loop asks
 * verify_backlog_due before each I/O and runs verify_backlog_run when
 * drained). Nothing of it allocates after prepare.
 */
#ifndef DBIO_WORKLOAD_VERIFY_H
#define DBIO_WORKLOAD_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "job/job.h"
#include "util/checksum.h"
#include "workload/workload.h"
#include "workload/fileio/files.h"
#include "workload/fileio/where.h"

struct worker;

/* A write the job issued: what the read back covers. */
struct verify_entry {
	uint64_t off;
	uint32_t len;
	uint16_t file;
	uint8_t loop; /* fio verifies after each pass (loops=, io_size's further ones): the pass, mod 256 */
	uint8_t dead; /* a later write of the same loop covers it */
};

struct verify {
	const struct job *job;
	const struct worker *w; /* the thread: its files' names go into the headers */
	struct csum sum;
	uint64_t interval;	  /* bytes of a checked block */
	size_t hdr_bytes;	  /* the header and the checksum; 0: no header (pattern, null) */
	bool checks_pattern;	  /* the bytes after the header are verify_pattern */
	bool checks_reads;	  /* a job that only reads: each read is checked */
	bool overlap_risk;	  /* a block may be written twice in a loop */
	bool repattern;		  /* reads share the buffers: each write gets verify_pattern again */
	uint32_t thread;	  /* fio's number of the writing thread */
	uint32_t thread_first;	  /* fio's number of the job's first thread */
	uint32_t threads_sharing; /* threads on this thread's files: 1, or numjobs on shared files */
	uint32_t *name_crcs;	  /* per file of the thread: the crc32c of its name, made in prepare */
	struct verify_entry *log; /* cap entries, n logged, next the first not read back */
	void *const *bufs;	  /* the thread's buffers: a queued engine reads back nbufs at once */
	unsigned nbufs;
	struct io_req *reqs;  /* nbufs: the read backs in flight */
	struct io_req **done; /* nbufs: what reap returns */
	uint64_t *sub_ns;     /* nbufs: when each slot's read back was queued */
	unsigned *free;	      /* nbufs: the free slots, a stack */
	uint32_t *order;      /* overlap_risk: the log sorted, for the replacing */
	size_t cap, n, next;
	uint64_t pending;      /* verify_backlog_batch: blocks the check under way still owes */
	uint64_t written;      /* bytes written: experimental_verify reads back as many */
	struct where *replay;  /* experimental_verify: the offsets made again, from the start */
	uint64_t checked, bad; /* blocks checked, blocks bad */
	char first_path[512];  /* the first bad block's file */
	char reports[7168];    /* one line a bad block, a newline before each */
	size_t reports_len;
	uint64_t unreported; /* bad blocks whose line did not fit */
};

/* *out for worker w of a fileio job (its where made): NULL without
 * verify=; else the log of the writes, the checksum, the buffers filled
 * with verify_pattern, and verify_only's writes logged. 0, or -errno with
 * w->err set. verify_free frees it either way (NULL too). */
int verify_prepare(struct verify **out, struct worker *w, struct where *wh, void *const *bufs,
		   unsigned nbufs);
void verify_free(struct verify *v);

/* Before write req is issued: its blocks' headers and checksums into
 * req->buf, and the write logged (loop: where's loops left). */
void verify_write(struct verify *v, const struct io_req *req, uint64_t loop);

/* After read req of a job that only reads completed: check its blocks.
 * 0, or -EIO (w->err set) when one was bad and verify_fatal stops the
 * job. */
int verify_read_done(struct verify *v, struct worker *w, const struct io_req *req);

/* Read back and check what was logged and not read back yet (all of it:
 * all; else v->pending entries at most), through the worker's engine, one
 * block at a time into buf, each read counted and timed as a read when
 * measuring; *now is the clock after it. The files are synced and their
 * cached pages dropped first (invalidate=1), as fio, when all. 0, or
 * -errno of a failed read (w->err set). Bad blocks are counted. */
int verify_readback(struct verify *v, struct worker *w, void *buf, bool all, bool measuring, uint64_t *now);

/* Whether a verify_backlog check is due before the next I/O, by fio's
 * rule: the writes logged and not read back yet are a multiple of
 * verify_backlog, or verify_backlog_batch is not through yet and there
 * is something to read; never with do_verify=0 (fio then logs no write).
 * A queued loop drains its queue first. */
static inline bool verify_backlog_due(const struct verify *v)
{
	const uint64_t backlog = fileio_files(v->job)->verify.verify_backlog, held = v->n - v->next;

	return backlog && held && fileio_files(v->job)->verify.do_verify &&
	       (v->pending || held % backlog == 0);
}

/* The check verify_backlog_due said is due: verify_readback of up to
 * verify_backlog_batch blocks (verify_backlog when 0), what the check
 * owes carried to the next write when fewer are held. 0 or its error. */
int verify_backlog_run(struct verify *v, struct worker *w, void *buf, bool measuring, uint64_t *now);

/* After each write of the synchronous loop: the check, when due. */
static inline int verify_backlog(struct verify *v, struct worker *w, void *buf, bool measuring, uint64_t *now)
{
	return verify_backlog_due(v) ? verify_backlog_run(v, w, buf, measuring, now) : 0;
}

/* fio's fill_device: a write that found the filesystem full (ENOSPC,
 * EDQUOT) ends the job's writes normally, as fio, which then reads
 * nothing back; true when rc is that (the job is stopped), false for a
 * failure. */
static inline bool verify_filled(struct worker *w, int rc, enum op_type op)
{
	if (!fileio_files(w->job)->verify.fill_device || op != OP_WRITE || (rc != -ENOSPC && rc != -EDQUOT))
		return false;
	atomic_store(w->job_stop, 1);
	return true;
}

/* verify_only: the writes the job would issue, logged without issuing
 * them (fio's dry run). */
void verify_dry_run(struct verify *v, struct where *wh);

/* After the worker's loop (and end_fsync), as fio's do_verify: a job
 * that writes with do_verify reads back what it logged (unless it failed
 * or was stopped); then verify_finish. 0 or the error (w->err set). */
int verify_end(struct verify *v, struct worker *w, void *buf, bool measuring, uint64_t *now);

/* At the end of the worker's run: when blocks were bad, the error that
 * fails the job (w->err: a summary line, then one line a block); 0 or
 * -EIO. */
int verify_finish(struct verify *v, struct worker *w);

/* The checks of a fileio job with verify= that need its engine and
 * workload (job_validate_verify did the rest). 0 or DBIO_EINPUT. */
int verify_validate(struct job *job, struct dbio_err *err);

#endif
