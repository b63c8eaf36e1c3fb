/*
 * Unit tests for the fileio workload driving the synchronous engines psync
 * (pread/pwrite) and sync (lseek + read/write), run end to end by
 * run_group in a new directory under /tmp with dbio_sys swapped for a
 * table that injects faults into the worker's calls (run_fixture.h).
 * Every case runs once per engine. What a user checks: a failed read,
 * write or sync fails the run with its -errno and a message naming the
 * file, the operation, its size and offset, the operations done before it
 * are counted exactly, and no file is left; short transfers and EINTR are
 * continued, so the counts and bytes are exact and a written file holds
 * the same bytes as one written without them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run_fixture.h"

#define KIB 1024ull
/* What a failed sync says after its error: it is not retried. */
#define LOST "what the job wrote to it since its last successful sync may be lost (not retried)"

/* The calls the engine of the test (r->param) reads and writes with. */
static enum fx_call read_call(const struct fx_run *r)
{
	return strcmp(r->param, "sync") ? FX_PREAD : FX_READ;
}

static enum fx_call write_call(const struct fx_run *r)
{
	return strcmp(r->param, "sync") ? FX_PWRITE : FX_WRITE;
}

/* The job file of the test: the engine, then text. */
static void jobs(struct fx_run *r, const char *text)
{
	char full[512];

	snprintf(full, sizeof(full), "[j]\nioengine=%s\n%s", r->param, text);
	fx_jobs(r, full);
}

/* The run failed with code and the message "<dir>/<file>: <what>". */
static void failed_with(const struct fx_run *r, int code, const char *file, const char *what)
{
	char path[128], want[512], list[256];

	assert_int_equal(r->rc, code);
	assert_int_equal(r->err.code, code);
	snprintf(want, sizeof(want), "%s: %s", fx_path(r, file, path, sizeof(path)), what);
	assert_string_equal(r->err.msg, want);
	assert_true(r->stats[0].partial);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* Reads cut to 1000 bytes a call: each 4 KiB read takes 5 calls, and
 * still counts once with its 4 KiB. */
static void test_fileio_short_reads_are_continued(void **state)
{
	struct fx_run *r = *state;

	fx.short_max = 1000;
	jobs(r, "rw=read\nbs=4k\nsize=64k\n");
	assert_int_equal(fx_run_jobs(r, false), 0);
	assert_int_equal(fx_ops(r, 0, OP_READ), 16);
	assert_int_equal(fx_bytes(r, 0, OP_READ), 64 * KIB);
	assert_int_equal(atomic_load(&fx.calls[read_call(r)]), 16 * 5);
	assert_int_equal(atomic_load(&fx.bytes[read_call(r)]), 64 * KIB);
}

/* The contents of dir/name into a new buffer of *len bytes. */
static unsigned char *slurp(const struct fx_run *r, const char *name, size_t *len)
{
	char path[128];
	FILE *f = fopen(fx_path(r, name, path, sizeof(path)), "rb");
	unsigned char *buf = malloc(1 << 20);

	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

/* Writes cut to 1000 bytes a call (and, for a second file, a random
 * order): the counts are exact and the file holds the same bytes as the
 * one written whole. */
static void test_fileio_short_writes_write_the_same_file(void **state)
{
	struct fx_run *r = *state;
	unsigned char *whole, *cut;
	size_t whole_len, cut_len;
	char path[128];

	jobs(r, "rw=write\nbs=4k\nsize=64k\n");
	assert_int_equal(fx_run_jobs(r, true), 0);
	whole = slurp(r, "dbio.j.0.0", &whole_len);
	assert_int_equal(whole_len, 64 * KIB);
	assert_int_equal(unlink(fx_path(r, "dbio.j.0.0", path, sizeof(path))), 0);
	run_stats_release(&r->stats[0]);

	fx_install();
	fx.short_max = 1000;
	assert_int_equal(fx_run_jobs(r, true), 0);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 16);
	assert_int_equal(fx_bytes(r, 0, OP_WRITE), 64 * KIB);
	assert_int_equal(atomic_load(&fx.calls[write_call(r)]), 16 * 5);
	assert_int_equal(atomic_load(&fx.bytes[write_call(r)]), 64 * KIB);
	cut = slurp(r, "dbio.j.0.0", &cut_len);
	assert_int_equal(cut_len, whole_len);
	assert_memory_equal(cut, whole, whole_len);
	free(whole);
	free(cut);
}

/* Every transfer first interrupted by a signal (EINTR) is retried: exact
 * counts, two calls per operation. */
static void test_fileio_eintr_is_retried(void **state)
{
	struct fx_run *r = *state;

	fx.intr = true;
	jobs(r, "rw=randrw\nrwmixread=50\nbs=4k\nsize=64k\n");
	assert_int_equal(fx_run_jobs(r, false), 0);
	assert_int_equal(fx_ops(r, 0, OP_READ) + fx_ops(r, 0, OP_WRITE), 16);
	assert_int_equal(fx_bytes(r, 0, OP_READ) + fx_bytes(r, 0, OP_WRITE), 64 * KIB);
	assert_int_equal(atomic_load(&fx.calls[read_call(r)]), 2 * fx_ops(r, 0, OP_READ));
	assert_int_equal(atomic_load(&fx.calls[write_call(r)]), 2 * fx_ops(r, 0, OP_WRITE));
	assert_true(fx_ops(r, 0, OP_READ) > 0 && fx_ops(r, 0, OP_WRITE) > 0);
}

/* The fourth read fails with EIO: the run fails with it, three reads are
 * counted, and nothing more is read. */
static void test_fileio_read_eio_fails_the_run(void **state)
{
	struct fx_run *r = *state;

	fx.fault[read_call(r)] = (struct fx_fault){ .err = EIO, .after = 3 };
	jobs(r, "rw=read\nbs=4k\nsize=64k\n");
	fx_run_jobs(r, false);
	failed_with(r, -EIO, "dbio.j.0.0", "read of 4096 bytes at offset 12288: Input/output error");
	assert_int_equal(fx_ops(r, 0, OP_READ), 3);
	assert_int_equal(fx_bytes(r, 0, OP_READ), 12 * KIB);
	assert_int_equal(atomic_load(&fx.calls[read_call(r)]), 4);
}

/* An error after part of a write was done: the same message, and the
 * write is not counted. */
static void test_fileio_write_eio_after_a_short_write(void **state)
{
	struct fx_run *r = *state;

	fx.short_max = 2048;
	fx.fault[write_call(r)] = (struct fx_fault){ .err = EIO, .after = 5 };
	jobs(r, "rw=write\nbs=4k\nsize=64k\n");
	fx_run_jobs(r, false);
	failed_with(r, -EIO, "dbio.j.0.0", "write of 4096 bytes at offset 8192: Input/output error");
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 2);
	assert_int_equal(fx_bytes(r, 0, OP_WRITE), 8 * KIB);
	assert_int_equal(atomic_load(&fx.bytes[write_call(r)]), 8 * KIB + 2048);
}

