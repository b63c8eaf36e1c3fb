/*
 * The jobset-wide facts of fio's thread keys: how fio numbers the threads
 * of a run and how many there are, and its run-wide exitall; see
 * plan_threads in plan.h.
 */
#include "plan/plan.h"
#include "workload/fileio/files.h"

void plan_threads(struct jobset *set)
{
	uint64_t base = 0;
	bool exitall = false;

	for (size_t j = 0; j < set->njobs; j++) {
		fileio_files(&set->jobs[j])->pacing.thread_base = base;
		base += set->jobs[j].numjobs;
		exitall |= fileio_files(&set->jobs[j])->pacing.exitall;
	}
	for (size_t j = 0; j < set->njobs; j++) {
		fileio_files(&set->jobs[j])->pacing.exitall_any = exitall;
		fileio_files(&set->jobs[j])->latency.threads_all = base;
	}
}
