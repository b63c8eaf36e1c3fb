/*
 * What `dbio run` and `dbio sweep` share; see cmd_int.h. Validation of the
 * whole jobset comes before anything is written.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/metric.h"
#include "analysis/repeat.h"
#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "cmd/crash_int.h"
#include "cmd/opts.h"
#include "plan/plan.h"
#include "powercut/powercut.h"
#include "views/csv.h"
#include "views/table.h"
#include "result/result.h"
#include "util/atomic.h"
#include "util/clock.h"

/* The runner's warning channel (struct run_opts): a line on stderr, in
 * every output format, since warnings are not part of the result. */
static void print_warning(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "dbio: warning: %s\n", msg);
}

/* The runner's progress (struct run_opts): one status line on stderr, the
 * first job's name, time, ETA and rate over the last second, redrawn in
 * place and cleared at the end. */
static void print_progress(void *ctx, const struct run_progress *p)
{
	(void)ctx;
	if (p->done) {
		fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "\r\033[K%s: %.0f s", p->job, p->elapsed_s);
	if (p->limit_s)
		fprintf(stderr, " of %.0f s, ETA %.0f s", p->limit_s,
			p->limit_s > p->elapsed_s ? p->limit_s - p->elapsed_s : 0);
	else if (p->total && p->ops)
		fprintf(stderr, ", %.0f %% done, ETA %.0f s", 100.0 * (double)p->ops / (double)p->total,
			p->elapsed_s * (double)(p->total - p->ops) / (double)p->ops);
	fprintf(stderr, ", %.0f ops/s", p->ops_per_s);
	if (p->mib_per_s)
		fprintf(stderr, ", %.1f MiB/s", p->mib_per_s);
}

void jobrun_progress(struct run_args *a)
{
	bool on = a->progress < 0 ? isatty(STDERR_FILENO) : a->progress;

	a->opts.progress = on ? print_progress : NULL;
}

/* A job file: an operand. */
static int jobrun_operand(const struct cmd_opts *spec, void *args, char *arg)
{
	struct run_args *a = args;

	(void)spec;
	a->files[a->nfiles++] = arg;
	return 0;
}

/* An option no row names is a job key: --key=value, --key value (not a
 * boolean, and value not an option), or a bare --bool; checked when the
 * jobs are built. */
static int jobrun_job_key(const struct cmd_opts *spec, void *args, int argc, char **argv, int *i)
{
	struct run_args *a = args;
	const char *arg = argv[*i];
	size_t n = strcspn(arg, "=");
	const struct option_def *def;
	char name[128];

	(void)spec;
	snprintf(name, sizeof(name), "%.*s", (int)(n - 2), arg + 2);
	def = plan_find(name);
	if (def && def->type != OPT_BOOL && arg[n] != '=' && *i + 1 < argc &&
	    strncmp(argv[*i + 1], "--", 2)) {
		if (asprintf(&a->keys[a->nkeys++], "%s=%s", arg, argv[++*i]) < 0)
			return 1;
	} else if (!(a->keys[a->nkeys++] = strdup(arg))) {
		return 1;
	}
	return 0;
}

/* --set KEY=VALUE: a job key over the job files' own (a command-line key
 * is a default the files override, as in fio). */
static int parse_set(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	struct run_args *a = args;

	if (!strchr(val, '=') || val[0] == '=') {
		cmd_error("%s: --set: bad value '%s': expected KEY=VALUE (a job key and its value)",
			  spec->subject, val);
		return 2;
	}
	if (asprintf(&a->sets[a->nsets++], "--%s", val) < 0)
		return 1;
	return 0;
}

static int parse_progress(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	struct run_args *a = args;

	if (strcmp(val, "none") && strcmp(val, "line")) {
		cmd_error("%s: --progress: bad value '%s': expected none or line", spec->subject, val);
		return 2;
	}
	a->progress = !strcmp(val, "line");
	return 0;
}

int jobrun_parse_format(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	struct run_args *a = args;

	if (strcmp(val, "text") && strcmp(val, "json") && strcmp(val, "csv")) {
		cmd_error("%s: --format: bad value '%s': expected text, json or csv", spec->subject, val);
		return 2;
	}
	a->format_set = true;
	a->format = !strcmp(val, "json") ? FORMAT_JSON : !strcmp(val, "csv") ? FORMAT_CSV : FORMAT_TEXT;
	return 0;
}

