/*
 * Unit tests for the runner (src/run/: targets.c, layout.c, runner.c,
 * collect.c) through its public entry points run_check_targets and
 * run_group, as `dbio run` calls them, on fileio jobs in a new directory
 * under /tmp (run_fixture.h). What a user checks: the exact operations and
 * bytes of every job and thread, the files left behind (none, or with
 * --keep exactly the job's, of their size), and for a failure of the
 * layout (ENOSPC, a refused create) the error text naming the file and an
 * empty directory afterwards; a file that cannot be removed is a warning
 * naming it; a directory holding foreign or left-over files is refused
 * before anything is written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run_fixture.h"
#include "util/mark.h"
#include "workload/fileio/files.h"

#define KIB 1024ull

/* Two threads, two files each: 16 writes of 4 KiB in all, the files
 * preallocated with fallocate and removed afterwards. */
static void test_runner_write_job_counts_every_thread(void **state)
{
	struct fx_run *r = *state;
	char list[256];

	fx_jobs(r, "[j]\nrw=write\nbs=4k\nsize=32k\nnrfiles=2\nnumjobs=2\n");
	assert_int_equal(fx_run_jobs(r, false), 0);
	assert_int_equal(r->err.code, 0);
	assert_int_equal(r->stats[0].threads, 2);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 16);
	assert_int_equal(fx_bytes(r, 0, OP_WRITE), 64 * KIB);
	assert_int_equal(fx_ops(r, 0, OP_READ), 0);
	assert_int_equal(fx_ops(r, 0, OP_FSYNC), 0);
	assert_false(r->stats[0].partial);
	assert_true(r->stats[0].elapsed_ns > 0);
	/* The threads' pwrites were all the I/O, every byte of it. */
	assert_int_equal(atomic_load(&fx.calls[FX_PWRITE]), 16);
	assert_int_equal(atomic_load(&fx.bytes[FX_PWRITE]), 64 * KIB);
	assert_int_equal(atomic_load(&fx.calls[FX_FALLOCATE]), 4);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
	assert_string_equal(r->warnings, "");
}

/* A read job: the layout fills the file once (one pwrite and an fsync),
 * then two passes of random reads read each block twice. */
static void test_runner_read_job_prefills_then_reads(void **state)
{
	struct fx_run *r = *state;
	char list[256];

	fx.fault[FX_PWRITE].layout = true; /* count the layout's writes */
	fx.fault[FX_FSYNC].layout = true;
	fx_jobs(r, "[j]\nrw=randread\nbs=8k\nsize=64k\nloops=2\n");
	assert_int_equal(fx_run_jobs(r, false), 0);
	assert_int_equal(fx_ops(r, 0, OP_READ), 16);
	assert_int_equal(fx_bytes(r, 0, OP_READ), 128 * KIB);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 0);
	assert_int_equal(fx_bytes(r, 0, OP_WRITE), 0);
	assert_int_equal(atomic_load(&fx.bytes[FX_PWRITE]), 64 * KIB);
	assert_int_equal(atomic_load(&fx.calls[FX_FSYNC]), 1);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* Two jobs run as one group: each has its own counts. */
static void test_runner_group_keeps_jobs_apart(void **state)
{
	struct fx_run *r = *state;
	char list[256];

	fx_jobs(r, "[w]\nrw=write\nbs=4k\nsize=16k\n[r]\nrw=read\nbs=16k\nsize=64k\nnumjobs=3\n");
	assert_int_equal(r->set.njobs, 2);
	assert_int_equal(fx_run_jobs(r, false), 0);
	assert_int_equal(r->stats[0].threads, 1);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 4);
	assert_int_equal(fx_bytes(r, 0, OP_WRITE), 16 * KIB);
	assert_int_equal(fx_ops(r, 0, OP_READ), 0);
	assert_int_equal(r->stats[1].threads, 3);
	assert_int_equal(fx_ops(r, 1, OP_READ), 12);
	assert_int_equal(fx_bytes(r, 1, OP_READ), 192 * KIB);
	assert_int_equal(fx_ops(r, 1, OP_WRITE), 0);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* share_files: three threads split one file's 10 blocks, every block
 * once (3 + 3 + 4). */
