/*
 * Faults under SQLite's own reads and writes, for the tests of the
 * workloads that drive it (test_kv.c, test_import.c). Those do not go
 * through dbio_sys: SQLite's unix VFS has a syscall table of its own
 * (xSetSystemCall), and this wraps its pread64 and pwrite64 as
 * run_fixture.h wraps dbio_sys: a call failing with an errno after some
 * calls, transfers cut short, EINTR every other call. Everything is
 * static so that each test uses what it needs; included after cmocka.h,
 * only with DBIO_HAVE_SQLITE3.
 */
#ifndef DBIO_TESTS_UNIT_SQLITE_FAULT_H
#define DBIO_TESTS_UNIT_SQLITE_FAULT_H

#include <errno.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <sys/types.h>

enum sqf_call { SQF_READ, SQF_WRITE, SQF_NCALLS };

static struct sqf_state {
	int err[SQF_NCALLS];	       /* errno the call fails with; 0: none */
	unsigned after[SQF_NCALLS];    /* calls let through before the first failure */
	size_t short_max;	       /* writes move at most this many bytes a call; 0: all */
	bool intr;		       /* every other read and write fails with EINTR */
	atomic_uint calls[SQF_NCALLS]; /* calls, failed ones too */
	atomic_uint fails[SQF_NCALLS];
	sqlite3_syscall_ptr real[SQF_NCALLS];
} sqf;

static const char *const sqf_names[SQF_NCALLS] = { "pread64", "pwrite64" };

/* -1 with errno set when the call is to fail, else 1 (with *len cut). */
static int sqf_inject(enum sqf_call c, size_t *len)
{
	unsigned n = atomic_fetch_add(&sqf.calls[c], 1);

	if (sqf.err[c] && n >= sqf.after[c]) {
		atomic_fetch_add(&sqf.fails[c], 1);
		errno = sqf.err[c];
		return -1;
	}
	if (sqf.intr && n % 2 == 0) {
		errno = EINTR;
		return -1;
	}
	if (c == SQF_WRITE && sqf.short_max && *len > sqf.short_max)
		*len = sqf.short_max;
	return 1;
}

static ssize_t sqf_pread64(int fd, void *buf, size_t len, off_t off)
{
	if (sqf_inject(SQF_READ, &len) < 0)
		return -1;
	return ((ssize_t(*)(int, void *, size_t, off_t))sqf.real[SQF_READ])(fd, buf, len, off);
}

static ssize_t sqf_pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	if (sqf_inject(SQF_WRITE, &len) < 0)
		return -1;
	return ((ssize_t(*)(int, const void *, size_t, off_t))sqf.real[SQF_WRITE])(fd, buf, len, off);
}

/* Put the wrappers in SQLite's unix VFS, with the faults set in sqf since
 * the last sqf_remove; false when this SQLite does not read and write
 * with pread64 and pwrite64 (the test is then to skip). */
static bool sqf_install(void)
{
	sqlite3_vfs *vfs = sqlite3_vfs_find("unix");
	const sqlite3_syscall_ptr wrap[SQF_NCALLS] = { (sqlite3_syscall_ptr)sqf_pread64,
						       (sqlite3_syscall_ptr)sqf_pwrite64 };

	if (!vfs)
		return false;
	for (int c = 0; c < SQF_NCALLS; c++)
		if (!(sqf.real[c] = vfs->xGetSystemCall(vfs, sqf_names[c])))
			return false;
	for (int c = 0; c < SQF_NCALLS; c++)
		if (vfs->xSetSystemCall(vfs, sqf_names[c], wrap[c]) != SQLITE_OK)
			return false;
	return true;
}

/* sqf_install, or skip the test saying why. */
static void sqf_install_or_skip(void)
{
	if (!sqf_install()) {
		print_message("skip: this SQLite does not read and write with pread64 and pwrite64\n");
		skip();
	}
}

/* SQLite's own calls back, and no faults set. */
static void sqf_remove(void)
{
	sqlite3_vfs *vfs = sqlite3_vfs_find("unix");

	for (int c = 0; vfs && c < SQF_NCALLS; c++)
		if (sqf.real[c])
			vfs->xSetSystemCall(vfs, sqf_names[c], sqf.real[c]);
	memset(&sqf, 0, sizeof(sqf));
}

#endif
