/*
 * Unit tests for the import workload (src/workload/import.c), run end to
 * end by run_group in a new directory under /tmp (run_fixture.h), with
 * faults where its I/O goes: making the database file goes through
 * dbio_sys (openat), SQLite's own reads and writes through the unix VFS's
 * syscall table (sqlite_fault.h). What a user checks: the exact rows,
 * commits, batches and indexes of a run; a failure fails the run with a
 * message naming the database and SQLite's reason, counts only the
 * batches committed before it, and leaves nothing; EINTR and short writes
 * are continued by SQLite, so the counts are those of a run without them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run_fixture.h"
#include "util/built.h"

#ifdef DBIO_HAVE_SQLITE3
#include "sqlite_fault.h"

/* 2,000 rows in batches of 100, then one index. */
#define JOB "[j]\nworkload=import\nrows=2000\nbatch=100\nindexes=1\nvalue_size=100\n"

/* The run did every row: 20 batches of 100, each one commit; the index
 * made once; nothing left. */
static void all_done(const struct fx_run *r)
{
	char list[256];

	assert_int_equal(r->rc, 0);
	assert_int_equal(fx_ops(r, 0, OP_INSERT), 2000);
	assert_int_equal(fx_ops(r, 0, OP_COMMIT), 20);
	assert_int_equal(fx_ops(r, 0, OP_BATCH), 20);
	assert_int_equal(fx_ops(r, 0, OP_INDEX), 1);
	assert_false(r->stats[0].partial);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

static void test_import_counts_every_row(void **state)
{
	struct fx_run *r = *state;

	fx_jobs(r, JOB);
	fx_run_jobs(r, false);
	all_done(r);
}

/* The disk fails when dbio makes the database file: the run fails naming
 * it, no row is counted, nothing is left. */
static void test_import_create_failure_names_the_database(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128], want[256];

	fx.fault[FX_OPENAT] = (struct fx_fault){ .err = EIO, .name = "import.sqlite" };
	fx_jobs(r, JOB);
	assert_int_equal(fx_run_jobs(r, false), -EIO);
	snprintf(want, sizeof(want), "%s/import.sqlite: cannot create: Input/output error",
		 fx_path(r, "dbio.j.0.db", path, sizeof(path)));
	assert_string_equal(r->err.msg, want);
	assert_true(r->stats[0].partial);
	assert_int_equal(fx_ops(r, 0, OP_INSERT), 0);
	assert_int_equal(fx_ops(r, 0, OP_COMMIT), 0);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* failed FAULT ERRNO REASON: with SQLite's FAULT call failing with ERRNO
 * after some calls, the run fails naming the database and SQLite's
 * REASON; the rows counted are whole batches, one commit each. */
static void failed(struct fx_run *r, enum sqf_call c, int err, unsigned after, const char *reason)
{
	char list[256], path[128], want[256];
	unsigned fails;

	sqf.err[c] = err;
	sqf.after[c] = after;
	fx_jobs(r, JOB);
	sqf_install_or_skip();
	fx_run_jobs(r, false);
	fails = atomic_load(&sqf.fails[c]);
	sqf_remove();
	assert_true(fails >= 1); /* SQLite may write again to roll back */
	assert_int_equal(r->rc, -EIO);
	snprintf(want, sizeof(want), "%s/import.sqlite: sqlite ",
		 fx_path(r, "dbio.j.0.db", path, sizeof(path)));
	assert_memory_equal(r->err.msg, want, strlen(want));
	assert_non_null(strstr(r->err.msg, reason));
	assert_true(r->stats[0].partial);
	assert_int_equal(fx_ops(r, 0, OP_INSERT) % 100, 0);
	assert_true(fx_ops(r, 0, OP_INSERT) < 2000);
	assert_int_equal(fx_ops(r, 0, OP_COMMIT), fx_ops(r, 0, OP_INSERT) / 100);
	assert_int_equal(fx_ops(r, 0, OP_INDEX), 0);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* The disk fails SQLite's tenth write (EIO): "disk I/O error". */
static void test_import_write_eio_fails_the_run(void **state)
{
	failed(*state, SQF_WRITE, EIO, 10, ": disk I/O error");
}

/* The disk fills at SQLite's tenth write: "database or disk is full". */
static void test_import_write_enospc_fails_the_run(void **state)
{
	failed(*state, SQF_WRITE, ENOSPC, 10, ": database or disk is full");
}

/* EINTR before every other read and write, and writes cut to 1000 bytes:
 * SQLite continues both, so the run is the same as without them. */
static void test_import_eintr_and_short_writes_are_continued(void **state)
{
	struct fx_run *r = *state;
	unsigned intr;

	sqf.intr = true;
	sqf.short_max = 1000;
	fx_jobs(r, JOB);
	sqf_install_or_skip();
	fx_run_jobs(r, false);
	intr = atomic_load(&sqf.calls[SQF_WRITE]);
	sqf_remove();
	all_done(r);
	assert_true(intr > 20); /* each commit wrote, half the calls interrupted */
}
#endif

#define T(name) cmocka_unit_test_setup_teardown(test_import_##name, fx_setup, fx_teardown)

int main(void)
{
#ifdef DBIO_HAVE_SQLITE3
	const struct CMUnitTest tests[] = {
		T(counts_every_row),
		T(create_failure_names_the_database),
		T(write_eio_fails_the_run),
		T(write_enospc_fails_the_run),
		T(eintr_and_short_writes_are_continued),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
#else
	printf("skip: workload=import is not in this build (%s)\n",
	       built_missing_package("workload", "import"));
	return 0;
#endif
}
