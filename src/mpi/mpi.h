/*
 * dbio under MPI (Open MPI's mpirun, or any launcher of an MPI job): every
 * rank runs the same jobs in a directory of its own (rank<r> under each
 * target), the ranks agree at each phase of a group (laid out, started,
 * ended) so they start together and a failure of one stops all, and rank
 * 0 gathers every rank's result and merges them into one (merge.c). It is
 * the coordinator of run/coord.h (mpi_coord): cmd/run.c and cmd/sweep.c
 * join the job and hand it on; run/ and cmd/jobrun.c call only the
 * coordinator. In a build
 * without MPI (no DBIO_HAVE_MPI) mpi_world_start always says "not under
 * MPI" and dbio runs alone, as it always did. docs/mpi.md tells the rest.
 */
#ifndef DBIO_MPI_MPI_H
#define DBIO_MPI_MPI_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "job/job.h"
#include "run/run.h"
#include "util/err.h"

struct mpi_world;

/* Whether an MPI launcher started this process as a rank (its environment
 * names one: OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_RANK). */
bool mpi_launched(void);

/* Join the MPI job when a launcher started this process (mpi_launched),
 * in a build with MPI. 0 with *out NULL when not under MPI: run alone;
 * DBIO_EINPUT under a launcher in a build without MPI. 0 with *out the
 * world, or -EIO with the reason in err. A rank other than 0 prints
 * nothing from then on (standard output and error go to /dev/null): its
 * errors reach rank 0 through mpi_agree. */
int mpi_world_start(struct mpi_world **out, struct dbio_err *err);

/* The world as the coordinator of the runner and of cmd/ (run/coord.h):
 * its ops are mpi_agree, mpi_agree_plan, mpi_any, mpi_phase (the
 * barrier), mpi_poll, mpi_most, mpi_note_run, mpi_rank_dirs,
 * mpi_rank_dirs_remove and mpi_gather; valid until mpi_world_end. NULL
 * for w NULL (alone: every call a no-op), and in a build without MPI. */
const struct run_coord *mpi_coord(struct mpi_world *w);

/* Leave the MPI job (MPI_Finalize) and free w; NULL is accepted. */
void mpi_world_end(struct mpi_world *w);

int mpi_rank(const struct mpi_world *w);
int mpi_size(const struct mpi_world *w);

/* Collective: every rank calls it with its own rc (0 or an error code with
 * the message in err). Returns 0 when every rank's rc was 0; otherwise the
 * code of the lowest failing rank, whose message is put into err on every
 * rank (replacing what was there), as "rank R on HOST: <message>" unless
 * every rank failed (bad input fails everywhere alike: no rank to name).
 * When that rank was stopped by a signal (DBIO_ESTOPPED), run_stop_signal
 * is raised to it on every rank, so that all exit 128 + that signal.
 *
 * Every collective of this file gives up when the launcher itself sends
 * this rank its stop signal (run_stop_sender is the parent: Open MPI does
 * so when another rank died, and SIGKILLs a second later): the world is
 * abandoned, each later call answers for this rank alone (mpi_agree: the
 * launcher's stop as the error; mpi_gather: rank 0's own result), and
 * mpi_world_end does not finalize, so the rank removes its files in time. */
int mpi_agree(struct mpi_world *w, int rc, struct dbio_err *err);

/* Collective, after every rank built its jobs: every rank's plan (the
 * text of plan_describe and the options of the command line that change
 * what runs) against rank 0's, by a digest of each; when one differs,
 * rank 0's text goes to all, and each rank that differs fails with its
 * first difference ("the plan differs from rank 0's: job 'a' key 'bs':
 * '8192' here, '4096' on rank 0: ..."), DBIO_EINPUT, which mpi_agree
 * brings to every rank with its rank and host. 0 when all agree. */
int mpi_agree_plan(struct mpi_world *w, const char *plan, size_t len, struct dbio_err *err);

/* Collective: whether mine is true on any rank (so that every rank takes
 * the same way: a job that ended the run with exit_what=all on one). */
