/*
 * The block-layer tracer of trace=block: while a group's threads run,
 * bpftrace counts every request the block layer issues to the devices
 * under the targets (the sampler's, sys/devstack.h) at the tracepoints
 * block:block_rq_issue and block:block_rq_complete: per device and
 * request type, the requests and bytes, their sizes and their device
 * latencies (issue to completion) as log2 histograms, and the sum of
 * those latencies. result/ writes them as a run's "trace".
 *
 * dbio runs as root and so does the bpftrace it starts, so nothing of the
 * user's reaches it: the program is made from dbio's own text and the
 * devices' numbers; bpftrace is a root-owned file not writable by others,
 * found on PATH and run from the descriptor it was checked through
 * (fexecve), with an environment of dbio's; its output is read as
 * bpftrace's JSON lines and anything else in it is an error; and it is
 * stopped and reaped on every path out of a run (a killed dbio takes it
 * along: PR_SET_PDEATHSIG).
 */
#ifndef DBIO_RUN_TRACER_H
#define DBIO_RUN_TRACER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "run/sampler.h"
#include "util/err.h"

/* What a request was, from the kernel's rwbs letters (tracer.c's program). */
enum trace_op { TRACE_READ, TRACE_WRITE, TRACE_FLUSH, TRACE_DISCARD, TRACE_OTHER, TRACE_NOPS };

/* log2 buckets as bpftrace's hist(): 0 holds the value 0, k >= 1 holds
 * [2^(k-1), 2^k - 1]. */
#define TRACE_NBUCKETS 64

struct trace_op_stats {
	uint64_t requests, bytes;	    /* issued */
	uint64_t completed;		    /* completed after an issue the tracer saw */
	uint64_t device_ns;		    /* their issue-to-completion times, summed */
	uint64_t size_hist[TRACE_NBUCKETS]; /* bytes of each issued request */
	uint64_t lat_hist[TRACE_NBUCKETS];  /* ns of each completed one */
};

struct trace_dev {
	unsigned major, minor;
	struct trace_op_stats op[TRACE_NOPS];
};

/* One run's trace: the sampler's devices, in its order. */
struct trace_stats {
	unsigned ndev;
	struct trace_dev dev[SAMPLER_MAX_DEVICES];
};

struct tracer {
	bool started;	 /* tracer_start was called: the fds below are t's */
	pid_t pid;	 /* bpftrace; 0 when none runs */
	int out_fd;	 /* its standard output (a pipe) */
	int err_fd;	 /* its standard error (an anonymous file) */
	char *buf;	 /* what it printed, read so far */
	size_t len, cap; /* of buf */
	struct trace_stats *stats;
};

/* trace_op's name in a result: "read", "write", "flush", "discard", "other". */
const char *trace_op_name(enum trace_op op);

/* Whether trace=block can run here: a bpftrace on PATH (see above) and
 * the block tracepoints in tracefs. 0, or DBIO_EINPUT with what is
 * missing and what to do, for a job named by where (job file:line). */
int tracer_check(const char *where, const char *job, struct dbio_err *err);

/* Start bpftrace on s's devices and wait until its probes are attached
 * (or it failed, or *stop was set). 0, or an error with what bpftrace
 * said; t needs tracer_release either way. */
int tracer_start(struct tracer *t, const struct sampler *s, const atomic_int *stop, struct dbio_err *err);

/* Stop bpftrace, read what it counted and reap it: *out (owned, free())
 * the run's trace. 0, or an error naming what was wrong in its output. */
int tracer_stop(struct tracer *t, struct trace_stats **out, struct dbio_err *err);

/* Kill and reap a bpftrace still running, close and free what t holds;
 * safe on a zeroed t and twice. */
void tracer_release(struct tracer *t);

/* One line of bpftrace's JSON output into ts (its devices already set):
 * 0, or -1 with why (at most len bytes). Blank lines are nothing. */
int trace_parse_line(struct trace_stats *ts, const char *line, char *why, size_t len);

#endif
