/*
 * The unsynced writes of the power-cut layer: per file, store/w<ino> logs
 * in order what changed it since its last durability point (a write's
 * offset and bytes, a new size), so that an fsync applies them to the
 * durable copy store/f<ino> (and a failed one drops them, as Linux drops
 * the dirty pages of a failed writeback), and a cut applies what the crash
 * model keeps of them: none (lose), each or not at random (reorder), or
 * in order up to one chosen at random, of which only a prefix of its
 * sectors (torn512, torn4k); the draws from the run's seed, the cut's
 * number and the file's name. The server appends (one thread: fuse_loop);
 * the driver reads at a cut, while the server waits or is idle, and stops
 * at a record not whole yet.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "powercut/powercut_int.h"
#include "util/rng.h"

#define COPY_CHUNK (64 * 1024)

enum { OP_WRITE = 'W', OP_SIZE = 'S', OP_UNKNOWN = 'X' };

struct log_op {
	uint32_t kind, pad;
	uint64_t off; /* a write's offset, a new size */
	uint64_t len; /* a write's bytes, after the op in the log */
};

static void log_name(char *buf, size_t len, unsigned long long ino)
{
	snprintf(buf, len, "w%llu", ino);
}

/* The log last appended to, kept open: a write is one FUSE request, and
 * opening the log for each made dd on the layer 4 times slower. Checked
 * at each use, as the other process (the driver's settle) or an fsync
 * may have removed it meanwhile: a log with no link is reopened. */
static struct {
	unsigned long long ino;
	int fd;
} last = { 0, -1 };

