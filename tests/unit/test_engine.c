/*
 * Unit tests for the synchronous engines psync and sync (src/engine/), with
 * dbio_sys (src/util/syscalls.h) swapped for a table whose pread, pwrite,
 * read and write return short transfers, fail with EINTR once, fail with
 * EIO or return 0 (end of file), on a real temporary file in /tmp. Checks
 * the whole length is transferred with the right data, the error codes,
 * req->res, the sync engine's seeks, and that OP_FSYNC and OP_FDATASYNC
 * call fsync and fdatasync.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/engine.h"
#include "util/syscalls.h"

#define FILE_SIZE 65536
#define SHORT_MAX 1000 /* bytes a short transfer moves at most */

enum fault { F_NONE, F_SHORT, F_EINTR_ONCE, F_EIO, F_EIO_AFTER_SHORT, F_EOF };

static struct {
	enum fault fault;
	int io_calls; /* pread, pwrite, read and write together */
	int fsync_calls;
	int fdatasync_calls;
	int lseek_calls;
	int sync_errno; /* fsync/fdatasync fail with this when non-zero */
} fk;

static struct dbio_syscalls fake_sys;

struct fixture {
	char path[64];
	int fd;
	const struct engine_ops *ops;
	struct engine e;
	unsigned char pattern[FILE_SIZE]; /* what the file holds */
};

/* The fault of the current call: -1 with errno set, 0 for EOF, or the
 * length to pass on (*len shortened). */
static int inject(size_t *len)
{
	int call = fk.io_calls++;

	switch (fk.fault) {
	case F_NONE:
		break;
	case F_SHORT:
		if (*len > SHORT_MAX)
			*len = SHORT_MAX;
		break;
	case F_EINTR_ONCE:
		if (call == 0) {
			errno = EINTR;
			return -1;
		}
		break;
	case F_EIO:
		errno = EIO;
		return -1;
	case F_EIO_AFTER_SHORT:
		if (call > 0) {
			errno = EIO;
			return -1;
		}
		if (*len > SHORT_MAX)
			*len = SHORT_MAX;
		break;
	case F_EOF:
		return 0;
	}
	return 1;
}

static ssize_t fake_pread(int fd, void *buf, size_t len, off_t off)
{
	int rc = inject(&len);

	return rc <= 0 ? rc : pread(fd, buf, len, off);
}

static ssize_t fake_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	int rc = inject(&len);

	return rc <= 0 ? rc : pwrite(fd, buf, len, off);
}

static ssize_t fake_read(int fd, void *buf, size_t len)
{
	int rc = inject(&len);

	return rc <= 0 ? rc : read(fd, buf, len);
}

static ssize_t fake_write(int fd, const void *buf, size_t len)
{
	int rc = inject(&len);

	return rc <= 0 ? rc : write(fd, buf, len);
}

static off_t fake_lseek(int fd, off_t off, int whence)
{
	fk.lseek_calls++;
	return lseek(fd, off, whence);
}

static int fake_fsync(int fd)
{
	(void)fd;
	fk.fsync_calls++;
	if (fk.sync_errno) {
		errno = fk.sync_errno;
		return -1;
	}
	return 0;
}

static int fake_fdatasync(int fd)
{
	(void)fd;
	fk.fdatasync_calls++;
	if (fk.sync_errno) {
		errno = fk.sync_errno;
		return -1;
	}
	return 0;
}

static int setup(void **state, const char *engine)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->path, sizeof(f->path), "/tmp/dbio-test-engine.XXXXXX");
	f->fd = mkstemp(f->path);
	if (f->fd < 0)
		return -1;
	for (size_t i = 0; i < FILE_SIZE; i++)
		f->pattern[i] = (unsigned char)(i * 7 + i / 251);
	if (pwrite(f->fd, f->pattern, FILE_SIZE, 0) != FILE_SIZE)
		return -1;
	f->ops = engine_find(engine);
	if (!f->ops || f->ops->setup(&f->e, &(struct engine_conf){ .iodepth = 1 }))
		return -1;
	f->e.ops = f->ops;
	memset(&fk, 0, sizeof(fk));
	fake_sys = dbio_sys_libc;
	fake_sys.pread = fake_pread;
	fake_sys.pwrite = fake_pwrite;
	fake_sys.read = fake_read;
	fake_sys.write = fake_write;
	fake_sys.lseek = fake_lseek;
	fake_sys.fsync = fake_fsync;
	fake_sys.fdatasync = fake_fdatasync;
	dbio_sys = &fake_sys;
	*state = f;
	return 0;
}

static int setup_psync(void **state)
{
	return setup(state, "psync");
}

static int setup_sync(void **state)
{
	return setup(state, "sync");
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	dbio_sys = &dbio_sys_libc;
	f->ops->teardown(&f->e);
	close(f->fd);
	unlink(f->path);
	free(f);
	return 0;
}

