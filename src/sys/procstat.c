/* /proc counters; see procstat.h. */
#include "sys/procstat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int procstat_disk(const char *path, unsigned major, unsigned minor, struct diskstat *d)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int rc = -ENOENT;

	if (!fp)
		return -errno;
	while (getline(&line, &cap, fp) > 0) {
		unsigned ma, mi;
		unsigned long long f[11];

		if (sscanf(line, "%u %u %*s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &ma, &mi,
			   &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9],
			   &f[10]) != 13)
			continue;
		if (ma != major || mi != minor)
			continue;
		*d = (struct diskstat){
			.reads = f[0],
			.reads_merged = f[1],
			.sectors_read = f[2],
			.ms_reading = f[3],
			.writes = f[4],
			.writes_merged = f[5],
			.sectors_written = f[6],
			.ms_writing = f[7],
			.in_flight = f[8],
			.ms_io = f[9],
			.ms_weighted = f[10],
		};
		rc = 0;
		break;
	}
	free(line);
	fclose(fp);
	return rc;
}

/* Fill fields named in names[] from "name value" or "name: value kB" lines. */
static int read_keyed(const char *path, const char *const *names, uint64_t **fields, int n, uint64_t scale)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!fp)
		return -errno;
	while (getline(&line, &cap, fp) > 0) {
		for (int i = 0; i < n; i++) {
			size_t len = strlen(names[i]);

			if (strncmp(line, names[i], len) || (line[len] != ' ' && line[len] != ':'))
				continue;
			*fields[i] = strtoull(line + len + 1, NULL, 10) * scale;
		}
	}
	free(line);
	fclose(fp);
	return 0;
}

int procstat_mem(const char *path, struct memstat *m)
{
	static const char *const names[] = { "Dirty", "Writeback", "Cached" };
	uint64_t *fields[] = { &m->dirty_bytes, &m->writeback_bytes, &m->cached_bytes };

	*m = (struct memstat){ 0 };
	return read_keyed(path, names, fields, 3, 1024);
}

int procstat_vm(const char *path, struct vmstat *v)
{
	static const char *const names[] = { "pgpgin", "pgpgout", "pgmajfault" };
	uint64_t *fields[] = { &v->pgpgin, &v->pgpgout, &v->pgmajfault };

	*v = (struct vmstat){ 0 };
	return read_keyed(path, names, fields, 3, 1);
}
