/*
 * falloc: fio's engine that calls fallocate(2) for each I/O instead of
 * moving data (fio's engines/falloc.c): a write allocates its range and
 * extends the file (mode 0), a read allocates without changing the size
 * (FALLOC_FL_KEEP_SIZE), a trim punches a hole (FALLOC_FL_PUNCH_HOLE |
 * FALLOC_FL_KEEP_SIZE). Each counts as fio counts it: a read, a write or a
 * trim of its length. Syncs are the usual calls.
 */
#include <errno.h>
#include <fcntl.h>

#include "engine/engine.h"
#include "util/syscalls.h"

#ifndef FALLOC_FL_KEEP_SIZE
#define FALLOC_FL_KEEP_SIZE 0x01
#endif
#ifndef FALLOC_FL_PUNCH_HOLE
#define FALLOC_FL_PUNCH_HOLE 0x02
#endif

static int falloc_setup(struct engine *e, const struct engine_conf *conf)
{
	(void)conf;
	e->priv = NULL;
	return 0;
}

static void falloc_teardown(struct engine *e)
{
	(void)e;
}

/* fio's mode of each direction. */
static int falloc_mode(enum op_type op)
{
	if (op == OP_TRIM)
		return FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
	return op == OP_READ ? FALLOC_FL_KEEP_SIZE : 0;
}

static int falloc_io(struct engine *e, struct io_req *req)
{
	int rc;

	(void)e;
	do
		rc = dbio_sys->fallocate(req->fd, falloc_mode(req->op), (off_t)req->off, (off_t)req->len);
	while (rc < 0 && errno == EINTR);
	req->res = rc < 0 ? 0 : (int64_t)req->len;
	return rc < 0 ? -errno : 0;
}

static int falloc_sync(struct engine *e, int fd, enum op_type op)
{
	return engine_sync_call(e, fd, op);
}

const struct engine_ops engine_falloc = {
	.name = "falloc",
	.summary = "fallocate(2) per I/O, no data moved (fio's falloc): writes allocate, reads allocate "
		   "keeping the size, trims punch holes",
	.caps = ENGINE_CAP_TRIM | ENGINE_CAP_RDWR,
	.setup = falloc_setup,
	.teardown = falloc_teardown,
	.io = falloc_io,
	.sync = falloc_sync,
};
