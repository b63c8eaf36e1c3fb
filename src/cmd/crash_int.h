/*
 * Private to dbio crash: what its two modes share. crash.c drives a writer
 * (--exec CMD DIR) and cleans up (--cleanup DIR); crash_job.c runs a job
 * on the layer (dbio crash JOBFILE); crash_layer.c mounts the layer for a
 * job, for crash_job.c and for a job's crash=1 in dbio run and sweep
 * (jobrun.c).
 */
#ifndef DBIO_CMD_CRASH_INT_H
#define DBIO_CMD_CRASH_INT_H

#include <stdbool.h>
#include <stddef.h>

/* The directory dir, resolved as every target of dbio is
 * (util/safepath.h): an fd, or minus the exit status after saying why. */
int crash_open_dir(const char *dir);

/* dbio crash JOBFILE [--KEY=VALUE...]: the exit status. */
int crash_job_main(int argc, char **argv);

struct powercut_conf;
struct powercut;

/* --model MODEL, --fault FAULT (and the job keys crash_model=,
 * crash_fault=) into c: 0, or 2 after saying what is accepted. */
int crash_model_arg(const char *v, struct powercut_conf *c);
int crash_fault_arg(const char *v, struct powercut_conf *c);

/* The crash states dbio crash checks unless told (--cuts, --acks), and
 * a job's crash=1 always: right after the first CRASH_CUTS durability
 * points and CRASH_ACKS acknowledgements chosen at random. */
#define CRASH_CUTS 100
#define CRASH_ACKS 100

struct job;
struct run_opts;
struct run_stats;
struct dbio_err;

struct durable_probe;

/* The layer mounted in dirfd (job's directory, kept open until
 * crash_layer_down) with conf (the job's crash_model= and crash_fault=
 * in it unless model_set, fault_set: an option said) and probe armed on
 * it (its points and acks the caller's; fault its buffer): 0, or the exit
 * status after saying why not. */
int crash_layer_up(const struct job *job, int dirfd, struct powercut_conf *conf, bool model_set,
		   bool fault_set, struct durable_probe *probe, char *fault, size_t flen,
		   struct powercut **pc);
void crash_layer_down(struct powercut *pc);

/* Why dbio crash cannot check job, 1, with *key the key it is about and
 * why what was wrong with it ("'oltp': dbio crash checks ..."); or 0. */
int crash_refusal(const struct job *job, const char **key, char *why, size_t len);

/* run_group for a group of jobs, the one job of a crash=1 group run on
 * the layer mounted in its directory with its checks armed (the result's
 * durability section); other groups as run_group runs them. */
int crash_run_group(const struct job *jobs, size_t n, const struct run_opts *opts, struct run_stats *stats,
		    struct dbio_err *err);

#endif