/* The disk fills at the sixth write: the run stops with ENOSPC, five
 * writes counted, no write tried after it. */
static void test_fileio_enospc_stops_the_run(void **state)
{
	struct fx_run *r = *state;

	fx.fault[write_call(r)] = (struct fx_fault){ .err = ENOSPC, .after = 5 };
	jobs(r, "rw=write\nbs=4k\nsize=64k\n");
	fx_run_jobs(r, false);
	failed_with(r, -ENOSPC, "dbio.j.0.0", "write of 4096 bytes at offset 20480: No space left on device");
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 5);
	assert_int_equal(fx_bytes(r, 0, OP_WRITE), 20 * KIB);
	assert_int_equal(atomic_load(&fx.calls[write_call(r)]), 6);
}

/* A read that finds the end of the file (0 bytes) where the layout made
 * it whole: ENODATA, named. */
static void test_fileio_end_of_file_is_an_error(void **state)
{
	struct fx_run *r = *state;

	fx.fault[read_call(r)] = (struct fx_fault){ .err = FX_EOF, .after = 1 };
	jobs(r, "rw=read\nbs=4k\nsize=16k\n");
	fx_run_jobs(r, false);
	failed_with(r, -ENODATA, "dbio.j.0.0", "read of 4096 bytes at offset 4096: No data available");
	assert_int_equal(fx_ops(r, 0, OP_READ), 1);
}

/* fsync=4 with a failing fsync: the run fails naming the fsync, after
 * the four writes it was to cover; no fsync is counted. */
static void test_fileio_fsync_eio_fails_the_run(void **state)
{
	struct fx_run *r = *state;

	fx.fault[FX_FSYNC] = (struct fx_fault){ .err = EIO };
	jobs(r, "rw=write\nbs=4k\nsize=64k\nfsync=4\n");
	fx_run_jobs(r, false);
	failed_with(r, -EIO, "dbio.j.0.0", "fsync: Input/output error: " LOST);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 4);
	assert_int_equal(fx_ops(r, 0, OP_FSYNC), 0);
	assert_int_equal(atomic_load(&fx.calls[FX_FSYNC]), 1);
}

/* The same for the second fdatasync of fdatasync=2. */
static void test_fileio_fdatasync_eio_fails_the_run(void **state)
{
	struct fx_run *r = *state;

	fx.fault[FX_FDATASYNC] = (struct fx_fault){ .err = EIO, .after = 1 };
	jobs(r, "rw=write\nbs=4k\nsize=64k\nfdatasync=2\n");
	fx_run_jobs(r, false);
	failed_with(r, -EIO, "dbio.j.0.0", "fdatasync: Input/output error: " LOST);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 4);
	assert_int_equal(fx_ops(r, 0, OP_FDATASYNC), 1);
}

/* end_fsync's fsync of the second file fails: every write was done and
 * counted, the run still fails naming that file. */
