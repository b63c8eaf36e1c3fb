/*
 * IOR's stonewalling for a file worker (stonewall_s, stonewall_wearout):
 * the stonewall a job's threads share. The runner makes one per job that
 * has stonewall_s and sets its time when the group's gate opens; each
 * thread checks it in its loop (one compare per I/O) and, when it passes
 * it, tells it its work (its reads and writes so far and their bytes).
 * Without wear-out that is the thread's end. With wear-out the thread
 * waits there until the runner's thread, once every thread of the job
 * has told its work, has the ranks agree on the most work any rank did
 * (the coordinator's most, run/coord.h: MPI_Allreduce(MAX) under MPI; alone, its own) and
 * publishes what is left for this rank; the threads then share that
 * remainder through one atomic counter, taking one I/O from it before
 * each I/O they issue, so that the rank's threads together do exactly
 * the agreed work (unless their files run out first). Only the runner's
 * thread calls MPI: a worker never does.
 */
#ifndef DBIO_WORKLOAD_STONEWALL_H
#define DBIO_WORKLOAD_STONEWALL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct worker;

struct stonewall {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* a thread told its work; the remainder was published */
	uint64_t at_ns;	     /* CLOCK_MONOTONIC: when it stands (the gate + stonewall_s) */
	bool wearout;
	/* under lock */
	unsigned threads, told; /* the job's threads, and those that told their work */
	uint64_t ops, bytes;	/* their reads and writes and bytes when they told it, summed */
	uint64_t told_ns;	/* CLOCK_MONOTONIC when the last one told it */
	bool decided;		/* the remainder is published: waiting threads go on */
	/* wear-out: reads and writes the job's threads may still issue, together */
	atomic_uint_fast64_t left;
};

/* Make s for threads threads of a job with stonewall_s (wearout: with
 * stonewall_wearout); its time is set by stonewall_arm. 0 or -errno. */
int stonewall_init(struct stonewall *s, unsigned threads, bool wearout);

/* Free what stonewall_init made; s can be one that stonewall_init failed
 * to make whole (zeroed). */
void stonewall_release(struct stonewall *s);

/* Set the time it stands, at_ns (CLOCK_MONOTONIC), before the threads
 * may look at it (the runner's gate publishes it). */
void stonewall_arm(struct stonewall *s, uint64_t at_ns);

/* The worker's side, w->wall set. The thread has passed the stonewall:
 * tell it the thread's work (w->progress_ops and the bytes of its
 * reads, writes and trims so far, measured). Without wear-out, false:
 * the thread stops. With wear-out, wait for the remainder and return true
 * when there is one to share (the thread goes on, calling stonewall_take
 * before each I/O), false when there is none or a stop flag of w was set
 * while waiting. */
bool stonewall_pass(struct worker *w);

/* When the loop of a thread whose job stops at deadline (UINT64_MAX:
 * none) must look up: the stonewall, when there is one before it and
 * the thread has not passed it, else deadline. */
uint64_t stonewall_stop_at(const struct worker *w, uint64_t deadline);

/* At now >= *stop_at: whether the thread goes on. True only at the
 * stonewall, before deadline, with wear-out and work left to share
 * (stonewall_pass); *stop_at is then deadline. */
bool stonewall_past(struct worker *w, uint64_t now, uint64_t deadline, uint64_t *stop_at);

/* Wear-out: take one I/O of the job's remainder; false when it is spent
 * (the thread issues nothing more). One compare-and-swap on the
 * counter the job's threads share, only after the stonewall. */
bool stonewall_take(struct stonewall *s);

/* The runner, when a thread ended (or never started): tell its work now
 * if it has not (a thread whose files ran out before the stonewall, or
 * that failed). Never waits. */
void stonewall_leave(struct worker *w);

/* The runner's thread, after the time it stands: wait until every thread
 * of the job has told its work, and give this rank's reads and writes
 * then (*ops), their bytes (*bytes) and when the last told it
 * (*told_ns). */
void stonewall_wait(struct stonewall *s, uint64_t *ops, uint64_t *bytes, uint64_t *told_ns);

/* The runner's thread: the agreed work of every rank (target_ops, the
 * most any rank did, at least this rank's) is published; with wear-out
 * the job's threads now share the difference. */
void stonewall_decide(struct stonewall *s, uint64_t target_ops);

#endif
