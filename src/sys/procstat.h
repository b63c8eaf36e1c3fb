/*
 * System counters from /proc, read by the runner's sampler while a job
 * runs: per-device I/O from /proc/diskstats, page-cache state from
 * /proc/meminfo, paging from /proc/vmstat. Paths are parameters so unit
 * tests can read fixtures.
 */
#ifndef DBIO_SYS_PROCSTAT_H
#define DBIO_SYS_PROCSTAT_H

#include <stdint.h>

/* One /proc/diskstats line (Documentation/admin-guide/iostats.rst). */
struct diskstat {
	uint64_t reads, reads_merged, sectors_read, ms_reading;
	uint64_t writes, writes_merged, sectors_written, ms_writing;
	uint64_t in_flight, ms_io, ms_weighted;
};

struct memstat {
	uint64_t dirty_bytes, writeback_bytes, cached_bytes;
};

struct vmstat {
	uint64_t pgpgin, pgpgout, pgmajfault; /* pgpg* count KiB, as the kernel does */
};

/* The counters of device major:minor; 0, -ENOENT when not listed, or
 * -errno. */
int procstat_disk(const char *path, unsigned major, unsigned minor, struct diskstat *d);

/* 0 or -errno. */
int procstat_mem(const char *path, struct memstat *m);
int procstat_vm(const char *path, struct vmstat *v);

#endif
