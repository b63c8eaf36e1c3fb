/*
 * pvsync2: one preadv2 or pwritev2 per operation (a single iovec), the
 * engine fio calls pvsync2. What the v2 calls add over psync are per-call
 * flags: hipri asks for polled completion (RWF_HIPRI), which the block
 * layer honours for direct I/O on a queue with poll queues and otherwise
 * completes by interrupt as usual.
 *
 * The worked example of an engine in docs/contributing.md: this file, one
 * line in engine.c, and the two calls appended to the syscall seam.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "engine/engine.h"
#include "util/syscalls.h"

/* pvsync2's own keys (fio's names). */
struct pvsync2_conf {
	bool hipri; /* RWF_HIPRI on every call */
};

#define F(field) offsetof(struct pvsync2_conf, field)

/* clang-format off */
static const struct option_def pvsync2_defs[] = {
	{ .name = "hipri", .type = OPT_BOOL, .offset = F(hipri), .def = "0",
	  .help = "Pass RWF_HIPRI with every preadv2/pwritev2: ask for polled completion. Polling happens only for direct=1 on a block device with poll queues; elsewhere the I/O completes by interrupt as without it." },
};
/* clang-format on */

static const struct option_table pvsync2_options = OPTION_TABLE(pvsync2_defs, struct pvsync2_conf);

static int pvsync2_setup(struct engine *e, const struct engine_conf *conf)
{
	const struct pvsync2_conf *own = conf->own;
	int *flags = malloc(sizeof(*flags));

	e->priv = flags;
	if (!flags)
		return -ENOMEM;
	*flags = own->hipri ? RWF_HIPRI : 0;
	return 0;
}

static void pvsync2_teardown(struct engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

static ssize_t pvsync2_call(struct engine *e, const struct io_req *req, uint64_t done)
{
	const int flags = *(const int *)e->priv;
	struct iovec iov = { .iov_base = (char *)req->buf + done, .iov_len = req->len - done };

	return req->op == OP_READ ? dbio_sys->preadv2(req->fd, &iov, 1, (off_t)(req->off + done), flags)
				  : dbio_sys->pwritev2(req->fd, &iov, 1, (off_t)(req->off + done), flags);
}

static int pvsync2_io(struct engine *e, struct io_req *req)
{
	return engine_transfer(e, req, pvsync2_call);
}

static int pvsync2_sync(struct engine *e, int fd, enum op_type op)
{
	return engine_sync_call(e, fd, op);
}

const struct engine_ops engine_pvsync2 = {
	.name = "pvsync2",
	.summary = "preadv2(2)/pwritev2(2), one synchronous call per operation; hipri",
	.setup = pvsync2_setup,
	.teardown = pvsync2_teardown,
	.io = pvsync2_io,
	.sync = pvsync2_sync,
	.options = &pvsync2_options,
};
