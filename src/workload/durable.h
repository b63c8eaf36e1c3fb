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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct durable_probe {
	/* The layer's cut: the durable state in a fresh directory, its fd in
	 * *cutfd (the caller closes it). 0 or -errno. */
	int (*cut)(void *arg, int *cutfd);
	/* Make everything durable now: the state the run starts from (the
	 * engine's files as its open left them). 0 or -errno. */
	int (*settle)(void *arg);
	void *arg;
	const char *root; /* the layer's mount, the job's directory */
	unsigned points;  /* cut at each of the first N durability points */
	unsigned acks;	  /* and right after K acknowledgements, chosen at random */
	uint64_t seed;	  /* for that choice */
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

#endif