static void test_runner_shared_file_is_split_exactly(void **state)
{
	struct fx_run *r = *state;

	fx_jobs(r, "[j]\nrw=write\nbs=4k\nsize=40k\nnumjobs=3\nshare_files=1\n");
	assert_int_equal(fx_run_jobs(r, false), 0);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 10);
	assert_int_equal(fx_bytes(r, 0, OP_WRITE), 40 * KIB);
	assert_int_equal(atomic_load(&fx.bytes[FX_PWRITE]), 40 * KIB);
}

/* --keep leaves exactly the job's files, at their size. */
static void test_runner_keep_leaves_the_files(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128];
	struct stat st;

	fx_jobs(r, "[j]\nrw=write\nbs=4k\nsize=32k\nnrfiles=2\n");
	assert_int_equal(fx_run_jobs(r, true), 0);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 8);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "dbio.j.0.0 dbio.j.0.1");
	assert_int_equal(stat(fx_path(r, "dbio.j.0.0", path, sizeof(path)), &st), 0);
	assert_int_equal(st.st_size, 16 * KIB);
	assert_int_equal(stat(fx_path(r, "dbio.j.0.1", path, sizeof(path)), &st), 0);
	assert_int_equal(st.st_size, 16 * KIB);
}

/* The disk fills while the second file is preallocated: the run fails
 * with ENOSPC naming that file, no thread runs, and the first file is
 * removed too. */
static void test_runner_layout_enospc_leaves_no_file(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128], want[256];

	fx.fault[FX_FALLOCATE] = (struct fx_fault){ .err = ENOSPC, .after = 1 };
	fx_jobs(r, "[j]\nrw=write\nbs=4k\nsize=32k\nnrfiles=2\n");
	assert_int_equal(fx_run_jobs(r, false), -ENOSPC);
	snprintf(want, sizeof(want), "%s: cannot preallocate 16 KiB: No space left on device",
		 fx_path(r, "dbio.j.0.1", path, sizeof(path)));
	assert_string_equal(r->err.msg, want);
	assert_int_equal(r->err.code, -ENOSPC);
	assert_true(r->stats[0].partial);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 0);
	assert_int_equal(atomic_load(&fx.calls[FX_PWRITE]), 0);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
	assert_string_equal(r->warnings, "");
}

/* fallocate=posix: posix_fallocate, which returns its error, says ENOSPC
 * for the first file: the same message and the same clean directory; the
 * file is neither filled nor run on. */
static void test_runner_posix_fallocate_enospc_leaves_no_file(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128], want[256];

	fx.fault[FX_POSIX_FALLOCATE] = (struct fx_fault){ .err = ENOSPC };
	fx_jobs(r, "[j]\nrw=read\nbs=4k\nsize=32k\nfallocate=posix\n");
	assert_int_equal(fx_run_jobs(r, false), -ENOSPC);
	snprintf(want, sizeof(want), "%s: cannot preallocate 32 KiB: No space left on device",
		 fx_path(r, "dbio.j.0.0", path, sizeof(path)));
	assert_string_equal(r->err.msg, want);
	assert_int_equal(r->err.code, -ENOSPC);
	assert_true(r->stats[0].partial);
	assert_int_equal(r->stats[0].threads, 1);
	assert_int_equal(r->stats[0].elapsed_ns, 0);
	assert_int_equal(fx_ops(r, 0, OP_READ), 0);
	assert_int_equal(atomic_load(&fx.calls[FX_POSIX_FALLOCATE]), 1);
	assert_int_equal(atomic_load(&fx.calls[FX_PWRITE]), 0);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
	assert_string_equal(r->warnings, "");
}

/* The disk fills while a read job's file is written: the same, with the
 * layout's own words. */
static void test_runner_prefill_enospc_leaves_no_file(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128], want[256];

	fx.fault[FX_PWRITE] = (struct fx_fault){ .err = ENOSPC, .layout = true };
	fx_jobs(r, "[j]\nrw=read\nbs=4k\nsize=32k\n");
	assert_int_equal(fx_run_jobs(r, false), -ENOSPC);
	snprintf(want, sizeof(want), "%s: cannot lay out file: No space left on device",
		 fx_path(r, "dbio.j.0.0", path, sizeof(path)));
	assert_string_equal(r->err.msg, want);
	assert_int_equal(fx_ops(r, 0, OP_READ), 0);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* A create the kernel refuses names the file; the file made before it
 * is removed. */
