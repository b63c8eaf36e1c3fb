/*
 * ftruncate: fio's engine that calls ftruncate(2) for each write instead
 * of writing (fio's engines/ftruncate.c): the file is cut or grown to the
 * write's offset; its length is not used, but counted as fio counts it (a
 * write of bs bytes). fio fails a read or trim of this engine with EINVAL:
 * dbio refuses such a job before it runs (check). Syncs are the usual
 * calls.
 */
#include <errno.h>
#include <unistd.h>

#include "engine/engine.h"
#include "util/syscalls.h"

static int ftrunc_setup(struct engine *e, const struct engine_conf *conf)
{
	(void)conf;
	e->priv = NULL;
	return 0;
}

static void ftrunc_teardown(struct engine *e)
{
	(void)e;
}

static int ftrunc_io(struct engine *e, struct io_req *req)
{
	int rc;

	(void)e;
	do
		rc = dbio_sys->ftruncate(req->fd, (off_t)req->off);
	while (rc < 0 && errno == EINTR);
	req->res = rc < 0 ? 0 : (int64_t)req->len;
	return rc < 0 ? -errno : 0;
}

static int ftrunc_sync(struct engine *e, int fd, enum op_type op)
{
	return engine_sync_call(e, fd, op);
}

static const char *ftrunc_check(const struct engine_conf *conf)
{
	if (conf->reads || conf->trims)
		return "'ftruncate' only writes (each write truncates the file to its offset; fio fails a "
		       "read or trim of it): use rw=write or randwrite, or ioengine=falloc";
	return NULL;
}

const struct engine_ops engine_ftruncate = {
	.name = "ftruncate",
	.summary = "ftruncate(2) to each write's offset, no data moved (fio's ftruncate); writes only",
	.setup = ftrunc_setup,
	.teardown = ftrunc_teardown,
	.io = ftrunc_io,
	.sync = ftrunc_sync,
	.check = ftrunc_check,
};
