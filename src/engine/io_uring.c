/*
 * io_uring through liburing: up to iodepth requests in flight on one ring
 * per worker thread. queue fills submission queue entries (no system call),
 * submit hands the whole batch to the kernel with one io_uring_enter
 * (io_uring_submit), reap takes completions in batches from the completion
 * ring (io_uring_peek_batch_cqe) and enters the kernel only to wait.
 *
 * Options (docs/engines.md): registerfiles registers the worker's files
 * once (IOSQE_FIXED_FILE: no fd lookup per request), fixedbufs registers
 * its buffers (READ_FIXED/WRITE_FIXED: no page pinning per request), hipri
 * sets up the ring with IORING_SETUP_IOPOLL: completions are polled from
 * the device instead of interrupts, which needs direct=1 and a driver with
 * poll queues (otherwise each request fails with EOPNOTSUPP), sqthread_poll
 * has a kernel thread poll the submission ring (IORING_SETUP_SQPOLL).
 *
 * fsync and fdatasync are the system calls (the worker drains the ring
 * first), as for psync, so that a sync costs the same on every engine.
 */
#ifdef DBIO_HAVE_LIBURING
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <liburing.h>

#include "engine/engine.h"
#include "util/syscalls.h"

/* io_uring's own keys (fio's names). */
struct uring_conf {
	bool registerfiles; /* register the files (IOSQE_FIXED_FILE) */
	bool fixedbufs;	    /* register the buffers (READ/WRITE_FIXED) */
	bool hipri;	    /* polled completion (IORING_SETUP_IOPOLL) */
	bool sqthread_poll; /* a kernel thread submits (IORING_SETUP_SQPOLL) */
};

#define F(field) offsetof(struct uring_conf, field)

/* clang-format off */
static const struct option_def uring_defs[] = {
	{ .name = "registerfiles", .type = OPT_BOOL, .offset = F(registerfiles), .def = "0",
	  .help = "Register the thread's files with the ring once, so that requests skip the file-descriptor lookup (IOSQE_FIXED_FILE)." },
	{ .name = "fixedbufs", .type = OPT_BOOL, .offset = F(fixedbufs), .def = "0",
	  .help = "Register the thread's buffers with the ring once (READ_FIXED/WRITE_FIXED), so that requests skip mapping the buffer pages each time." },
	{ .name = "hipri", .type = OPT_BOOL, .offset = F(hipri), .def = "0",
	  .help = "Polled completion (IORING_SETUP_IOPOLL): the thread polls the device for completions instead of waiting for interrupts. Needs direct=1 and a block driver with poll queues; otherwise the I/O fails with 'Operation not supported'." },
	{ .name = "sqthread_poll", .type = OPT_BOOL, .offset = F(sqthread_poll), .def = "0",
	  .help = "A kernel thread polls the submission ring (IORING_SETUP_SQPOLL): submitting takes no system call while that thread is awake; it sleeps after a second without work and a submit then wakes it. The thread's CPU time is not counted in the job's rusage." },
};
/* clang-format on */

static const struct option_table uring_options = OPTION_TABLE(uring_defs, struct uring_conf);

struct uring_state {
	struct io_uring ring;
	bool ring_ok;
	bool fixed_files;
	bool fixed_bufs;
	unsigned requeued; /* prepared by reap, not yet submitted */
	unsigned ncqes;
	struct io_uring_cqe **cqes;
};

static int uring_setup(struct engine *e, const struct engine_conf *conf)
{
	const struct uring_conf *own = conf->own;
	struct uring_state *st = calloc(1, sizeof(*st));
	struct io_uring_params p;
	unsigned depth = conf->iodepth ? conf->iodepth : 1;
	int rc;

	e->priv = st;
	if (!st)
		return -ENOMEM;
	st->ncqes = depth;
	st->cqes = calloc(depth, sizeof(*st->cqes));
	if (!st->cqes)
		return -ENOMEM;
	memset(&p, 0, sizeof(p));
	if (own->hipri)
		p.flags |= IORING_SETUP_IOPOLL;
	if (own->sqthread_poll) {
		p.flags |= IORING_SETUP_SQPOLL;
		p.sq_thread_idle = 1000; /* ms */
	}
	rc = io_uring_queue_init_params(depth, &st->ring, &p);
	if (rc < 0)
		return rc;
	st->ring_ok = true;
	st->fixed_files = own->registerfiles;
	st->fixed_bufs = own->fixedbufs;
	return 0;
}

static void uring_teardown(struct engine *e)
{
	struct uring_state *st = e->priv;

	if (!st)
		return;
	if (st->ring_ok)
		io_uring_queue_exit(&st->ring); /* unregisters files and buffers */
	free(st->cqes);
	free(st);
	e->priv = NULL;
}