static int log_fd(struct powercut *pc, unsigned long long ino)
{
	struct stat st;
	char name[64];

	if (last.fd >= 0 && last.ino == ino && fstat(last.fd, &st) == 0 && st.st_nlink > 0)
		return last.fd;
	if (last.fd >= 0)
		close(last.fd);
	log_name(name, sizeof(name), ino);
	last.ino = ino;
	last.fd = openat(pc->storefd, name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	return last.fd < 0 ? -errno : last.fd;
}

static int log_append(struct powercut *pc, int fd, const struct log_op *op, const void *data)
{
	struct iovec v[2] = { { (void *)op, sizeof(*op) }, { (void *)data, data ? op->len : 0 } };
	size_t want = sizeof(*op) + v[1].iov_len;
	struct stat st;
	ssize_t n;
	int lfd;

	if (fstat(fd, &st) < 0)
		return -errno;
	lfd = log_fd(pc, (unsigned long long)st.st_ino);
	if (lfd < 0)
		return lfd;
	n = writev(lfd, v, 2);
	return n < 0 ? -errno : (size_t)n != want ? -EIO : 0;
}

int powercut_log_write(struct powercut *pc, int fd, off_t off, const void *buf, size_t n)
{
	struct log_op op = { .kind = OP_WRITE, .off = (uint64_t)off, .len = n };

	return log_append(pc, fd, &op, buf);
}

int powercut_log_size(struct powercut *pc, int fd, off_t size)
{
	struct log_op op = { .kind = OP_SIZE, .off = (uint64_t)size };

	return log_append(pc, fd, &op, NULL);
}

int powercut_log_unknown(struct powercut *pc, int fd)
{
	struct log_op op = { .kind = OP_UNKNOWN };

	return log_append(pc, fd, &op, NULL);
}

void powercut_log_remove(struct powercut *pc, unsigned long long ino)
{
	char name[64];

	log_name(name, sizeof(name), ino);
	unlinkat(pc->storefd, name, 0);
}

int powercut_log_drop(struct powercut *pc, int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	powercut_log_remove(pc, (unsigned long long)st.st_ino);
	return 0;
}

/* The next whole op of the log lfd at *at (its bytes follow it): 1, or 0
 * at the end (or a record the server is still appending). */
static int next_op(int lfd, off_t *at, off_t end, struct log_op *op)
{
	if (end - *at < (off_t)sizeof(*op) || pread(lfd, op, sizeof(*op), *at) != (ssize_t)sizeof(*op))
		return 0;
	if (op->len > (uint64_t)(end - *at - (off_t)sizeof(*op)))
		return 0;
	*at += (off_t)sizeof(*op);
	return 1;
}

/* n bytes of a write: from the log lfd at from to the file to at off. */
static int copy_bytes(int lfd, off_t from, int to, off_t off, uint64_t n, char *buf)
{
	while (n) {
		size_t chunk = n < COPY_CHUNK ? (size_t)n : COPY_CHUNK;
		ssize_t r = pread(lfd, buf, chunk, from);

		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		if (pwrite(to, buf, (size_t)r, off) != r)
			return -errno ? -errno : -EIO;
		from += r;
		off += r;
		n -= (uint64_t)r;
	}
	return 0;
}

/* The op at data (its bytes) applied to the file to: keep bytes of a
 * write (all of it, or the prefix a torn model keeps). */
static int apply_op(int lfd, off_t data, const struct log_op *op, uint64_t keep, int to, char *buf)
{
	if (op->kind == OP_SIZE)
		return ftruncate(to, (off_t)op->off) < 0 ? -errno : 0;
	if (op->kind == OP_WRITE)
		return copy_bytes(lfd, data, to, (off_t)op->off, keep, buf);
	return 0; /* unknown: only a copy of the live file knows it */
}

/* The log of ino opened, its size in *end: the fd, or -ENOENT when none. */
static int log_open(struct powercut *pc, unsigned long long ino, off_t *end)
{
	char name[64];
	struct stat st;
	int lfd;

	log_name(name, sizeof(name), ino);
	lfd = openat(pc->storefd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (lfd < 0)
		return -errno;
	if (fstat(lfd, &st) < 0) {
		close(lfd);
		return -errno;
	}
	*end = st.st_size;
	return lfd;
}

/* The ops of the log: how many, and whether one is unknown. */
static uint64_t count_ops(int lfd, off_t end, bool *unknown)
{
	struct log_op op;
	uint64_t n = 0;

	*unknown = false;
	for (off_t at = 0; next_op(lfd, &at, end, &op); at += (off_t)op.len, n++)
		*unknown |= op.kind == OP_UNKNOWN;
	return n;
}

/* What the model keeps at this cut of op i (r its draws, torn the op a
 * torn model tears): -1 nothing, else the bytes of a write kept from its
 * start (a size change: 0, applied whole). */
static int64_t kept(const struct powercut *pc, struct rng *r, const struct log_op *op, uint64_t i,
		    uint64_t torn)
{
	uint64_t sector = pc->conf.model == POWERCUT_TORN512 ? 512 : 4096, first, pieces, end;

	switch (pc->conf.model) {
	case POWERCUT_REORDER:
		return rng_below(r, 2) ? (int64_t)op->len : -1;
	case POWERCUT_TORN512:
	case POWERCUT_TORN4K:
		if (i != torn || op->kind != OP_WRITE || !op->len)
			return i < torn ? (int64_t)op->len : -1;
		/* A prefix of its sectors, at least one missing: sector
		 * boundaries are the file's, not the write's. */
		first = op->off / sector;
		pieces = (op->off + op->len - 1) / sector - first + 1;
		end = (first + rng_below(r, pieces)) * sector;
		return end > op->off ? (int64_t)(end - op->off) : -1;
	default:
		return -1;
	}
}

/* Apply to the file to the ops of the log lfd, all (model false) or what
 * the crash model keeps of them at this cut. */
static int apply_log(struct powercut *pc, uint64_t key, int lfd, off_t end, uint64_t n, bool model, int to)
{
	char *buf = malloc(COPY_CHUNK);
	struct log_op op;
	struct rng r;
	uint64_t torn = 0, i = 0;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	rng_seed(&r, pc->conf.seed ^ ((uint64_t)pc->cuts << 32) ^ key);
	if (model && n)
		torn = rng_below(&r, n);
	for (off_t at = 0; ret == 0 && next_op(lfd, &at, end, &op); at += (off_t)op.len, i++) {
		int64_t keep = model ? kept(pc, &r, &op, i, torn) : (int64_t)op.len;

		if (keep >= 0)
			ret = apply_op(lfd, at, &op, (uint64_t)keep, to, buf);
	}
	free(buf);
	return ret;
}

int powercut_log_apply(struct powercut *pc, unsigned long long ino, int to, bool *whole)
{
	off_t end;
	int lfd = log_open(pc, ino, &end), ret;
	uint64_t n;

	*whole = false;
	if (lfd < 0)
		return lfd == -ENOENT ? 0 : lfd;
	n = count_ops(lfd, end, whole);
	ret = *whole ? 0 : apply_log(pc, 0, lfd, end, n, false, to);
	close(lfd);
	return ret;
}

/* FNV-1a of the file's name: a cut's draws for a file repeat run after
 * run (its inode number does not). */
static uint64_t name_key(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3ull;
	return h;
}

int powercut_log_model(struct powercut *pc, unsigned long long ino, const char *name, int to)
{
	off_t end;
	int lfd, ret;
	bool unknown;
	uint64_t n;

	if (pc->conf.model == POWERCUT_LOSE)
		return 0;
	lfd = log_open(pc, ino, &end);
	if (lfd < 0)
		return lfd == -ENOENT ? 0 : lfd;
	n = count_ops(lfd, end, &unknown);
	ret = apply_log(pc, name_key(name), lfd, end, n, true, to);
	close(lfd);
	return ret;
}
