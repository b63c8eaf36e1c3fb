/*
 * Private to dbio crash: what its two modes share. crash.c drives a writer
 * (--exec CMD DIR) and cleans up (--cleanup DIR); crash_job.c runs a job
 * on the layer (dbio crash JOBFILE).
 */
#ifndef DBIO_CMD_CRASH_INT_H
#define DBIO_CMD_CRASH_INT_H

/* The directory dir, resolved as every target of dbio is
 * (util/safepath.h): an fd, or minus the exit status after saying why. */
int crash_open_dir(const char *dir);

/* dbio crash JOBFILE [--KEY=VALUE...]: the exit status. */
int crash_job_main(int argc, char **argv);

struct powercut_conf;

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

/* Why dbio crash cannot check job (why: "workload=oltp: ..."), 1; or 0. */
int crash_refusal(const struct job *job, char *why, size_t len);

/* run_group for a group of jobs, the one job of a crash=1 group run on
 * the layer mounted in its directory with its checks armed (the result's
 * durability section); other groups as run_group runs them. */
int crash_run_group(const struct job *jobs, size_t n, const struct run_opts *opts, struct run_stats *stats,
		    struct dbio_err *err);

#endif
