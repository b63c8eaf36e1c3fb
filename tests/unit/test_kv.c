/*
 * Unit tests for the kv workload (src/workload/kv.c) on each database this
 * build has (gdbm, lmdb, sqlite; one left out is a skip that says so), run
 * end to end by run_group in a new directory under /tmp (run_fixture.h).
 * What a user checks: the exact inserts, lookups, updates, commits and
 * batches, with their bytes, per phase and over threads; the database's
 * private directory gone afterwards, or kept with --keep, or a warning
 * naming it when it cannot be removed; and a failure that fails the run
 * with a message naming the database file.
 *
 * The databases' own reads, writes and syncs are the libraries' and do
 * not go through dbio_sys: what kv does through it is making the
 * database file (openat), which is where an injected failure goes, and
 * the runner's removal of the private directory (unlinkat). SQLite's
 * unix VFS has a syscall table of its own (xSetSystemCall), through which
 * one case makes the disk fill under SQLite's writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run_fixture.h"
#include "util/built.h"

#ifdef DBIO_HAVE_SQLITE3
#include <sqlite3.h>

#include "sqlite_fault.h"
#endif

/* Skip (saying why) when the database of the test is not in this build. */
static void need_backend(const struct fx_run *r)
{
	const char *pkg = built_missing_package("kv_engine", r->param);

	if (pkg) {
		print_message("skip: kv_engine=%s is not in this build (%s)\n", r->param, pkg);
		skip();
	}
}

/* Skip the test of a case SQLite alone has, saying why, in a build
 * without it. */
static inline void skip_without_sqlite(void)
{
	print_message("skip: kv_engine=sqlite is not in this build (libsqlite3-dev)\n");
	skip();
}

/* The job file of the test: a kv job on the test's database, then text. */
static void jobs(struct fx_run *r, const char *text)
{
	char full[512];

	snprintf(full, sizeof(full), "[j]\nworkload=kv\nkv_engine=%s\n%s", r->param, text);
	fx_jobs(r, full);
}

/* 1,000 inserts in batches of 100, then 250 lookups (batches of 100, 100,
 * 50) and 300 updates, values of 100 bytes behind 16-byte keys: every
 * operation, commit and batch counted, each phase with its own count, and
 * nothing left once the runner removed the private directory. */
static void test_kv_counts_every_operation(void **state)
{
	struct fx_run *r = *state;
	const struct run_stats *st = &r->stats[0];
	char list[256];

	need_backend(r);
	fx.fault[FX_UNLINKAT].name = "dbio.j.0.db"; /* count its removal */
	jobs(r, "records=1000\nbatch=100\nvalue_size=100\nlookups=250\nupdates=300\n");
	assert_int_equal(fx_run_jobs(r, false), 0);
	assert_int_equal(r->err.code, 0);
	assert_int_equal(fx_ops(r, 0, OP_INSERT), 1000);
	assert_int_equal(fx_bytes(r, 0, OP_INSERT), 1000 * 116);
	assert_int_equal(fx_ops(r, 0, OP_LOOKUP), 250);
	assert_int_equal(fx_bytes(r, 0, OP_LOOKUP), 250 * 116);
	assert_int_equal(fx_ops(r, 0, OP_UPDATE), 300);
	assert_int_equal(fx_bytes(r, 0, OP_UPDATE), 300 * 116);
	assert_int_equal(fx_ops(r, 0, OP_COMMIT), 10 + 3 + 3);
	assert_int_equal(fx_ops(r, 0, OP_BATCH), 10 + 3 + 3);
	assert_int_equal(fx_bytes(r, 0, OP_BATCH), (1000 + 250 + 300) * 116);
	assert_int_equal(fx_ops(r, 0, OP_READ) + fx_ops(r, 0, OP_WRITE), 0);
	assert_int_equal(st->nphases, 3);
	assert_string_equal(st->phases[0].name, "insert");
	assert_int_equal(st->phases[0].ops, 1000);
	assert_string_equal(st->phases[1].name, "lookup");
	assert_int_equal(st->phases[1].ops, 250);
	assert_string_equal(st->phases[2].name, "update");
	assert_int_equal(st->phases[2].ops, 300);
	assert_string_equal(st->db_engine, r->param);
	assert_true(st->disk_bytes >= 1000 * 116);
	assert_false(st->partial);
	assert_int_equal(atomic_load(&fx.calls[FX_UNLINKAT]), 1);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
	assert_string_equal(r->warnings, "");
}

