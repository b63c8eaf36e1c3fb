/*
 * dbio run: parse job files and --key=value options into a jobset, validate
 * all of it before touching the disk, run the jobs (grouped ones together),
 * collect one result, and show it as text or JSON.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "job/option.h"
#include "out/csv.h"
#include "out/text.h"
#include "result/result.h"
#include "run/run.h"
#include "util/atomic.h"

extern const char cmd_run_default_suite[]; /* jobs/default.fio, built in */

struct run_args {
	const char **files;
	size_t nfiles;
	char **keys; /* "--key[=value]" arguments, in order */
	size_t nkeys;
	const char *output;
	const char *series_csv;
	int progress; /* -1: when stderr is a terminal */
	bool json;
	struct run_opts opts;
};

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

/* Split "--key=value" into key and value (NULL when bare). */
static void split_key(char *arg, char **key, char **value)
{
	char *eq = strchr(arg + 2, '=');

	*key = arg + 2;
	*value = NULL;
	if (eq) {
		*eq = '\0';
		*value = eq + 1;
	}
}

static int parse_args(int argc, char **argv, struct run_args *a)
{
	a->files = calloc((size_t)argc, sizeof(*a->files));
	a->keys = calloc((size_t)argc * 2, sizeof(*a->keys));
	if (!a->files || !a->keys) {
		cmd_error("run: out of memory");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		char *arg = argv[i];
		const char *val = NULL;
		size_t n;

		if (strncmp(arg, "--", 2) || arg[2] == '\0') {
			a->files[a->nfiles++] = arg;
			continue;
		}
		if (!strncmp(arg, "--progress=", 11)) {
			if (strcmp(arg + 11, "none") && strcmp(arg + 11, "line")) {
				cmd_error("command line: --progress: bad value '%s': expected none or line",
					  arg + 11);
				return 2;
			}
			a->progress = !strcmp(arg + 11, "line") ? 1 : 0;
			continue;
		}
		if (!strcmp(arg, "--keep") || !strcmp(arg, "--force")) {
			*(arg[2] == 'k' ? &a->opts.keep : &a->opts.force) = true;
			continue;
		}
		if (!strcmp(arg, "--help")) {
			run_usage();
			return -1;
		}
		for (n = 0; arg[n] && arg[n] != '='; n++)
			;
		if ((n == 8 && !strncmp(arg, "--output", 8)) || (n == 8 && !strncmp(arg, "--format", 8)) ||
		    (n == 12 && !strncmp(arg, "--series-csv", 12))) {
			val = arg[n] == '=' ? arg + n + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (!val || !*val) {
				cmd_error("command line: %.*s: needs a value", (int)n, arg);
				return 2;
			}
			if (arg[2] == 's') {
				a->series_csv = val;
			} else if (arg[2] == 'o') {
				a->output = val;
			} else if (!strcmp(val, "json") || !strcmp(val, "text")) {
				a->json = !strcmp(val, "json");
			} else {
				cmd_error("command line: --format: bad value '%s': expected text or json",
					  val);
				return 2;
			}
			continue;
		}
		/* A job key: --key=value, --key value (non-boolean), or a bare --bool. */
		const struct option_def *def;
		char name[128];

		snprintf(name, sizeof(name), "%.*s", (int)(n - 2), arg + 2);
		def = option_find(name);
		if (def && def->type != OPT_BOOL && arg[n] != '=' && i + 1 < argc &&
		    strncmp(argv[i + 1], "--", 2)) {
			if (asprintf(&a->keys[a->nkeys++], "%s=%s", arg, argv[++i]) < 0)
				return 1;
		} else if (!(a->keys[a->nkeys++] = strdup(arg))) {
			return 1;
		}
	}
	return 0;
}

static int apply_keys(struct job *job, const struct run_args *a, struct dbio_err *err)
{
	for (size_t i = 0; i < a->nkeys; i++) {
		char *copy = strdup(a->keys[i]), *key, *value;
		int rc;

		if (!copy)
			return dbio_err_set(err, -ENOMEM, "out of memory");
		split_key(copy, &key, &value);
		rc = option_set(job, key, value, NULL, err);
		free(copy);
		if (rc)
			return rc;
	}
	return 0;
}

/* Only --directory among the job keys: the default suite in that directory. */
static bool wants_suite(const struct run_args *a)
{
	if (a->nfiles)
		return false;
	for (size_t i = 0; i < a->nkeys; i++)
		if (strncmp(a->keys[i], "--directory=", 12))
			return false;
	return true;
}

static int build_jobset(const struct run_args *a, struct jobset *set, bool *suite, struct dbio_err *err)
{
	struct job probe;
	int rc = 0;

	/* Check the command-line keys once, even when no job uses them. */
	job_defaults(&probe, "job");
	if ((rc = apply_keys(&probe, a, err)))
		return rc;
	*suite = wants_suite(a);
	if (*suite)
		rc = jobfile_parse_string(set, cmd_run_default_suite, "(default suite)", err);
	for (size_t i = 0; i < a->nfiles && !rc; i++)
		rc = jobfile_parse(set, a->files[i], err);
	if (!rc && !*suite && !a->nfiles)
		rc = jobset_add(set, &probe) ? dbio_err_set(err, -ENOMEM, "out of memory") : 0;
	for (size_t j = 0; j < set->njobs && !rc; j++) {
		if (a->nfiles || *suite)
			rc = apply_keys(&set->jobs[j], a, err);
		if (!rc)
			rc = job_validate(&set->jobs[j], err);
	}
	/* Jobs that run together must not share file names. */
	for (size_t j = 1; j < set->njobs && !rc; j++)
		for (size_t k = j;
		     k-- > 0 && set->jobs[k].group[0] && !strcmp(set->jobs[k].group, set->jobs[j].group);)
			if (!strcmp(set->jobs[k].name, set->jobs[j].name)) {
				char where[4200];

				option_where(&set->jobs[j].section, where, sizeof(where));
				rc = dbio_err_set(
					err, DBIO_EINPUT,
					"%s: job '%s': runs in group '%s' beside a job of the same name: give it another name",
					where, set->jobs[j].name, set->jobs[j].group);
				break;
			}
	return rc;
}

