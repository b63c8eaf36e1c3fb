/*
 * The sampler: while a group runs, the runner's main thread (otherwise
 * idle) reads the system counters at a fixed interval from the gate, so a
 * result shows what the kernel did beside what the workers measured: the
 * disk counters of every device under the targets (sys/devstack.h), the
 * page cache (meminfo), paging and reclaim (vmstat), pressure stall
 * information, the I/O of dbio's process (/proc/self/io) and, under
 * mem_limit, the cgroup's memory.stat and io.stat. result/ writes the
 * deltas per interval and over the run.
 *
 * DBIO_COUNTERS=basic in the environment keeps only what dbio sampled
 * before the other sources came (the targets' own devices, meminfo,
 * vmstat): the switch to measure what the others cost.
 */
#ifndef DBIO_RUN_SAMPLER_H
#define DBIO_RUN_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "job/job.h"
#include "sys/cgstat.h"
#include "sys/devstack.h"
#include "sys/pressure.h"
#include "sys/procstat.h"
#include "sys/taskstat.h"

#define SAMPLER_MAX_DEVICES 16

/* The three PSI resources, in this order. */
enum sampler_psi { SAMPLER_PSI_IO, SAMPLER_PSI_MEMORY, SAMPLER_PSI_CPU, SAMPLER_NPSI };

struct sample {
	uint64_t t_ns; /* from the gate */
	struct diskstat disk[SAMPLER_MAX_DEVICES];
	struct memstat mem;
	struct vmstat vm;
	struct pressure psi[SAMPLER_NPSI];
	struct taskio io; /* this process (mem_limit's child: that process) */
	struct cgstat cg; /* the mem_limit cgroup's; present false without */
};

struct sampler {
	unsigned ndev;
	unsigned major[SAMPLER_MAX_DEVICES], minor[SAMPLER_MAX_DEVICES];
	char dev_name[SAMPLER_MAX_DEVICES][32];		  /* "" when sysfs has none */
	enum devstack_role dev_role[SAMPLER_MAX_DEVICES]; /* where in a target's stack */
	bool basic;					  /* DBIO_COUNTERS=basic */
	const char *cgroup_dir;				  /* borrowed; NULL: no mem_limit cgroup */
	uint64_t interval_ns;
	uint64_t origin_ns;
	struct sample *samples;
	size_t nsamples, cap;
};

/* The devices under the jobs' directories (virtual filesystems have none;
 * with DBIO_COUNTERS=basic only each directory's own) and the interval:
 * the jobs' time-grid log_interval, else 1 s. */
void sampler_init(struct sampler *s, const struct job *jobs, size_t n);

/* Take a sample at now_ns (absolute). Allocates only when the array grows. */
void sampler_take(struct sampler *s, uint64_t now_ns);

/* Sample the cgroup at dir (mem_limit's) too, from the next sample on;
 * dir must outlive the sampling. */
void sampler_cgroup(struct sampler *s, const char *dir);

/* A copy of s's samples for a result (deep copy); 0 or -ENOMEM. */
int sampler_copy(struct sampler *dst, const struct sampler *src);

void sampler_release(struct sampler *s);

#endif
