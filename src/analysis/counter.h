/*
 * The counter registry: the kernel's counters a run records
 * (runs[].counters, runs[].sched; result/counters.c writes them raw) as
 * figures a reader can compare between runs — each normalised per
 * operation of the job (device flushes per write, page faults per
 * insert) or as a share of the run's time (I/O pressure) — declared once,
 * with unit and meaning. `dbio help counters` lists the table (also into
 * docs/counters.md and the man page: make docs), counter_annotate writes
 * each run's figures into the result beside the raw counters, and compare
 * explains a change with them (analysis/explain.h).
 *
 * The counters of a device are those of the filesystem's own device
 * (counters.total.disk[0]): the level the job's I/O reaches first.
 */
#ifndef DBIO_ANALYSIS_COUNTER_H
#define DBIO_ANALYSIS_COUNTER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* How a counter becomes a figure. */
enum counter_norm {
	COUNTER_PER_OP, /* its delta over the run / the job's data operations (reads, writes, inserts …) */
	COUNTER_PCT_TIME,    /* a time (in µs after scale) as a percent of the sampled time */
	COUNTER_PCT_THREADS, /* a time of the threads (ns) as a percent of their wall-clock time
				(sched.wall_ns) */
};

struct counter {
	const char *name;  /* "device_flushes": the key in runs[].counters.per_op */
	const char *label; /* "device flushes": what compare's explanation says */
	const char *unit;  /* of the figure, before "per <op>": "flushes", "sectors", "%" */
	const char *path;  /* under runs[].counters.total, or "sched.…", "rusage.…" under the run */
	double scale;	   /* multiplies the raw value (512-byte sectors of bytes: 1/512) */
	enum counter_norm norm;
	const char *meaning; /* one sentence for help and docs */
	/* The raw value's resolution, in its own unit: a run whose value is
	 * under it may have done one step's worth (rusage's CPU times are
	 * split between user and system a clock tick at a time: 0.01 s);
	 * 0: exact, as a count. */
	double step;
};

extern const struct counter counter_registry[];
extern const size_t counter_count;

/* The data operations of a run (ops.<type>.count summed over the types
 * that move data: read, write, trim, insert, lookup, update) into *ops,
 * and the name of the one with most ("write"); NULL when it has none. */
const char *counter_per_op(const json_t *run, double *ops);

/* Whether c is read from the run itself (sched, rusage) rather than from
 * runs[].counters.total. */
bool counter_of_run(const struct counter *c);

/* Counter c's figure for run; false when the run lacks the counter (no
 * samples, no such device field on this kernel, no mem_limit cgroup) or,
 * per op, did no data operations. */
bool counter_value(const struct counter *c, const json_t *run, double *value);

/* Counter c's resolution (its step) as a figure of run, normalised as
 * counter_value normalises the value: 0 for an exact counter; false as
 * counter_value. A figure under it is not told from it. */
bool counter_step(const struct counter *c, const json_t *run, double *step);

/* Add runs[].counters.per_op = { per: "write", ops: N, <name>: figure … }
 * to every run of job that has counters (only the figures it has). */
void counter_annotate(json_t *job);

/* 0, or -1 with *bad naming a row without name, label, unit, path,
 * scale or meaning, or a name used twice. */
int counter_registry_check(const char **bad);

#endif
