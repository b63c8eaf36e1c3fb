/*
 * I/O engines: how a worker's reads, writes and syncs reach the kernel. One
 * file per engine, one const struct engine_ops in it, one line in the
 * registry (engine.c). Engines know nothing of patterns or statistics: the
 * worker decides what to do and times it; the engine only does it.
 *
 * Files are opened and closed by the worker (run/), not by engines. All
 * kernel calls go through dbio_sys (util/syscalls.h).
 *
 * Hook contracts. New hooks are appended, never inserted.
 *
 *   setup(e, conf)    Called once per worker thread before any I/O, in the
 *                     thread that will use e. May allocate; stores its state
 *                     in e->priv. Returns 0 or -errno.
 *   teardown(e)       Frees what setup allocated. Called once, also after a
 *                     failed setup (e->priv is then whatever setup left).
 *   io(e, req)        Synchronous engines only (no ENGINE_CAP_QUEUE): does
 *                     req->op (OP_READ or OP_WRITE; OP_TRIM too with
 *                     ENGINE_CAP_TRIM) of req->len bytes at
 *                     req->off on req->fd, from or into req->buf. Transfers
 *                     the whole length: a short transfer is continued, EINTR
 *                     and EAGAIN are retried; end of file before the length
 *                     is -ENODATA. Returns 0 or -errno and sets req->res to
 *                     the bytes done. Never allocates.
 *   sync(e, fd, op)   op OP_FSYNC, OP_FDATASYNC or OP_SYNC_FILE_RANGE (the
 *                     whole file, with e->sync_flags) on fd. 0 or -errno.
 *                     For queued engines the worker calls it only with
 *                     nothing in flight (it drains the queue first), so the
 *                     sync covers every write before it. Engines that write
 *                     with system calls call engine_sync_call, so that a
 *                     sync costs the same on each.
 *
 * Appended hooks (NULL where an engine does not need them):
 *
 *   attach(e, files)  Called once after setup, before any I/O, with the
 *                     worker's open files and data buffers (struct
 *                     engine_files): mmap maps the files here, io_uring
 *                     registers files and buffers when asked. May allocate.
 *                     0 or -errno. teardown undoes it.
 *   check(conf)       Before anything runs (job validation): NULL when the
 *                     engine can run a job configured so, else a static
 *                     sentence saying why not and what to use instead.
 *   warn(conf)        Optional, after check: NULL, or a static sentence on
 *                     what the job measures that the user may not expect
 *                     (a warning of the job in the result and the report).
 *   queue(e, req)     Queued engines (ENGINE_CAP_QUEUE): add req to the
 *                     submission queue without a system call. The worker
 *                     never has more than conf->iodepth requests queued or
 *                     in flight; req->slot (0 .. iodepth-1) is unique among
 *                     them and names its buffer (bufs[slot] of attach). req
 *                     must stay valid until reap returns it. 0 or -errno.
 *   submit(e)         Hand every queued request to the kernel (one system
 *                     call where the interface allows). Returns the number
 *                     submitted or -errno; a failure leaves nothing queued.
 *   reap(e, done, max, min)  Store up to max completed requests in done[],
 *                     waiting until at least min have completed (min <=
 *                     requests in flight). Each returned request has
 *                     req->rc (0 or -errno) and req->res (bytes) set; a
 *                     short transfer is continued and EAGAIN/EINTR retried
 *                     inside the engine (resubmitted, not returned), end of
 *                     file before the length is -ENODATA. Returns the count
 *                     or -errno for a failure of the queue itself. Never
 *                     allocates. With e->reap_until set, it waits no later
 *                     than that time and may return fewer than min.
 */
#ifndef DBIO_ENGINE_ENGINE_H
#define DBIO_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "job/option.h"
#include "stats/opstats.h"

enum engine_caps {
	ENGINE_CAP_QUEUE = 1u << 0, /* can keep more than one I/O in flight */
	/* io takes OP_TRIM: fio's trims on a file (falloc punches a hole); the
	 * other engines trim with BLKDISCARD in fio, which only block devices
	 * take, so dbio refuses trims on them */
	ENGINE_CAP_TRIM = 1u << 1,
	/* files open for writing whatever the job does (falloc: a read
	 * allocates, which a file open O_RDONLY refuses with EBADF) */
	ENGINE_CAP_RDWR = 1u << 2,
	ENGINE_CAP_IOPRIO = 1u << 3, /* issues each request with its own I/O priority (io_req.prio) */
	/* Reads and writes do not go through dbio_sys (a library submits
	 * them, page faults make them, or none are made): DBIO_FAULT
	 * (util/fault.h) cannot reach them. */
	ENGINE_CAP_OWN_IO = 1u << 4,
	ENGINE_CAP_OWN_SYNC = 1u << 5, /* the same for its syncs (msync, none) */
	/* Touches no file (fio's FIO_DISKLESSIO, the null engine): the layout
	 * makes none and the worker opens none (each fd is -1), so a job may
	 * name any size without the space for it. */
	ENGINE_CAP_DISKLESS = 1u << 6,
};

struct io_req {
	int fd;
	enum op_type op;
	void *buf;
	uint64_t len;
	uint64_t off;
	int64_t res; /* bytes transferred */
	/* Appended for attach and the queued engines. */
	unsigned file; /* index of fd in engine_files.fds */
	unsigned slot; /* queued engines: the request's slot and buffer, < iodepth */
	int rc;	       /* queued engines: 0 or -errno, set by reap */
	unsigned prio; /* ENGINE_CAP_IOPRIO: its ioprio value (class << 13 | level); 0: the thread's */
};

