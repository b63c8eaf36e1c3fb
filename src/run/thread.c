/*
 * fio's keys of a job's threads, applied by the runner around the
 * workload's hooks (runner.c, worker_main): before a thread prepares, its
 * CPUs (cpus_allowed or cpumask, shared or split), nice and I/O priority
 * (prio, prioclass), as fio sets them before its thread's setup; after the
 * start gate, startdelay; and when a thread is done, exitall and
 * exitall_on_error, which stop the other jobs of the group (exit_what).
 * Each call acts on the calling thread only (sched_setaffinity,
 * setpriority and ioprio_set with 0 for who).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "run/run_int.h"
#include "workload/fileio/flow.h"
#include "util/clock.h"
#include "util/rng.h"
#include "util/sleep.h"
#include "workload/fileio/files.h"

#define IOPRIO_WHO_PROCESS 1 /* linux/ioprio.h, which old headers lack */
#define IOPRIO_CLASS_SHIFT 13

static bool cpu_in(const struct job *job, unsigned c)
{
	return fileio_files(job)->pacing.cpus[c / 64] >> (c % 64) & 1;
}

/* "0,2-3", the CPUs of set, into buf: for messages. */
static void cpus_text(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && used < len; c++) {
		int end = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set))
			end++;
		used += (size_t)(end > c ? snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", c,
						    end)
					 : snprintf(buf + used, len - used, "%s%d", used ? "," : "", c));
		c = end;
	}
}

/* The thread's CPUs: the job's set, or with split its (n mod count)-th
 * CPU, n the thread's number over every thread of the job files (fio's
 * thread_number - 1). */
static int set_cpus(struct worker *w)
{
	const struct job *job = w->job;
	const unsigned max = (unsigned)(sizeof(fileio_files(job)->pacing.cpus) * 8);
	unsigned count = 0, pick = 0;
	cpu_set_t set;
	char list[256];

	CPU_ZERO(&set);
	for (unsigned c = 0; c < max; c++)
		count += cpu_in(job, c);
	if (fileio_files(job)->pacing.cpus_allowed_policy == CPUS_SPLIT)
		pick = (unsigned)((fileio_files(job)->pacing.thread_base + w->index) % count);
	for (unsigned c = 0, n = 0; c < max && c < CPU_SETSIZE; c++) {
		if (!cpu_in(job, c))
			continue;
		if (fileio_files(job)->pacing.cpus_allowed_policy == CPUS_SHARED || n == pick)
			CPU_SET(c, &set);
		n++;
	}
	if (sched_setaffinity(0, sizeof(set), &set) == 0)
		return 0;
	int rc = -errno;

	cpus_text(&set, list, sizeof(list));
	return dbio_err_set(&w->err, rc,
			    "job '%s' thread %u: cannot run on CPUs %s (%s): sched_setaffinity: %s",
			    job->name, w->index, list,
			    job_is_set(job, "cpumask") ? "cpumask" : "cpus_allowed", strerror(-rc));
}

int run_thread_setup(struct worker *w)
{
	const struct job *job = w->job;
	int rc;

	if ((fileio_files(job)->pacing.cpus_set && (rc = set_cpus(w))) || (rc = run_thread_numa(w)))
		return rc;
	if (fileio_files(job)->pacing.nice_inc) {
		/* nice(2) as fio calls it: an increment, for this thread */
		errno = 0;
		int now = getpriority(PRIO_PROCESS, 0);

		if ((now == -1 && errno) ||
		    setpriority(PRIO_PROCESS, 0, now + fileio_files(job)->pacing.nice_inc)) {
			rc = -errno;
			return dbio_err_set(
				&w->err, rc, "job '%s' thread %u: cannot add %d to its nice value: %s%s",
				job->name, w->index, fileio_files(job)->pacing.nice_inc, strerror(-rc),
				rc == -EPERM || rc == -EACCES ? " (below 0 needs CAP_SYS_NICE)" : "");
		}
	}
	if (job_is_set(job, "prio") || job_is_set(job, "prioclass")) {
		/* as fio: no class given is best effort */
		const int cls = fileio_files(job)->pacing.prioclass == IOCLASS_NONE
					? IOCLASS_BE
					: fileio_files(job)->pacing.prioclass;

		if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
			    cls << IOPRIO_CLASS_SHIFT | (int)fileio_files(job)->pacing.prio)) {
			rc = -errno;
			return dbio_err_set(
				&w->err, rc,
				"job '%s' thread %u: cannot set its I/O priority (prioclass=%d prio=%llu): ioprio_set: %s%s",
				job->name, w->index, cls, (unsigned long long)fileio_files(job)->pacing.prio,
				strerror(-rc), rc == -EPERM ? " (prioclass=1 needs CAP_SYS_ADMIN)" : "");
		}
	}
	return 0;
}

bool run_thread_delay(struct worker *w)
{
	const struct job *job = w->job;
	uint64_t extra = 0;

	if (fileio_files(job)->pacing.startdelay_hi_ns > fileio_files(job)->pacing.startdelay_lo_ns) {
		/* each thread its own, from a seeded draw, as fio */
		struct rng rng;

		rng_seed(&rng,
			 (job->randseed + fileio_files(job)->pacing.thread_base + w->index) ^ 0x57a27de1ull);
		extra = rng_below(&rng, fileio_files(job)->pacing.startdelay_hi_ns -
						fileio_files(job)->pacing.startdelay_lo_ns + 1);
	}
	return !fileio_files(job)->pacing.startdelay_hi_ns ||
	       sleep_until_ns(w->origin_ns + extra, w->stop, w->job_stop);
}

void run_thread_exit(struct run_group *g, const struct job *job, int rc)
{
	if (!fileio_files(job)->pacing.exitall_any && !(fileio_files(job)->pacing.exitall_on_error && rc))
		return;
	for (size_t j = 0; j < g->n; j++)
		if (fileio_files(job)->pacing.exit_what != EXIT_GROUP || g->jobs[j].groupid == job->groupid)
			atomic_store(&g->job_stop[j], 1);
	if (fileio_files(job)->pacing.exit_what == EXIT_ALL) {
		int none = 0;

		/* the first to end so is the one the result names */
		atomic_compare_exchange_strong(&g->ended_all, &none, (int)(job - g->jobs) + 1);
	}
}

struct flow *run_flow_of(struct run_group *g, const struct job *job)
{
	size_t i = 0;

	if (!fileio_files(job)->pacing.flow)
		return NULL;
	while (i < g->nflows && g->flows[i].id != fileio_files(job)->pacing.flow_id)
		i++;
	if (i == g->nflows)
		flow_init(&g->flows[g->nflows++], fileio_files(job)->pacing.flow_id);
	return &g->flows[i];
}
