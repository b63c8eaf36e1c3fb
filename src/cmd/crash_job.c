/*
 * dbio crash [--cuts N] [--acks K] JOBFILE [--KEY=VALUE...]: one job of
 * workload=kv or fileio run on the power-cut layer (powercut/), mounted privately in
 * the job's directory, and checked at each crash state (workload/durable.h):
 * right after each of the first N durability points (an fsync's return)
 * and right after K of its acknowledgements (commits that returned) chosen
 * at random. The result is dbio run's, with a job run's "durability"
 * section (docs/results.md); the text report shows it beside ops/s.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "cmd/crash_int.h"
#include "cmd/opts.h"
#include "powercut/powercut.h"
#include "run/run.h"
#include "views/text.h"
#include "workload/durable.h"

struct crash_job_args {
	struct run_args run; /* first: jobrun_parse's callbacks are given its address */
	unsigned cuts, acks;
	struct powercut_conf conf;
	bool model_set, fault_set; /* --model, --fault: over the job's keys */
};

static int parse_count(const char *what, const char *v, unsigned max, unsigned *out)
{
	char *end;
	unsigned long c = strtoul(v, &end, 10);

	if (*end || !*v || c > max || *v == '-') {
		cmd_error("crash: %s '%s': expected a count from 0 to %u", what, v, max);
		return 2;
	}
	*out = (unsigned)c;
	return 0;
}

static int job_cuts(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	(void)spec;
	(void)o;
	return parse_count("--cuts", v, 1000000, &((struct crash_job_args *)args)->cuts);
}

static int job_acks(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	(void)spec;
	(void)o;
	return parse_count("--acks", v, 1000000, &((struct crash_job_args *)args)->acks);
}

static int job_model(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	(void)spec;
	(void)o;
	((struct crash_job_args *)args)->model_set = true;
	return crash_model_arg(v, &((struct crash_job_args *)args)->conf);
}

static int job_fault(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	(void)spec;
	(void)o;
	((struct crash_job_args *)args)->fault_set = true;
	return crash_fault_arg(v, &((struct crash_job_args *)args)->conf);
}

static int job_seed(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	(void)spec;
	(void)o;
	(void)args;
	cmd_error("crash: --seed '%s': for --exec; a job's crash model draws from its randseed", v);
	return 2;
}

static const struct cmd_opt crash_job_rows[] = {
	{ .name = "--cuts", .value = "N", .parse = job_cuts },
	{ .name = "--acks", .value = "K", .parse = job_acks },
	{ .name = "--model", .value = "MODEL", .parse = job_model },
	{ .name = "--fault", .value = "FAULT", .parse = job_fault },
	{ .name = "--seed", .value = "N", .parse = job_seed },
	{ 0 },
};

static const struct cmd_opt *const crash_job_tables[] = { crash_job_rows, jobrun_format_rows,
							  jobrun_rows,	  jobrun_not_sweep_rows,
							  cmd_opts_help,  NULL };

static const struct cmd_opts crash_job_opts = {
	.name = "crash",
	.subject = "crash",
	.tables = crash_job_tables,
};

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

static void show(const json_t *result, const struct jobset *set, const struct run_args *a)
{
	(void)set;
	(void)a;
	text_report(stdout, result);
}

int crash_refusal(const struct job *job, char *why, size_t len)
{
	if (strcmp(job->workload, "kv") && strcmp(job->workload, "fileio"))
		snprintf(why, len, "workload=%s: dbio crash checks workload=kv and workload=fileio for now",
			 job->workload);
	else if (job->numjobs != 1)
		snprintf(why, len, "numjobs=%llu: dbio crash checks one thread (numjobs=1)",
			 (unsigned long long)job->numjobs);
	else if (job->crash_model[0] &&
		 powercut_parse_model(job->crash_model, &(enum powercut_model){ 0 }))
		snprintf(why, len, "crash_model=%s: expected lose, reorder, torn512 or torn4k", job->crash_model);
	else if (job->crash_fault[0] && powercut_parse_fault(job->crash_fault, &(struct powercut_conf){ 0 }))
		snprintf(why, len, "crash_fault=%s: expected eio-fsync@N, enospc-write@N (N from 1) or none",
			 job->crash_fault);
	else if (strchr(job->directory, ':'))
		snprintf(why, len, "directory=%s: one directory, the layer's", job->directory);
	else
		return 0;
	return 1;
}

/* The one job dbio crash checks, or 2 after saying why not. */
static int one_checked_job(const struct jobset *set)
{
	char why[320];

	if (set->njobs != 1) {
		cmd_error(
			"crash: %zu jobs: dbio crash checks one job at a time (give one job file with one job)",
			set->njobs);
		return 2;
	}
	if (crash_refusal(set->jobs, why, sizeof(why))) {
		cmd_error("crash: job '%s': %s", set->jobs[0].name, why);
		return 2;
	}
	return 0;
}

