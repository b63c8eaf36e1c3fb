/*
 * dbio crash JOB (issue 28): the hook through which a workload running on
 * the power-cut layer checks, at each crash state the layer cuts, what it
 * saw acknowledged. The command (cmd/crash_job.c) arms it with the layer's
 * cut before the run (durable.c holds it); the workload (kv:
 * workload/kv_durable.c, fileio: workload/fileio/durable.c) keeps what
 * was acknowledged, and at each cut reopens its engine on the crash state
 * and looks for every acknowledged record; the layer's thread calls
 * durable_point at each durability point. What was found goes into the
 * worker's struct durable_tally (stats/durable.h), and so into the result.
 * One job, one thread: a process holds one armed probe at a time.
 */
#ifndef DBIO_WORKLOAD_DURABLE_H
#define DBIO_WORKLOAD_DURABLE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/durable.h"

struct durable_probe {
	/* The layer's cut: the durable state in a fresh directory, its fd in
	 * *cutfd (the caller closes it). 0 or -errno. */
	int (*cut)(void *arg, int *cutfd);
	/* Make everything durable now: the state the run starts from (the
	 * engine's files as its open left them). 0 or -errno. */
	int (*settle)(void *arg);
	void *arg;
	const char *root; /* the layer's mount, the job's directory */
	/* The directory the layer is in (the job's as given, open): where a
	 * server whose user cannot reach the mount gets a path to it. */
	int outer_fd;
	unsigned points; /* cut at each of the first N durability points */
	unsigned acks;	 /* and right after K acknowledgements, chosen at random */
	uint64_t seed;	 /* for that choice */
	/* The layer's crash model ("lose", "torn4k"), its injected fault
	 * ("eio-fsync@3", "" when none). */
	const char *model, *fault;
	/* Whether the fault has hit; if so what ("fsync 3 of ...: EIO"). */
	bool (*fault_hit)(void *arg, char *what, size_t len);
};

/* Arm the check for the next run in this process (probe is the caller's
 * until durable_arm(NULL)), or disarm it. */
void durable_arm(const struct durable_probe *probe);

/* Whether a probe is armed (a workload without a check refuses the job). */
bool durable_armed(void);

/* The armed probe, or NULL (the checkers read it at their start). */
const struct durable_probe *durable_probe(void);

/* A checker's hook for the layer's durability points, set at its start
 * (it ignores points while its run is not started). */
void durable_listen(void (*fn)(unsigned long n));

/* The layer's thread, right after durability point n returned: to the
 * hook durable_listen set, if any. */
void durable_point(unsigned long n);

/* What every checker (kv_durable.c, fileio/durable.c) keeps the same
 * way: its lock, the probe of its run, whether the run has started (it
 * cuts only then), what it found, and its check of one crash state
 * (called under lock with the cut's name: "fsync 12", "ack 3"). */
struct durable_checker {
	pthread_mutex_t lock;
	const struct durable_probe *probe;
	bool started;
	struct durable_tally t;
	void (*check)(const char *cut);
};

/* The layer's durability point n for checker c: a cut "fsync N" while
 * its run is started, for the first probe->points of them. */
void durable_checker_point(struct durable_checker *c, unsigned long n);

/* A crash state of checker c that lost lost, checked after the injected
 * fault hit (if it has: what it hit noted): counted apart too. */
void durable_checker_fault(struct durable_checker *c, uint64_t lost);

/* One crash state checked that lost lost acknowledged operations: into
 * the tally's states, states with losses, total and most in one. */
void durable_tally_state(struct durable_tally *t, uint64_t lost);

/* The first acknowledged operation lost, unless one is noted already:
 * its key, the sequence of its acknowledged write, the cut, why. */
void durable_tally_first(struct durable_tally *t, uint64_t key, uint64_t seq, const char *cut,
			 const char *why);

/* K of n operations at random from seed (all of them when k >= n), each
 * set of k equally likely: the acknowledgements (or writes) a cut
 * follows. A calloc'ed flag per operation (the caller frees it), NULL
 * when out of memory. */
uint8_t *durable_choose(uint64_t n, unsigned k, uint64_t seed);

#endif
