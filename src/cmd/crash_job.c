/*
 * dbio crash [--cuts N] [--acks K] JOBFILE [--KEY=VALUE...]: one job of
 * workload=kv, fileio or postgres run on the power-cut layer (powercut/), mounted privately in
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

static void show(const json_t *result, const struct jobset *set, const struct run_args *a)
{
	(void)set;
	(void)a;
	text_report(stdout, result);
}

/* The one job dbio crash checks, or 2 after saying why not. */
static int one_checked_job(const struct jobset *set)
{
	const char *key;
	char why[320];

	if (set->njobs != 1) {
		cmd_error(
			"crash: %zu jobs: dbio crash checks one job at a time (give one job file with one job)",
			set->njobs);
		return 2;
	}
	if (crash_refusal(set->jobs, &key, why, sizeof(why))) {
		struct dbio_err err = { 0 };

		job_fail(set->jobs, key, &err, "%s", why);
		cmd_error("crash: %s", err.msg);
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

/* With the job's directory open as dirfd: the layer mounted in it, the job
 * run there with the probe armed, the layer undone. The exit status. */
static int run_on_layer(struct crash_job_args *a, struct jobset *set, int dirfd, int argc, char **argv)
{
	struct durable_probe probe = { .points = a->cuts, .acks = a->acks };
	struct powercut *pc;
	char fault[48];
	int status = crash_layer_up(set->jobs, dirfd, &a->conf, a->model_set, a->fault_set, &probe, fault,
				    sizeof(fault), &pc);

	if (status)
		return status;
	char *given = strdup(set->jobs[0].directory);

	if (!given) {
		cmd_error("crash: out of memory");
		crash_layer_down(pc);
		return 1;
	}
	snprintf(set->jobs[0].directory, sizeof(set->jobs[0].directory), "%s", probe.root);
	/* On the layer already: its crash=1 would mount another over this
	 * mount, whose requests its own FUSE thread then waits on forever. */
	set->jobs[0].crash = false;
	a->run.amend = amend_directory;
	a->run.amend_arg = given;
	status = jobrun_execute(&a->run, set, argc, argv, show);
	free(given);
	crash_layer_down(pc);
	return status;
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
