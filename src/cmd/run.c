/*
 * dbio run: parse job files and --key=value options into a jobset, validate
 * all of it before touching the disk, run the jobs (grouped ones together,
 * each with its repeats), collect one result, and show it as text, JSON,
 * CSV or fio's JSON.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "cmd/opts.h"
#include "mpi/mpi.h"
#include "views/fio_json.h"
#include "views/ranks.h"
#include "views/text.h"
#include "result/result.h"
#include "util/units.h"
#include "workload/fileio/files.h"

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
	{ "--output-format", "normal", FORMAT_TEXT }, /* dbio's text, not fio's */
};

#define RUN_NFORMATS (sizeof(run_formats) / sizeof(run_formats[0]))

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
	if (fileio_files(job)->layout.direct)
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

/* --format or --output-format (o) VALUE into the run_args: 0, or 2 after
 * printing the error for a value o does not take. */
static int parse_format(const struct cmd_opts *spec, const struct cmd_opt *o, const char *value, void *args)
{
	struct run_args *a = args;
	char list[128] = "";
	size_t n = 0, k = 0;

	for (size_t f = 0; f < RUN_NFORMATS; f++)
		if (!strcmp(run_formats[f].flag, o->name)) {
			if (!strcmp(run_formats[f].name, value)) {
				a->format = run_formats[f].format;
				a->format_set = true;
				return 0;
			}
			n++;
		}
	for (size_t f = 0; f < RUN_NFORMATS; f++)
		if (!strcmp(run_formats[f].flag, o->name)) {
			k++;
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 k == 1	  ? ""
				 : k == n ? " or "
					  : ", ",
				 run_formats[f].name);
		}
	if (!strcmp(o->name, "--output-format") && (!strcmp(value, "terse") || strchr(value, ',')))
		cmd_error("%s: %s: '%s': %s; expected %s", spec->subject, o->name, value,
			  strchr(value, ',')
				  ? "one format at a time: --output FILE writes dbio's result beside it"
				  : "fio's terse output is not in dbio",
			  list);
	else
		cmd_error("%s: %s: bad value '%s': expected %s", spec->subject, o->name, value, list);
	return 2;
}

/* fio's --max-jobs=N: the size of fio's shared memory for its job
 * processes (fio 3.33 runs more jobs than N all the same); dbio's jobs are
 * threads of one process, so it is checked and changes nothing. */
static int parse_max_jobs(const struct cmd_opts *spec, const struct cmd_opt *o, const char *value, void *args)
{
	char *end;
	unsigned long long n;

	(void)args;
	errno = 0;
	n = strtoull(value, &end, 10);
	if (errno || *end || !n || value[0] == '-') {
		cmd_error("%s: %s: bad value '%s': expected a whole number from 1", spec->subject, o->name,
			  value);
		return 2;
	}
	return 0;
}

/* fio's --bandwidth-log[=NAME]: the aggregate bandwidth logs
 * NAME-read_bw.log, NAME-write_bw.log and NAME-trim_bw.log ("agg" without
 * NAME), in the current directory unless NAME has a path. */
static int parse_bw_log(const struct cmd_opts *spec, const struct cmd_opt *o, const char *value, void *args)
{
	struct run_args *a = args;

	if (value && !*value) {
		cmd_error("%s: %s: needs a name after '=' (or none: agg-read_bw.log ...)", spec->subject,
			  o->name);
		return 2;
	}
	a->agg_bw_name = value ? value : "agg";
	a->opts.agg_bw = &a->agg_bw;
	return 0;
}

/* fio's --section NAME: only that job section of the job files (given
 * again for more). */
static int parse_section(const struct cmd_opts *spec, const struct cmd_opt *o, const char *value, void *args)
{
	struct run_args *a = args;

	if (a->nsections == sizeof(a->sections) / sizeof(a->sections[0])) {
		cmd_error("%s: %s: more than %zu sections", spec->subject, o->name, a->nsections);
		return 2;
	}
	a->sections[a->nsections++] = value;
	return 0;
}