static int uring_attach(struct engine *e, const struct engine_files *files)
{
	struct uring_state *st = e->priv;
	int rc;

	if (st->fixed_files) {
		rc = io_uring_register_files(&st->ring, files->fds, (unsigned)files->nfiles);
		if (rc < 0)
			return rc;
	}
	if (st->fixed_bufs) {
		struct iovec *iov = calloc(files->nbufs, sizeof(*iov));

		if (!iov)
			return -ENOMEM;
		for (unsigned i = 0; i < files->nbufs; i++) {
			iov[i].iov_base = files->bufs[i];
			iov[i].iov_len = files->buf_bytes;
		}
		rc = io_uring_register_buffers(&st->ring, iov, files->nbufs);
		free(iov);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Prepare the rest of req (from req->res on) in a submission entry. */
static int uring_prep(struct uring_state *st, struct io_req *req)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&st->ring);
	char *buf = (char *)req->buf + req->res;
	unsigned len = (unsigned)(req->len - (uint64_t)req->res);
	uint64_t off = req->off + (uint64_t)req->res;
	int fd = st->fixed_files ? (int)req->file : req->fd;

	/* With a polling thread the submission ring frees up when that
	 * thread has taken the entries, which can be after the submit
	 * returned: flush what is prepared and wait for room. */
	if (!sqe && (st->ring.flags & IORING_SETUP_SQPOLL)) {
		io_uring_submit(&st->ring);
		if (io_uring_sqring_wait(&st->ring) >= 0)
			sqe = io_uring_get_sqe(&st->ring);
	}
	if (!sqe)
		return -EBUSY;
	if (st->fixed_bufs) {
		if (req->op == OP_READ)
			io_uring_prep_read_fixed(sqe, fd, buf, len, off, (int)req->slot);
		else
			io_uring_prep_write_fixed(sqe, fd, buf, len, off, (int)req->slot);
	} else if (req->op == OP_READ) {
		io_uring_prep_read(sqe, fd, buf, len, off);
	} else {
		io_uring_prep_write(sqe, fd, buf, len, off);
	}
	if (st->fixed_files)
		io_uring_sqe_set_flags(sqe, IOSQE_FIXED_FILE);
	io_uring_sqe_set_data(sqe, req);
	sqe->ioprio = (__u16)req->prio;
	return 0;
}

static int uring_queue(struct engine *e, struct io_req *req)
{
	req->res = 0;
	req->rc = 0;
	return uring_prep(e->priv, req);
}

static int uring_submit(struct engine *e)
{
	struct uring_state *st = e->priv;
	int rc;

	do
		rc = io_uring_submit(&st->ring);
	while (rc == -EINTR);
	st->requeued = 0;
	return rc;
}

/* Account one completion; true when req is finished (to be returned). */
static bool uring_complete(struct uring_state *st, struct io_req *req, int res)
{
	if (res == -EAGAIN || res == -EINTR || (res > 0 && (uint64_t)(req->res + res) < req->len)) {
		if (res > 0)
			req->res += res;
		if (uring_prep(st, req) == 0) {
			st->requeued++;
			return false;
		}
		req->rc = -EBUSY;
		return true;
	}
	if (res < 0)
		req->rc = res;
	else if (res == 0)
		req->rc = -ENODATA;
	else
		req->res += res;
	return true;
}

static int uring_reap(struct engine *e, struct io_req **done, unsigned max, unsigned min)
{
	struct uring_state *st = e->priv;
	unsigned got = 0;

	if (max > st->ncqes)
		max = st->ncqes;
	for (;;) {
		unsigned n = io_uring_peek_batch_cqe(&st->ring, st->cqes, max - got);

		for (unsigned i = 0; i < n; i++) {
			struct io_req *req = io_uring_cqe_get_data(st->cqes[i]);

			if (uring_complete(st, req, st->cqes[i]->res))
				done[got++] = req;
		}
		io_uring_cq_advance(&st->ring, n);
		if (st->requeued) {
			int rc = uring_submit(e);

			if (rc < 0)
				return rc;
		}
		if (got >= min || got == max)
			return (int)got;
		if (!n) {
			struct io_uring_cqe *cqe;
			struct timespec left;
			struct __kernel_timespec ts;
			int rc;

			if (engine_reap_left(e, &left)) {
				/* reap_until: no later than then (offload's rate pause) */
				ts = (struct __kernel_timespec){ .tv_sec = left.tv_sec,
								 .tv_nsec = left.tv_nsec };
				rc = left.tv_sec || left.tv_nsec
					     ? io_uring_wait_cqe_timeout(&st->ring, &cqe, &ts)
					     : -ETIME;
				if (rc == -ETIME)
					return (int)got;
			} else {
				rc = io_uring_wait_cqe(&st->ring, &cqe);
			}
			if (rc < 0 && rc != -EINTR && rc != -EAGAIN)
				return rc;
		}
	}
}

static int uring_sync(struct engine *e, int fd, enum op_type op)
{
	return engine_sync_call(e, fd, op);
}

static const char *uring_check(const struct engine_conf *conf)
{
	const struct uring_conf *own = conf->own;

	if (own->hipri && !conf->direct)
		return "hipri=1 (polled completion) needs direct=1: the kernel polls only for O_DIRECT I/O";
	return NULL;
}

const struct engine_ops engine_io_uring = {
	.name = "io_uring",
	.summary =
		"io_uring (liburing): iodepth in flight, batched submit and reap; registerfiles, fixedbufs, hipri, sqthread_poll",
	.caps = ENGINE_CAP_QUEUE | ENGINE_CAP_IOPRIO | ENGINE_CAP_OWN_IO,
	.setup = uring_setup,
	.teardown = uring_teardown,
	.sync = uring_sync,
	.attach = uring_attach,
	.check = uring_check,
	.queue = uring_queue,
	.submit = uring_submit,
	.reap = uring_reap,
	.setup_hint =
		"the kernel refused to set up an io_uring (kernel.io_uring_disabled, a seccomp filter or RLIMIT_MEMLOCK on older kernels); use ioengine=libaio or psync",
	.options = &uring_options,
};
#endif
