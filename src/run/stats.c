/*
 * What a run measured (struct run_stats, run.h): made empty before the
 * threads start and released after the result holds it. Apart from
 * runner.c so that the memory-limited child (limited.c), which receives
 * the statistics over a pipe, releases them without calling into the
 * runner.
 */
#include <stdlib.h>
#include <string.h>

#include "run/run_int.h"

void run_stats_release(struct run_stats *stats)
{
	free(stats->probe.lat);
	free(stats->probe.stalls);
	memset(&stats->probe, 0, sizeof(stats->probe));
	sampler_release(&stats->counters);
	free(stats->trace);
	stats->trace = NULL;
	steady_release(&stats->steady);
	for (size_t i = 0; i < stats->nseries; i++)
		series_release(&stats->series[i]);
	free(stats->series);
	stats->series = NULL;
	stats->nseries = 0;
	free(stats->targets);
	stats->targets = NULL;
	stats->ntargets = 0;
	for (unsigned i = 0; i < sizeof(stats->phases) / sizeof(stats->phases[0]); i++) {
		free(stats->phases[i].lat);
		stats->phases[i].lat = NULL;
	}
}

void run_stats_init(struct run_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	for (int t = 0; t < OP_NTYPES; t++)
		op_stats_init(&stats->ops[t]);
	hist_init(&stats->slat_ns);
	queue_lat_init(&stats->qlat);
}
