/*
 * dbio run: parse job files and --key=value options into a jobset, validate
 * all of it before touching the disk, run the jobs (grouped ones together,
 * each with its repeats), collect one result, and show it as text, JSON,
 * CSV or fio's JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "mpi/mpi.h"
#include "views/fio_json.h"
#include "views/ranks.h"
#include "views/text.h"
#include "result/result.h"

/* What run prints on standard output: --format's values, and fio's JSON
 * under fio's own flag too. */
static const struct run_format {
	const char *flag;
	const char *name;
	enum out_format format;
} run_formats[] = {
	{ "--format", "text", FORMAT_TEXT },
	{ "--format", "json", FORMAT_JSON },
	{ "--format", "csv", FORMAT_CSV },
	{ "--format", "fio-json", FORMAT_FIO_JSON },
	{ "--format", "fio-json+", FORMAT_FIO_JSON_PLUS },
	{ "--output-format", "json", FORMAT_FIO_JSON },
	{ "--output-format", "json+", FORMAT_FIO_JSON_PLUS },
};

#define RUN_NFORMATS (sizeof(run_formats) / sizeof(run_formats[0]))

static void run_usage(void)
{
	printf("usage: dbio run [JOBFILE...] [--KEY=VALUE...] [--output FILE] [--format FORMAT]\n"
	       "                [--output-format=json|json+] [--series-csv FILE] [--progress=line|none]\n"
	       "                [--keep] [--force] [--wide]\n\n"
	       "Without a job file or job keys, runs the default suite (about one minute) in\n"
	       "./dbio-scratch or --directory. Job keys given on the command line apply to every\n"
	       "job and override the job files; `dbio help options` lists them.\n\n"
	       "  --output FILE    write the result as JSON to FILE (atomically)\n"
	       "  --format FORMAT  text (default), json, csv (a row per job and op type: iops,\n"
	       "                   bw, latencies in ns, cpu, elapsed, user, sys), or fio-json and\n"
	       "                   fio-json+ (as --output-format) on standard output\n"
	       "  --output-format=json|json+  fio's JSON on standard output instead of dbio's,\n"
	       "                   as fio prints it with the same flag (json+: with latency\n"
	       "                   bins); --output still writes dbio's result (docs/fio-output.md)\n"
	       "  --series-csv FILE  write the time series (log_interval=) as CSV to FILE\n"
	       "  --progress=line|none  an updating status line on stderr (default: line when\n"
	       "                   stderr is a terminal)\n"
	       "  --keep           leave the files dbio created in place\n"
	       "  --force          work in a directory that holds files that are not dbio's\n"
	       "                   (dbio still only creates and removes its own)\n"
	       "  --wide           the closing table of several jobs in one piece; without it a\n"
	       "                   table wider than 80 columns is cut into narrower ones\n\n"
	       "Exit status: 0 done, 1 failed while running, 2 bad input (nothing was written),\n"
	       "130 interrupted by SIGINT, 143 by SIGTERM, 129 by SIGHUP, 131 by SIGQUIT.\n");
}

static void show_jobs(const json_t *result, const struct jobset *set, const struct run_args *a)
{
	text_report(stdout, result);
	if (set->njobs > 1)
		text_summary(stdout, result, a->wide);
	text_ranks(stdout, result);
}

/* What one job of the default suite measured: the storage (O_DIRECT on a
 * device), memory (a filesystem held in RAM), or the page cache and the
 * storage together (buffered: the filesystem refused O_DIRECT). */
static const char *suite_measured(const struct job *job, const char *fs_type)
{
	const bool ram = !strcmp(fs_type, "tmpfs") || !strcmp(fs_type, "ramfs");

	if (ram)
		return "memory: the directory is on a filesystem held in RAM, with no storage beneath";
	if (job->direct)
		return "the storage: O_DIRECT (direct=1), the page cache bypassed";
	return "the page cache as much as the storage: buffered, the filesystem refused O_DIRECT";
}

/* The default suite's closing note: once, where the jobs ran and what each
 * job's figures measured there. */
static void suite_note(const json_t *result, const struct jobset *set)
{
	const json_t *t = json_array_get(
		json_object_get(json_array_get(json_object_get(result, "jobs"), 0), "targets"), 0);
	const char *fs = json_string_value(json_object_get(t, "fs_type"));
	const char *src = json_string_value(json_object_get(t, "source"));

	if (!set->njobs)
		return;
	printf("\nWhat each job measured, in %s (%s on %s):\n", set->jobs[0].directory, fs ? fs : "?",
	       src ? src : "?");
	for (size_t j = 0; j < set->njobs; j++)
		printf("  %-24s %s\n", set->jobs[j].name, suite_measured(&set->jobs[j], fs ? fs : ""));
}

static void show_suite(const json_t *result, const struct jobset *set, const struct run_args *a)
{
	text_report(stdout, result);
	text_summary(stdout, result, a->wide);
	text_ranks(stdout, result);
	suite_note(result, set);
}

/* The default suite runs with O_DIRECT (jobs/default.fio); where the
 * directory refuses it, buffered, said once here and again in the closing
 * note. 0 or the exit status. */