/* --vary, --resume, --metric and --op of another command than sweep. */
static int sweep_only(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	cmd_error("%s: %s: only for `dbio sweep`", spec->subject, o->name);
	return 2;
}

const struct cmd_opt jobrun_rows[] = {
	{ .name = "--output",
	  .value = "FILE",
	  .offset = offsetof(struct run_args, output),
	  .help = "write the result as JSON to FILE, atomically (a temporary file in the same directory, "
		  "fsynced, renamed to FILE); the directory must be writable, which is checked before the "
		  "jobs run; a run that stopped early writes its partial result",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--series-csv",
	  .value = "FILE",
	  .offset = offsetof(struct run_args, series_csv),
	  .help = "write the time series of the jobs with log_interval= as CSV to FILE, atomically: a "
		  "row per interval and op type, with the columns job, run, thread (empty on a time grid), "
		  "interval, end_s, duration_s, op, count, bytes, lat_mean_ns and lat_max_ns",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--progress",
	  .kind = CMD_OPT_EQ,
	  .value = "line|none",
	  .parse = parse_progress,
	  .help = "an updating status line on stderr (default: line when stderr is a terminal)" },
	{ .name = "--set",
	  .value = "KEY=VALUE",
	  .parse = parse_set,
	  .help = "a job key for every job, over what the job files say (a job key given as --KEY=VALUE "
		  "beside job files is a default that their keys override, as in fio); may be repeated",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--keep",
	  .kind = CMD_OPT_FLAG,
	  .offset = offsetof(struct run_args, opts.keep),
	  .help = "leave the files dbio created in place" },
	{ .name = "--force",
	  .kind = CMD_OPT_FLAG,
	  .offset = offsetof(struct run_args, opts.force),
	  .help = "work in a directory that holds files that are not dbio's (dbio still only creates and "
		  "removes its own)" },
	{ .name = "--wide",
	  .kind = CMD_OPT_FLAG,
	  .offset = offsetof(struct run_args, wide),
	  .help = "the closing table of several jobs in one piece; without it a table wider than 80 "
		  "columns is cut into narrower ones" },
	{ 0 },
};

const struct cmd_opt jobrun_not_sweep_rows[] = {
	{ .name = "--vary", .value = "X", .parse = sweep_only, .flags = CMD_OPT_HIDDEN | CMD_OPT_NONEMPTY },
	{ .name = "--resume", .value = "X", .parse = sweep_only, .flags = CMD_OPT_HIDDEN | CMD_OPT_NONEMPTY },
	{ .name = "--metric", .value = "X", .parse = sweep_only, .flags = CMD_OPT_HIDDEN | CMD_OPT_NONEMPTY },
	{ .name = "--op", .value = "X", .parse = sweep_only, .flags = CMD_OPT_HIDDEN | CMD_OPT_NONEMPTY },
	{ 0 },
};

const struct cmd_opt jobrun_format_rows[] = {
	{ .name = "--format",
	  .value = "text|json|csv",
	  .parse = jobrun_parse_format,
	  .help = "text (default), json (the result) or csv on standard output",
	  .flags = CMD_OPT_NONEMPTY },
	{ 0 },
};

static const struct cmd_opt *const plain_tables[] = { jobrun_format_rows, jobrun_rows, jobrun_not_sweep_rows,
						      cmd_opts_help, NULL };

/* fio's single-dash options (getopt_long_only: `fio -name=x -rw=read`):
 * "-word[=value]" whose word is one of spec's options or a job key is
 * taken as "--word[=value]"; any other "-x" stays a job file's name. The
 * new strings are a->dashed's; argv[i] points to them. 0 or -ENOMEM. */
static int undash(const struct cmd_opts *spec, int argc, char **argv, struct run_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		size_t n = strcspn(arg, "=");
		char name[128], *dashed;

		if (!strcmp(arg, "--"))
			break;
		if (arg[0] != '-' || arg[1] == '-' || n < 3 || n - 1 >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(n - 1), arg + 1);
		if (asprintf(&dashed, "-%s", arg) < 0)
			return -ENOMEM;
		if (!cmd_opts_find(spec, dashed, n + 1) && !plan_find(name)) {
			free(dashed);
			continue;
		}
		a->dashed[a->ndashed++] = dashed;
		argv[i] = dashed;
	}
	return 0;
}

