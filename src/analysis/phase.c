/*
 * The phases a job went through (kv's inserts, sync and index build,
 * import's, meta's), as its runs record them: the lookup the metric
 * registry (metric.c: which metrics a set of results has) and the figures
 * (figure.c: a phase's row) both make. A leaf of analysis/, so that neither
 * calls the other for it.
 */
#include "analysis/metric.h"

#include "analysis/tree.h"

const char *metric_job_phase(const json_t *job, size_t k)
{
	const json_t *run;
	size_t i;

	/* The phases of the first run that has any: every run of a job goes
	 * through the same ones. */
	json_array_foreach (json_object_get(job, "runs"), i, run) {
		const json_t *phases = json_object_get(run, "phases");

		if (!json_array_size(phases))
			continue;
		if (k < json_array_size(phases))
			return tree_str(json_array_get(phases, k), "name");
		return NULL;
	}
	return NULL;
}