static int suite_direct(const struct run_args *a, struct jobset *set)
{
	struct dbio_err err = { 0 };
	size_t fellback = 0;
	int rc = jobrun_check(a, set, &err);

	if (!rc)
		rc = run_direct_fallback(set, &fellback, &err);
	if (rc) {
		cmd_error("%s", err.msg);
		return rc == DBIO_EUNSAFE ? 2 : dbio_exit_status(rc);
	}
	if (fellback && a->format == FORMAT_TEXT)
		fprintf(stderr,
			"dbio: warning: %s: the filesystem refused O_DIRECT: %zu of the default suite's %zu jobs run buffered, and measure the page cache as much as the storage\n",
			set->jobs[0].directory, fellback, set->njobs);
	return 0;
}

static void show_fio_json(const json_t *result, const struct jobset *set, const struct run_args *a)
{
	(void)set;
	if (fio_json_print(stdout, result, false))
		cmd_error("run: fio JSON: out of memory");
}

static void show_fio_json_plus(const json_t *result, const struct jobset *set, const struct run_args *a)
{
	(void)set;
	if (fio_json_print(stdout, result, true))
		cmd_error("run: fio JSON: out of memory");
}

/* Set *format from --format or --output-format (flag) VALUE; false, with
 * the error printed, for a value flag does not take. */
static bool parse_format(const char *flag, const char *value, enum out_format *format)
{
	char list[128] = "";
	size_t n = 0, k = 0;

	for (size_t f = 0; f < RUN_NFORMATS; f++)
		if (!strcmp(run_formats[f].flag, flag)) {
			if (!strcmp(run_formats[f].name, value)) {
				*format = run_formats[f].format;
				return true;
			}
			n++;
		}
	for (size_t f = 0; f < RUN_NFORMATS; f++)
		if (!strcmp(run_formats[f].flag, flag)) {
			k++;
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 k == 1	  ? ""
				 : k == n ? " or "
					  : ", ",
				 run_formats[f].name);
		}
	cmd_error("command line: %s: bad value '%s': expected %s", flag, value, list);
	return false;
}

/* Take --format and --output-format out of argv[0..argc), the rest into
 * kept (argc + 1 entries, NULL-terminated), the last format given into
 * *format (*set: one was). Returns how many are kept, or -1 after printing
 * the error. */
static int take_formats(int argc, char **argv, char **kept, enum out_format *format, bool *set)
{
	static const char *const flags[] = { "--format", "--output-format" };
	int nkept = 0;

	for (int i = 0; i < argc; i++) {
		const char *flag = NULL, *value = NULL;
		bool missing = false;

		for (size_t f = 0; i > 0 && !flag && f < sizeof(flags) / sizeof(flags[0]); f++)
			if ((value = cmd_opt_value(argc, argv, &i, flags[f], &missing)) || missing)
				flag = flags[f];
		if (!flag) {
			kept[nkept++] = argv[i];
			continue;
		}
		if (!value || !*value) {
			cmd_error("command line: %s: needs a value", flag);
			return -1;
		}
		if (!parse_format(flag, value, format))
			return -1;
		*set = true;
	}
	kept[nkept] = NULL;
	return nkept;
}

static int run_main(int argc, char **argv)
{
	void (*show)(const json_t *result, const struct jobset *set, const struct run_args *a);
	struct run_args args = { 0 };
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	char **kept = calloc((size_t)argc + 1, sizeof(*kept));
	enum out_format format = FORMAT_TEXT;
	bool suite = false, format_set = false;
	int rc, status, nkept;

	if (!kept) {
		cmd_error("run: out of memory");
		return 1;
	}
	if ((rc = mpi_world_start(&args.mpi, &err))) {
		cmd_error("%s", err.msg);
		free(kept);
		return dbio_exit_status(rc);
	}
	args.opts.coord = mpi_coord(args.mpi); /* NULL alone */
	nkept = take_formats(argc, argv, kept, &format, &format_set);
	status = nkept < 0 ? 2 : jobrun_parse_args(nkept, kept, false, run_usage, &args);
	args.format = format;
	args.format_set = format_set;
	if (status) {
		status = status < 0 ? 0 : status;
		goto out_args;
	}
	jobrun_progress(&args);
	rc = jobrun_build(&args, NULL, 0, &set, &suite, &err);
	if (args.mpi && (rc = jobrun_mpi_prepare(&args, &set, rc, &err)))
		run_coord_dirs_remove(args.opts.coord, false); /* what the others made */
	if (rc) {
		cmd_error("%s", err.msg);
		status = rc == DBIO_EUNSAFE ? 2 : dbio_exit_status(rc); /* refused before any I/O */
		goto out_set;
	}
	show = args.format == FORMAT_FIO_JSON	     ? show_fio_json
	       : args.format == FORMAT_FIO_JSON_PLUS ? show_fio_json_plus
	       : suite				     ? show_suite
						     : show_jobs;
	if (suite && !args.builtin && (status = suite_direct(&args, &set)))
		goto out_set;
	status = jobrun_execute(&args, &set, argc + 1, argv - 1, show);

out_set:
	jobset_release(&set);
out_args:
	jobrun_args_release(&args);
	mpi_world_end(args.mpi);
	free(kept);
	return status;
}

const struct cmd cmd_run = {
	.name = "run",
	.summary = "run job files, command-line jobs, or the default suite",
	.main = run_main,
};