static void test_runner_create_failure_names_the_file(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128], want[256];

	fx.fault[FX_OPENAT] = (struct fx_fault){ .err = EACCES, .name = "dbio.j.1.0" };
	fx_jobs(r, "[j]\nrw=write\nbs=4k\nsize=8k\nnumjobs=2\n");
	assert_int_equal(fx_run_jobs(r, false), -EACCES);
	snprintf(want, sizeof(want), "%s: cannot create: Permission denied",
		 fx_path(r, "dbio.j.1.0", path, sizeof(path)));
	assert_string_equal(r->err.msg, want);
	assert_int_equal(atomic_load(&fx.fails[FX_OPENAT]), 1);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* A worker's open the kernel refuses names the file; the job fails before
 * any I/O and every file is removed. */
static void test_runner_open_failure_names_the_file(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128], want[256];

	fx.fault[FX_OPENAT] = (struct fx_fault){ .err = EMFILE, .name = "dbio.j.0.1", .no_create = true };
	fx_jobs(r, "[j]\nrw=write\nbs=4k\nsize=16k\nnrfiles=2\ncache=keep\n");
	assert_int_equal(fx_run_jobs(r, false), -EMFILE);
	snprintf(want, sizeof(want), "%s: cannot open: Too many open files",
		 fx_path(r, "dbio.j.0.1", path, sizeof(path)));
	assert_string_equal(r->err.msg, want);
	assert_true(r->stats[0].partial);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 0);
	assert_int_equal(atomic_load(&fx.calls[FX_PWRITE]), 0);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* One thread of two cannot open its file: the gate opens for nobody, so
 * the other thread does no I/O either, and the error names that thread's
 * file. */
static void test_runner_one_thread_failing_stops_all(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128], want[256];

	fx.fault[FX_OPENAT] = (struct fx_fault){ .err = EIO, .name = "dbio.j.1.0", .no_create = true };
	fx_jobs(r, "[j]\nrw=write\nbs=4k\nsize=16k\nnumjobs=2\ncache=keep\n");
	assert_int_equal(fx_run_jobs(r, false), -EIO);
	snprintf(want, sizeof(want), "%s: cannot open: Input/output error",
		 fx_path(r, "dbio.j.1.0", path, sizeof(path)));
	assert_string_equal(r->err.msg, want);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 0);
	assert_int_equal(atomic_load(&fx.calls[FX_PWRITE]), 0);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* A file that cannot be removed at the end does not fail the run: it is a
 * warning naming it, and it stays. */
static void test_runner_unremovable_file_is_a_warning(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128], want[256];

	fx.fault[FX_UNLINKAT] = (struct fx_fault){ .err = EBUSY, .name = "dbio.j.0.0" };
	fx_jobs(r, "[j]\nrw=write\nbs=4k\nsize=16k\n");
	assert_int_equal(fx_run_jobs(r, false), 0);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 4);
	snprintf(want, sizeof(want), "%s: cannot remove: Device or resource busy: remove it by hand\n",
		 fx_path(r, "dbio.j.0.0", path, sizeof(path)));
	assert_string_equal(r->warnings, want);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "dbio.j.0.0");
}

/* A directory with a file that is not dbio's is refused before anything
 * is created, and the file is left alone. */
static void test_runner_refuses_foreign_files(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128], want[512];
	int fd = open(fx_path(r, "notes.txt", path, sizeof(path)), O_CREAT | O_WRONLY, 0644);

	assert_true(fd >= 0);
	close(fd);
	fx_jobs(r, "[j]\nrw=write\nbs=4k\nsize=16k\n");
	assert_int_equal(fx_run_jobs(r, false), DBIO_EUNSAFE);
	snprintf(
		want, sizeof(want),
		"%s: holds files that are not dbio's (such as 'notes.txt'): refusing to work there; choose an empty directory or pass --force",
		r->dir);
	assert_string_equal(r->err.msg, want);
	assert_int_equal(atomic_load(&fx.calls[FX_OPENAT]), 0);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "notes.txt");
}

