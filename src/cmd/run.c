/*
 * dbio run: parse job files and --key=value options into a jobset, validate
 * all of it before touching the disk, run the jobs (grouped ones together,
 * each with its repeats), collect one result, and show it as text or JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "views/text.h"
#include "result/result.h"

static void run_usage(void)
{
	printf("usage: dbio run [JOBFILE...] [--KEY=VALUE...] [--output FILE] [--format text|json|csv]\n"
	       "                [--series-csv FILE] [--progress=line|none] [--keep] [--force]\n\n"
	       "Without a job file or job keys, runs the default suite (about one minute) in\n"
	       "./dbio-scratch or --directory. Job keys given on the command line apply to every\n"
	       "job and override the job files; `dbio help options` lists them.\n\n"
	       "  --output FILE    write the result as JSON to FILE (atomically)\n"
	       "  --format FORMAT  text (default), json, or csv (a row per job and op type:\n"
	       "                   iops, bw, latencies in ns, cpu, elapsed, user, sys) on standard output\n"
	       "  --series-csv FILE  write the time series (log_interval=) as CSV to FILE\n"
	       "  --progress=line|none  an updating status line on stderr (default: line when\n"
	       "                   stderr is a terminal)\n"
	       "  --keep           leave the files dbio created in place\n"
	       "  --force          work in a directory that holds files that are not dbio's\n"
	       "                   (dbio still only creates and removes its own)\n\n"
	       "Exit status: 0 done, 1 failed while running, 2 bad input (nothing was written),\n"
	       "130 interrupted by SIGINT, 143 by SIGTERM, 129 by SIGHUP, 131 by SIGQUIT.\n");
}

static void show_jobs(const json_t *result, const struct jobset *set)
{
	text_report(stdout, result);
	if (set->njobs > 1)
		text_summary(stdout, result);
}

static void show_suite(const json_t *result, const struct jobset *set)
{
	(void)set;
	text_report(stdout, result);
	text_summary(stdout, result);
}

static int run_main(int argc, char **argv)
{
	struct run_args args = { 0 };
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	bool suite = false;
	int rc, status;

	status = jobrun_parse_args(argc, argv, false, run_usage, &args);
	if (status) {
		status = status < 0 ? 0 : status;
		goto out_args;
	}
	jobrun_progress(&args);
	rc = jobrun_build(&args, NULL, 0, &set, &suite, &err);
	if (rc) {
		cmd_error("%s", err.msg);
		status = dbio_exit_status(rc);
		goto out_set;
	}
	status = jobrun_execute(&args, &set, argc + 1, argv - 1, suite ? show_suite : show_jobs);

out_set:
	jobset_release(&set);
out_args:
	jobrun_args_release(&args);
	return status;
}

const struct cmd cmd_run = {
	.name = "run",
	.summary = "run job files, command-line jobs, or the default suite",
	.main = run_main,
};
