/*
 * Unit tests for the engines beyond psync and sync (src/engine/): null
 * completes without touching anything; mmap reads and writes through its
 * mapping and syncs with msync; io_uring, libaio and posixaio keep many requests in
 * flight, return each exactly once with the right data, register files
 * and buffers when asked, and report a failed request in req->rc. Real
 * temporary files in /tmp (ext4 here: libaio needs O_DIRECT; where the
 * filesystem refuses it, or the kernel refuses io_uring, the case is
 * skipped with the reason printed).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/engine.h"
#include "plan/plan.h"
#include "util/built.h"

#define NFILES	  3
#define FILE_SIZE (256 * 1024)
#define BS	  4096
#define DEPTH	  16
#define NBLOCKS	  (FILE_SIZE / BS)

struct fixture {
	char path[NFILES][64];
	int fds[NFILES];
	const struct engine_ops *ops;
	struct engine e;
	bool set_up;
	void *bufs[DEPTH];
	struct io_req reqs[DEPTH];
};

/* The byte at offset off of file f. */
static unsigned char pattern(int f, uint64_t off)
{
	return (unsigned char)(off * 7 + off / 251 + (uint64_t)f * 31);
}

static int make_files(struct fixture *f, int flags)
{
	unsigned char *data = malloc(FILE_SIZE);

	if (!data)
		return -1;
	for (int i = 0; i < NFILES; i++) {
		snprintf(f->path[i], sizeof(f->path[i]), "/tmp/dbio-test-engines.XXXXXX");
		int fd = mkstemp(f->path[i]);

		if (fd < 0)
			return -1;
		for (uint64_t o = 0; o < FILE_SIZE; o++)
			data[o] = pattern(i, o);
		if (pwrite(fd, data, FILE_SIZE, 0) != FILE_SIZE || fsync(fd))
			return -1;
		close(fd);
		f->fds[i] = open(f->path[i], O_RDWR | flags);
		if (f->fds[i] < 0) {
			free(data);
			return errno == EINVAL ? 1 : -1;
		}
	}
	free(data);
	for (int b = 0; b < DEPTH; b++)
		if (posix_memalign(&f->bufs[b], 4096, BS))
			return -1;
	return 0;
}

/* Sets up engine name over fresh files; skip (with the reason) when the
 * kernel or the filesystem cannot. */
static struct fixture *start(const char *name, const struct engine_conf *conf, int flags)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int rc;

	assert_non_null(f);
	for (int i = 0; i < NFILES; i++)
		f->fds[i] = -1;
	rc = make_files(f, flags);
	assert_true(rc >= 0);
	if (rc == 1) {
		print_message("skip: /tmp does not support O_DIRECT\n");
		return f;
	}
	f->ops = engine_find(name);
	assert_non_null(f->ops);
	f->e.ops = f->ops;
	rc = f->ops->setup(&f->e, conf);
	if (rc == -EPERM || rc == -ENOSYS) {
		print_message("skip: engine %s: the kernel refuses it (%s)\n", name, strerror(-rc));
		f->ops->teardown(&f->e);
		f->ops = NULL;
		return f;
	}
	assert_int_equal(rc, 0);
	f->set_up = true;
	if (f->ops->attach) {
		struct engine_files files = { .fds = f->fds,
					      .nfiles = NFILES,
					      .file_bytes = FILE_SIZE,
					      .bufs = f->bufs,
					      .nbufs = DEPTH,
					      .buf_bytes = BS };

		assert_int_equal(f->ops->attach(&f->e, &files), 0);
	}
	return f;
}

static void finish(struct fixture *f)
{
	if (f->ops)
		f->ops->teardown(&f->e);
	for (int i = 0; i < NFILES; i++) {
		if (f->fds[i] >= 0)
			close(f->fds[i]);
		if (f->path[i][0])
			unlink(f->path[i]);
	}
	for (int b = 0; b < DEPTH; b++)
		free(f->bufs[b]);
	free(f);
}

static void sync_io(struct fixture *f, enum op_type op, int file, uint64_t off, void *buf)
{
	struct io_req req = { .fd = f->fds[file],
			      .file = (unsigned)file,
			      .op = op,
			      .buf = buf,
			      .len = BS,
			      .off = off,
			      .res = -1 };

	assert_int_equal(f->ops->io(&f->e, &req), 0);
	assert_int_equal(req.res, BS);
}

