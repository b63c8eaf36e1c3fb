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

#endif