/* What an engine is set up and checked with: the job's file keys that
 * concern it, and its own keys. */
struct engine_conf {
	unsigned iodepth;
	bool direct;
	/* Appended. */
	bool writable;	      /* the job writes: files are open O_RDWR */
	bool sync_file_range; /* the job calls sync_file_range */
	const void *own;      /* the engine's own keys (its .options struct), or NULL */
	/* Appended. */
	bool reads; /* the job reads */
	bool trims; /* the job trims (fio's trim modes; engines with ENGINE_CAP_TRIM) */
};

/* What attach gets: the worker's files, open, and its data buffers. */
struct engine_files {
	const int *fds;
	size_t nfiles;
	uint64_t file_bytes; /* size of each file */
	void *const *bufs;   /* iodepth buffers of buf_bytes */
	unsigned nbufs;
	uint64_t buf_bytes;
};

struct engine {
	const struct engine_ops *ops;
	void *priv;
	unsigned sync_flags; /* OP_SYNC_FILE_RANGE's SYNC_FILE_RANGE_* flags (the job's) */
	/* Queued engines: when not 0, reap waits no later than this
	 * CLOCK_MONOTONIC time (ns) and may then return fewer than min, even
	 * none (io_submit_mode=offload's rate pause). Set by the worker. */
	uint64_t reap_until;
};

struct engine_ops {
	const char *name;
	const char *summary; /* one line for --version and help */
	unsigned caps;
	int (*setup)(struct engine *e, const struct engine_conf *conf);
	void (*teardown)(struct engine *e);
	int (*io)(struct engine *e, struct io_req *req);
	int (*sync)(struct engine *e, int fd, enum op_type op);
	/* Appended hooks; see the contracts at the top. */
	int (*attach)(struct engine *e, const struct engine_files *files);
	const char *(*check)(const struct engine_conf *conf);
	int (*queue)(struct engine *e, struct io_req *req);
	int (*submit)(struct engine *e);
	int (*reap)(struct engine *e, struct io_req **done, unsigned max, unsigned min);
	const char *(*warn)(const struct engine_conf *conf);
	/* A sentence for a failed setup, e.g. what makes the kernel refuse
	 * io_uring; NULL when strerror says it all. */
	const char *setup_hint;
	/* The engine's own job keys (job/option.h), filling the struct that
	 * engine_conf.own points to; NULL when it has none. A key in it is
	 * refused for a job of another engine. */
	const struct option_table *options;
	/* Appended. The same engine keeping iodepth > 1 requests in flight
	 * (queue, submit, reap), which plan/ takes instead of this one for a
	 * job with iodepth > 1; NULL when it has none. fio's null engine
	 * queues: dbio's null runs the synchronous loop at iodepth=1 and this
	 * one above. */
	const struct engine_ops *queued;
};

/* The registry, in the order --version lists it. */
extern const struct engine_ops *const engine_registry[];
extern const size_t engine_count;

/* The engine named name, or NULL. */
const struct engine_ops *engine_find(const char *name);

/* For a queued engine's reap: true when e->reap_until is set, with *left
 * the time until then (0 once it has passed). */
bool engine_reap_left(const struct engine *e, struct timespec *left);

/* The system call of a sync op on fd: fsync(2), fdatasync(2), or
 * sync_file_range(2) over the whole file with e->sync_flags. 0 or -errno. */
int engine_sync_call(const struct engine *e, int fd, enum op_type op);

/*
 * The loop of a synchronous engine: call(e, req, done) moves the bytes of
 * req from done on, and returns how many it moved or -1 with errno, as
 * pread(2) does. Repeats after a short transfer, EINTR or EAGAIN; 0 bytes
 * is -ENODATA. req->res is the bytes done either way. 0 or -errno. Inline,
 * so that the compiler calls the engine's own call directly.
 */
static inline int engine_transfer(struct engine *e, struct io_req *req,
				  ssize_t (*call)(struct engine *e, const struct io_req *req, uint64_t done))
{
	uint64_t done = 0;
	int rc = 0;

	while (done < req->len) {
		ssize_t n = call(e, req, done);

		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : -ENODATA;
			break;
		}
		done += (uint64_t)n;
	}
	req->res = (int64_t)done;
	return rc;
}

/* "psync, sync" into buf. */
void engine_list(char *buf, size_t len);

/* "io_uring, libaio or posixaio", the engines of this build that have
 * every cap of caps (ENGINE_CAP_*), into buf; "" when it has none. */
void engine_list_caps(char *buf, size_t len, unsigned caps);

/* "io_uring or libaio", the engines of this build that queue
 * (ENGINE_CAP_QUEUE), into buf; "" when it has none. */
void engine_list_queued(char *buf, size_t len);

/* Check every registered ops object is complete; 0 or -EINVAL with the
 * offending engine's name in *bad. */
int engine_registry_check(const char **bad);

/* What one clock_now_ns() (util/clock.h, the measuring loop's clock) costs,
 * in nanoseconds, measured over calls back-to-back reads; for --version. */
double engine_clock_cost_ns(unsigned long calls);

#endif
