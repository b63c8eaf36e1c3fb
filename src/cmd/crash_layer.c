/*
 * A job on the power-cut layer, for both who run one: dbio crash JOBFILE
 * (crash_job.c) and a job's crash=1 in dbio run and dbio sweep (jobrun.c's
 * groups): whether dbio crash can check the job, the layer mounted in its
 * directory with the checks armed (workload/durable.h), and undone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/crash_int.h"
#include "job/job.h"
#include "powercut/powercut.h"
#include "run/run.h"
#include "workload/durable.h"

static int cut(void *arg, int *cutfd)
{
	return powercut_cut(arg, cutfd);
}

static int settle(void *arg)
{
	return powercut_settle(arg);
}

static bool fault_hit(void *arg, char *what, size_t len)
{
	unsigned long points;

	return powercut_fault_fired(arg, what, len, &points);
}

static void on_point(void *arg, unsigned long n)
{
	(void)arg;
	durable_point(n);
}

int crash_refusal(const struct job *job, const char **key, char *why, size_t len)
{
	if (strcmp(job->workload, "kv") && strcmp(job->workload, "fileio") &&
	    strcmp(job->workload, "postgres")) {
		*key = "workload";
		snprintf(why, len, "'%s': dbio crash checks workload=kv, fileio and postgres for now",
			 job->workload);
	} else if (job->numjobs != 1) {
		*key = "numjobs";
		snprintf(why, len, "'%llu': dbio crash checks one thread (numjobs=1)",
			 (unsigned long long)job->numjobs);
	} else if (job->crash_model[0] &&
		   powercut_parse_model(job->crash_model, &(enum powercut_model){ 0 })) {
		*key = "crash_model";
		snprintf(why, len, "bad value '%s': expected lose, reorder, torn512 or torn4k",
			 job->crash_model);
	} else if (job->crash_fault[0] &&
		   powercut_parse_fault(job->crash_fault, &(struct powercut_conf){ 0 })) {
		*key = "crash_fault";
		snprintf(why, len, "bad value '%s': expected eio-fsync@N, enospc-write@N (N from 1) or none",
			 job->crash_fault);
	} else if (strchr(job->directory, ':')) {
		*key = "directory";
		snprintf(why, len, "'%s': dbio crash runs on one directory, the layer's", job->directory);
	} else {
		return 0;
	}
	return 1;
}

/* The layer mounted in dirfd for job, with conf (the job's keys in it
 * unless an option said, its seed the job's) and the probe armed on it,
 * its cuts and acknowledgements counted as given: 0, or the exit status
 * after saying why not. */
int crash_layer_up(const struct job *job, int dirfd, struct powercut_conf *conf, bool model_set,
		   bool fault_set, struct durable_probe *probe, char *fault, size_t flen,
		   struct powercut **pc)
{
	char err[256];
	int ret = powercut_cleanup(dirfd);

	if (ret < 0) {
		cmd_error("crash: %s: cannot remove a killed run's layer: %s", job->directory,
			  strerror(-ret));
		return 1;
	}
	/* The job's keys (checked by crash_refusal), unless an option said. */
	if (!model_set && job->crash_model[0])
		powercut_parse_model(job->crash_model, &conf->model);
	if (!fault_set && job->crash_fault[0])
		powercut_parse_fault(job->crash_fault, conf);
	if (conf->fault != POWERCUT_NO_FAULT && strcmp(job->workload, "kv")) {
		struct dbio_err ferr = { 0 };

		job_fail(
			job, "crash_fault", &ferr,
			"a fault (--fault, crash_fault=) is checked on workload=kv only for now: %s; drop the fault, or give a kv job",
			!strcmp(job->workload, "fileio")
				? "a fileio job stops at its first I/O error"
				: "a postgres job's fsyncs are counted from initdb's, so the N-th would hit initdb");
		cmd_error("crash: %s", ferr.msg);
		return 2;
	}
	probe->cut = cut;
	probe->settle = settle;
	probe->fault_hit = fault_hit;
	probe->model = powercut_model_name(conf->model);
	conf->seed = job->randseed;
	powercut_fault_name(conf, fault, flen);
	probe->fault = fault;
	if ((ret = powercut_open(dirfd, conf, pc, err, sizeof(err))) < 0) {
		cmd_error("crash: %s: %s", job->directory, err);
		return 1;
	}
	probe->arg = *pc;
	probe->root = powercut_mount_path(*pc);
	probe->outer_fd = dirfd;
	probe->seed = job->randseed;
	powercut_on_durable(*pc, on_point, NULL);
	durable_arm(probe);
	return 0;
}

void crash_layer_down(struct powercut *pc)
{
	durable_arm(NULL);
	powercut_close(pc);
}

int crash_run_group(const struct job *jobs, size_t n, const struct run_opts *opts, struct run_stats *stats,
		    struct dbio_err *err)
{
	struct durable_probe probe = { .points = CRASH_CUTS, .acks = CRASH_ACKS };
	struct powercut_conf conf = { 0 };
	struct powercut *pc;
	struct job *on;
	char fault[48];
	int dirfd, status, rc;

	if (n != 1 || !jobs->crash)
		return run_group(jobs, n, opts, stats, err);
	if ((dirfd = crash_open_dir(jobs->directory)) < 0)
		return dbio_err_set(err, DBIO_EINPUT, "job '%s': crash=1: the layer's directory %s",
				    jobs->name, jobs->directory);
	/* dirfd open until the layer is down: its close removes the layer's
	 * directory beneath it. */
	status = crash_layer_up(jobs, dirfd, &conf, false, false, &probe, fault, sizeof(fault), &pc);
	if (status) {
		close(dirfd);
		return dbio_err_set(err, status == 2 ? DBIO_EINPUT : -EIO,
				    "job '%s': crash=1: the power-cut layer did not start", jobs->name);
	}
	/* The run in the layer's mount; the result names the job as given. */
	if (!(on = malloc(sizeof(*on)))) {
		crash_layer_down(pc);
		close(dirfd);
		return dbio_err_set(err, -ENOMEM, "out of memory");
	}
	*on = *jobs;
	snprintf(on->directory, sizeof(on->directory), "%s", probe.root);
	rc = run_group(on, 1, opts, stats, err);
	free(on);
	crash_layer_down(pc);
	close(dirfd);
	return rc;
}