/* A file of the same job left by an earlier run is refused by name. */
static void test_runner_refuses_a_leftover(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128], want[256];
	int fd = open(fx_path(r, "dbio.j.0.0", path, sizeof(path)), O_CREAT | O_WRONLY, 0644);

	assert_true(fd >= 0);
	close(fd);
	fx_jobs(r, "[j]\nrw=write\nbs=4k\nsize=16k\n");
	assert_int_equal(fx_run_jobs(r, false), DBIO_EUNSAFE);
	snprintf(want, sizeof(want), "%s: already exists: left by an earlier run? remove it and run again",
		 path);
	assert_string_equal(r->err.msg, want);
	assert_int_equal(atomic_load(&fx.calls[FX_OPENAT]), 0);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "dbio.j.0.0");
}

/* The default suite's O_DIRECT fallback: a directory whose filesystem
 * refuses O_DIRECT (EINVAL) makes the direct=1 job buffered and is
 * counted; the check's file is made with O_EXCL and nothing is left. */
static void test_runner_direct_fallback_on_einval(void **state)
{
	struct fx_run *r = *state;
	size_t fellback = 99;
	char list[256];

	fx_jobs(r, "[a]\nrw=read\nbs=4k\nsize=32k\ndirect=1\n[b]\nrw=read\nbs=4k\nsize=32k\n");
	fx.fault[FX_OPENAT] = (struct fx_fault){ .err = EINVAL, .name = "dbio.a.direct" };
	assert_int_equal(run_direct_fallback(&r->set, &fellback, &r->err), 0);
	assert_int_equal(fellback, 1);
	assert_false(fileio_files(&r->set.jobs[0])->layout.direct);
	assert_false(fileio_files(&r->set.jobs[1])->layout.direct);
	assert_int_equal(atomic_load(&fx.calls[FX_OPENAT]), 1); /* b is buffered: no check */
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* Any other failure of the check is an error naming the file; the job
 * keeps direct=1. */
static void test_runner_direct_check_failure_names_the_file(void **state)
{
	struct fx_run *r = *state;
	size_t fellback = 99;
	char want[256], list[256];

	fx_jobs(r, "[a]\nrw=read\nbs=4k\nsize=32k\ndirect=1\n");
	fx.fault[FX_OPENAT] = (struct fx_fault){ .err = EACCES, .name = "dbio.a.direct" };
	assert_int_equal(run_direct_fallback(&r->set, &fellback, &r->err), -EACCES);
	snprintf(want, sizeof(want), "%s/dbio.a.direct: cannot create: Permission denied", r->dir);
	assert_string_equal(r->err.msg, want);
	assert_true(fileio_files(&r->set.jobs[0])->layout.direct);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* The layout failed with code and "<dir>/<file>: cannot lay out file:
 * <reason>" before any I/O of the job; nothing is left. */
static void layout_failed(const struct fx_run *r, int code, const char *file, const char *reason)
{
	char list[256], path[128], want[256];

	assert_int_equal(r->rc, code);
	snprintf(want, sizeof(want), "%s: cannot lay out file: %s", fx_path(r, file, path, sizeof(path)),
		 reason);
	assert_string_equal(r->err.msg, want);
	assert_int_equal(fx_ops(r, 0, OP_READ), 0);
	assert_int_equal(atomic_load(&fx.calls[FX_PREAD]), 0);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* The disk fails a write of the prefill (EIO): the layout's words, no read
 * of the job, nothing left. */
static void test_runner_prefill_eio_names_the_file(void **state)
{
	struct fx_run *r = *state;

	fx.fault[FX_PWRITE] = (struct fx_fault){ .err = EIO, .after = 1, .layout = true };
	fx_jobs(r, "[j]\nrw=read\nbs=4k\nsize=32k\nnrfiles=2\n");
	fx_run_jobs(r, false);
	layout_failed(r, -EIO, "dbio.j.0.1", "Input/output error");
	assert_int_equal(atomic_load(&fx.calls[FX_PWRITE]), 2);
}

/* The prefill's fsync fails: the file may not hold what the job would
 * read, so the job does not run on it. */
static void test_runner_prefill_fsync_eio_stops_the_job(void **state)
{
	struct fx_run *r = *state;

	fx.fault[FX_FSYNC] = (struct fx_fault){ .err = EIO, .layout = true };
	fx_jobs(r, "[j]\nrw=read\nbs=4k\nsize=32k\n");
	fx_run_jobs(r, false);
	layout_failed(r, -EIO, "dbio.j.0.0", "Input/output error");
	assert_int_equal(atomic_load(&fx.fails[FX_FSYNC]), 1);
}

/* The prefill's writes cut to 1000 bytes and interrupted every other call:
 * continued, so the file is whole (every read of the job finds its 4 KiB)
 * and the job's counts are exact. */
static void test_runner_prefill_short_and_eintr_lay_out_the_whole_file(void **state)
{
	struct fx_run *r = *state;

	fx.layout_short_max = 1000;
	fx.layout_intr = true;
	fx_jobs(r, "[j]\nrw=read\nbs=4k\nsize=32k\n");
	assert_int_equal(fx_run_jobs(r, false), 0);
	assert_int_equal(fx_ops(r, 0, OP_READ), 8);
	assert_int_equal(fx_bytes(r, 0, OP_READ), 32 * KIB);
	/* 32 KiB in writes of at most 1000 bytes, each after an EINTR */
	assert_true(atomic_load(&fx.layout_calls) >= 2 * (32 * KIB / 1000));
	assert_false(r->stats[0].partial);
}

/* A file of the job that carries dbio's live mark is a leftover of a run
 * that did not finish: removed before the layout, with a warning naming
 * it; the run then does all its writes. Needs root (trusted.* xattr). */
static void test_runner_marked_leftover_is_removed(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128], want[256];
	int fd = open(fx_path(r, "dbio.j.0.0", path, sizeof(path)), O_CREAT | O_WRONLY, 0644), rc;

	assert_true(fd >= 0);
	rc = mark_set(fd, "run");
	close(fd);
	if (rc) {
		print_message("skipped: cannot set trusted.dbio.kept here: %s\n", strerror(-rc));
		skip();
	}
	fx_jobs(r, "[j]\nrw=write\nbs=4k\nsize=16k\n");
	assert_int_equal(fx_run_jobs(r, false), 0);
	snprintf(want, sizeof(want), "%s: removed: left by a run of dbio that did not finish\n", path);
	assert_string_equal(r->warnings, want);
	assert_int_equal(fx_ops(r, 0, OP_WRITE), 4);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* The mark of another maker (sysbench's kept files) is not a leftover's:
 * refused as any file of the job's name. */
static void test_runner_other_mark_is_refused(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128];
	int fd = open(fx_path(r, "dbio.j.0.0", path, sizeof(path)), O_CREAT | O_WRONLY, 0644), rc;

	assert_true(fd >= 0);
	rc = mark_set(fd, "sysbench");
	close(fd);
	if (rc) {
		print_message("skipped: cannot set trusted.dbio.kept here: %s\n", strerror(-rc));
		skip();
	}
	fx_jobs(r, "[j]\nrw=write\nbs=4k\nsize=16k\n");
	assert_int_equal(fx_run_jobs(r, false), DBIO_EUNSAFE);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "dbio.j.0.0");
}

#define T(name) cmocka_unit_test_setup_teardown(test_runner_##name, fx_setup, fx_teardown)

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		T(write_job_counts_every_thread),
		T(read_job_prefills_then_reads),
		T(group_keeps_jobs_apart),
		T(shared_file_is_split_exactly),
		T(keep_leaves_the_files),
		T(layout_enospc_leaves_no_file),
		T(posix_fallocate_enospc_leaves_no_file),
		T(prefill_enospc_leaves_no_file),
		T(create_failure_names_the_file),
		T(open_failure_names_the_file),
		T(one_thread_failing_stops_all),
		T(unremovable_file_is_a_warning),
		T(refuses_foreign_files),
		T(refuses_a_leftover),
		T(direct_fallback_on_einval),
		T(direct_check_failure_names_the_file),
		T(prefill_eio_names_the_file),
		T(prefill_fsync_eio_stops_the_job),
		T(prefill_short_and_eintr_lay_out_the_whole_file),
		T(marked_leftover_is_removed),
		T(other_mark_is_refused),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
