/*
 * libaio: Linux native AIO (io_submit/io_getevents) with up to iodepth
 * requests in flight, meant for direct=1. Buffered, the kernel does the
 * I/O synchronously inside io_submit, so a "queue depth" would silently be
 * 1: check refuses it. queue prepares an iocb in the request's slot (no
 * system call), submit hands the batch over with one io_submit, reap takes
 * completions with io_getevents, waiting only for the minimum asked.
 *
 * fsync and fdatasync are the system calls (the worker drains the queue
 * first), as for psync.
 */
#ifdef DBIO_HAVE_LIBAIO
#include <errno.h>
#include <stdlib.h>
#include <libaio.h>

#include "engine/engine.h"
#include "util/syscalls.h"

#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1) /* linux/aio_abi.h: aio_reqprio is the request's ioprio */
#endif

struct aio_state {
	io_context_t ctx;
	bool ctx_ok;
	unsigned depth;
	unsigned npending;     /* prepared, not yet submitted */
	struct iocb *iocbs;    /* one per slot */
	struct iocb **pending; /* the batch for io_submit */
	struct io_event *events;
};

static int aio_setup(struct engine *e, const struct engine_conf *conf)
{
	struct aio_state *st = calloc(1, sizeof(*st));
	int rc;

	e->priv = st;
	if (!st)
		return -ENOMEM;
	st->depth = conf->iodepth ? conf->iodepth : 1;
	st->iocbs = calloc(st->depth, sizeof(*st->iocbs));
	st->pending = calloc(st->depth, sizeof(*st->pending));
	st->events = calloc(st->depth, sizeof(*st->events));
	if (!st->iocbs || !st->pending || !st->events)
		return -ENOMEM;
	rc = io_setup((int)st->depth, &st->ctx); /* libaio returns -errno */
	if (rc < 0)
		return rc;
	st->ctx_ok = true;
	return 0;
}

static void aio_teardown(struct engine *e)
{
	struct aio_state *st = e->priv;

	if (!st)
		return;
	if (st->ctx_ok)
		io_destroy(st->ctx);
	free(st->iocbs);
	free(st->pending);
	free(st->events);
	free(st);
	e->priv = NULL;
}

/* Prepare the rest of req (from req->res on) in its slot's iocb. */
static void aio_prep(struct aio_state *st, struct io_req *req)
{
	struct iocb *cb = &st->iocbs[req->slot];
	char *buf = (char *)req->buf + req->res;
	size_t len = (size_t)(req->len - (uint64_t)req->res);
	long long off = (long long)(req->off + (uint64_t)req->res);

	if (req->op == OP_READ)
		io_prep_pread(cb, req->fd, buf, len, off);
	else
		io_prep_pwrite(cb, req->fd, buf, len, off);
	cb->data = req;
	if (req->prio) { /* the thread's priority otherwise */
		cb->aio_reqprio = (short)req->prio;
		cb->u.c.flags |= IOCB_FLAG_IOPRIO;
	}
	st->pending[st->npending++] = cb;
}

static int aio_queue(struct engine *e, struct io_req *req)
{
	struct aio_state *st = e->priv;

	if (req->slot >= st->depth || st->npending >= st->depth)
		return -EBUSY;
	req->res = 0;
	req->rc = 0;
	aio_prep(st, req);
	return 0;
}

static int aio_submit(struct engine *e)
{
	struct aio_state *st = e->priv;
	unsigned sent = 0;

	while (sent < st->npending) {
		int rc = io_submit(st->ctx, (long)(st->npending - sent), st->pending + sent);

		if (rc == -EINTR || rc == -EAGAIN)
			continue;
		if (rc < 0) {
			st->npending = 0;
			return rc;
		}
		sent += (unsigned)rc;
	}
	st->npending = 0;
	return (int)sent;
}

/* Account n events: finished requests go to done[got...]; a short
 * transfer or EAGAIN is prepared again for the next submit. New got. */
static unsigned aio_take(struct aio_state *st, int n, struct io_req **done, unsigned got)
{
	for (int i = 0; i < n; i++) {
		struct io_req *req = st->events[i].data;
		long res = (long)st->events[i].res;

		if (res == -EAGAIN || res == -EINTR || (res > 0 && (uint64_t)(req->res + res) < req->len)) {
			if (res > 0)
				req->res += res;
			aio_prep(st, req);
			continue;
		}
		if (res < 0)
			req->rc = (int)res;
		else if (res == 0)
			req->rc = -ENODATA;
		else
			req->res += res;
		done[got++] = req;
	}
	return got;
}

static int aio_reap(struct engine *e, struct io_req **done, unsigned max, unsigned min)
{
	struct aio_state *st = e->priv;
	struct timespec zero = { 0, 0 };
	unsigned got = 0;

	if (max > st->depth)
		max = st->depth;
	/* io_getevents takes every completion there is (up to max), waiting
	 * only while fewer than min have come. */
	do {
		struct timespec left;
		/* reap_until: no later than then (offload's rate pause) */
		const bool until = got < min && engine_reap_left(e, &left);
		int n = io_getevents(st->ctx, got < min ? 1 : 0, (long)(max - got), st->events,
				     until	 ? &left
				     : got < min ? NULL
						 : &zero);

		if (n == -EINTR)
			continue;
		if (n < 0)
			return n;
		got = aio_take(st, n, done, got);
		if (st->npending) {
			int rc = aio_submit(e);

			if (rc < 0)
				return rc;
		}
		if (until && !n)
			break; /* its time came */
	} while (got < min);
	return (int)got;
}

static int aio_sync(struct engine *e, int fd, enum op_type op)
{
	return engine_sync_call(e, fd, op);
}

/* fio runs it, so dbio does too, saying what it measures. */
static const char *aio_warn(const struct engine_conf *conf)
{
	if (!conf->direct)
		return "libaio without direct=1: the kernel does buffered I/O inside io_submit, one request after the other, so iodepth puts no more I/O in flight (fio runs it so too); use direct=1, or ioengine=io_uring for queued buffered I/O";
	return NULL;
}

const struct engine_ops engine_libaio = {
	.name = "libaio",
	.summary = "Linux native AIO (io_submit/io_getevents), iodepth in flight with direct=1",
	.caps = ENGINE_CAP_QUEUE | ENGINE_CAP_IOPRIO | ENGINE_CAP_OWN_IO,
	.setup = aio_setup,
	.teardown = aio_teardown,
	.sync = aio_sync,
	.warn = aio_warn,
	.queue = aio_queue,
	.submit = aio_submit,
	.reap = aio_reap,
	.setup_hint = "io_setup failed: /proc/sys/fs/aio-max-nr may be too small for iodepth * threads",
};
#endif