/* fio's --eta=always|never|auto: dbio's status line (--progress) on,
 * off, or when stderr is a terminal. */
static int parse_eta(const struct cmd_opts *spec, const struct cmd_opt *o, const char *value, void *args)
{
	struct run_args *a = args;

	if (!strcmp(value, "always") || !strcmp(value, "never") || !strcmp(value, "auto")) {
		a->progress = !strcmp(value, "always") ? 1 : !strcmp(value, "never") ? 0 : -1;
		return 0;
	}
	cmd_error("%s: %s: bad value '%s': expected always, never or auto", spec->subject, o->name, value);
	return 2;
}

/* fio's --eta-newline=TIME and --eta-interval=TIME: how often fio's ETA
 * line is new or updated; a time (a bare number in seconds), checked, that
 * changes nothing: dbio's status line (--progress) is updated once a
 * second. */
static int parse_eta_time(const struct cmd_opts *spec, const struct cmd_opt *o, const char *value, void *args)
{
	uint64_t ns;

	(void)args;
	if (!units_parse_time(value, 1000000000ull, &ns) && ns > 0)
		return 0;
	cmd_error("%s: %s: bad value '%s': expected a time above 0 (2, 500ms, 2s, 1m)", spec->subject,
		  o->name, value);
	return 2;
}

/* fio's command-line options that dbio does not take: a fio command line
 * with one gets the row's help, the reason, not "unknown key". */
static int parse_fio_refused(const struct cmd_opts *spec, const struct cmd_opt *o, const char *value,
			     void *args)
{
	(void)value;
	(void)args;
	cmd_error("%s: %s: fio's option, not taken: %s", spec->subject, o->name, o->help);
	return 2;
}

#define FIO_REFUSED(opt, why)                                                                                \
	{                                                                                                    \
		.name = opt, .kind = CMD_OPT_OPTEQ, .value = "X", .parse = parse_fio_refused, .help = why,   \
		.flags = CMD_OPT_HIDDEN                                                                      \
	}