/* Two threads, each with a database of its own: twice the records, one
 * series of batches each. */
static void test_kv_threads_have_their_own_database(void **state)
{
	struct fx_run *r = *state;
	char list[256];

	need_backend(r);
	jobs(r, "records=500\nbatch=50\nvalue_size=20\nnumjobs=2\n");
	assert_int_equal(fx_run_jobs(r, false), 0);
	assert_int_equal(r->stats[0].threads, 2);
	assert_int_equal(fx_ops(r, 0, OP_INSERT), 1000);
	assert_int_equal(fx_bytes(r, 0, OP_INSERT), 1000 * 36);
	assert_int_equal(fx_ops(r, 0, OP_COMMIT), 20);
	assert_int_equal(r->stats[0].phases[0].ops, 1000);
	assert_int_equal(r->stats[0].nseries, 2);
	assert_int_equal(atomic_load(&fx.calls[FX_OPENAT]), 2);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* --keep leaves the private directory with the database in it. */
static void test_kv_keep_leaves_the_database(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128];
	struct stat sb;

	need_backend(r);
	jobs(r, "records=100\nbatch=10\n");
	assert_int_equal(fx_run_jobs(r, true), 0);
	assert_int_equal(fx_ops(r, 0, OP_INSERT), 100);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "dbio.j.0.db");
	assert_non_null(strstr(fx_listing(fx_path(r, "dbio.j.0.db", path, sizeof(path)), list, sizeof(list)),
			       r->param));
	assert_int_equal(lstat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
}

/* The disk is full when dbio makes the database file: the run fails
 * naming it, nothing is inserted, and the private directory is gone. */
static void test_kv_create_failure_names_the_database(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128], want[256];

	need_backend(r);
	fx.fault[FX_OPENAT] = (struct fx_fault){ .err = ENOSPC, .name = r->param };
	jobs(r, "records=100\nbatch=10\n");
	assert_int_equal(fx_run_jobs(r, false), -ENOSPC);
	snprintf(want, sizeof(want), "%s/%s: cannot create: No space left on device",
		 fx_path(r, "dbio.j.0.db", path, sizeof(path)), r->param);
	assert_string_equal(r->err.msg, want);
	assert_int_equal(r->err.code, -ENOSPC);
	assert_true(r->stats[0].partial);
	assert_int_equal(fx_ops(r, 0, OP_INSERT), 0);
	assert_int_equal(fx_ops(r, 0, OP_COMMIT), 0);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
}

/* The database file dbio makes with O_EXCL is already there (injected:
 * the private directory is new, 0700): refused as unsafe, never opened
 * over, nothing inserted, and the private directory removed. */
static void test_kv_existing_database_is_refused(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128], want[256];

	need_backend(r);
	fx.fault[FX_OPENAT] = (struct fx_fault){ .err = EEXIST, .name = r->param };
	jobs(r, "records=100\nbatch=10\n");
	assert_int_equal(fx_run_jobs(r, false), DBIO_EUNSAFE);
	snprintf(want, sizeof(want), "%s/%s: cannot create: File exists",
		 fx_path(r, "dbio.j.0.db", path, sizeof(path)), r->param);
	assert_string_equal(r->err.msg, want);
	assert_int_equal(r->err.code, DBIO_EUNSAFE);
	assert_true(r->stats[0].partial);
	assert_int_equal(atomic_load(&fx.fails[FX_OPENAT]), 1);
	assert_int_equal(fx_ops(r, 0, OP_INSERT), 0);
	assert_int_equal(fx_ops(r, 0, OP_COMMIT), 0);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
	assert_string_equal(r->warnings, "");
}

