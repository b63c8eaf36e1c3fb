/*
 * Pressure stall information (Documentation/accounting/psi.rst): the time
 * tasks waited on I/O, memory or CPU, from /proc/pressure/{io,memory,cpu}
 * (or a cgroup v2 directory's {io,memory,cpu}.pressure). Read by the
 * runner's sampler (run/sampler.c), whose deltas over a run go into the
 * result. A kernel without PSI (CONFIG_PSI off, or psi=0) has no files:
 * the reader says so and the result records the source as absent.
 */
#ifndef DBIO_SYS_PRESSURE_H
#define DBIO_SYS_PRESSURE_H

#include <stdbool.h>
#include <stdint.h>

/* The kernel's totals: microseconds some task (some) or every non-idle
 * task (full) was stalled. cpu had no "full" line before 5.13 (has_full
 * false). */
struct pressure {
	bool present;
	bool has_full;
	uint64_t some_us, full_us;
};

/* The totals of the file at path ("some avg10=… total=N" lines); 0,
 * -ENOENT (no PSI: present false) or -errno; -EINVAL for a file without a
 * "some" line. */
int pressure_read(const char *path, struct pressure *p);

#endif
