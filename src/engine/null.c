/*
 * null: completes every operation at once without any I/O (fio's null
 * engine), so that a job on it measures the worker loop itself: offset
 * generation, the clock, the statistics. Syncs succeed without a call. As
 * fio's, it touches no file (ENGINE_CAP_DISKLESS: none is made or opened),
 * and it queues: with iodepth > 1 the plan takes engine_null_queued, whose
 * submit completes the batch and whose reap hands it back.
 */
#include <errno.h>
#include <stdlib.h>

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

/* The queued null: requests queued, then submitted (completed at once),
 * then reaped in the order they came. */
struct null_queue {
	unsigned depth;
	unsigned nqueued;	/* queued, not submitted */
	unsigned ndone;		/* submitted: complete, not reaped */
	struct io_req **queued; /* depth each */
	struct io_req **done;
};

static int nullq_setup(struct engine *e, const struct engine_conf *conf)
{
	struct null_queue *q = calloc(1, sizeof(*q));

	e->priv = q;
	if (!q)
		return -ENOMEM;
	q->depth = conf->iodepth ? conf->iodepth : 1;
	q->queued = calloc(q->depth, sizeof(*q->queued));
	q->done = calloc(q->depth, sizeof(*q->done));
	return q->queued && q->done ? 0 : -ENOMEM;
}

static void nullq_teardown(struct engine *e)
{
	struct null_queue *q = e->priv;

	if (!q)
		return;
	free(q->queued);
	free(q->done);
	free(q);
	e->priv = NULL;
}

static int nullq_queue(struct engine *e, struct io_req *req)
{
	struct null_queue *q = e->priv;

	if (q->nqueued + q->ndone >= q->depth)
		return -EBUSY;
	req->res = 0;
	req->rc = 0;
	q->queued[q->nqueued++] = req;
	return 0;
}

static int nullq_submit(struct engine *e)
{
	struct null_queue *q = e->priv;
	const unsigned n = q->nqueued;

	for (unsigned i = 0; i < n; i++) {
		q->queued[i]->res = (int64_t)q->queued[i]->len;
		q->done[q->ndone++] = q->queued[i];
	}
	q->nqueued = 0;
	return (int)n;
}

/* Everything submitted has completed: min is always there. */
static int nullq_reap(struct engine *e, struct io_req **done, unsigned max, unsigned min)
{
	struct null_queue *q = e->priv;
	unsigned n = q->ndone < max ? q->ndone : max;

	(void)min;
	for (unsigned i = 0; i < n; i++)
		done[i] = q->done[i];
	for (unsigned i = n; i < q->ndone; i++)
		q->done[i - n] = q->done[i];
	q->ndone -= n;
	return (int)n;
}

const struct engine_ops engine_null_queued = {
	.name = "null",
	.summary = "no I/O: every operation completes at once, iodepth of them in flight",
	.caps = ENGINE_CAP_QUEUE | ENGINE_CAP_OWN_IO | ENGINE_CAP_OWN_SYNC | ENGINE_CAP_DISKLESS,
	.setup = nullq_setup,
	.teardown = nullq_teardown,
	.sync = null_sync,
	.queue = nullq_queue,
	.submit = nullq_submit,
	.reap = nullq_reap,
};

const struct engine_ops engine_null = {
	.name = "null",
	.summary =
		"no I/O, no file: every operation completes at once (measures dbio's own cost per operation); iodepth > 1 queues, as fio's",
	.caps = ENGINE_CAP_TRIM | ENGINE_CAP_OWN_IO | ENGINE_CAP_OWN_SYNC |
		ENGINE_CAP_DISKLESS, /* as fio's null, trims complete too */
	.setup = null_setup,
	.teardown = null_teardown,
	.io = null_io,
	.sync = null_sync,
	.queued = &engine_null_queued,
};
