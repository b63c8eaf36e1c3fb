/* /proc counters; see procstat.h. */
#include "sys/procstat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int procstat_disk(const char *path, unsigned major, unsigned minor, struct diskstat *d)
{
	FILE *fp = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	int rc = -ENOENT;

	if (!fp)
		return -errno;
	while (getline(&line, &cap, fp) > 0) {
		unsigned ma, mi;
		unsigned long long f[17] = { 0 };
		int n = sscanf(line,
			       "%u %u %*s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu "
			       "%llu %llu %llu",
			       &ma, &mi, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9],
			       &f[10], &f[11], &f[12], &f[13], &f[14], &f[15], &f[16]) -
			2;

		if (n < 11 || ma != major || mi != minor)
			continue;
		if (n < 15) /* a partial group counts as absent */
			n = 11;
		else if (n < 17)
			n = 15;
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
			.discards = n >= 15 ? f[11] : 0,
			.discards_merged = n >= 15 ? f[12] : 0,
			.sectors_discarded = n >= 15 ? f[13] : 0,
			.ms_discarding = n >= 15 ? f[14] : 0,
			.flushes = n >= 17 ? f[15] : 0,
			.ms_flushing = n >= 17 ? f[16] : 0,
			.nfields = (unsigned)n,
		};
		rc = 0;
		break;
	}
	free(line);
	fclose(fp);
	return rc;
}

/* A "name value" or "name: value" line into vals of the name it has. */
static void keyed_line(const char *line, const char *const *names, int n, uint64_t *vals, uint64_t *found)
{
	for (int i = 0; i < n; i++) {
		size_t len = strlen(names[i]);

		if (strncmp(line, names[i], len) || (line[len] != ' ' && line[len] != ':'))
			continue;
		vals[i] = strtoull(line + len + 1, NULL, 10);
		*found |= 1ull << i;
		return;
	}
}

int procstat_keyed(const char *path, const char *const *names, int n, uint64_t *vals, uint64_t *found)
{
	FILE *fp = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;

	*found = 0;
	for (int i = 0; i < n; i++)
		vals[i] = 0;
	if (!fp)
		return -errno;
	while (getline(&line, &cap, fp) > 0)
		keyed_line(line, names, n, vals, found);
	free(line);
	fclose(fp);
	return 0;
}

int procstat_mem(const char *path, struct memstat *m)
{
	static const char *const names[] = { "Dirty", "Writeback", "Cached" };
	uint64_t *fields[] = { &m->dirty_bytes, &m->writeback_bytes, &m->cached_bytes };

	uint64_t vals[3], found;
	int rc = procstat_keyed(path, names, 3, vals, &found);

	for (int i = 0; i < 3; i++)
		*fields[i] = vals[i] * 1024;
	return rc;
}

static const char *const vm_names[VM_NFIELDS] = {
	[VM_PGPGIN] = "pgpgin",
	[VM_PGPGOUT] = "pgpgout",
	[VM_PGFAULT] = "pgfault",
	[VM_PGMAJFAULT] = "pgmajfault",
	[VM_PGSCAN_KSWAPD] = "pgscan_kswapd",
	[VM_PGSCAN_DIRECT] = "pgscan_direct",
	[VM_PGSTEAL_KSWAPD] = "pgsteal_kswapd",
	[VM_PGSTEAL_DIRECT] = "pgsteal_direct",
	[VM_PGSCAN_DIRECT_THROTTLE] = "pgscan_direct_throttle",
	[VM_ALLOCSTALL] = "allocstall",
	[VM_COMPACT_STALL] = "compact_stall",
	[VM_COMPACT_FAIL] = "compact_fail",
	[VM_COMPACT_SUCCESS] = "compact_success",
	[VM_NR_DIRTIED] = "nr_dirtied",
	[VM_NR_WRITTEN] = "nr_written",
	[VM_WORKINGSET_REFAULT_FILE] = "workingset_refault_file",
	[VM_NR_DIRTY] = "nr_dirty",
	[VM_NR_WRITEBACK] = "nr_writeback",
};

const char *procstat_vm_name(enum vm_field f)
{
	return vm_names[f];
}

/* One pass over the file: allocstall is counted per zone
 * (allocstall_dma32, allocstall_normal …), dbio keeps their sum. */
int procstat_vm(const char *path, struct vmstat *v)
{
	FILE *fp = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	uint64_t found = 0;

	memset(v, 0, sizeof(*v));
	if (!fp)
		return -errno;
	while (getline(&line, &cap, fp) > 0) {
		if (!strncmp(line, "allocstall_", 11) && strchr(line, ' '))
			v->v[VM_ALLOCSTALL] += strtoull(strchr(line, ' ') + 1, NULL, 10);
		else
			keyed_line(line, vm_names, VM_NFIELDS, v->v, &found);
	}
	free(line);
	fclose(fp);
	return 0;
}