static void test_fileio_end_fsync_eio_names_the_file(void **state)
{
	struct fx_run *r = *state;

	fx.fault[FX_FSYNC] = (struct fx_fault){ .err = EIO, .after = 1 };
	jobs(r, "rw=write\nbs=4k\nsize=32k\nnrfiles=2\nend_fsync=1\n");
	fx_run_jobs(r, false);
	failed_with(r, -EIO, "dbio.j.0.1", "fsync: Input/output error: " LOST);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 8);
	assert_int_equal(fx_bytes(r, 0, OP_WRITE), 32 * KIB);
	assert_int_equal(fx_ops(r, 0, OP_FSYNC), 1);
}

/* fsync=4 that works: 16 writes, 3 fsyncs (as fio, none after the last
 * write), all counted. */
static void test_fileio_fsync_counts(void **state)
{
	struct fx_run *r = *state;

	jobs(r, "rw=write\nbs=4k\nsize=64k\nfsync=4\n");
	assert_int_equal(fx_run_jobs(r, false), 0);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 16);
	assert_int_equal(fx_ops(r, 0, OP_FSYNC), 3);
	assert_int_equal(atomic_load(&fx.calls[FX_FSYNC]), 3);
}

/* continue_on_error=read: the 4th and 5th reads fail with EIO and the job
 * goes on: 14 of its 16 reads are counted as done, the two failures are
 * counted by errno with the first one named, and the run has not failed. */
static void test_fileio_continue_on_error_counts_and_goes_on(void **state)
{
	struct fx_run *r = *state;
	char path[128], want[256];

	fx.fault[read_call(r)] = (struct fx_fault){ .err = EIO, .after = 3, .times = 2 };
	jobs(r, "rw=read\nbs=4k\nsize=64k\ncontinue_on_error=read\n");
	assert_int_equal(fx_run_jobs(r, false), 0);
	assert_int_equal(fx_ops(r, 0, OP_READ), 14);
	assert_int_equal(fx_bytes(r, 0, OP_READ), 14 * 4 * KIB);
	assert_int_equal(atomic_load(&fx.calls[read_call(r)]), 16);
	assert_int_equal(r->stats[0].ioerr.total, 2);
	assert_int_equal(r->stats[0].ioerr.by_kind[IOERR_EIO], 2);
	assert_int_equal(r->stats[0].ioerr.by_kind[IOERR_EILSEQ], 0);
	snprintf(want, sizeof(want), "%s: read of 4096 bytes at offset 12288: Input/output error",
		 fx_path(r, "dbio.j.0.0", path, sizeof(path)));
	assert_string_equal(r->stats[0].ioerr.first, want);
	assert_false(r->stats[0].partial);
}

/* continue_on_error=io goes on after no ENOSPC (not one of fio's non-fatal
 * errors), and =read after no write error: the run fails as without it. */
static void test_fileio_continue_on_error_stops_at_other_errors(void **state)
{
	struct fx_run *r = *state;

	fx.fault[write_call(r)] = (struct fx_fault){ .err = ENOSPC, .after = 2 };
	jobs(r, "rw=write\nbs=4k\nsize=64k\ncontinue_on_error=io\n");
	fx_run_jobs(r, false);
	failed_with(r, -ENOSPC, "dbio.j.0.0", "write of 4096 bytes at offset 8192: No space left on device");
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 2);
	assert_int_equal(r->stats[0].ioerr.total, 0);
}

static void test_fileio_continue_on_read_errors_stops_at_a_write_error(void **state)
{
	struct fx_run *r = *state;

	fx.fault[write_call(r)] = (struct fx_fault){ .err = EIO, .after = 1 };
	jobs(r, "rw=write\nbs=4k\nsize=64k\ncontinue_on_error=read\n");
	fx_run_jobs(r, false);
	failed_with(r, -EIO, "dbio.j.0.0", "write of 4096 bytes at offset 4096: Input/output error");
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 1);
	assert_int_equal(r->stats[0].ioerr.total, 0);
}

/* Each case twice, named for its engine: test_fileio_<case>_psync, _sync. */
#define T(name, engine)                                                                                      \
	{                                                                                                    \
		"test_fileio_" #name "_" engine, test_fileio_##name, fx_setup, fx_teardown, (void *)engine   \
	}
#define BOTH(name) T(name, "psync"), T(name, "sync")

int main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(short_reads_are_continued),
		BOTH(short_writes_write_the_same_file),
		BOTH(eintr_is_retried),
		BOTH(read_eio_fails_the_run),
		BOTH(write_eio_after_a_short_write),
		BOTH(enospc_stops_the_run),
		BOTH(end_of_file_is_an_error),
		BOTH(fsync_eio_fails_the_run),
		BOTH(fdatasync_eio_fails_the_run),
		BOTH(end_fsync_eio_names_the_file),
		BOTH(fsync_counts),
		BOTH(continue_on_error_counts_and_goes_on),
		BOTH(continue_on_error_stops_at_other_errors),
		BOTH(continue_on_read_errors_stops_at_a_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
