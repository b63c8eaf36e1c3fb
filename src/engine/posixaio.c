/*
 * posixaio: POSIX asynchronous I/O (aio_read(3), aio_write(3), waited for
 * with aio_suspend(3)), fio's posixaio engine, with up to iodepth requests
 * in flight. glibc carries the requests out on threads of its own, so the
 * queue is real for buffered I/O too (unlike libaio's).
 *
 * queue prepares an aiocb in the request's slot (no call), submit starts
 * each one, reap polls the slots in flight with aio_error(3) and waits in
 * aio_suspend while fewer than the minimum asked have completed. A short
 * transfer or EAGAIN is started again for the rest. fsync and fdatasync are
 * the system calls (the worker drains the queue first), as for psync.
 */
#include <aio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "util/syscalls.h"

struct posixaio_state {
	unsigned depth;
	unsigned nqueued;		/* prepared, not yet started */
	unsigned *queued;		/* their slots, in order */
	struct aiocb *cbs;		/* one per slot */
	struct io_req **inflight;	/* per slot: the request started, or NULL */
	const struct aiocb **wait_list; /* aio_suspend's list, made in reap */
};

static int posixaio_setup(struct engine *e, const struct engine_conf *conf)
{
	struct posixaio_state *st = calloc(1, sizeof(*st));

	e->priv = st;
	if (!st)
		return -ENOMEM;
	st->depth = conf->iodepth ? conf->iodepth : 1;
	st->queued = calloc(st->depth, sizeof(*st->queued));
	st->cbs = calloc(st->depth, sizeof(*st->cbs));
	st->inflight = calloc(st->depth, sizeof(*st->inflight));
	st->wait_list = calloc(st->depth, sizeof(*st->wait_list));
	if (!st->queued || !st->cbs || !st->inflight || !st->wait_list)
		return -ENOMEM;
	return 0;
}

/* Waits for every request still in flight: glibc writes into the aiocbs and
 * buffers until each ends, so neither may be freed before. */
static void posixaio_drain(struct posixaio_state *st)
{
	for (unsigned s = 0; s < st->depth; s++) {
		if (!st->inflight[s])
			continue;
		aio_cancel(st->cbs[s].aio_fildes, &st->cbs[s]);
		while (aio_error(&st->cbs[s]) == EINPROGRESS) {
			const struct aiocb *one[1] = { &st->cbs[s] };

			aio_suspend(one, 1, NULL);
		}
		st->inflight[s] = NULL;
	}
}

static void posixaio_teardown(struct engine *e)
{
	struct posixaio_state *st = e->priv;

	if (!st)
		return;
	if (st->inflight && st->cbs)
		posixaio_drain(st);
	free(st->queued);
	free(st->cbs);
	free(st->inflight);
	free(st->wait_list);
	free(st);
	e->priv = NULL;
}

/* Prepares the rest of req (from req->res on) in its slot's aiocb and
 * queues the slot for the next submit. */
static void posixaio_prep(struct posixaio_state *st, struct io_req *req)
{
	struct aiocb *cb = &st->cbs[req->slot];

	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = req->fd;
	cb->aio_buf = (char *)req->buf + req->res;
	cb->aio_nbytes = (size_t)(req->len - (uint64_t)req->res);
	cb->aio_offset = (off_t)(req->off + (uint64_t)req->res);
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	st->inflight[req->slot] = req;
	st->queued[st->nqueued++] = req->slot;
}

static int posixaio_queue(struct engine *e, struct io_req *req)
{
	struct posixaio_state *st = e->priv;

	if (req->slot >= st->depth || st->inflight[req->slot] || st->nqueued >= st->depth)
		return -EBUSY;
	req->res = 0;
	req->rc = 0;
	posixaio_prep(st, req);
	return 0;
}

/* Starts the queued requests; a failure to start one leaves the rest
 * unqueued (the contract: nothing stays queued). */
static int posixaio_submit(struct engine *e)
{
	struct posixaio_state *st = e->priv;
	unsigned sent = 0;

	while (sent < st->nqueued) {
		unsigned s = st->queued[sent];
		struct aiocb *cb = &st->cbs[s];
		int rc = st->inflight[s]->op == OP_READ ? aio_read(cb) : aio_write(cb);

		if (rc < 0 && (errno == EAGAIN || errno == EINTR))
			continue; /* glibc out of request slots for a moment */
		if (rc < 0) {
			int err = -errno;

			for (unsigned k = sent; k < st->nqueued; k++)
				st->inflight[st->queued[k]] = NULL;
			st->nqueued = 0;
			return err;
		}
		sent++;
	}
	st->nqueued = 0;
	return (int)sent;
}

/* Takes the requests of the slots that have completed into done[got...]; a
 * short transfer or EAGAIN is prepared again. New got. */
static unsigned posixaio_take(struct posixaio_state *st, struct io_req **done, unsigned max, unsigned got)
{
	for (unsigned s = 0; s < st->depth && got < max; s++) {
		struct io_req *req = st->inflight[s];
		int err;
		ssize_t res;

		if (!req || (err = aio_error(&st->cbs[s])) == EINPROGRESS)
			continue;
		res = aio_return(&st->cbs[s]);
		st->inflight[s] = NULL;
		if (err == EAGAIN || err == EINTR ||
		    (!err && res > 0 && (uint64_t)(req->res + res) < req->len)) {
			if (!err)
				req->res += res;
			posixaio_prep(st, req);
			continue;
		}
		if (err)
			req->rc = -err;
		else if (res == 0)
			req->rc = -ENODATA;
		else
			req->res += res;
		done[got++] = req;
	}
	return got;
}

/* aio_suspend on every slot in flight, until one completes, the worker's
 * reap_until, or a signal. 1 when reap_until's time came, else 0 or -errno. */
static int posixaio_wait(struct engine *e, struct posixaio_state *st)
{
	struct timespec left;
	const bool until = engine_reap_left(e, &left);
	int n = 0;

	for (unsigned s = 0; s < st->depth; s++)
		if (st->inflight[s])
			st->wait_list[n++] = &st->cbs[s];
	if (!n)
		return -EINVAL; /* min larger than what is in flight */
	if (aio_suspend(st->wait_list, n, until ? &left : NULL) == 0)
		return 0;
	if (errno == EINTR)
		return 0;
	if (errno == EAGAIN)
		return until ? 1 : 0;
	return -errno;
}

static int posixaio_reap(struct engine *e, struct io_req **done, unsigned max, unsigned min)
{
	struct posixaio_state *st = e->priv;
	unsigned got = 0;

	if (max > st->depth)
		max = st->depth;
	for (;;) {
		int rc;

		got = posixaio_take(st, done, max, got);
		if (st->nqueued && (rc = posixaio_submit(e)) < 0)
			return rc;
		if (got >= min)
			break;
		if ((rc = posixaio_wait(e, st)) < 0)
			return rc;
		if (rc == 1)
			break; /* reap_until came */
	}
	return (int)got;
}

static int posixaio_sync(struct engine *e, int fd, enum op_type op)
{
	return engine_sync_call(e, fd, op);
}

const struct engine_ops engine_posixaio = {
	.name = "posixaio",
	.summary = "POSIX AIO (aio_read/aio_write, aio_suspend), iodepth in flight on glibc's threads",
	.caps = ENGINE_CAP_QUEUE | ENGINE_CAP_OWN_IO,
	.setup = posixaio_setup,
	.teardown = posixaio_teardown,
	.sync = posixaio_sync,
	.queue = posixaio_queue,
	.submit = posixaio_submit,
	.reap = posixaio_reap,
};
