/*
 * mmap: each file is mapped whole (MAP_SHARED) when the worker attaches its
 * files; a read copies from the mapping into the buffer, a write copies the
 * buffer into the mapping (fio's mmap engine). Page faults are the I/O.
 * fsync and fdatasync become msync(MS_SYNC) of the file's whole mapping,
 * which writes its dirty pages back and waits for them. The mapping goes
 * through the page cache, so direct=1 does not apply.
 *
 * mmap and msync are called directly: dbio_sys has no entries for them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "engine/engine.h"

struct mmap_state {
	bool writable;
	size_t nfiles;
	uint64_t file_bytes;
	const int *fds; /* the worker's, valid while attached */
	char **maps;	/* one per file; NULL until mapped */
};

static int mmap_setup(struct engine *e, const struct engine_conf *conf)
{
	struct mmap_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->writable = conf->writable;
	e->priv = st;
	return 0;
}

static void mmap_teardown(struct engine *e)
{
	struct mmap_state *st = e->priv;

	if (!st)
		return;
	for (size_t i = 0; st->maps && i < st->nfiles; i++)
		if (st->maps[i])
			munmap(st->maps[i], st->file_bytes);
	free(st->maps);
	free(st);
	e->priv = NULL;
}

static int mmap_attach(struct engine *e, const struct engine_files *files)
{
	struct mmap_state *st = e->priv;
	int prot = PROT_READ | (st->writable ? PROT_WRITE : 0);

	st->maps = calloc(files->nfiles, sizeof(*st->maps));
	if (!st->maps)
		return -ENOMEM;
	st->nfiles = files->nfiles;
	st->file_bytes = files->file_bytes;
	st->fds = files->fds;
	for (size_t i = 0; i < files->nfiles; i++) {
		void *p = mmap(NULL, files->file_bytes, prot, MAP_SHARED, files->fds[i], 0);

		if (p == MAP_FAILED)
			return -errno;
		st->maps[i] = p;
	}
	return 0;
}

static int mmap_io(struct engine *e, struct io_req *req)
{
	struct mmap_state *st = e->priv;
	char *map = st->maps[req->file];

	if (req->off >= st->file_bytes || req->len > st->file_bytes - req->off) {
		/* Past the mapping would be SIGBUS, not a short read. */
		uint64_t left = req->off < st->file_bytes ? st->file_bytes - req->off : 0;

		req->res = 0;
		if (!left)
			return -ENODATA;
		if (req->op == OP_READ)
			memcpy(req->buf, map + req->off, left);
		else
			memcpy(map + req->off, req->buf, left);
		req->res = (int64_t)left;
		return -ENODATA;
	}
	if (req->op == OP_READ)
		memcpy(req->buf, map + req->off, req->len);
	else
		memcpy(map + req->off, req->buf, req->len);
	req->res = (int64_t)req->len;
	return 0;
}

static int mmap_sync(struct engine *e, int fd, enum op_type op)
{
	struct mmap_state *st = e->priv;

	(void)op; /* msync has no data-only variant; sync_file_range is refused (mmap_check) */
	for (size_t i = 0; i < st->nfiles; i++)
		if (st->fds[i] == fd) {
			if (msync(st->maps[i], st->file_bytes, MS_SYNC) < 0)
				return -errno;
			return 0;
		}
	return -EBADF;
}

static const char *mmap_check(const struct engine_conf *conf)
{
	if (conf->direct)
		return "mmap copies through the page cache, so direct=1 cannot apply; use direct=0, or ioengine=psync, libaio or io_uring with direct=1";
	if (conf->sync_file_range)
		return "mmap writes through the mapping, which sync_file_range does not write back; use fsync or fdatasync (msync), or another engine";
	return NULL;
}

const struct engine_ops engine_mmap = {
	.name = "mmap",
	.summary = "memcpy to/from a MAP_SHARED mapping of each file; fsync and fdatasync are msync(MS_SYNC)",
	.setup = mmap_setup,
	.teardown = mmap_teardown,
	.io = mmap_io,
	.sync = mmap_sync,
	.attach = mmap_attach,
	.check = mmap_check,
};
