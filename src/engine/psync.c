/* psync: one pread or pwrite per operation, the engine fio calls psync. */
#include <errno.h>
#include <unistd.h>

#include "engine/engine.h"
#include "util/syscalls.h"

static int psync_setup(struct engine *e, const struct engine_conf *conf)
{
	(void)conf;
	e->priv = NULL;
	return 0;
}

static void psync_teardown(struct engine *e)
{
	(void)e;
}

static ssize_t psync_call(struct engine *e, const struct io_req *req, uint64_t done)
{
	(void)e;
	return req->op == OP_READ ? dbio_sys->pread(req->fd, (char *)req->buf + done, req->len - done,
						    (off_t)(req->off + done))
				  : dbio_sys->pwrite(req->fd, (char *)req->buf + done, req->len - done,
						     (off_t)(req->off + done));
}

static int psync_io(struct engine *e, struct io_req *req)
{
	return engine_transfer(e, req, psync_call);
}

static int psync_sync(struct engine *e, int fd, enum op_type op)
{
	return engine_sync_call(e, fd, op);
}

const struct engine_ops engine_psync = {
	.name = "psync",
	.summary = "pread(2)/pwrite(2), one synchronous call per operation",
	.setup = psync_setup,
	.teardown = psync_teardown,
	.io = psync_io,
	.sync = psync_sync,
};