static int do_io(struct fixture *f, enum op_type op, void *buf, uint64_t len, uint64_t off, int64_t *res)
{
	struct io_req req = { .fd = f->fd, .op = op, .buf = buf, .len = len, .off = off, .res = -12345 };
	int rc = f->ops->io(&f->e, &req);

	*res = req.res;
	return rc;
}

/* Read len bytes at off the way (a) or (b) breaks them up: all of it, right. */
static void read_whole(struct fixture *f, enum fault fault, uint64_t off, uint64_t len)
{
	unsigned char *buf = malloc(len);
	int64_t res;

	assert_non_null(buf);
	fk.fault = fault;
	fk.io_calls = 0;
	memset(buf, 0xee, len);
	assert_int_equal(do_io(f, OP_READ, buf, len, off, &res), 0);
	assert_int_equal(res, len);
	assert_memory_equal(buf, f->pattern + off, len);
	free(buf);
}

static void write_whole(struct fixture *f, enum fault fault, uint64_t off, uint64_t len)
{
	unsigned char *buf = malloc(len), *back = malloc(len);
	int64_t res;

	assert_non_null(buf);
	assert_non_null(back);
	for (uint64_t i = 0; i < len; i++)
		buf[i] = (unsigned char)(0xa5 ^ i ^ (i >> 8));
	fk.fault = fault;
	fk.io_calls = 0;
	assert_int_equal(do_io(f, OP_WRITE, buf, len, off, &res), 0);
	assert_int_equal(res, len);
	assert_int_equal(pread(f->fd, back, len, (off_t)off), len);
	assert_memory_equal(back, buf, len);
	memcpy(f->pattern + off, buf, len);
	free(buf);
	free(back);
}

static void check_short_transfers(void **state)
{
	struct fixture *f = *state;

	read_whole(f, F_SHORT, 4096, 8192);
	assert_int_equal(fk.io_calls, 9); /* 8 * 1000 + 192 */
	read_whole(f, F_SHORT, 0, 1000);
	assert_int_equal(fk.io_calls, 1);
	write_whole(f, F_SHORT, 12288, 4096);
	assert_int_equal(fk.io_calls, 5);
	read_whole(f, F_SHORT, 12288, 4096); /* reads back the written data */
	read_whole(f, F_NONE, 0, FILE_SIZE);
	assert_int_equal(fk.io_calls, 1);
}

static void check_eintr_retried(void **state)
{
	struct fixture *f = *state;

	read_whole(f, F_EINTR_ONCE, 8192, 4096);
	assert_int_equal(fk.io_calls, 2);
	write_whole(f, F_EINTR_ONCE, 16384, 4096);
	assert_int_equal(fk.io_calls, 2);
	read_whole(f, F_NONE, 16384, 4096);
}

static void check_eio(void **state)
{
	struct fixture *f = *state;
	unsigned char buf[4096];
	int64_t res;

	fk.fault = F_EIO;
	assert_int_equal(do_io(f, OP_READ, buf, sizeof(buf), 0, &res), -EIO);
	assert_int_equal(res, 0);
	assert_int_equal(fk.io_calls, 1);
	assert_int_equal(do_io(f, OP_WRITE, buf, sizeof(buf), 4096, &res), -EIO);
	assert_int_equal(res, 0);
	/* Failing part-way: res is what was done before the error. */
	fk.fault = F_EIO_AFTER_SHORT;
	fk.io_calls = 0;
	assert_int_equal(do_io(f, OP_READ, buf, sizeof(buf), 8192, &res), -EIO);
	assert_int_equal(res, SHORT_MAX);
	assert_memory_equal(buf, f->pattern + 8192, SHORT_MAX);
	fk.io_calls = 0;
	assert_int_equal(do_io(f, OP_WRITE, buf, sizeof(buf), 8192, &res), -EIO);
	assert_int_equal(res, SHORT_MAX);
	/* The engine recovers: the next request works. */
	read_whole(f, F_NONE, 20480, 4096);
}

static void check_eof(void **state)
{
	struct fixture *f = *state;
	unsigned char buf[8192];
	int64_t res;

	fk.fault = F_EOF;
	assert_int_equal(do_io(f, OP_READ, buf, 4096, 0, &res), -ENODATA);
	assert_int_equal(res, 0);
	assert_int_equal(do_io(f, OP_WRITE, buf, 4096, 0, &res), -ENODATA);
	assert_int_equal(res, 0);
	/* A real end of file part-way through: the bytes before it, then -ENODATA. */
	fk.fault = F_NONE;
	assert_int_equal(do_io(f, OP_READ, buf, 8192, FILE_SIZE - 3000, &res), -ENODATA);
	assert_int_equal(res, 3000);
	assert_memory_equal(buf, f->pattern + FILE_SIZE - 3000, 3000);
	assert_int_equal(do_io(f, OP_READ, buf, 4096, FILE_SIZE, &res), -ENODATA);
	assert_int_equal(res, 0);
}