/* The private directory cannot be removed at the end: the run still
 * succeeds, and the warning names the directory and why, so that the user
 * knows why the next run refuses it as left over. */
static void test_kv_unremovable_database_is_a_warning(void **state)
{
	struct fx_run *r = *state;
	char list[256], path[128], want[256];

	need_backend(r);
	fx.fault[FX_UNLINKAT] = (struct fx_fault){ .err = EBUSY, .name = "dbio.j.0.db" };
	jobs(r, "records=100\nbatch=10\n");
	assert_int_equal(fx_run_jobs(r, false), 0);
	assert_int_equal(fx_ops(r, 0, OP_INSERT), 100);
	snprintf(want, sizeof(want), "%s: cannot remove: Device or resource busy: remove it by hand\n",
		 fx_path(r, "dbio.j.0.db", path, sizeof(path)));
	assert_string_equal(r->warnings, want);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "dbio.j.0.db");
}

#ifdef DBIO_HAVE_SQLITE3
#define SQLITE_FULL_AT (64 * 1024) /* no write of SQLite's ends past it */

static sqlite3_syscall_ptr real_pwrite64;

static ssize_t full_pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	if (off + (off_t)len > SQLITE_FULL_AT) {
		errno = ENOSPC;
		return -1;
	}
	return ((ssize_t(*)(int, const void *, size_t, off_t))real_pwrite64)(fd, buf, len, off);
}
#endif

/* The disk fills under SQLite's own writes (its pwrite64, through the
 * unix VFS's syscall table, not dbio_sys): the insert phase fails at a
 * commit, naming the database and SQLite's reason; the batches before it
 * are counted whole, and nothing is left. */
static void test_kv_sqlite_disk_full_fails_the_run(void **state)
{
#ifdef DBIO_HAVE_SQLITE3
	struct fx_run *r = *state;
	sqlite3_vfs *vfs = sqlite3_vfs_find("unix");
	char list[256], path[128], want[256];

	assert_non_null(vfs);
	real_pwrite64 = vfs->xGetSystemCall(vfs, "pwrite64");
	if (!real_pwrite64) {
		print_message("skip: this SQLite does not write with pwrite64\n");
		skip();
	}
	jobs(r, "records=5000\nbatch=100\nvalue_size=100\n");
	assert_int_equal(vfs->xSetSystemCall(vfs, "pwrite64", (sqlite3_syscall_ptr)full_pwrite64), SQLITE_OK);
	fx_run_jobs(r, false);
	vfs->xSetSystemCall(vfs, "pwrite64", real_pwrite64);
	assert_int_equal(r->rc, -EIO);
	snprintf(want, sizeof(want), "%s/sqlite: sqlite insert: COMMIT: database or disk is full",
		 fx_path(r, "dbio.j.0.db", path, sizeof(path)));
	assert_string_equal(r->err.msg, want);
	assert_true(r->stats[0].partial);
	assert_true(fx_ops(r, 0, OP_INSERT) > 0 && fx_ops(r, 0, OP_INSERT) < 5000);
	assert_int_equal(fx_ops(r, 0, OP_INSERT) % 100, 0);
	assert_int_equal(fx_ops(r, 0, OP_COMMIT), fx_ops(r, 0, OP_INSERT) / 100 - 1);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
#else
	(void)state;
	skip_without_sqlite();
#endif
}

/* SQLite's 61st write fails with EIO: the insert phase fails naming the
 * database and SQLite's "disk I/O error"; the batches committed are
 * counted, with the statements of the failed batch done before it, and
 * nothing is left. */