static void check_block(int file, uint64_t off, const unsigned char *buf)
{
	for (int i = 0; i < BS; i++)
		if (buf[i] != pattern(file, off + (uint64_t)i))
			fail_msg("file %d offset %llu: %u, expected %u", file,
				 (unsigned long long)off + (unsigned)i, buf[i],
				 pattern(file, off + (uint64_t)i));
}

static void test_engines_null_completes_without_io(void **state)
{
	struct fixture *f = start("null", &(struct engine_conf){ .iodepth = 1 }, 0);
	unsigned char *buf = f->bufs[0];

	(void)state;
	memset(buf, 0xab, BS);
	sync_io(f, OP_READ, 0, 0, buf);
	sync_io(f, OP_WRITE, 1, 8192, buf);
	for (int i = 0; i < BS; i++)
		assert_int_equal(buf[i], 0xab); /* nothing read */
	assert_int_equal(pread(f->fds[1], buf, BS, 8192), BS);
	check_block(1, 8192, buf); /* nothing written */
	assert_int_equal(f->ops->sync(&f->e, f->fds[0], OP_FSYNC), 0);
	assert_int_equal(f->ops->sync(&f->e, -1, OP_FDATASYNC), 0);
	finish(f);
}

/* null's queued twin (iodepth > 1, as fio's null queues): a full queue
 * refused, every request back from reap once, in order, with its length
 * done, on no file. */
static void test_engines_null_queues(void **state)
{
	const struct engine_ops *ops = engine_find("null")->queued;
	struct engine e = { .ops = ops };
	struct io_req reqs[4] = { { 0 } }, extra = { 0 }, *done[4];

	(void)state;
	assert_non_null(ops);
	assert_true(ops->caps & ENGINE_CAP_QUEUE);
	assert_true(ops->caps & ENGINE_CAP_DISKLESS);
	assert_string_equal(ops->name, "null");
	assert_int_equal(ops->setup(&e, &(struct engine_conf){ .iodepth = 4 }), 0);
	for (unsigned i = 0; i < 4; i++) {
		reqs[i] = (struct io_req){ .fd = -1, .op = OP_READ, .len = 4096 * (i + 1), .slot = i };
		assert_int_equal(ops->queue(&e, &reqs[i]), 0);
	}
	assert_int_equal(ops->queue(&e, &extra), -EBUSY);
	assert_int_equal(ops->submit(&e), 4);
	assert_int_equal(ops->reap(&e, done, 3, 1), 3);
	assert_ptr_equal(done[0], &reqs[0]);
	assert_ptr_equal(done[2], &reqs[2]);
	assert_int_equal(reqs[2].res, 3 * 4096);
	assert_int_equal(ops->reap(&e, done, 4, 1), 1);
	assert_ptr_equal(done[0], &reqs[3]);
	assert_int_equal(reqs[3].rc, 0);
	assert_int_equal(ops->reap(&e, done, 4, 0), 0);
	ops->teardown(&e);
}

static void test_engines_mmap_reads_and_writes_the_files(void **state)
{
	struct fixture *f = start("mmap", &(struct engine_conf){ .iodepth = 1, .writable = true }, 0);
	unsigned char *buf = f->bufs[0], *back = f->bufs[1];

	(void)state;
	for (int file = 0; file < NFILES; file++)
		for (uint64_t off = 0; off < FILE_SIZE; off += 5 * BS) {
			sync_io(f, OP_READ, file, off, buf);
			check_block(file, off, buf);
		}
	for (int i = 0; i < BS; i++)
		buf[i] = (unsigned char)(i ^ 0x5a);
	sync_io(f, OP_WRITE, 2, 3 * BS, buf);
	assert_int_equal(f->ops->sync(&f->e, f->fds[2], OP_FSYNC), 0);
	assert_int_equal(f->ops->sync(&f->e, f->fds[2], OP_FDATASYNC), 0);
	assert_int_equal(pread(f->fds[2], back, BS, 3 * BS), BS);
	assert_memory_equal(back, buf, BS);
	/* A descriptor that is not one of the files. */
	assert_int_equal(f->ops->sync(&f->e, 12345, OP_FSYNC), -EBADF);
	/* Past the end: no SIGBUS, -ENODATA with the bytes there were. */
	struct io_req req = {
		.fd = f->fds[0], .file = 0, .op = OP_READ, .buf = buf, .len = BS, .off = FILE_SIZE - 1000
	};

	assert_int_equal(f->ops->io(&f->e, &req), -ENODATA);
	assert_int_equal(req.res, 1000);
	req.off = FILE_SIZE;
	assert_int_equal(f->ops->io(&f->e, &req), -ENODATA);
	assert_int_equal(req.res, 0);
	finish(f);
}

