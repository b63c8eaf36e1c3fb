/*
 * System counters from /proc, read by the runner's sampler while a job
 * runs: per-device I/O from /proc/diskstats, page-cache state from
 * /proc/meminfo, paging from /proc/vmstat. Paths are parameters so unit
 * tests can read fixtures.
 */
#ifndef DBIO_SYS_PROCSTAT_H
#define DBIO_SYS_PROCSTAT_H

#include <stdint.h>

/* One /proc/diskstats line (Documentation/admin-guide/iostats.rst): 11
 * counters on every kernel, the 4 of discards since 4.18, the 2 of flushes
 * since 5.5; nfields says how many the line had (11, 15 or 17), so a
 * kernel that does not count flushes is told from one that saw none. */
struct diskstat {
	uint64_t reads, reads_merged, sectors_read, ms_reading;
	uint64_t writes, writes_merged, sectors_written, ms_writing;
	uint64_t in_flight, ms_io, ms_weighted;
	uint64_t discards, discards_merged, sectors_discarded, ms_discarding;
	uint64_t flushes, ms_flushing;
	unsigned nfields;
};

struct memstat {
	uint64_t dirty_bytes, writeback_bytes, cached_bytes;
};

/* The /proc/vmstat counters dbio keeps, in procstat_vm_fields order:
 * paging (pgpg* count KiB, as the kernel does), faults, reclaim (kswapd's
 * and direct), allocation stalls (allocstall_* of every zone summed),
 * compaction, pages dirtied and written, and two levels (pages dirty and
 * under writeback now, not counts). */
enum vm_field {
	VM_PGPGIN,
	VM_PGPGOUT,
	VM_PGFAULT,
	VM_PGMAJFAULT,
	VM_PGSCAN_KSWAPD,
	VM_PGSCAN_DIRECT,
	VM_PGSTEAL_KSWAPD,
	VM_PGSTEAL_DIRECT,
	VM_PGSCAN_DIRECT_THROTTLE,
	VM_ALLOCSTALL,
	VM_COMPACT_STALL,
	VM_COMPACT_FAIL,
	VM_COMPACT_SUCCESS,
	VM_NR_DIRTIED,
	VM_NR_WRITTEN,
	VM_WORKINGSET_REFAULT_FILE,
	VM_NR_DIRTY,	 /* a level */
	VM_NR_WRITEBACK, /* a level */
	VM_NFIELDS
};

/* The kernel's name of field f ("pgscan_direct"; VM_ALLOCSTALL
 * "allocstall", the sum of the allocstall_<zone> lines). */
const char *procstat_vm_name(enum vm_field f);

/* Whether f is a level (a delta of it means nothing: the result keeps its
 * value at the end of the interval). */
static inline int procstat_vm_is_level(enum vm_field f)
{
	return f == VM_NR_DIRTY || f == VM_NR_WRITEBACK;
}

struct vmstat {
	uint64_t v[VM_NFIELDS];
};

/* The counters of device major:minor; 0, -ENOENT when not listed, or
 * -errno. */
int procstat_disk(const char *path, unsigned major, unsigned minor, struct diskstat *d);

/* Values of the "name value" (or "name: value") lines of the file at path
 * whose name is names[i], into vals[i], and bit i of *found set for each
 * seen (n <= 64); vals of names not seen are 0. The format of
 * /proc/vmstat, /proc/self/io and a cgroup's memory.stat. 0 or -errno. */
int procstat_keyed(const char *path, const char *const *names, int n, uint64_t *vals, uint64_t *found);

/* 0 or -errno. */
int procstat_mem(const char *path, struct memstat *m);
int procstat_vm(const char *path, struct vmstat *v);

#endif