/* The result says the directory the user gave (the layer was mounted
 * there), not the mount's path, which has dbio's pid in it: two runs'
 * results compare without a difference of their directories. */
static void amend_directory(json_t *result, void *arg)
{
	json_t *job;
	size_t i;

	json_array_foreach (json_object_get(result, "jobs"), i, job)
		json_object_set_new(json_object_get(job, "options"), "directory", json_string(arg));
}

/* The layer mounted in dirfd for job, with conf (the job's keys in it
 * unless an option said, its seed the job's) and the probe armed on it,
 * its cuts and acknowledgements counted as given: 0, or the exit status
 * after saying why not. */
static int layer_up(const struct job *job, int dirfd, struct powercut_conf *conf, bool model_set,
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
	if (conf->fault != POWERCUT_NO_FAULT && !strcmp(job->workload, "fileio")) {
		cmd_error(
			"crash: job '%s': a fault (--fault, crash_fault=) is checked on workload=kv only for now: a fileio job stops at its first I/O error; drop the fault, or give a kv job",
			job->name);
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
	probe->seed = job->randseed;
	powercut_on_durable(*pc, on_point, NULL);
	durable_arm(probe);
	return 0;
}

static void layer_down(struct powercut *pc)
{
	durable_arm(NULL);
	powercut_close(pc);
}

/* With the job's directory open as dirfd: the layer mounted in it, the job
 * run there with the probe armed, the layer undone. The exit status. */
static int run_on_layer(struct crash_job_args *a, struct jobset *set, int dirfd, int argc, char **argv)
{
	struct durable_probe probe = { .points = a->cuts, .acks = a->acks };
	struct powercut *pc;
	char fault[48];
	int status = layer_up(set->jobs, dirfd, &a->conf, a->model_set, a->fault_set, &probe, fault,
			      sizeof(fault), &pc);

	if (status)
		return status;
	char *given = strdup(set->jobs[0].directory);

	if (!given) {
		cmd_error("crash: out of memory");
		layer_down(pc);
		return 1;
	}
	snprintf(set->jobs[0].directory, sizeof(set->jobs[0].directory), "%s", probe.root);
	a->run.amend = amend_directory;
	a->run.amend_arg = given;
	status = jobrun_execute(&a->run, set, argc, argv, show);
	free(given);
	layer_down(pc);
	return status;
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
	status = layer_up(jobs, dirfd, &conf, false, false, &probe, fault, sizeof(fault), &pc);
	if (status) {
		close(dirfd);
		return dbio_err_set(err, status == 2 ? DBIO_EINPUT : -EIO,
					    "job '%s': crash=1: the power-cut layer did not start", jobs->name);
	}
	/* The run in the layer's mount; the result names the job as given. */
	if (!(on = malloc(sizeof(*on)))) {
		layer_down(pc);
		close(dirfd);
		return dbio_err_set(err, -ENOMEM, "out of memory");
	}
	*on = *jobs;
	snprintf(on->directory, sizeof(on->directory), "%s", probe.root);
	rc = run_group(on, 1, opts, stats, err);
	free(on);
	layer_down(pc);
	close(dirfd);
	return rc;
}

int crash_job_main(int argc, char **argv)
{
	struct crash_job_args a = { .cuts = CRASH_CUTS, .acks = CRASH_ACKS };
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	bool suite = false;
	int rc, status, dirfd;

	status = jobrun_parse(&crash_job_opts, argc, argv, &a.run);
	if (status) {
		status = status < 0 ? 0 : status;
		goto out_args;
	}
	if (!a.run.nfiles && !a.run.nkeys) { /* not the default suite: a job of the user's */
		cmd_error(
			"crash: expected a job file, --exec CMD DIR or --cleanup DIR (see dbio crash --help)");
		status = 2;
		goto out_args;
	}
	if (!powercut_built()) {
		cmd_error(
			"crash: the power-cut layer is left out of this build: install libfuse3-dev and build again");
		status = 1;
		goto out_args;
	}
	rc = jobrun_build(&a.run, NULL, 0, &set, &suite, &err);
	if (rc) {
		cmd_error("%s", err.msg);
		status = rc == DBIO_EUNSAFE ? 2 : dbio_exit_status(rc);
		goto out_set;
	}
	if ((status = one_checked_job(&set)))
		goto out_set;
	if ((dirfd = crash_open_dir(set.jobs[0].directory)) < 0) {
		status = -dirfd;
		goto out_set;
	}
	status = run_on_layer(&a, &set, dirfd, argc + 1, argv - 1);
	close(dirfd);
out_set:
	jobset_release(&set);
out_args:
	jobrun_args_release(&a.run);
	return status;
}