static void test_engines_mmap_refuses_direct(void **state)
{
	const struct engine_ops *ops = engine_find("mmap");

	(void)state;
	assert_non_null(ops->check);
	assert_null(ops->check(&(struct engine_conf){ .iodepth = 1 }));
	assert_non_null(ops->check(&(struct engine_conf){ .iodepth = 1, .direct = true }));
}

/* Read every block of every file through a queued engine, DEPTH at a
 * time, checking each request comes back once with its data. */
static void queued_reads(struct fixture *f)
{
	struct io_req *done[DEPTH];
	unsigned free_slots[DEPTH], nfree = DEPTH, inflight = 0, seen = 0;
	uint64_t next = 0, total = NFILES * NBLOCKS;
	unsigned char returned[NFILES * NBLOCKS] = { 0 };

	for (unsigned i = 0; i < DEPTH; i++)
		free_slots[i] = i;
	while (seen < total) {
		unsigned k = 0;

		while (nfree && next < total) {
			unsigned s = free_slots[--nfree];
			struct io_req *r = &f->reqs[s];
			/* Scatter the order over files and blocks. */
			uint64_t b = (next * 37) % total;

			*r = (struct io_req){ .fd = f->fds[b / NBLOCKS],
					      .file = (unsigned)(b / NBLOCKS),
					      .op = OP_READ,
					      .buf = f->bufs[s],
					      .len = BS,
					      .off = (b % NBLOCKS) * BS,
					      .slot = s,
					      .res = -7,
					      .rc = -7 };
			memset(f->bufs[s], 0, BS);
			assert_int_equal(f->ops->queue(&f->e, r), 0);
			next++;
			k++;
		}
		if (k) {
			assert_int_equal(f->ops->submit(&f->e), (int)k);
			inflight += k;
		}
		int n = f->ops->reap(&f->e, done, inflight, 1);

		assert_true(n >= 1 && (unsigned)n <= inflight);
		for (int i = 0; i < n; i++) {
			struct io_req *r = done[i];
			uint64_t b = r->file * (uint64_t)NBLOCKS + r->off / BS;

			assert_int_equal(r->rc, 0);
			assert_int_equal(r->res, BS);
			assert_ptr_equal(r->buf, f->bufs[r->slot]);
			check_block((int)r->file, r->off, r->buf);
			assert_int_equal(returned[b], 0);
			returned[b] = 1;
			free_slots[nfree++] = r->slot;
		}
		inflight -= (unsigned)n;
		seen += (unsigned)n;
	}
	assert_int_equal(inflight, 0);
	assert_int_equal(nfree, DEPTH);
}

/* Write then read back a block through the queue; a read past the end of
 * the file fails with -ENODATA in rc. */
static void queued_write_and_eof(struct fixture *f)
{
	struct io_req *done[DEPTH];
	unsigned char *w = f->bufs[0], *r = f->bufs[1];

	for (int i = 0; i < BS; i++)
		w[i] = (unsigned char)(i * 13 + 1);
	f->reqs[0] = (struct io_req){
		.fd = f->fds[1], .file = 1, .op = OP_WRITE, .buf = w, .len = BS, .off = 7 * BS, .slot = 0
	};
	assert_int_equal(f->ops->queue(&f->e, &f->reqs[0]), 0);
	assert_int_equal(f->ops->submit(&f->e), 1);
	assert_int_equal(f->ops->reap(&f->e, done, 1, 1), 1);
	assert_ptr_equal(done[0], &f->reqs[0]);
	assert_int_equal(done[0]->rc, 0);
	assert_int_equal(f->ops->sync(&f->e, f->fds[1], OP_FDATASYNC), 0);
	f->reqs[1] = (struct io_req){
		.fd = f->fds[1], .file = 1, .op = OP_READ, .buf = r, .len = BS, .off = 7 * BS, .slot = 1
	};
	f->reqs[2] = (struct io_req){ .fd = f->fds[1],
				      .file = 1,
				      .op = OP_READ,
				      .buf = f->bufs[2],
				      .len = BS,
				      .off = FILE_SIZE,
				      .slot = 2 };
	assert_int_equal(f->ops->queue(&f->e, &f->reqs[1]), 0);
	assert_int_equal(f->ops->queue(&f->e, &f->reqs[2]), 0);
	assert_int_equal(f->ops->submit(&f->e), 2);
	int got = 0;

	while (got < 2) {
		int n = f->ops->reap(&f->e, done + got, (unsigned)(2 - got), 1);

		assert_true(n >= 1);
		got += n;
	}
	for (int i = 0; i < 2; i++) {
		if (done[i] == &f->reqs[1]) {
			assert_int_equal(done[i]->rc, 0);
			assert_memory_equal(r, w, BS);
		} else {
			assert_ptr_equal(done[i], &f->reqs[2]);
			assert_int_equal(done[i]->rc, -ENODATA);
		}
	}
}

