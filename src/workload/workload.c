/* The workload registry (one line per workload) and helpers the workloads share. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "workload/workload.h"
#include "workload/workload_int.h"

extern const struct workload_ops workload_fileio;
extern const struct workload_ops workload_kv;
extern const struct workload_ops workload_import;
extern const struct workload_ops workload_oltp;

const struct workload_ops *const workload_registry[] = {
	&workload_fileio,
	&workload_kv,
#ifdef DBIO_HAVE_SQLITE3
	&workload_import,
#endif
	&workload_oltp,
};

const size_t workload_count = sizeof(workload_registry) / sizeof(workload_registry[0]);

const struct workload_ops *workload_find(const char *name)
{
	for (size_t i = 0; i < workload_count; i++)
		if (!strcmp(workload_registry[i]->name, name))
			return workload_registry[i];
	return NULL;
}

void workload_list(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < workload_count && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", workload_registry[i]->name);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* Bytes the thread's files occupy (st_blocks), from its prefix. */
uint64_t workload_disk_bytes(const struct worker *w)
{
	DIR *d = opendir(w->dir_path);
	uint64_t sum = 0;
	struct dirent *e;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		struct stat sb;

		if (!strncmp(e->d_name, w->prefix, strlen(w->prefix)) &&
		    !fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW))
			sum += (uint64_t)sb.st_blocks * 512;
	}
	closedir(d);
	return sum;
}