static void test_kv_sqlite_write_eio_fails_the_run(void **state)
{
#ifdef DBIO_HAVE_SQLITE3
	struct fx_run *r = *state;
	char list[256], path[128], want[256];
	uint64_t commits;

	sqf.err[SQF_WRITE] = EIO;
	sqf.after[SQF_WRITE] = 60;
	jobs(r, "records=5000\nbatch=100\nvalue_size=100\n");
	sqf_install_or_skip();
	fx_run_jobs(r, false);
	sqf_remove();
	assert_int_equal(r->rc, -EIO);
	/* at an INSERT when SQLite spills its cache, else at the COMMIT */
	snprintf(want, sizeof(want),
		 "%s/sqlite: sqlite insert: ", fx_path(r, "dbio.j.0.db", path, sizeof(path)));
	assert_memory_equal(r->err.msg, want, strlen(want));
	assert_string_equal(r->err.msg + strlen(r->err.msg) - strlen(": disk I/O error"), ": disk I/O error");
	assert_true(r->stats[0].partial);
	commits = fx_ops(r, 0, OP_COMMIT);
	assert_int_equal(fx_ops(r, 0, OP_BATCH), commits);
	/* the committed batches, and the statements of the failed one that
	 * SQLite took before the failure; never the failed statement */
	assert_true(fx_ops(r, 0, OP_INSERT) >= commits * 100);
	assert_true(fx_ops(r, 0, OP_INSERT) <= commits * 100 + 100);
	assert_true(fx_ops(r, 0, OP_INSERT) < 5000);
	assert_string_equal(fx_listing(r->dir, list, sizeof(list)), "");
#else
	(void)state;
	skip_without_sqlite();
#endif
}

/* EINTR before every other read and write of SQLite's, its writes cut to
 * 1000 bytes: SQLite continues both, and every operation is counted as
 * in a run without them. */
static void test_kv_sqlite_eintr_and_short_writes_are_continued(void **state)
{
#ifdef DBIO_HAVE_SQLITE3
	struct fx_run *r = *state;
	unsigned writes;

	sqf.intr = true;
	sqf.short_max = 1000;
	jobs(r, "records=1000\nbatch=100\nvalue_size=100\nlookups=250\nupdates=300\n");
	sqf_install_or_skip();
	fx_run_jobs(r, false);
	writes = atomic_load(&sqf.calls[SQF_WRITE]);
	sqf_remove();
	assert_int_equal(r->rc, 0);
	assert_int_equal(fx_ops(r, 0, OP_INSERT), 1000);
	assert_int_equal(fx_ops(r, 0, OP_LOOKUP), 250);
	assert_int_equal(fx_ops(r, 0, OP_UPDATE), 300);
	assert_int_equal(fx_ops(r, 0, OP_COMMIT), 10 + 3 + 3);
	assert_false(r->stats[0].partial);
	assert_true(writes >
		    2 * 13); /* the commits of the writing phases wrote, half the calls interrupted */
#else
	(void)state;
	skip_without_sqlite();
#endif
}

/* Each case once per database, named for it: test_kv_<case>_gdbm ... */
#define T(name, db)                                                                                          \
	{                                                                                                    \
		"test_kv_" #name "_" db, test_kv_##name, fx_setup, fx_teardown, (void *)db                   \
	}
#define EACH(name) T(name, "gdbm"), T(name, "lmdb"), T(name, "sqlite")

int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH(counts_every_operation),
		EACH(threads_have_their_own_database),
		EACH(keep_leaves_the_database),
		EACH(create_failure_names_the_database),
		EACH(existing_database_is_refused),
		EACH(unremovable_database_is_a_warning),
		{ "test_kv_sqlite_disk_full_fails_the_run", test_kv_sqlite_disk_full_fails_the_run, fx_setup,
		  fx_teardown, (void *)"sqlite" },
		{ "test_kv_sqlite_write_eio_fails_the_run", test_kv_sqlite_write_eio_fails_the_run, fx_setup,
		  fx_teardown, (void *)"sqlite" },
		{ "test_kv_sqlite_eintr_and_short_writes_are_continued",
		  test_kv_sqlite_eintr_and_short_writes_are_continued, fx_setup, fx_teardown,
		  (void *)"sqlite" },
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
