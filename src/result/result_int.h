/* Private to result/: the parts of a run's entry written by files of
 * their own. */
#ifndef DBIO_RESULT_RESULT_INT_H
#define DBIO_RESULT_RESULT_INT_H

#include <jansson.h>

#include "job/job.h"
#include "run/run.h"

/* The run's "steadystate" object (steady.c): st->steady.n must be
 * non-zero. NULL when out of memory. */
json_t *result_steady_json(const struct job *job, const struct run_stats *st);

/* The run's "counters" object (counters.c): the system counters' deltas
 * per sample interval and over the run; s->nsamples must be >= 2. NULL
 * when out of memory. */
json_t *result_counters_json(const struct sampler *s);

#endif