static int check_output(const char *path, struct dbio_err *err)
{
	char *copy = strdup(path), *slash;
	int rc = 0;

	if (!copy)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	slash = strrchr(copy, '/');
	if (slash)
		*slash = '\0';
	if (access(slash ? (copy[0] ? copy : "/") : ".", W_OK))
		rc = dbio_err_set(err, DBIO_EINPUT, "--output %s: cannot write there: %s", path,
				  strerror(errno));
	free(copy);
	return rc;
}

static int run_main(int argc, char **argv)
{
	struct run_args args = { 0 };
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	struct run_stats *stats = NULL;
	json_t *result = NULL;
	bool suite = false;
	int rc, status;

	args.progress = -1;
	status = parse_args(argc, argv, &args);
	args.opts.progress = args.progress < 0 ? isatty(STDERR_FILENO) : args.progress;
	if (status) {
		status = status < 0 ? 0 : status;
		goto out_args;
	}
	rc = build_jobset(&args, &set, &suite, &err);
	if (!rc && args.output)
		rc = check_output(args.output, &err);
	if (!rc && args.series_csv)
		rc = check_output(args.series_csv, &err);
	if (!rc)
		rc = run_check_targets(&set, &args.opts, &err);
	if (rc) {
		cmd_error("%s", err.msg);
		status = rc == DBIO_EUNSAFE ? 2 : dbio_exit_status(rc);
		goto out_set;
	}

	stats = calloc(set.njobs, sizeof(*stats));
	result = result_new(argc + 1, argv - 1);
	if (!stats || !result) {
		cmd_error("run: out of memory");
		status = 1;
		goto out_set;
	}
	run_signals_install();
	for (size_t j = 0; j < set.njobs && !rc;) {
		size_t n = 1;

		while (set.jobs[j].group[0] && j + n < set.njobs &&
		       !strcmp(set.jobs[j + n].group, set.jobs[j].group))
			n++;
		if (!args.json)
			fprintf(stderr, "dbio: running %s%s (%zu of %zu)\n", set.jobs[j].name,
				n > 1 ? " and its group" : "", j + 1, set.njobs);
		uint64_t repeat = 1;

		for (size_t k = 0; k < n; k++)
			if (set.jobs[j + k].repeat > repeat)
				repeat = set.jobs[j + k].repeat;
		for (uint64_t r = 0; r < repeat && !rc; r++) {
			if (!args.json && repeat > 1)
				fprintf(stderr, "dbio:   run %llu of %llu\n", (unsigned long long)r + 1,
					(unsigned long long)repeat);
			rc = run_group(&set.jobs[j], n, &args.opts, &stats[j], &err);
			for (size_t k = 0; k < n; k++) {
				if (result_add_run(result, j + k, &set.jobs[j + k], &stats[j + k]))
					rc = dbio_err_set(&err, -ENOMEM, "out of memory for the result");
				run_stats_release(&stats[j + k]);
			}
		}
		for (size_t k = 0; k < n; k++)
			result_summarize(result, j + k);
		j += n;
	}
	result_finish(result, rc != 0, rc ? err.msg : NULL);

	if (args.json) {
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
	if (args.output) {
		struct dbio_err werr = { 0 };

		if (result_write(result, args.output, &werr)) {
			cmd_error("%s", werr.msg);
			if (!rc)
				rc = werr.code;
		} else if (rc && !args.json) {
			fprintf(stderr, "dbio: partial result written to %s\n", args.output);
		}
	}
	if (args.series_csv) {
		struct dbio_err werr = { 0 };
		char *csv = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&csv, &len);

		if (mem) {
			csv_series(mem, result);
			fclose(mem);
		}
		if (!mem || !csv)
			dbio_err_set(&werr, -ENOMEM, "%s: cannot write: out of memory", args.series_csv);
		else
			atomic_write(args.series_csv, csv, len, &werr);
		free(csv);
		if (werr.code) {
			cmd_error("%s", werr.msg);
			if (!rc)
				rc = werr.code;
		}
	}
	if (rc && err.code)
		cmd_error("%s", err.msg);
	status = dbio_exit_status(rc);
	if (atomic_load(&run_stop_signal))
		status = 128 + atomic_load(&run_stop_signal);

out_set:
	json_decref(result);
	free(stats);
	jobset_release(&set);
out_args:
	for (size_t i = 0; i < args.nkeys; i++)
		free(args.keys[i]);
	free(args.keys);
	free(args.files);
	return status;
}

const struct cmd cmd_run = {
	.name = "run",
	.summary = "run job files, command-line jobs, or the default suite",
	.main = run_main,
};
