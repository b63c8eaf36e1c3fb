/*
 * fio's NUMA keys on a worker thread (workload/fileio/check_numa.c parsed them), before
 * it prepares, after its cpus_allowed (thread.c), as fio's thread_main
 * does: numa_cpu_nodes, the thread runs on its nodes' CPUs
 * (sched_setaffinity, as libnuma's numa_run_on_node_mask); numa_mem_policy,
 * its memory policy (set_mempolicy(2), a raw system call as libnuma makes
 * it, mask of 64 nodes), so that the buffers prepare allocates follow it.
 * default makes no call, as in fio.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "run/run_int.h"
#include "workload/fileio/files.h"

static const char *mode_name(int mode)
{
	static const char *const names[] = { "default", "prefer", "bind", "interleave", "local" };

	return mode >= 0 && mode < 5 ? names[mode] : "?";
}

int run_thread_numa(struct worker *w)
{
	const struct job *job = w->job;
	int rc;

	if (fileio_files(job)->numa.numa_cpu_nodes[0]) {
		cpu_set_t set;

		CPU_ZERO(&set);
		for (unsigned c = 0; c < 1024 && c < CPU_SETSIZE; c++)
			if (fileio_files(job)->numa.numa_cpus[c / 64] >> (c % 64) & 1)
				CPU_SET(c, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			rc = -errno;
			return dbio_err_set(
				&w->err, rc,
				"job '%s' thread %u: cannot run on the CPUs of NUMA nodes %s (numa_cpu_nodes): sched_setaffinity: %s",
				job->name, w->index, fileio_files(job)->numa.numa_cpu_nodes, strerror(-rc));
		}
	}
	if (fileio_files(job)->numa.numa_mem_set) {
		const unsigned long mask = (unsigned long)fileio_files(job)->numa.numa_nodes;

		/* maxnode counts one past the mask's bits, as libnuma passes it */
		if (syscall(SYS_set_mempolicy, fileio_files(job)->numa.numa_mode,
			    fileio_files(job)->numa.numa_nodes ? &mask : NULL,
			    fileio_files(job)->numa.numa_nodes ? 8 * sizeof(mask) + 1 : 0)) {
			rc = -errno;
			return dbio_err_set(
				&w->err, rc,
				"job '%s' thread %u: cannot set its memory policy %s (numa_mem_policy=%s): set_mempolicy: %s",
				job->name, w->index, mode_name(fileio_files(job)->numa.numa_mode),
				fileio_files(job)->numa.numa_mem_policy, strerror(-rc));
		}
	}
	return 0;
}
