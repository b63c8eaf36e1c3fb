/*
 * A SQLite VFS for the database workloads (kv's sqlite backend, import):
 * the default unix VFS with one method changed. Its xFullPathname resolves
 * every symlink in a path, so the /proc/self/fd/<fd>/ name dbio gives it
 * for a file in the thread's private directory (workload_db_dir) would
 * become that directory's path through the target, and SQLite would open
 * its -journal, -wal and -shm files by a path someone who can write the
 * target could redirect. This one keeps an absolute path as given.
 */
#ifdef DBIO_HAVE_SQLITE3 /* left out of a build without the library: util/built.h */
#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "workload/workload_int.h"

static sqlite3_vfs proc_vfs;
static pthread_once_t proc_once = PTHREAD_ONCE_INIT;
static int proc_rc = SQLITE_ERROR;

static int proc_full_pathname(sqlite3_vfs *vfs, const char *name, int out_len, char *out)
{
	(void)vfs;
	if (name[0] != '/' || (int)strlen(name) >= out_len)
		return SQLITE_CANTOPEN;
	memcpy(out, name, strlen(name) + 1);
	return SQLITE_OK;
}

static void proc_register(void)
{
	sqlite3_vfs *unix_vfs = sqlite3_vfs_find("unix");

	if (!unix_vfs)
		return;
	proc_vfs = *unix_vfs; /* pAppData and szOsFile come with it */
	proc_vfs.zName = WORKLOAD_SQLITE_VFS;
	proc_vfs.pNext = NULL;
	proc_vfs.xFullPathname = proc_full_pathname;
	proc_rc = sqlite3_vfs_register(&proc_vfs, 0);
}

int workload_sqlite_vfs(void)
{
	pthread_once(&proc_once, proc_register);
	return proc_rc == SQLITE_OK ? 0 : -ENOSYS;
}
#endif
