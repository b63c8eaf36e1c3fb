/*
 * The result: everything a run measured, as one JSON tree (jansson). The
 * same tree is written to result files and read back by every view, so
 * reports never look at live state. Its shape is versioned by
 * schema_version and documented in docs/result.schema.json. The statistics
 * across repeats (jobs[].summary) are added from the metric registry, by
 * analysis/metric.h's metric_summarize.
 */
#ifndef DBIO_RESULT_RESULT_H
#define DBIO_RESULT_RESULT_H

#include <jansson.h>
#include <stdio.h>

#include "job/job.h"
#include "run/run.h"
#include "util/err.h"

#define RESULT_SCHEMA_VERSION 1

/* A new result with tool, command line (argv), start time and the host
 * description; NULL when out of memory. */
json_t *result_new(int argc, char **argv);

/* Append one run of job (creating the job's entry on first use, matched by
 * position index) with what stats measured. percentiles[] of the job are
 * reported beside the standard ones. 0 or -ENOMEM. */
int result_add_run(json_t *result, size_t index, const struct job *job, const struct run_stats *stats);

/* The entry ops.<type> of a run: count, bytes, rates over elapsed_ns,
 * lat_ns with the percentiles pcts (a job's percentile_list) beside the
 * standard ones, lat_hist. NULL when out of memory. */
json_t *result_op_json(const struct op_stats *s, const struct opt_pcts *pcts, uint64_t elapsed_ns);

/* The entry of a job that did not run, at index: one run of nothing (no
 * thread, no time, every count 0, as fio's JSON shows such a job) and
 * "skipped": why, a sentence. 0 or -ENOMEM. */
int result_add_skipped(json_t *result, size_t index, const struct job *job, const char *why);

/* Record the end: finished_at, partial, and the error text, or no error
 * when error is NULL (one recorded before is removed). */
void result_finish(json_t *result, bool partial, const char *error);

/* Write the result to path atomically (temporary file in the same
 * directory, fsync, rename). 0 or -errno with detail in err. */
int result_write(const json_t *result, const char *path, struct dbio_err *err);

/* json_dumps(v, flags) with no raw control character in the text: DEL and
 * C1 (U+007F..U+009F) escaped as \u00XX as jansson escapes C0, so the text
 * parses to the same tree and shows nothing raw on a terminal
 * (docs/safety.md §6). Every JSON text dbio writes or prints is made here;
 * caller frees; NULL when out of memory. */
char *result_dumps(const json_t *v, size_t flags);

/* JSON text of the result, indented, its real numbers to
 * RESULT_REAL_DIGITS significant digits; caller frees. */
char *result_dump(const json_t *result);

/* The significant digits of a real number in a result file. */
#define RESULT_REAL_DIGITS 10

/* Round every real number under v, in place, to what the file keeps of
 * it (RESULT_REAL_DIGITS), so that a figure shown from the tree in memory
 * is the figure `dbio report` shows from the file: a mean at a rounding
 * boundary (148378.25) would otherwise print one way at the end of the
 * run and the other way from the file. result_add_run, metric_summarize
 * and result_finish (all but jobs[]) settle what they add; the MPI merge
 * settles the merged tree. */
void result_settle(json_t *v);

/* Whether r is a result this dbio reads, the one rule for every reader
 * (compare, report, plot, sweep --resume): a JSON object with an integer
 * schema_version from 1 to RESULT_SCHEMA_VERSION, tool.name "dbio", a
 * jobs array, and every number a figure a run can make: none negative
 * (but under "steadystate" and a job's "options"), none beyond 1e18 in
 * size. 0, or DBIO_EINPUT with "<name>: ..." in err, naming the first
 * bad number by its JSON path (jobs[0].runs[0].ops.read.lat_ns.p99). */
int result_check(const json_t *r, const char *name, struct dbio_err *err);

/* Read the result file at path for a view (compare, report, plot) and
 * check it with result_check. 0 with the tree in *out (the caller's
 * reference), or DBIO_EINPUT with "<path>: ..." in err: cannot read, not
 * JSON (with the line), or not a result. The tree is lean (load.c): every
 * lat_hist keeps its buckets packed, readable only by result_hist_load, so
 * it must never be written out again; sweep --resume, which writes what
 * it read, uses result_load_whole. Peak memory is the lean tree plus one
 * job's whole tree, about 2.5 times the file instead of jansson's 12. */
int result_load(const char *path, json_t **out, struct dbio_err *err);

/* result_load of an open stream; name is the file's name in errors. */
int result_load_stream(FILE *fp, const char *name, json_t **out, struct dbio_err *err);

/* result_load with jansson's whole tree, buckets as written: for a result
 * that is written out again (sweep --resume). */
int result_load_whole(const char *path, json_t **out, struct dbio_err *err);

/* Let go of a loaded result tree (result_load) right before the command
 * returns to exit: jansson's tree of a 150 MB result takes seconds to
 * free and the kernel takes the memory back at once, so it is only freed
 * in a sanitizer's build, whose leak check must stay exact (git's
 * UNLEAK). NULL does nothing. */
void result_release_at_exit(json_t *r);

/* The histogram of an op entry (ops.<type>) back as a struct hist, for
 * merging and recomputing percentiles, from either loader's tree. 0 or
 * DBIO_EFORMAT. */
int result_hist_load(const json_t *op, struct hist *h);

#endif