int jobrun_parse(const struct cmd_opts *spec, int argc, char **argv, struct run_args *a)
{
	struct cmd_opts with = *spec;

	a->progress = -1;
	a->opts.warn = print_warning;
	a->files = calloc((size_t)argc, sizeof(*a->files));
	a->keys = calloc((size_t)argc, sizeof(*a->keys));
	a->sets = calloc((size_t)argc, sizeof(*a->sets));
	a->dashed = calloc((size_t)argc, sizeof(*a->dashed));
	a->vary = calloc((size_t)argc, sizeof(*a->vary));
	if (!a->files || !a->keys || !a->sets || !a->dashed || !a->vary || undash(spec, argc, argv, a)) {
		cmd_error("%s: out of memory", argv[0]);
		return 1;
	}
	with.operand = jobrun_operand;
	with.unknown = jobrun_job_key;
	return cmd_opts_parse(&with, argc, argv, a);
}

int jobrun_parse_args(int argc, char **argv, bool sweep, void (*usage)(void), struct run_args *a)
{
	const struct cmd_opts spec = {
		.name = argv[0],
		.subject = "command line",
		.tables = plain_tables,
		.print_usage = usage,
	};

	(void)sweep; /* sweep parses by its own rows (jobrun_parse) */
	return jobrun_parse(&spec, argc, argv, a);
}

void jobrun_args_release(struct run_args *a)
{
	for (size_t i = 0; i < a->nkeys; i++)
		free(a->keys[i]);
	for (size_t i = 0; i < a->nsets; i++)
		free(a->sets[i]);
	for (size_t i = 0; i < a->ndashed; i++)
		free(a->dashed[i]);
	free(a->keys);
	free(a->sets);
	free(a->dashed);
	free(a->files);
	free(a->vary);
	free(a->agg_bw.pts);
}

/* fio's name of --bandwidth-log's file of direction d: NAME-read_bw.log,
 * NAME-write_bw.log, NAME-trim_bw.log. */
static int agg_bw_path(const struct run_args *a, int d, char *buf, size_t len, struct dbio_err *err)
{
	static const char *const dirs[3] = { "read", "write", "trim" };
	int n = snprintf(buf, len, "%s-%s_bw.log", a->agg_bw_name, dirs[d]);

	return n < 0 || (size_t)n >= len
		       ? dbio_err_set(err, DBIO_EINPUT,
				      "--bandwidth-log: the name '%s' is too long for a path", a->agg_bw_name)
		       : 0;
}

/* A crash=1 job the layer can run: the build has it, dbio crash can check
 * the job, and the job runs alone (one armed probe in a process). */
static int crash_check(const struct jobset *set, struct dbio_err *err)
{
	const char *key;
	char why[320];

	for (size_t j = 0; j < set->njobs; j++) {
		const struct job *job = &set->jobs[j];

		if (!job->crash)
			continue;
		if (!powercut_built())
			return job_fail(
				job, "crash", err,
				"the power-cut layer is left out of this build: install libfuse3-dev and build again");
		if (crash_refusal(job, &key, why, sizeof(why)))
			return job_fail(job, key, err, "%s", why);
		if ((j && !job->starts_group) || (j + 1 < set->njobs && !set->jobs[j + 1].starts_group))
			return job_fail(
				job, "crash", err,
				"dbio crash checks one job at a time: give it a group of its own (stonewall)");
	}
	return 0;
}

int jobrun_check(const struct run_args *a, const struct jobset *set, struct dbio_err *err)
{
	int rc = 0;

	if (a->output)
		rc = atomic_write_check("--output", a->output, err);
	if (!rc && a->series_csv)
		rc = atomic_write_check("--series-csv", a->series_csv, err);
	for (int d = 0; !rc && a->opts.agg_bw && d < 3; d++) {
		char path[4096];

		rc = agg_bw_path(a, d, path, sizeof(path), err)
			     ?: atomic_write_check("--bandwidth-log", path, err);
	}
	if (!rc)
		rc = crash_check(set, err);
	if (!rc)
		rc = run_check_targets(set, &a->opts, err);
	return rc;
}

/* fio's exit_what=all: the job ended ended the run, so the jobs from first on
 * (the groups not started) do not run; their entries say so. */
