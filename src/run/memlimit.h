/*
 * mem_limit: run a job's threads in a memory cgroup whose limit caps the
 * page cache too, so "the data does not fit in RAM" (S2) can be measured
 * on a big machine. The whole dbio process moves into a child of its own
 * memory cgroup for the run and moves back afterwards; cgroup v1
 * (memory.limit_in_bytes) and v2 (memory.max) are supported.
 */
#ifndef DBIO_RUN_MEMLIMIT_H
#define DBIO_RUN_MEMLIMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"

struct memlimit {
	int version;	 /* 1 or 2 */
	char home[4096]; /* the cgroup dbio came from */
	char path[4096]; /* the child it created */
	bool entered;
	uint64_t limit_bytes;
};

/* Find the memory cgroup this process is in and check a child can be
 * made there; writes nothing. 0, or DBIO_EINPUT with what is missing
 * (not root, no memory controller). */
int memlimit_check(struct memlimit *m, struct dbio_err *err);

/* Make the child cgroup with the limit and move this process into it.
 * 0 or -errno with detail in err; on failure nothing is left behind. */
int memlimit_enter(struct memlimit *m, uint64_t limit_bytes, struct dbio_err *err);

/* The child's peak memory use so far (page cache included), in bytes;
 * 0 or -errno (-ENOENT where the kernel does not track a peak). */
int memlimit_peak(const struct memlimit *m, uint64_t *peak_bytes);

/* Move back home and remove the child. Safe to call when not entered. */
void memlimit_leave(struct memlimit *m);

#endif
