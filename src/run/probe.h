/*
 * The stall probe: while a job runs, a light foreground task every
 * probe_interval — a 4 KiB write + fdatasync, or a 4 KiB read of a file
 * just dropped from the cache — timed, and every time it takes longer than
 * probe_stall recorded with its time into the run: S2's "the desktop froze
 * for 5-10 s while the disk was idle", measured.
 */
#ifndef DBIO_RUN_PROBE_H
#define DBIO_RUN_PROBE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "job/job.h"
#include "stats/hist.h"
#include "util/err.h"

#define PROBE_MAX_STALLS 4096

struct probe_stall {
	uint64_t t_ns;	 /* when the probe started, from the gate */
	uint64_t lat_ns; /* how long it took */
};

struct probe {
	const struct job *job;
	int dirfd;
	char name[192]; /* dbio.<job>.probe */
	char path[4300];
	int fd;
	bool created;
	uint64_t origin_ns;
	pthread_t thread;
	bool started;
	atomic_int stop;
	struct hist lat; /* every probe */
	struct probe_stall *stalls;
	size_t nstalls;
	uint64_t stalls_dropped; /* beyond PROBE_MAX_STALLS */
	int error;		 /* -errno of the first failed probe, 0 */
};

/* Create the probe's file in dirfd (O_EXCL) and allocate; 0 or -errno. */
int probe_init(struct probe *p, const struct job *job, int dirfd, const char *dir_path, struct dbio_err *err);

/* Start probing, times counted from origin_ns. */
int probe_start(struct probe *p, uint64_t origin_ns, struct dbio_err *err);

/* Stop and join the probe thread. */
void probe_stop(struct probe *p);

/* Remove the file and free; safe after a failed init. */
void probe_release(struct probe *p);

#endif
