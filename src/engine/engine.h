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
 *                     req->op (OP_READ or OP_WRITE) of req->len bytes at
 *                     req->off on req->fd, from or into req->buf. Transfers
 *                     the whole length: a short transfer is continued, EINTR
 *                     and EAGAIN are retried; end of file before the length
 *                     is -ENODATA. Returns 0 or -errno and sets req->res to
 *                     the bytes done. Never allocates.
 *   sync(e, fd, op)   op OP_FSYNC or OP_FDATASYNC on fd. 0 or -errno.
 */
#ifndef DBIO_ENGINE_ENGINE_H
#define DBIO_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/opstats.h"

enum engine_caps {
	ENGINE_CAP_QUEUE = 1u << 0, /* can keep more than one I/O in flight */
};

struct io_req {
	int fd;
	enum op_type op;
	void *buf;
	uint64_t len;
	uint64_t off;
	int64_t res; /* bytes transferred */
};

struct engine_conf {
	unsigned iodepth;
	bool direct;
};

struct engine {
	const struct engine_ops *ops;
	void *priv;
};

struct engine_ops {
	const char *name;
	const char *summary; /* one line for --version and help */
	unsigned caps;
	int (*setup)(struct engine *e, const struct engine_conf *conf);
	void (*teardown)(struct engine *e);
	int (*io)(struct engine *e, struct io_req *req);
	int (*sync)(struct engine *e, int fd, enum op_type op);
};

/* The registry, in the order --version lists it. */
extern const struct engine_ops *const engine_registry[];
extern const size_t engine_count;

/* The engine named name, or NULL. */
const struct engine_ops *engine_find(const char *name);

/* "psync, sync" into buf. */
void engine_list(char *buf, size_t len);

/* Check every registered ops object is complete; 0 or -EINVAL with the
 * offending engine's name in *bad. */
int engine_registry_check(const char **bad);

#endif
