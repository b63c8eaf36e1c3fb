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
#include "out/text.h"
#include "result/result.h"

static void run_usage(void)
{
	printf("usage: dbio run [JOBFILE...] [--KEY=VALUE...] [--output FILE] [--format text|json]\n"
	       "                [--series-csv FILE] [--progress=line|none] [--keep] [--force]\n\n"
	       "Without a job file or job keys, runs the default suite (about one minute) in\n"
	       "./dbio-scratch or --directory. Job keys given on the command line apply to every\n"
	       "job and override the job files; `dbio help options` lists them.\n\n"
	       "  --output FILE    write the result as JSON to FILE (atomically)\n"
	       "  --format FORMAT  text (default) or json on standard output\n"
	       "  --series-csv FILE  write the time series (log_interval=) as CSV to FILE\n"
	       "  --progress=line|none  an updating status line on stderr (default: line when\n"
	       "                   stderr is a terminal)\n"
	       "  --keep           leave the files dbio created in place\n"
	       "  --force          work in a directory that holds files that are not dbio's\n"
	       "                   (dbio still only creates and removes its own)\n\n"
	       "Exit status: 0 done, 1 failed while running, 2 bad input (nothing was written),\n"
	       "130 interrupted by SIGINT, 143 by SIGTERM.\n");
}

static int run_main(int argc, char **argv)
{
	struct run_args args = { 0 };
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	json_t *result = NULL;
	bool suite = false;
	int rc, status;

	status = jobrun_parse_args(argc, argv, false, run_usage, &args);
	if (status) {
		status = status < 0 ? 0 : status;
		goto out_args;
	}
	args.opts.progress = args.progress < 0 ? isatty(STDERR_FILENO) : args.progress;
	rc = jobrun_build(&args, NULL, 0, &set, &suite, &err);
	if (!rc)
		rc = jobrun_check(&args, &set, &err);
	if (rc) {
		cmd_error("%s", err.msg);
		status = rc == DBIO_EUNSAFE ? 2 : dbio_exit_status(rc);
		goto out_set;
	}
	result = result_new(argc + 1, argv - 1);
	if (!result) {
		cmd_error("run: out of memory");
		status = 1;
		goto out_set;
	}
	run_signals_install();
	rc = jobrun_jobs(&set, &args, result, 0, &err);
	result_finish(result, rc != 0, rc ? err.msg : NULL);

	if (args.format == FORMAT_JSON) {
		char *text = result_dump(result);

		if (text)
			puts(text);
		free(text);
	} else {
		text_report(stdout, result);
		if (suite || set.njobs > 1)
			text_summary(stdout, result);
	}
	fflush(stdout);
	int wrc = jobrun_write_outputs(&args, result, rc != 0);

	if (rc && err.code)
		cmd_error("%s", err.msg);
	status = jobrun_status(rc ? rc : wrc);

out_set:
	json_decref(result);
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