static void check_sync_ops(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(f->ops->sync(&f->e, f->fd, OP_FSYNC), 0);
	assert_int_equal(fk.fsync_calls, 1);
	assert_int_equal(fk.fdatasync_calls, 0);
	assert_int_equal(f->ops->sync(&f->e, f->fd, OP_FDATASYNC), 0);
	assert_int_equal(fk.fsync_calls, 1);
	assert_int_equal(fk.fdatasync_calls, 1);
	assert_int_equal(f->ops->sync(&f->e, f->fd, OP_FDATASYNC), 0);
	assert_int_equal(fk.fdatasync_calls, 2);
	assert_int_equal(fk.io_calls, 0);
	fk.sync_errno = EIO;
	assert_int_equal(f->ops->sync(&f->e, f->fd, OP_FSYNC), -EIO);
	fk.sync_errno = ENOSPC;
	assert_int_equal(f->ops->sync(&f->e, f->fd, OP_FDATASYNC), -ENOSPC);
	assert_int_equal(fk.fsync_calls, 2);
	assert_int_equal(fk.fdatasync_calls, 3);
	/* The real calls on the real file. */
	dbio_sys = &dbio_sys_libc;
	assert_int_equal(f->ops->sync(&f->e, f->fd, OP_FSYNC), 0);
	assert_int_equal(f->ops->sync(&f->e, f->fd, OP_FDATASYNC), 0);
	assert_int_equal(f->ops->sync(&f->e, -1, OP_FSYNC), -EBADF);
}

/* A request that fails before any transfer (here: a closed descriptor)
 * still sets req->res, to 0, as engine.h promises. */
static void check_bad_fd_sets_res(void **state)
{
	struct fixture *f = *state;
	struct io_req req = { .fd = -1, .op = OP_READ, .len = 4096, .off = 4096, .res = -12345 };
	unsigned char buf[4096];

	req.buf = buf;
	assert_int_equal(f->ops->io(&f->e, &req), -EBADF);
	assert_int_equal(req.res, 0);
}

#define BOTH(name)                                                                                           \
	static void test_engine_psync_##name(void **state)                                                   \
	{                                                                                                    \
		check_##name(state);                                                                         \
	}                                                                                                    \
	static void test_engine_sync_##name(void **state)                                                    \
	{                                                                                                    \
		check_##name(state);                                                                         \
	}

BOTH(short_transfers)
BOTH(eintr_retried)
BOTH(eio)
BOTH(eof)
BOTH(sync_ops)
BOTH(bad_fd_sets_res)

static void test_engine_sync_seeks_only_when_offset_changes(void **state)
{
	struct fixture *f = *state;

	read_whole(f, F_NONE, 0, 4096);
	assert_int_equal(fk.lseek_calls, 1);
	read_whole(f, F_NONE, 4096, 4096); /* sequential: no seek */
	read_whole(f, F_SHORT, 8192, 4096);
	assert_int_equal(fk.lseek_calls, 1);
	read_whole(f, F_NONE, 40960, 4096); /* a jump */
	assert_int_equal(fk.lseek_calls, 2);
	read_whole(f, F_NONE, 0, 4096); /* back */
	assert_int_equal(fk.lseek_calls, 3);
	write_whole(f, F_NONE, 4096, 4096);
	assert_int_equal(fk.lseek_calls, 3);
	/* After a failure the position is unknown: the next request seeks. */
	unsigned char buf[4096];
	int64_t res;

	fk.fault = F_EIO_AFTER_SHORT;
	fk.io_calls = 0;
	assert_int_equal(do_io(f, OP_READ, buf, 4096, 8192, &res), -EIO);
	assert_int_equal(fk.lseek_calls, 3);
	read_whole(f, F_NONE, 12288, 4096);
	assert_int_equal(fk.lseek_calls, 4);
}

static void test_engine_psync_never_seeks(void **state)
{
	struct fixture *f = *state;

	read_whole(f, F_NONE, 40960, 4096);
	read_whole(f, F_SHORT, 0, 4096);
	write_whole(f, F_SHORT, 8192, 4096);
	assert_int_equal(fk.lseek_calls, 0);
}

int main(void)
{
#define CASE(engine, name)                                                                                   \
	cmocka_unit_test_setup_teardown(test_engine_##engine##_##name, setup_##engine, teardown)
	const struct CMUnitTest tests[] = {
		CASE(psync, short_transfers),
		CASE(sync, short_transfers),
		CASE(psync, eintr_retried),
		CASE(sync, eintr_retried),
		CASE(psync, eio),
		CASE(sync, eio),
		CASE(psync, eof),
		CASE(sync, eof),
		CASE(psync, sync_ops),
		CASE(sync, sync_ops),
		CASE(psync, bad_fd_sets_res),
		CASE(sync, bad_fd_sets_res),
		CASE(sync, seeks_only_when_offset_changes),
		CASE(psync, never_seeks),
	};
#undef CASE

	return cmocka_run_group_tests(tests, NULL, NULL);
}
