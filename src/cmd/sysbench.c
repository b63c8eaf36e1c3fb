/*
 * dbio sysbench [general options] fileio [fileio options] prepare|run|cleanup:
 * sysbench 1.0.20's command line for its fileio test, with its output.
 * The options are one table (sysbench_opts.c) read by cmd/opts.c's parser;
 * their values are checked as sysbench checks them, with its messages and
 * exit status 1, and what dbio does not do is refused with dbio's reason
 * (status 2). prepare lays out test_file.0 .. N-1 in the current directory
 * as sysbench does (made with O_EXCL, marked as dbio's: run_kept_make; a
 * marked file is reused or extended as sysbench's), run makes one ordinary
 * fileio job of the options (sysbench_job) and runs it through the normal
 * runner on those files, and prints sysbench's report (sysbench_out.c);
 * dbio's JSON goes to --output FILE (or standard output with --format
 * json) and dbio's own lines follow the report with --dbio-lines. cleanup
 * removes the files dbio prepared and nothing else. docs/sysbench.md has
 * the translation of every option.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "cmd/sysbench_int.h"

#define SB_MAKER "sysbench"

/* test_file.0 .. N-1, sysbench's names; NULL when out of memory. */
static char **file_names(const struct sb_opts *o)
{
	char **names = calloc(o->file_num, sizeof(*names));

	for (uint64_t i = 0; names && i < o->file_num; i++)
		if (asprintf(&names[i], "test_file.%llu", (unsigned long long)i) < 0) {
			for (uint64_t k = 0; k < i; k++)
				free(names[k]);
			free(names);
			return NULL;
		}
	return names;
}

