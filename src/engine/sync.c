/*
 * sync: lseek(2) then read(2)/write(2), as fio's sync engine. The seek is
 * skipped when the file position is already at the offset (sequential I/O
 * on one file), so a sequential job costs one syscall per operation.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/engine.h"
#include "util/syscalls.h"

struct sync_state {
	int last_fd;
	uint64_t pos; /* file position of last_fd after the last transfer */
};

static int sync_setup(struct engine *e, const struct engine_conf *conf)
{
	struct sync_state *st = malloc(sizeof(*st));

	(void)conf;
	if (!st)
		return -ENOMEM;
	st->last_fd = -1;
	st->pos = 0;
	e->priv = st;
	return 0;
}

static void sync_teardown(struct engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

static int sync_io(struct engine *e, struct io_req *req)
{
	struct sync_state *st = e->priv;
	char *buf = req->buf;
	uint64_t done = 0;

	if (st->last_fd != req->fd || st->pos != req->off) {
		st->last_fd = -1;
		if (dbio_sys->lseek(req->fd, (off_t)req->off, SEEK_SET) < 0) {
			req->res = 0;
			return -errno;
		}
	}
	while (done < req->len) {
		ssize_t n = req->op == OP_READ ? dbio_sys->read(req->fd, buf + done, req->len - done)
					       : dbio_sys->write(req->fd, buf + done, req->len - done);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			req->res = (int64_t)done;
			st->last_fd = -1;
			return -errno;
		}
		if (n == 0) {
			req->res = (int64_t)done;
			st->last_fd = -1;
			return -ENODATA;
		}
		done += (uint64_t)n;
	}
	st->last_fd = req->fd;
	st->pos = req->off + done;
	req->res = (int64_t)done;
	return 0;
}

static int sync_sync(struct engine *e, int fd, enum op_type op)
{
	return engine_sync_call(e, fd, op);
}

const struct engine_ops engine_sync = {
	.name = "sync",
	.summary = "lseek(2) + read(2)/write(2), seeking only when the offset changes",
	.setup = sync_setup,
	.teardown = sync_teardown,
	.io = sync_io,
	.sync = sync_sync,
};
