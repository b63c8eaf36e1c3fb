/* Private to result/: the parts of a run's entry written by files of
 * their own. */
#ifndef DBIO_RESULT_RESULT_INT_H
#define DBIO_RESULT_RESULT_INT_H

#include <jansson.h>
#include <stdint.h>

#include "job/job.h"
#include "run/run.h"

/* The run's "steadystate" object (steady.c): st->steady.n must be
 * non-zero. NULL when out of memory. */
/* The value of job's key name through the job's key tables, which is how
 * result/ reads the keys of the file workloads (it includes no workload):
 * a number (a boolean 0 or 1, bytes, a duration in ns; 0 for text or a key
 * the job has not), or the text of a text key ("" otherwise). */
uint64_t result_key_u64(const struct job *job, const char *name);
const char *result_key_text(const struct job *job, const char *name);

json_t *result_steady_json(const struct job *job, const struct run_stats *st);

/* The run's "counters" object (counters.c): the system counters' deltas
 * per sample interval and over the run; s->nsamples must be >= 2. NULL
 * when out of memory. */
json_t *result_counters_json(const struct sampler *s);

/* A run's "trace" (trace=block): bpftrace's counts per device of ts,
 * named from s where its devices are the same. */
json_t *result_trace_json(const struct trace_stats *ts, const struct sampler *s);

/* The "rusage" object of u over elapsed_ns (result.c), a run's or a
 * phase's. */
json_t *result_usage_json(const struct usage *u, uint64_t elapsed_ns);

/* The run's "phases" array (phases.c), each with its figures and their
 * write amplification, and the run's "figures": the amplification over
 * all its phases, when they put bytes. st->nphases must be non-zero. */
void result_add_phases(json_t *run, const struct run_stats *st);

#endif