static const struct cmd_opt run_rows[] = {
	{ .name = "--format",
	  .value = "FORMAT",
	  .parse = parse_format,
	  .help = "text (default), json, csv (a row per job and op type: iops, bw, latencies in ns, cpu, "
		  "elapsed, user, sys), or fio-json and fio-json+ (as --output-format) on standard output",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--output-format",
	  .value = "json|json+|normal",
	  .parse = parse_format,
	  .help = "fio's JSON on standard output instead of dbio's, in the shape of fio 3.33's with the "
		  "same flag (json+: with each latency's histogram bins), for tools written for fio's output; "
		  "--output still writes dbio's result (docs/fio-output.md says what dbio leaves out); "
		  "normal: dbio's own text report, not fio's",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--bandwidth-log",
	  .kind = CMD_OPT_OPTEQ,
	  .value = "NAME",
	  .parse = parse_bw_log,
	  .help = "fio's aggregate bandwidth logs: every 500 ms of each group's run, the KiB/s of all its "
		  "jobs' reads, writes and trims since the last line, in NAME-read_bw.log, "
		  "NAME-write_bw.log and NAME-trim_bw.log (agg-... without NAME), in fio's form (ms since "
		  "the run started, KiB/s, direction, 0, 0); written at the end, each replaced only when it "
		  "is a regular file (as --output)" },
	{ .name = "--max-jobs",
	  .value = "N",
	  .parse = parse_max_jobs,
	  .help = "fio's cap on its job processes (the size of its shared memory; fio 3.33 runs more all "
		  "the same): taken, a whole number from 1, and changing nothing, since dbio's jobs are "
		  "threads of one process",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--alloc-size",
	  .value = "KB",
	  .parse = parse_max_jobs,
	  .help = "fio's shared memory pool for its job processes: taken, a whole number from 1, and "
		  "changing nothing, as --max-jobs",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--section",
	  .value = "NAME",
	  .parse = parse_section,
	  .help = "fio's: only the job section NAME of the job files runs ([global] applies as ever); "
		  "given again, each; the other sections are skipped unread, as fio skips them",
	  .flags = CMD_OPT_NONEMPTY | CMD_OPT_REPEAT },
	{ .name = "--parse-only",
	  .kind = CMD_OPT_FLAG,
	  .offset = offsetof(struct run_args, parse_only),
	  .help = "fio's: read and check the jobs' keys, run none, touch no file: exit 0 when every key "
		  "is good, 2 with the reason when not (the directories are checked when the jobs run)" },
	{ .name = "--readonly",
	  .kind = CMD_OPT_FLAG,
	  .offset = offsetof(struct run_args, readonly),
	  .help = "fio's safety mode: a job that would write is refused before any I/O. dbio lays out "
		  "its files before a job reads them, so only a job that reads back the files an earlier "
		  "run kept (--keep, then verify_only=1 or verify_state_load=1) runs" },
	{ .name = "--eta",
	  .value = "always|never|auto",
	  .parse = parse_eta,
	  .help = "fio's ETA line, here dbio's status line: always (--progress=line), never "
		  "(--progress=none), auto (when stderr is a terminal)" },
	{ .name = "--eta-newline",
	  .value = "TIME",
	  .parse = parse_eta_time,
	  .help = "fio's period of a new ETA line: taken, a time (2, 500ms, 2s), and changing nothing: "
		  "dbio's status line is updated once a second" },
	{ .name = "--eta-interval",
	  .value = "TIME",
	  .parse = parse_eta_time,
	  .help = "fio's period of the ETA line's updates: taken, a time, and changing nothing, as "
		  "--eta-newline" },
	{ .name = "--warnings-fatal",
	  .kind = CMD_OPT_FLAG,
	  .offset = offsetof(struct run_args, warnings_fatal),
	  .help = "fio's: its parser's warnings are errors. Taken, and changing nothing: dbio refuses a "
		  "key it does not honour, or a bad value, with exit 2, where fio warns" },
	FIO_REFUSED(
		"--status-interval",
		"dbio reports once, at the end; log_interval=TIME records every TIME's figures (a series in the result, --series-csv)"),
	FIO_REFUSED("--minimal", "fio's terse output is not in dbio: --output-format=json gives fio's JSON"),
	FIO_REFUSED("--terse-version",
		    "fio's terse output is not in dbio: --output-format=json gives fio's JSON"),
	FIO_REFUSED("--debug", "dbio has no debug log: strace -f shows every call it makes"),
	FIO_REFUSED("--showcmd", "dbio does not turn job files into command lines"),
	FIO_REFUSED("--aux-path", "dbio keeps its state files (verify_state_save) beside the job's files"),
	FIO_REFUSED("--idle-prof",
		    "dbio measures no idle CPU: the result's cpu figures are its threads' own"),
	FIO_REFUSED("--server",
		    "dbio has no server mode: mpirun runs dbio on several machines (docs/mpi.md)"),
	FIO_REFUSED("--daemonize",
		    "dbio has no server mode: mpirun runs dbio on several machines (docs/mpi.md)"),
	FIO_REFUSED("--client",
		    "dbio has no client mode: mpirun runs dbio on several machines (docs/mpi.md)"),
	FIO_REFUSED("--remote-config",
		    "dbio has no client mode: mpirun runs dbio on several machines (docs/mpi.md)"),
	FIO_REFUSED("--trigger-file", "dbio runs no trigger command"),
	FIO_REFUSED("--trigger-timeout", "dbio runs no trigger command"),
	FIO_REFUSED("--trigger", "dbio runs no trigger command"),
	FIO_REFUSED("--trigger-remote", "dbio runs no trigger command"),
	FIO_REFUSED("--inflate-log", "dbio writes no compressed logs (log_compression= is refused)"),
	FIO_REFUSED("--merge-blktrace-only", "dbio does not read blktrace files"),
	FIO_REFUSED("--crctest", "dbio has no checksum speed test"),
	FIO_REFUSED("--cpuclock-test", "dbio times with clock_gettime and has no CPU clock test"),
	FIO_REFUSED("--enghelp", "`dbio help fio-keys` lists fio's engines and keys, honoured or why not"),
	FIO_REFUSED("--cmdhelp", "`dbio help options` lists every job key; `dbio help fio-keys` fio's"),
	{ 0 },
};