/* A job's keys of engine name, at their defaults but for keys[] set to
 * 1: what engine_conf.own points to. */
static const void *own_keys(struct job *job, const char *name, const char *const *keys)
{
	struct dbio_err err = { 0 };

	assert_int_equal(plan_job_init(job, "j"), 0);
	for (size_t i = 0; keys && keys[i]; i++)
		assert_int_equal(job_set(job, keys[i], "1", NULL, &err), 0);
	for (size_t t = 0; t < job->nkeys; t++)
		if (job->keys[t].owner && !strcmp(job->keys[t].owner, name))
			return job->keys[t].conf;
	fail_msg("engine %s has no keys of its own", name);
	return NULL;
}

static void test_engines_io_uring_queue(void **state)
{
	static const char *const variants[][3] = {
		{ NULL },
		{ "registerfiles", NULL },
		{ "fixedbufs", NULL },
		{ "registerfiles", "fixedbufs", NULL },
	};

	(void)state;
	if (!engine_find("io_uring")) {
		print_message("skip: this build has no io_uring engine\n");
		skip();
	}
	for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		struct job job;
		const struct engine_conf conf = { .iodepth = DEPTH,
						  .own = own_keys(&job, "io_uring", variants[i]) };
		struct fixture *f = start("io_uring", &conf, 0);

		if (!f->set_up) {
			finish(f);
			job_release(&job);
			skip();
		}
		queued_reads(f);
		queued_write_and_eof(f);
		finish(f);
		job_release(&job);
	}
}

static void test_engines_io_uring_checks(void **state)
{
	const struct engine_ops *ops = engine_find("io_uring");
	struct job plain, hipri;

	(void)state;
	if (!ops)
		return;
	const void *own_plain = own_keys(&plain, "io_uring", NULL);
	const void *own_hipri = own_keys(&hipri, "io_uring", (const char *const[]){ "hipri", NULL });

	assert_true(ops->caps & ENGINE_CAP_QUEUE);
	assert_null(ops->check(&(struct engine_conf){ .iodepth = 32, .own = own_plain }));
	assert_non_null(ops->check(&(struct engine_conf){ .iodepth = 1, .own = own_hipri }));
	assert_null(ops->check(&(struct engine_conf){ .iodepth = 1, .direct = true, .own = own_hipri }));
	job_release(&plain);
	job_release(&hipri);
}

static void test_engines_libaio_queue(void **state)
{
	(void)state;
	if (!engine_find("libaio")) {
		print_message("skip: this build has no libaio engine\n");
		skip();
	}
	struct fixture *f =
		start("libaio", &(struct engine_conf){ .iodepth = DEPTH, .direct = true }, O_DIRECT);

	if (!f->set_up) {
		finish(f);
		skip();
	}
	queued_reads(f);
	queued_write_and_eof(f);
	finish(f);
}

/* posixaio queues buffered I/O too (glibc's threads): the same contract. */
static void test_engines_posixaio_queue(void **state)
{
	(void)state;
#ifdef __SANITIZE_THREAD__
	/* glibc's POSIX AIO runs the requests on threads of its own, made
	 * inside libc where ThreadSanitizer cannot follow them: the test
	 * crashes under TSan, not the engine (it passes under ASan). */
	skip();
#endif
	struct fixture *f = start("posixaio", &(struct engine_conf){ .iodepth = DEPTH }, 0);

	assert_true(f->set_up);
	assert_null(f->ops->warn);
	queued_reads(f);
	queued_write_and_eof(f);
	finish(f);
}

static void test_engines_libaio_warns_buffered(void **state)
{
	const struct engine_ops *ops = engine_find("libaio");

	(void)state;
	if (!ops)
		return;
	assert_true(ops->caps & ENGINE_CAP_QUEUE);
	assert_null(ops->check); /* runs buffered, as fio does */
	assert_string_equal(
		ops->warn(&(struct engine_conf){ .iodepth = 4 }),
		"libaio without direct=1: the kernel does buffered I/O inside io_submit, one request after the other, so iodepth puts no more I/O in flight (fio runs it so too); use direct=1, or ioengine=io_uring for queued buffered I/O");
	assert_null(ops->warn(&(struct engine_conf){ .iodepth = 4, .direct = true }));
}