static int skip_rest(const struct jobset *set, size_t first, const struct job *ended, json_t *result,
		     size_t base, bool quiet, struct dbio_err *err)
{
	char why[256];

	snprintf(why, sizeof(why), "job '%s' ended the run (exitall with exit_what=all)", ended->name);
	for (size_t j = first; j < set->njobs; j++) {
		if (!quiet)
			fprintf(stderr, "dbio: not running %s: %s\n", set->jobs[j].name, why);
		if (result_add_skipped(result, base + j, &set->jobs[j], why))
			return dbio_err_set(err, -ENOMEM, "out of memory for the result");
		metric_summarize(result, base + j);
	}
	return 0;
}

/* repeat=auto over a group's jobs (jobs[0..n)): those with it run until
 * each one's headline is within its repeat_ci, at least 3 runs, at most
 * the group's largest repeat_max or repeat_time. */
struct auto_repeat {
	bool on;
	const struct job *jobs;
	size_t n;
	uint64_t max, time_ns, t0;
	enum repeat_stop why;
	char so_far[96]; /* for the progress line: ", ±7.2 % so far, target 5 %" */
};

static void auto_repeat_init(struct auto_repeat *ar, const struct job *jobs, size_t n)
{
	*ar = (struct auto_repeat){
		.jobs = jobs, .n = n, .t0 = clock_now_ns(), .why = (enum repeat_stop) - 1
	};
	for (size_t k = 0; k < n; k++) {
		if (jobs[k].repeat)
			continue;
		ar->on = true;
		ar->max = jobs[k].repeat_max > ar->max ? jobs[k].repeat_max : ar->max;
		ar->time_ns = jobs[k].repeat_time_ns > ar->time_ns ? jobs[k].repeat_time_ns : ar->time_ns;
	}
}

/* Before run r (from 0): whether the runs are done, why in ar->why. Under
 * MPI they go on while any rank's are not. */
static bool auto_repeat_done(struct auto_repeat *ar, const json_t *result, size_t first, uint64_t r,
			     const struct run_coord *coord)
{
	const json_t *jobs = json_object_get(result, "jobs");
	bool within = true;
	double worst = 0;

	for (size_t k = 0; k < ar->n; k++) {
		struct repeat_judgement jd;

		if (ar->jobs[k].repeat)
			continue;
		repeat_judge(json_array_get(jobs, first + k), &jd);
		within &= jd.ci_pct <= (double)ar->jobs[k].repeat_ci_pct;
		worst = jd.ci_pct > worst ? jd.ci_pct : worst;
	}
	if (r < 3) {
		ar->so_far[0] = '\0';
		return false;
	}
	snprintf(ar->so_far, sizeof(ar->so_far), ": the 95 %% CI ±%.1f %% of the mean so far", worst);
	ar->why = within						  ? REPEAT_STOP_CI
		  : r >= ar->max					  ? REPEAT_STOP_MAX
		  : ar->time_ns && clock_now_ns() - ar->t0 >= ar->time_ns ? REPEAT_STOP_TIME
									  : (enum repeat_stop) - 1;
	return !run_coord_any(coord, (int)ar->why < 0);
}

/* Each job with repeat=auto: why its runs stopped, in its entry. 0 or
 * -ENOMEM. */
static int auto_repeat_record(const struct auto_repeat *ar, json_t *result, size_t first)
{
	json_t *jobs = json_object_get(result, "jobs");
	int rc = 0;

	for (size_t k = 0; k < ar->n && !rc; k++) {
		json_t *entry = json_array_get(jobs, first + k);
		struct repeat_judgement jd;

		if (ar->jobs[k].repeat || !entry)
			continue;
		repeat_judge(entry, &jd);
		rc = repeat_record(entry, ar->why, &jd, (double)ar->jobs[k].repeat_ci_pct,
				   (unsigned long long)ar->max, (unsigned long long)ar->time_ns);
	}
	return rc;
}

int jobrun_jobs(const struct jobset *set, const struct run_args *a, json_t *result, size_t base,
		struct dbio_err *err)
{
	struct run_stats *stats = calloc(set->njobs ? set->njobs : 1, sizeof(*stats));
	bool quiet = a->format != FORMAT_TEXT || a->quiet;
	const struct job *ended = NULL; /* exit_what=all ended the run */
	int rc = 0;