static const struct cmd_opt *const run_tables[] = { jobrun_rows, run_rows, jobrun_not_sweep_rows,
						    cmd_opts_help, NULL };

static const struct cmd_opts cmd_run_opts = {
	.name = "run",
	.subject = "command line",
	.operands = "[JOBFILE...] [--KEY=VALUE...]",
	.about = "Without a job file or job keys, runs the default suite (about one minute) in\n"
		 "./dbio-scratch or --directory. Job keys given on the command line apply to every\n"
		 "job; beside job files they are defaults the files' keys override, as in fio (a\n"
		 "note on stderr names each; --set KEY=VALUE overrides the files); `dbio help\n"
		 "options` lists them. fio's single-dash options (-name=x -rw=read) are taken,\n"
		 "and each --name starts a job.\n",
	.tail = "Exit status: 0 done, 1 failed while running, 2 bad input (nothing was written),\n"
		"130 interrupted by SIGINT, 143 by SIGTERM, 129 by SIGHUP, 131 by SIGQUIT.\n",
	.tables = run_tables,
};

/* fio's --readonly: the first job of set that would write, refused in
 * err; 0 when none would. fio refuses a job that writes or trims, and a
 * file it would have to extend; dbio lays out every file it reads but
 * those an earlier run kept. */
static int readonly_check(const struct jobset *set, struct dbio_err *err)
{
	for (size_t j = 0; j < set->njobs; j++) {
		const struct job *job = &set->jobs[j];

		if (strcmp(job->workload, "fileio"))
			return job_fail(
				job, "workload", err,
				"--readonly: workload=%s writes (its database, its files): fio's read-only mode refuses a job that writes",
				job->workload);
		if (fileio_files(job)->verify.verify_only || fileio_files(job)->verify.verify_state_load)
			continue; /* reads back kept files, writing nothing */
		if (job_writes(job))
			return job_fail(
				job, "rw", err,
				"--readonly: the job writes or trims: fio's read-only mode refuses it");
		return job_fail(
			job, "rw", err,
			"--readonly: dbio would lay out the job's files first, writing them (fio refuses to extend a file in read-only mode): only a job that reads back the files an earlier run kept (--keep, then verify_only=1 or verify_state_load=1) runs");
	}
	return 0;
}

static int run_main(int argc, char **argv)
{
	void (*show)(const json_t *result, const struct jobset *set, const struct run_args *a);
	struct run_args args = { 0 };
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	bool suite = false;
	int rc, status;

	if ((rc = mpi_world_start(&args.mpi, &err))) {
		cmd_error("%s", err.msg);
		return dbio_exit_status(rc);
	}
	args.opts.coord = mpi_coord(args.mpi); /* NULL alone */
	status = jobrun_parse(&cmd_run_opts, argc, argv, &args);
	if (status) {
		status = status < 0 ? 0 : status;
		goto out_args;
	}
	jobrun_progress(&args);
	rc = jobrun_build(&args, NULL, 0, &set, &suite, &err);
	if (!rc && args.readonly)
		rc = readonly_check(&set, &err);
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
	if (args.parse_only) /* fio's: the jobs are good, none runs */
		goto out_set;
	if (suite && !args.builtin && (status = suite_direct(&args, &set)))
		goto out_set;
	status = jobrun_execute(&args, &set, argc + 1, argv - 1, show);

out_set:
	jobset_release(&set);
out_args:
	jobrun_args_release(&args);
	mpi_world_end(args.mpi);
	return status;
}

const struct cmd cmd_run = {
	.name = "run",
	.summary = "run job files, command-line jobs, or the default suite",
	.main = run_main,
	.opts = &cmd_run_opts,
};
