/*
 * mem_limit: run a job's threads in a memory cgroup whose limit caps the
 * page cache too, so "the data does not fit in RAM" (S2) can be measured
 * on a big machine. dbio makes a child of its own memory cgroup with the
 * limit; the process that runs the job's threads (limited.c: a child
 * process of dbio) joins it, dbio itself never does, so an OOM kill ends
 * the job and not dbio. cgroup v1 (memory.limit_in_bytes) and v2
 * (memory.max) are supported.
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
	bool made;
	uint64_t limit_bytes;
};

/* Find the memory cgroup this process is in and check a child can be
 * made there; writes nothing. 0, or DBIO_EINPUT with what is missing
 * (not root, no memory controller). */
int memlimit_check(struct memlimit *m, struct dbio_err *err);

/* Make the child cgroup with the limit (nothing joins it). 0 or -errno
 * with detail in err; on failure nothing is left behind. */
int memlimit_make(struct memlimit *m, uint64_t limit_bytes, struct dbio_err *err);

/* Move the calling process (all its threads) into the child cgroup; 0 or
 * -errno. */
int memlimit_join(const struct memlimit *m);

/* The child's peak memory use so far (page cache included), in bytes;
 * 0 or -errno (-ENOENT where the kernel does not track a peak). */
int memlimit_peak(const struct memlimit *m, uint64_t *peak_bytes);

/* How many processes the kernel's OOM killer killed in the child (v2
 * memory.events, v1 memory.oom_control: oom_kill); 0 or -ENOENT where the
 * kernel does not count them. */
int memlimit_oom_kills(const struct memlimit *m, uint64_t *kills);

/* Remove the child, once the processes in it have ended. Safe to call
 * when not made. */
void memlimit_remove(struct memlimit *m);

#endif