	if (!stats)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	for (size_t j = 0; j < set->njobs && !rc && !ended;) {
		struct auto_repeat ar = { 0 };
		uint64_t repeat = 1;
		size_t n = 1;

		while (j + n < set->njobs && !set->jobs[j + n].starts_group)
			n++;
		for (size_t k = 0; k < n; k++)
			if (set->jobs[j + k].repeat > repeat)
				repeat = set->jobs[j + k].repeat;
		auto_repeat_init(&ar, &set->jobs[j], n);
		if (!quiet)
			fprintf(stderr, "dbio: running %s%s (%zu of %zu)\n", set->jobs[j].name,
				n > 1 ? " and its group" : "", j + 1, set->njobs);
		for (uint64_t r = 0; (ar.on || r < repeat) && !rc && !ended; r++) {
			if (ar.on && auto_repeat_done(&ar, result, base + j, r, a->opts.coord))
				break;
			if (!quiet && !ar.on && repeat > 1)
				fprintf(stderr, "dbio:   run %llu of %llu\n", (unsigned long long)r + 1,
					(unsigned long long)repeat);
			else if (!quiet && ar.on)
				fprintf(stderr, "dbio:   run %llu (repeat=auto%s)\n",
					(unsigned long long)r + 1, ar.so_far);
			rc = crash_run_group(&set->jobs[j], n, &a->opts, &stats[j], err);
			for (size_t k = 0; k < n; k++) {
				if (run_coord_note_run(a->opts.coord, base + j + k, r, &stats[j + k]))
					rc = dbio_err_set(err, -ENOMEM, "out of memory for the result");
				if (stats[j + k].ended_all)
					ended = &set->jobs[j + k];
				if (result_add_run(result, base + j + k, &set->jobs[j + k], &stats[j + k]))
					rc = dbio_err_set(err, -ENOMEM, "out of memory for the result");
				run_stats_release(&stats[j + k]);
			}
			/* under MPI every rank skips the rest if one's job ended it */
			if (a->opts.coord && run_coord_any(a->opts.coord, ended != NULL) && !ended)
				ended = &set->jobs[j];
		}
		if (ar.on && !rc && (int)ar.why >= 0 && auto_repeat_record(&ar, result, base + j))
			rc = dbio_err_set(err, -ENOMEM, "out of memory for the result");
		for (size_t k = 0; k < n; k++)
			metric_summarize(result, base + j + k);
		j += n;
		if (ended && !rc)
			rc = skip_rest(set, j, ended, result, base, quiet, err);
	}
	free(stats);
	/* under MPI a signal after the last barrier stops every rank too */
	if (a->opts.coord && !rc && atomic_load(&run_stop_signal))
		rc = dbio_err_set(err, DBIO_ESTOPPED, "interrupted by %s",
				  run_signal_name(atomic_load(&run_stop_signal)));
	return run_coord_agree(a->opts.coord, rc, err);
}

int jobrun_write_outputs(const struct run_args *a, const json_t *result, bool partial)
{
	struct dbio_err err = { 0 };

	if (a->output) {
		if (!result_write(result, a->output, &err) && partial && a->format == FORMAT_TEXT)
			fprintf(stderr, "dbio: partial result written to %s\n", a->output);
	}
	for (int d = 0; a->opts.agg_bw && d < 3 && !err.code; d++) {
		char path[4096];

		if (!agg_bw_path(a, d, path, sizeof(path), &err))
			run_agg_bw_write(a->opts.agg_bw, d, path, &err);
	}
	if (a->series_csv && !err.code) {
		char *csv = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&csv, &len);

		if (mem) {
			csv_series(mem, result);
			fclose(mem);
		}
		if (!mem || !csv)
			dbio_err_set(&err, -ENOMEM, "%s: cannot write: out of memory", a->series_csv);
		else
			atomic_write(a->series_csv, csv, len, &err);
		free(csv);
	}
	if (err.code)
		cmd_error("%s", err.msg);
	return err.code;
}

int jobrun_status(int rc)
{
	int sig = atomic_load(&run_stop_signal);

	if (sig)
		return 128 + sig;
	return dbio_exit_status(rc);
}

int jobrun_complete_status(void)
{
	int sig = atomic_load(&run_stop_signal);

	if (sig)
		cmd_note("interrupted by %s after the result was complete: it stands", run_signal_name(sig));
	return 0;
}

/* Under MPI: every rank runs what rank 0 runs (the jobs as resolved, and
 * the options that change what is left behind), or all refuse. */