static void free_names(char **names, uint64_t n)
{
	for (uint64_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct sb_each {
	const struct sb_opts *o;
	char **names;
	char **written; /* the names made or extended, NULL when not kept */
	size_t nwritten;
};

/* sysbench's line for each file before it is written. */
static void each_file(void *ctx, size_t i, enum run_kept_how how)
{
	struct sb_each *e = ctx;
	static const char *const verb[] = { "Creating file", "Extending existing file",
					    "Reusing existing file" };

	sb_log(e->o, 3, "%s %s", verb[how], e->names[i]);
	fflush(stdout);
	if (e->written && how != RUN_KEPT_REUSED)
		e->written[e->nwritten++] = e->names[i];
}

/* The files of a run or a prepare: made, grown or taken (anew: emptied,
 * sysbench's seqwr run), the names made or grown into made->written when
 * made is given; 0 or the exit status after the message. */
static int make_files(const struct sb_opts *o, char **names, bool anew, struct sb_each *made,
		      uint64_t *written)
{
	struct sb_each none = { o, names, NULL, 0 };
	const struct run_kept k = { .dir = ".",
				    .maker = SB_MAKER,
				    .names = names,
				    .n = o->file_num,
				    .bytes = o->file_bytes,
				    .chunk = o->block, /* sysbench writes in blocks: see run_kept_make */
				    .anew = anew,
				    .each = anew ? NULL : each_file,
				    .ctx = made ? made : &none };
	struct dbio_err err = { 0 };
	int rc = run_kept_make(&k, written, &err);

	if (rc)
		cmd_error("sysbench: %s: %s", o->command, err.msg);
	return !rc ? 0 : rc == DBIO_EINPUT || rc == DBIO_EUNSAFE ? 2 : 1;
}

static int run_job(const struct sb_opts *o, char *job, char **names, bool report, int argc, char **argv);

static int sb_prepare(const struct sb_opts *o, char **names, int argc, char **argv)
{
	struct sb_each made = { o, names, calloc(o->file_num, sizeof(char *)), 0 };
	uint64_t written = 0;
	double t0 = now_s(), secs;
	int rc;

	if (!made.written) {
		cmd_error("sysbench: out of memory");
		return 1;
	}
	sb_log(o, 3, "%llu files, %lluKb each, %lluMb total", (unsigned long long)o->file_num,
	       (unsigned long long)(o->file_size / 1024),
	       (unsigned long long)(o->file_size * o->file_num / 1048576));
	sb_log(o, 3, "Creating files for the test...");
	sysbench_print_flags(o);
	fflush(stdout);
	rc = make_files(o, names, false, &made, &written);
	/* --validate: the blocks written carry their checksum and offset */
	if (!rc && o->validate && made.nwritten)
		rc = run_job(o, sysbench_validate_job(o, made.written, made.nwritten), names, false, argc,
			     argv);
	free(made.written);
	if (rc)
		return rc;
	secs = now_s() - t0;
	/* sysbench's MiB/sec: whole MiB over the seconds */
	if (written)
		sb_log(o, 3, "%llu bytes written in %.2f seconds (%.2f MiB/sec).",
		       (unsigned long long)written, secs,
		       secs > 0 ? (double)(written / 1048576) / secs : 0.0);
	else
		sb_log(o, 3, "No bytes written.");
	return 0;
}

static int sb_cleanup(const struct sb_opts *o, char **names)
{
	struct dbio_err err = { 0 };
	size_t removed = 0;
	int rc;

	sb_log(o, 3, "Removing test files...");
	rc = run_kept_remove(".", names, o->file_num, SB_MAKER, &removed, &err);
	if (rc) {
		cmd_error("sysbench: cleanup: %s", err.msg);
		return rc == DBIO_EUNSAFE ? 2 : 1;
	}
	return 0;
}

/* sysbench's checks of the files as its threads open them: each there
 * and at least as long as --file-total-size / --file-num (seqwr makes
 * them anew instead); 0 or the exit status after the message. */
static int check_files(const struct sb_opts *o, char **names)
{
	uint64_t *sizes = calloc(o->file_num, sizeof(*sizes)), written;
	struct dbio_err err = { 0 };
	char have[32], want[32];
	size_t at = 0;
	int rc;

	if (!sizes) {
		cmd_error("sysbench: out of memory");
		return 1;
	}
	if (!strcmp(o->mode->name, "seqwr")) {
		free(sizes);
		return make_files(o, names, true, NULL, &written);
	}
	rc = run_kept_sizes(".", names, o->file_num, SB_MAKER, sizes, &at, &err);
	if (rc == -ENOENT) {
		sb_log(o, 0, "Cannot open file '%s' errno = %d (%s)", names[at], ENOENT, strerror(ENOENT));
		sb_log(o, 2, "Did you forget to run the prepare step?");
	} else if (rc) {
		cmd_error("sysbench: run: %s", err.msg);
	}
	for (at = 0; !rc && at < o->file_num && sizes[at] >= o->file_size; at++)
		;
	if (!rc && at < o->file_num) {
		sb_log(o, 0, "Size of file '%s' is %sB, but at least %sB is expected.", names[at],
		       sb_size(have, sizeof(have), (double)sizes[at]),
		       sb_size(want, sizeof(want), (double)o->file_size));
		sb_log(o, 2, "Did you run 'prepare' with different --file-total-size or --file-num values?");
		rc = 1;
	}
	free(sizes);
	return !rc ? 0 : rc == DBIO_EUNSAFE ? 2 : 1;
}

/* The sysbench options of this run, for the report (show has no context). */
static const struct sb_opts *shown;

static void show(const json_t *result, const struct jobset *set, const struct run_args *a)
{
	(void)set;
	(void)a;
	sysbench_print_run(shown, result);
}

/* prepare's job shows nothing: its lines are sysbench's prepare's. */
static void show_none(const json_t *result, const struct jobset *set, const struct run_args *a)
{
	(void)result;
	(void)set;
	(void)a;
}

static void sb_usage(void)
{
	cmd_opts_usage(stdout, &cmd_sysbench_opts);
}

/* Run job (the job file's text, allocated; freed here) through the normal
 * runner on the files prepare made: a run's, with sysbench's account and
 * report when report, else prepare's silent one. The exit status. */
static int run_job(const struct sb_opts *o, char *job, char **names, bool report, int argc, char **argv)
{
	char *fake[6] = { argv[0], "--progress=none", NULL };
	int nfake = 2, status;
	const bool text = !strcmp(o->format, "text");
	struct run_args args = { 0 };
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	bool suite;
	int rc;

	if (report && o->output) {
		fake[nfake++] = "--output";
		fake[nfake++] = (char *)o->output;
	}
	if (report && !text)
		fake[nfake++] = "--format=json";
	if ((status = jobrun_parse_args(nfake, fake, false, sb_usage, &args)))
		goto out;
	if (!job) {
		cmd_error("sysbench: out of memory");
		status = 1;
		goto out;
	}
	args.builtin = job;
	args.builtin_name = "(dbio sysbench)";
	args.quiet = true;
	/* sysbench works in the current directory among the user's files: dbio
	 * touches only test_file.N, each made by prepare and carrying its mark */
	args.opts.force = true;
	args.opts.adopt = SB_MAKER;
	args.opts.adopt_any = report && !strcmp(o->mode->name, "seqwr");
	jobrun_progress(&args);
	if ((rc = jobrun_build(&args, NULL, 0, &set, &suite, &err))) {
		cmd_error("sysbench: %s", err.msg);
		status = dbio_exit_status(rc);
		goto out;
	}
	if (report && text)
		sysbench_print_mode(o);
	fflush(stdout);
	if (report && (status = check_files(o, names)))
		goto out;
	if (report && text) {
		sb_log(o, 3, "Initializing worker threads...\n");
		sb_log(o, 3, "Threads started!\n");
	}
	fflush(stdout);
	shown = o;
	status = jobrun_execute(&args, &set, argc + 1, argv - 1, report ? show : show_none);
out:
	free(job);
	jobset_release(&set);
	jobrun_args_release(&args);
	return status < 0 ? 0 : status;
}

static int sysbench_main(int argc, char **argv)
{
	struct sb_args a = { 0 };
	struct sb_opts o;
	char **names;
	int status = cmd_opts_parse(&cmd_sysbench_opts, argc, argv, &a);

	if (!status)
		status = sysbench_resolve(&a, &o);
	if (!status && strcmp(o.format, "text") && strcmp(o.format, "json")) {
		cmd_error("sysbench: --format: bad value '%s': expected text or json", o.format);
		status = 2;
	}
	if (!status)
		status = sysbench_check_dbio(&o);
	if (status)
		return status < 0 ? 0 : status;
	if (!(names = file_names(&o))) {
		cmd_error("sysbench: out of memory");
		return 1;
	}
	status = !strcmp(o.command, "run") ? run_job(&o, sysbench_job(&o, names), names, true, argc, argv)
		 : !strcmp(o.command, "prepare") ? sb_prepare(&o, names, argc, argv)
						 : sb_cleanup(&o, names);
	free_names(names, o.file_num);
	return status;
}

const struct cmd cmd_sysbench = {
	.name = "sysbench",
	.summary = "sysbench 1.0.20's fileio with its command line and output: prepare, run, cleanup",
	.main = sysbench_main,
	.opts = &cmd_sysbench_opts,
};