static void test_engines_registry_and_packages(void **state)
{
	const char *bad = NULL;
	char list[512];

	(void)state;
	assert_int_equal(engine_registry_check(&bad), 0);
	engine_list(list, sizeof(list));
	/* The engines of this build (make WITHOUT= can leave the queued ones
	 * out); tests/cli/build.bats checks a build without any. */
	assert_string_equal(list, "psync, sync, pvsync2, "
#ifdef DBIO_HAVE_LIBURING
				  "io_uring, "
#endif
#ifdef DBIO_HAVE_LIBAIO
				  "libaio, "
#endif
				  "posixaio, mmap, null, falloc, ftruncate");
#ifdef DBIO_HAVE_LIBURING
	assert_null(built_missing_package("ioengine", "io_uring"));
#else
	assert_string_equal(built_missing_package("ioengine", "io_uring"), "liburing-dev");
#endif
#ifdef DBIO_HAVE_LIBAIO
	assert_null(built_missing_package("ioengine", "libaio"));
#else
	assert_string_equal(built_missing_package("ioengine", "libaio"), "libaio-dev");
#endif
	assert_null(built_missing_package("ioengine", "nope"));
	assert_null(built_missing_package("ioengine", "psync"));
	/* What --version says was left out: each part this build's flags
	 * leave out, in built.c's order, or nothing. */
	char want[512] = "";
	size_t nwant = 0;
	static const struct {
		bool left_out;
		const char *text;
	} parts[] = {
#ifdef DBIO_HAVE_LIBURING
		{ false, NULL },
#else
		{ true, "ioengine=io_uring (liburing-dev)" },
#endif
#ifdef DBIO_HAVE_LIBAIO
		{ false, NULL },
#else
		{ true, "ioengine=libaio (libaio-dev)" },
#endif
#ifdef DBIO_HAVE_GDBM
		{ false, NULL },
#else
		{ true, "kv_engine=gdbm (libgdbm-dev)" },
#endif
#ifdef DBIO_HAVE_LMDB
		{ false, NULL },
#else
		{ true, "kv_engine=lmdb (liblmdb-dev)" },
#endif
#ifdef DBIO_HAVE_ROCKSDB
		{ false, NULL },
#else
		{ true, "kv_engine=rocksdb (librocksdb-dev)" },
#endif
#ifdef DBIO_HAVE_LEVELDB
		{ false, NULL },
#else
		{ true, "kv_engine=leveldb (libleveldb-dev)" },
#endif
#ifdef DBIO_HAVE_SQLITE3
		{ false, NULL }, { false, NULL },
#else
		{ true, "kv_engine=sqlite (libsqlite3-dev)" },	{ true, "workload=import (libsqlite3-dev)" },
#endif
#ifdef DBIO_HAVE_LIBPQ
		{ false, NULL },
#else
		{ true, "workload=postgres (libpq-dev)" },
#endif
	};
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!parts[i].left_out)
			continue;
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s", nwant ? ", " : "",
			 parts[i].text);
		nwant++;
	}
	assert_int_equal(built_missing_list(list, sizeof(list)), nwant);
	assert_string_equal(list, want);
	for (size_t i = 0; i < engine_count; i++) {
		const struct engine_ops *ops = engine_registry[i];
		bool queued = ops->caps & ENGINE_CAP_QUEUE;

		assert_true(queued == (!strcmp(ops->name, "io_uring") || !strcmp(ops->name, "libaio") ||
				       !strcmp(ops->name, "posixaio")));
		assert_true(queued ? ops->io == NULL : ops->queue == NULL);
	}
}

static void test_engines_clock_cost(void **state)
{
	double ns = engine_clock_cost_ns(100000);

	(void)state;
	assert_true(ns > 0.0 && ns < 10000.0);
	assert_true(engine_clock_cost_ns(0) == 0.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engines_null_completes_without_io),
		cmocka_unit_test(test_engines_null_queues),
		cmocka_unit_test(test_engines_mmap_reads_and_writes_the_files),
		cmocka_unit_test(test_engines_mmap_refuses_direct),
		cmocka_unit_test(test_engines_io_uring_queue),
		cmocka_unit_test(test_engines_io_uring_checks),
		cmocka_unit_test(test_engines_libaio_queue),
		cmocka_unit_test(test_engines_posixaio_queue),
		cmocka_unit_test(test_engines_libaio_warns_buffered),
		cmocka_unit_test(test_engines_registry_and_packages),
		cmocka_unit_test(test_engines_clock_cost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