static int agree_plan(const struct run_args *a, const struct jobset *set, struct dbio_err *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int rc;

	if (mem) {
		plan_describe(mem, set);
		fprintf(mem, "the command line's --keep\t%s\n", a->opts.keep ? "given" : "not given");
		fprintf(mem, "the command line's --force\t%s\n", a->opts.force ? "given" : "not given");
		fclose(mem);
	}
	if (!mem || !text) /* the same on every rank: no plan to compare */
		rc = run_coord_agree(a->opts.coord, dbio_err_set(err, -ENOMEM, "out of memory"), err);
	else
		rc = run_coord_agree_plan(a->opts.coord, text, len, err);
	free(text);
	return rc;
}

/* Under MPI, after the jobs are built (rc): the ranks agree that every
 * one built them, each gets its directory, rank 0 alone writes the
 * outputs, and the runner agrees at every phase. */
int jobrun_mpi_prepare(struct run_args *a, struct jobset *set, int rc, struct dbio_err *err)
{
	/* mem_limit runs a job in a child process (run/limited.c), which
	 * cannot take part in MPI: the same refusal on every rank */
	for (size_t j = 0; !rc && j < set->njobs; j++)
		if (set->jobs[j].mem_limit)
			rc = dbio_err_set(
				err, DBIO_EINPUT,
				"job '%s': mem_limit does not run under MPI (it runs the job in a child "
				"process, which cannot take part in MPI); leave it out, or run without mpirun",
				set->jobs[j].name);
	rc = run_coord_agree(a->opts.coord, rc, err);
	if (!rc)
		rc = agree_plan(a, set, err);
	if (!rc)
		rc = run_coord_agree(a->opts.coord, run_coord_dirs(a->opts.coord, set, err), err);
	if (run_coord_rank(a->opts.coord)) {
		a->output = NULL;
		a->series_csv = NULL;
	}
	return rc;
}

bool jobrun_mpi_gather(const struct run_args *a, json_t **result, int *rc, struct dbio_err *err)
{
	struct dbio_err gerr = { 0 };
	json_t *merged = NULL;
	int grc;

	run_coord_dirs_remove(a->opts.coord, a->opts.keep);
	grc = run_coord_gather(a->opts.coord, *result, &merged, &gerr);
	if (grc) {
		cmd_error("%s", gerr.msg);
		*rc = *rc ? *rc : grc;
		return true;
	}
	if (run_coord_rank(a->opts.coord)) {
		if (*rc && err->code)
			cmd_error("%s", err->msg); /* to /dev/null: rank 0 says it */
		return true;
	}
	json_decref(*result);
	result_settle(merged); /* its aggregates, as the file will hold them */
	*result = merged;
	return false;
}

int jobrun_execute(const struct run_args *a, const struct jobset *set, int argc, char **argv,
		   void (*show)(const json_t *result, const struct jobset *set, const struct run_args *a))
{
	struct dbio_err err = { 0 };
	json_t *result;
	int rc = jobrun_check(a, set, &err), wrc;

	rc = run_coord_agree(a->opts.coord, rc, &err);
	if (rc) {
		cmd_error("%s", err.msg);
		run_coord_dirs_remove(a->opts.coord, a->opts.keep);
		return rc == DBIO_EUNSAFE ? 2 : dbio_exit_status(rc);
	}
	result = result_new(argc, argv);
	if (!result) {
		cmd_error("%s: out of memory", argv[1]);
		return 1;
	}
	run_signals_install();
	if (a->opts.agg_bw)
		a->opts.agg_bw->origin_ns = clock_now_ns(); /* fio's times count from its start */
	rc = jobrun_jobs(set, a, result, 0, &err);
	result_finish(result, rc != 0, rc ? err.msg : NULL);
	if (a->amend)
		a->amend(result, a->amend_arg);
	if (a->opts.coord && jobrun_mpi_gather(a, &result, &rc, &err)) {
		json_decref(result);
		return jobrun_status(rc);
	}
	if (a->format == FORMAT_JSON) {
		char *text = result_dump(result);

		if (text)
			puts(text);
		free(text);
	} else if (a->format == FORMAT_CSV) {
		table_points(stdout, result, JOBRUN_CSV_METRICS, NULL, true);
	} else {
		show(result, set, a);
	}
	fflush(stdout);
	wrc = jobrun_write_outputs(a, result, rc != 0);
	if (rc && err.code)
		cmd_error("%s", err.msg);
	json_decref(result);
	return rc || wrc ? jobrun_status(rc ? rc : wrc) : jobrun_complete_status();
}
