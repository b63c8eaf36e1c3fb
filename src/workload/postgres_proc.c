/*
 * What the private cluster's lifecycle (postgres_server.c) and the cleanup
 * of a leftover cluster (postgres_leftover.c) both do: remove a cluster
 * through the directory fd dbio holds, and read a process's
 * /proc/<pid>/stat. A leaf of the PostgreSQL workload, so that neither of
 * the two calls the other for it.
 */
#ifdef DBIO_HAVE_LIBPQ
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "util/rmtree.h"
#include "workload/postgres_int.h"

int pg_remove_tree(int parentfd, const char *name, int fd, const char *path, struct dbio_err *err)
{
	char found[128];
	struct stat st;
	int rc = rmtree_held(parentfd, name, fd, 16, &st);

	if (rc == 1)
		return dbio_err_set(
			err, DBIO_EUNSAFE,
			"%s: not removed: the name is now %s (dbio emptied its own cluster, wherever it was moved): look at it and remove it by hand",
			path, rmtree_describe(&st, found, sizeof(found)));
	if (rc)
		return dbio_err_set(err, rc, "%s: cannot remove the cluster: %s: remove it by hand", path,
				    strerror(-rc));
	return 0;
}

int pg_proc_stat_read(pid_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "re")))
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}
#endif
