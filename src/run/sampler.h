/*
 * The sampler: while a group runs, the runner's main thread (otherwise
 * idle) reads the system counters of the target devices, the page cache
 * and paging at a fixed interval from the gate, so a result shows what
 * the kernel did beside what the workers measured.
 */
#ifndef DBIO_RUN_SAMPLER_H
#define DBIO_RUN_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "job/job.h"
#include "sys/procstat.h"

#define SAMPLER_MAX_DEVICES 16

struct sample {
	uint64_t t_ns; /* from the gate */
	struct diskstat disk[SAMPLER_MAX_DEVICES];
	struct memstat mem;
	struct vmstat vm;
};

struct sampler {
	unsigned ndev;
	unsigned major[SAMPLER_MAX_DEVICES], minor[SAMPLER_MAX_DEVICES];
	uint64_t interval_ns;
	uint64_t origin_ns;
	struct sample *samples;
	size_t nsamples, cap;
};

/* The devices under the jobs' directories (virtual filesystems have none)
 * and the interval: the jobs' time-grid log_interval, else 1 s. */
void sampler_init(struct sampler *s, const struct job *jobs, size_t n);

/* Take a sample at now_ns (absolute). Allocates only when the array grows. */
void sampler_take(struct sampler *s, uint64_t now_ns);

/* A copy of s's samples for a result (deep copy); 0 or -ENOMEM. */
int sampler_copy(struct sampler *dst, const struct sampler *src);

void sampler_release(struct sampler *s);

#endif
