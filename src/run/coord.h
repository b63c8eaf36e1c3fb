/*
 * The coordinator: what many processes running the same jobs (the ranks of
 * an MPI job) agree on, handed to the runner in struct run_opts (coord) and
 * used by cmd/ between the phases of a run. Alone (coord NULL) every call
 * is a no-op that answers for the only process; under MPI the ops are
 * mpi/'s (mpi_coord, mpi/mpi.h), so neither run/ nor cmd/jobrun.c knows
 * MPI. Every call but poll and note_run is collective: each process makes
 * it, in the same order. From the thread that called run_group (never a
 * worker).
 */
#ifndef DBIO_RUN_COORD_H
#define DBIO_RUN_COORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/job.h"
#include "util/err.h"

struct json_t;
struct run_stats;

struct run_coord_ops {
	/* 0 when every process's rc was 0; else the lowest failing one's
	 * code, its message in err on every process (mpi_agree). */
	int (*agree)(void *ctx, int rc, struct dbio_err *err);
	/* Every process's plan text against the first's (mpi_agree_plan). */
	int (*agree_plan)(void *ctx, const char *plan, size_t len, struct dbio_err *err);
	/* Whether mine is true on any process. */
	bool (*any)(void *ctx, bool mine);
	/* The barrier at a phase of a group: "layout", "start", "end" (as
	 * agree, with what a phase needs besides: mpi_phase). */
	int (*barrier)(void *ctx, const char *phase, int rc, struct dbio_err *err);
	/* While the threads run: tell a failure here (failed), and whether
	 * another process failed (mpi_poll). Not collective. */
	bool (*poll)(void *ctx, bool failed);
	/* At a stonewall: the most reads and writes of any process. */
	uint64_t (*most)(void *ctx, uint64_t mine);
	/* Note when a run measured here (mpi_note_run). Not collective. */
	int (*note_run)(void *ctx, size_t job, size_t run, const struct run_stats *st);
	/* Each process's own directories under the targets (mpi_rank_dirs),
	 * and their removal (mpi_rank_dirs_remove). */
	int (*dirs)(void *ctx, struct jobset *set, struct dbio_err *err);
	void (*dirs_remove)(void *ctx, bool keep);
	/* Every process's result merged at the first (mpi_gather). */
	int (*gather)(void *ctx, struct json_t *result, struct json_t **merged, struct dbio_err *err);
};

struct run_coord {
	const struct run_coord_ops *ops;
	void *ctx;
	int rank; /* this process's number: 0 prints and writes */
};

/* The calls, each a no-op answering for the only process when c is NULL:
 * agree and barrier return rc, agree_plan 0, any mine, poll false, most
 * mine, note_run and dirs 0, gather 0 with *merged NULL (keep your own),
 * rank 0. */
int run_coord_agree(const struct run_coord *c, int rc, struct dbio_err *err);
int run_coord_agree_plan(const struct run_coord *c, const char *plan, size_t len, struct dbio_err *err);
bool run_coord_any(const struct run_coord *c, bool mine);
int run_coord_barrier(const struct run_coord *c, const char *phase, int rc, struct dbio_err *err);
bool run_coord_poll(const struct run_coord *c, bool failed);
uint64_t run_coord_most(const struct run_coord *c, uint64_t mine);
int run_coord_note_run(const struct run_coord *c, size_t job, size_t run, const struct run_stats *st);
int run_coord_dirs(const struct run_coord *c, struct jobset *set, struct dbio_err *err);
void run_coord_dirs_remove(const struct run_coord *c, bool keep);
int run_coord_gather(const struct run_coord *c, struct json_t *result, struct json_t **merged,
		     struct dbio_err *err);
int run_coord_rank(const struct run_coord *c);

#endif