bool mpi_any(struct mpi_world *w, bool mine);

/* The coordinator's barrier (ctx: the world): mpi_agree at each
 * phase of a group; at "start" it also notes the time the ranks passed it,
 * the origin of mpi_note_run's spans, and starts listening for another
 * rank's failure (mpi_poll), until "end". */
int mpi_phase(void *ctx, const char *phase, int rc, struct dbio_err *err);

/* The coordinator's most (ctx: the world): at a job's
 * stonewall (stonewall_s), the most reads and writes any rank had done
 * (MPI_Allreduce with MPI_MAX), from the thread that runs the group. */
uint64_t mpi_most(void *ctx, uint64_t mine);

/* The coordinator's poll (ctx: the world), while the threads
 * run: a failure here (failed) is told to every other rank at once, and
 * true is returned when another rank told of its own, so that every rank
 * stops within a poll (a second) of the first failure instead of running
 * to its end; the error itself reaches all at the end barrier. */
bool mpi_poll(void *ctx, bool failed);

/* Give each rank its own directory: every directory of every job becomes
 * <dir>/rank<r>, made with mkdirat under dir opened with O_NOFOLLOW (a
 * rank<r> that is there already is used when it is a real directory, and
 * refused, DBIO_EUNSAFE, when it is a symlink or not a directory; the
 * target checks then look into it as into any target). The default
 * ./dbio-scratch is made first when missing. The original directory
 * strings are kept for the merged result, appended to those of earlier
 * calls (a sweep calls it once per point: job indexes of the result in
 * order). 0 or an error in err. */
int mpi_rank_dirs(struct mpi_world *w, struct jobset *set, struct dbio_err *err);

/* Remove the rank<r> directories mpi_rank_dirs made (unless keep), and the
 * default scratch directory when it made it and it is empty. A directory
 * that cannot be removed is left as it is (the runner already warned of
 * what it could not remove inside). */
void mpi_rank_dirs_remove(struct mpi_world *w, bool keep);

/* Note when run number `run` of job index `job` measured on this rank
 * (from the start barrier: first thread's start to last thread's end), for
 * the aggregate time of the merged run. 0 or -ENOMEM. */
int mpi_note_run(struct mpi_world *w, size_t job, size_t run, const struct run_stats *st);

/* Collective: gather every rank's result at rank 0 and merge them there
 * (merge.c) into *merged (a new reference) with the ranks section; other
 * ranks get *merged NULL, and send their result trimmed (mpi_part_trim:
 * result is changed). 0 or an error in err (the same on every rank). */
int mpi_gather(struct mpi_world *w, json_t *result, json_t **merged, struct dbio_err *err);

/* Take out of every run of result what the merge leaves out of a rank
 * other than 0 (its counters, series, per-directory targets, phases,
 * steadystate, probe, memory, latency_target), so that what a rank sends
 * does not grow with the run's length. */
void mpi_part_trim(json_t *result);

/* One rank's part of a merge: its result, rank, host and the spans of its
 * runs. */
struct mpi_part {
	json_t *result;
	int rank;
	const char *host;
	const json_t *spans; /* [[job, run, start_ns, end_ns], ...] from the start barrier */
};

/* Merge parts[0..n) (by rank, the same jobs on each) into a new result: a
 * copy of rank 0's with every run's ops added across ranks (histograms by
 * adding buckets, counts and bytes summed, rates over the aggregate time:
 * the last rank's end less the first rank's start), rusage summed, the
 * per-host parts of a run (series, targets, phases, steadystate, probe,
 * memory, latency_target) left out, each job's directory as the user gave
 * it (dirs[j]), and a "ranks" section: per rank and run the figures of
 * each op type and their min, mean, max and standard deviation across
 * ranks, and one entry per host with its system. NULL when out of memory
 * or a part is not a result of the same jobs (DBIO_EFORMAT in err). */
json_t *mpi_merge(const struct mpi_part *parts, size_t n, char *const *dirs, size_t ndirs,
		  struct dbio_err *err);

#endif
