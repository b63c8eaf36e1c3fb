/*
 * null: completes every operation at once without any I/O (fio's null
 * engine), so that a job on it measures the worker loop itself: offset
 * generation, the clock, the statistics. Syncs succeed without a call.
 */
#include "engine/engine.h"

static int null_setup(struct engine *e, const struct engine_conf *conf)
{
	(void)conf;
	e->priv = NULL;
	return 0;
}

static void null_teardown(struct engine *e)
{
	(void)e;
}

static int null_io(struct engine *e, struct io_req *req)
{
	(void)e;
	req->res = (int64_t)req->len;
	return 0;
}

static int null_sync(struct engine *e, int fd, enum op_type op)
{
	(void)e;
	(void)fd;
	(void)op;
	return 0;
}

const struct engine_ops engine_null = {
	.name = "null",
	.summary = "no I/O: every operation completes at once (measures dbio's own cost per operation)",
	.caps = ENGINE_CAP_TRIM | ENGINE_CAP_OWN_IO |
		ENGINE_CAP_OWN_SYNC, /* as fio's null, trims complete too */
	.setup = null_setup,
	.teardown = null_teardown,
	.io = null_io,
	.sync = null_sync,
};
