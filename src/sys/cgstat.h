/*
 * The memory and I/O statistics of a cgroup — the one mem_limit made
 * (run/memlimit.c) for the process that runs a job's threads: its
 * memory.stat (cgroup v1 or v2: faults, reclaim scans and steals,
 * refaults, page cache, dirty and writeback pages) and, on v2, its io.stat
 * (bytes and I/Os per device, summed). Read by the sampler like the
 * system-wide files; paths are parameters so unit tests read fixtures.
 */
#ifndef DBIO_SYS_CGSTAT_H
#define DBIO_SYS_CGSTAT_H

#include <stdbool.h>
#include <stdint.h>

/* memory.stat fields under their cgroup v2 names; v1's equivalents
 * (cache, dirty, writeback) are read into the same slots. v1 has no
 * pgscan, pgsteal or workingset_refault_file, v2 no pgpgin/pgpgout:
 * `found` says which the file had. */
enum cg_field {
	CG_PGFAULT,
	CG_PGMAJFAULT,
	CG_PGSCAN,
	CG_PGSTEAL,
	CG_WORKINGSET_REFAULT_FILE,
	CG_PGPGIN, /* pages (v1), not KiB */
	CG_PGPGOUT,
	CG_FILE,	   /* a level, bytes: the page cache charged (v1 "cache") */
	CG_FILE_DIRTY,	   /* a level, bytes (v1 "dirty") */
	CG_FILE_WRITEBACK, /* a level, bytes (v1 "writeback") */
	CG_NFIELDS
};

struct cgstat {
	bool present;	/* memory.stat was read */
	uint64_t found; /* bit f: field f was in the file */
	uint64_t v[CG_NFIELDS];
	bool io_present; /* io.stat was read (cgroup v2 with the io controller) */
	uint64_t rbytes, wbytes, rios, wios, dbytes, dios;
};

/* "pgscan", "file_dirty" …: the name in the result. */
const char *cgstat_name(enum cg_field f);

static inline bool cgstat_is_level(enum cg_field f)
{
	return f >= CG_FILE;
}

/* memory.stat and io.stat of the cgroup directory dir into s; 0, or
 * -errno of memory.stat (io.stat missing is io_present false). */
int cgstat_read(const char *dir, struct cgstat *s);

#endif
