/*
 * fio's log files and command priorities in a file worker: each I/O's
 * priority drawn as cmdprio says (cmdprio_pick, in the queued loop), and
 * the checks of the keys once the job's engine is known. The records are
 * stats/iolog.h's, the files are written by the runner (run/logs.c).
 */
#ifndef DBIO_WORKLOAD_LOGS_H
#define DBIO_WORKLOAD_LOGS_H

#include <stdint.h>

#include "engine/engine.h"
#include "job/job.h"
#include "stats/iolog.h"
#include "stats/opstats.h"
#include "util/err.h"
#include "util/rng.h"
#include "workload/fileio/files.h"

/* The ioprio value of the next I/O of op and len bytes: as fio, one draw
 * from 0 to 99 against the cumulative percentages of the entries of its
 * direction for its size (cmdprio_bssplit) or any size
 * (cmdprio_percentage); the job's default when none takes it. No draw
 * when the direction has no entry. */
static inline unsigned cmdprio_pick(const struct job *job, struct rng *rng, enum op_type op, uint64_t len)
{
	const int d = op == OP_WRITE;
	const unsigned n = fileio_files(job)->logs.cmdprio_n[d];
	unsigned r, acc = 0;

	if (!n)
		return fileio_files(job)->logs.cmdprio_default;
	r = (unsigned)rng_below(rng, 100);
	for (unsigned i = 0; i < n; i++) {
		if (fileio_files(job)->logs.cmdprio_bs[d][i] &&
		    fileio_files(job)->logs.cmdprio_bs[d][i] != len)
			continue;
		acc += fileio_files(job)->logs.cmdprio_perc[d][i];
		if (r < acc)
			return fileio_files(job)->logs.cmdprio_val[d][i];
	}
	return fileio_files(job)->logs.cmdprio_default;
}

/* Record a measured read, write or trim req that completed at end_ns into
 * l, with its completion and submission latencies; fio's direction: 0
 * read, 1 write, 2 trim. */
static inline void logs_io(struct iolog *l, const struct io_req *req, uint64_t clat_ns, uint64_t slat_ns,
			   uint64_t end_ns)
{
	const int dir = req->op == OP_WRITE ? 1 : req->op == OP_TRIM ? 2 : 0;

	iolog_add(l, dir, req->len, req->off, req->prio, clat_ns, slat_ns, end_ns);
}

/* The validation of a file job's log and cmdprio keys, once its engine is
 * known: job_validate_logs, and cmdprio's keys refused for an engine that
 * cannot give an I/O its own priority. DBIO_EINPUT naming the key. */
int logs_validate(struct job *job, struct dbio_err *err);

/* For a file workload whose loop is not fileio's (oltp): refuse the log
 * and cmdprio keys, naming the workload. */
int logs_refuse(const struct job *job, struct dbio_err *err);

#endif
