/*
 * dbio sweep: run a job at every point of a grid of option values
 * (--vary numjobs=1,2,4 --vary size=1g..16g*2), each point with its
 * repeats, into one result that is rewritten atomically after every point,
 * so an interrupted sweep keeps what it finished and `--resume FILE` goes
 * on from the first unfinished point. Text output is one table, a row per
 * point.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "cmd/opts.h"
#include "mpi/mpi.h"
#include "plan/plan.h"
#include "analysis/metric.h"
#include "views/explain.h"
#include "views/table.h"
#include "views/text.h"
#include "result/result.h"
#include "workload/workload.h"
#include "util/atomic.h"
#include "util/units.h"

#define SWEEP_MAX_VALUES 1000
#define SWEEP_MAX_POINTS 100000

struct axis {
	char key[64];
	char **values;
	size_t nvalues;
};

static int parse_vary(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	struct run_args *a = args;

	a->vary[a->nvary++] = (char *)val;
	return 0;
}

static const struct cmd_opt sweep_rows[] = {
	{ .name = "--vary",
	  .value = "KEY=VALUES",
	  .parse = parse_vary,
	  .help = "a key and its values, a list or a range; once per key varied",
	  .flags = CMD_OPT_REPEAT | CMD_OPT_NONEMPTY | CMD_OPT_REQUIRED },
	{ .name = "--resume",
	  .value = "FILE",
	  .offset = offsetof(struct run_args, resume),
	  .help = "finish the interrupted sweep of the result FILE: its plan from FILE, the job files, "
		  "the keys of free text, --series-csv, --force, --format and --progress from this command "
		  "line",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--metric",
	  .value = "LIST",
	  .offset = offsetof(struct run_args, metrics),
	  .help = "columns of the table, from",
	  .help_more = cmd_opts_metric_lists,
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--op",
	  .value = "LIST",
	  .offset = offsetof(struct run_args, ops),
	  .help = "rows of the table: only these op types (insert, or read,write) and phases (load; "
		  "index: the op type's and the phase's rows; 'phase index': that row alone); default "
		  "every op type a job did and every phase it went through. The result keeps them all.",
	  .flags = CMD_OPT_NONEMPTY },
	{ 0 },
};

static const struct cmd_opt *const sweep_tables[] = { sweep_rows, jobrun_format_rows, jobrun_rows,
						      cmd_opts_help, NULL };

static const struct cmd_opts cmd_sweep_opts = {
	.name = "sweep",
	.subject = "command line",
	.operands = "[JOBFILE...] [--KEY=VALUE...]",
	.synopsis = "       dbio sweep --resume FILE [JOBFILE...] [--KEY=TEXT...] [--series-csv FILE]\n",
	.about = "Runs the job (or the jobs of the job files) once per point of the grid the --vary\n"
		 "options make, the first --vary changing slowest. VALUES is a list (1,2,4,8) or a\n"
		 "range: A..B*F multiplies by F from A up to B (1g..16g*2 = 1g,2g,4g,8g,16g), A..B+S\n"
		 "adds S; a range is the whole of VALUES, and only a numeric key (a size, a\n"
		 "duration, a count) has ranges: directory=/a/../b,/c is a list of two. A key is\n"
		 "varied by one --vary, and no list item is empty.\n"
		 "Each point honours repeat=. With --output the result file is rewritten\n"
		 "after every point, and says partial: true until the last point is done\n"
		 "(sweep.completed counts the finished points); `dbio sweep --resume FILE`\n"
		 "finishes an interrupted sweep without redoing the points it holds; it takes\n"
		 "the plan from FILE, but what may name a path only from its own command line:\n"
		 "give the job files, the keys of free text (directory=, filename=, the log\n"
		 "keys ...) and --force again, as the sweep had them. A signal\n"
		 "stops the sweep at once (exit 128 + signal); one that comes after the last\n"
		 "point's runs does not make it partial: it is complete, exit 0.\n"
		 "Below the table, a point over several directories (directory=a:b) has a row per\n"
		 "directory with its read and write MiB/s; they add up to the point's.\n",
	.tables = sweep_tables,
};

static void axis_release(struct axis *ax)
{
	for (size_t i = 0; i < ax->nvalues; i++)
		free(ax->values[i]);
	free(ax->values);
}

static int axis_push(struct axis *ax, const char *v)
{
	char **grown;

	if (ax->nvalues == SWEEP_MAX_VALUES)
		return -E2BIG;
	grown = realloc(ax->values, (ax->nvalues + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	ax->values = grown;
	if (!(ax->values[ax->nvalues] = strdup(v)))
		return -ENOMEM;
	ax->nvalues++;
	return 0;
}

/* A number of the option's kind: bytes for sizes, ns for durations. */
static int parse_number(const struct option_def *def, const char *s, uint64_t *v)
{
	if (def->type == OPT_SIZE)
		return units_parse_size(s, v);
	if (def->type == OPT_TIME)
		return units_parse_time(s, def->bare_unit_ns, v);
	return units_parse_u64(s, v);
}

/* Print v the way a user writes it: 4g, 512m, 30s, 8. */
static void format_number(const struct option_def *def, uint64_t v, char *buf, size_t len)
{
	static const char sizes[] = "ptgmk";
	static const int shifts[] = { 50, 40, 30, 20, 10 };

	if (def->type == OPT_SIZE && v)
		for (int i = 0; i < 5; i++)
			if (v % (1ull << shifts[i]) == 0) {
				snprintf(buf, len, "%llu%c", (unsigned long long)(v >> shifts[i]), sizes[i]);
				return;
			}
	if (def->type == OPT_TIME)
		snprintf(buf, len, "%lluns", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

/* The values of range A..B*F or A..B+S (the whole of text) into ax. */
static int parse_range(const char *spec, const struct option_def *def, const char *text, struct axis *ax,
		       struct dbio_err *err)
{
	const char *dots = strstr(text, ".."), *rest = dots + 2;
	size_t blen = strcspn(rest, "*+");
	char a[64], b[64], op = rest[blen];
	uint64_t lo = 0, hi = 0, step = 0;
	int rc = 0;
	bool ok = (size_t)(dots - text) < sizeof(a) && blen < sizeof(b) && op;

	if (ok) {
		snprintf(a, sizeof(a), "%.*s", (int)(dots - text), text);
		snprintf(b, sizeof(b), "%.*s", (int)blen, rest);
		ok = !parse_number(def, a, &lo) && !parse_number(def, b, &hi) &&
		     !units_parse_u64(rest + blen + 1, &step) && step && lo <= hi &&
		     (op == '+' || (step >= 2 && lo));
	}
	if (!ok)
		return dbio_err_set(
			err, DBIO_EINPUT,
			"--vary %s: bad range: expected A..B*F (F >= 2, A > 0) or A..B+S (S >= 1) with A <= B, e.g. 1g..16g*2",
			spec);
	for (uint64_t v = lo; v <= hi && !rc;) {
		char buf[64];

		format_number(def, v, buf, sizeof(buf));
		rc = axis_push(ax, buf);
		if (op == '*' ? v > hi / step : v > hi - step)
			break;
		v = op == '*' ? v * step : v + step;
	}
	return rc;
}

/* Parse one --vary KEY=VALUES into ax. A value with ".." is a range only
 * for a numeric key (a directory "/a/../b" is a list item), and a range
 * is the whole value. An empty item is refused: "4k,,8k" is more likely a
 * value lost than one meant. */
static int parse_axis(const char *spec, struct axis *ax, struct dbio_err *err)
{
	const char *eq = strchr(spec, '='), *values;
	const struct option_def *def;
	int rc = 0;

	memset(ax, 0, sizeof(*ax));
	if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof(ax->key) || !eq[1])
		return dbio_err_set(err, DBIO_EINPUT,
				    "--vary %s: expected KEY=VALUES, e.g. numjobs=1,2,4 or size=1g..16g*2",
				    spec);
	snprintf(ax->key, sizeof(ax->key), "%.*s", (int)(eq - spec), spec);
	if (!(def = plan_find(ax->key))) {
		const char *hint = plan_suggest(ax->key);

		return dbio_err_set(err, DBIO_EINPUT, "--vary %s: key '%s': unknown%s%s%s", spec, ax->key,
				    hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
	}
	values = eq + 1;
	if (strstr(values, "..") &&
	    (def->type == OPT_UINT || def->type == OPT_SIZE || def->type == OPT_TIME)) {
		rc = parse_range(spec, def, values, ax, err);
	} else {
		for (size_t item = 1;; item++) {
			size_t len = strcspn(values, ",");
			char *v;

			if (!len)
				return dbio_err_set(
					err, DBIO_EINPUT,
					"--vary %s: item %zu is empty: expected values separated by single commas, e.g. numjobs=1,2,4",
					spec, item);
			if (!(v = strndup(values, len)))
				return dbio_err_set(err, -ENOMEM, "out of memory");
			rc = axis_push(ax, v);
			free(v);
			if (rc || !values[len])
				break;
			values += len + 1;
		}
	}
	if (rc == -E2BIG)
		return dbio_err_set(err, DBIO_EINPUT, "--vary %s: more than %d values", spec,
				    SWEEP_MAX_VALUES);
	if (rc)
		return dbio_err_set(err, rc, "out of memory");
	return 0;
}

/* The key=value strings of point p (mixed radix over the axes, first axis
 * slowest), into extra[naxes]. */
static void point_keys(const struct axis *axes, size_t naxes, size_t p, char **extra)
{
	for (size_t i = naxes; i-- > 0;) {
		size_t v = p % axes[i].nvalues;

		p /= axes[i].nvalues;
		free(extra[i]);
		if (asprintf(&extra[i], "%s=%s", axes[i].key, axes[i].values[v]) < 0)
			extra[i] = NULL;
	}
}

/* What a varied key's values are, for views that draw them on an axis. */
static const char *axis_unit(const char *key)
{
	const struct option_def *def = plan_find(key);

	switch (def ? def->type : OPT_STR) {
	case OPT_SIZE:
		return "bytes";
	case OPT_TIME:
		return "ns";
	case OPT_UINT:
		return "count";
	default:
		return "text";
	}
}

static json_t *sweep_json(const struct axis *axes, size_t naxes, size_t npoints, size_t jobs_per_point)
{
	json_t *vary = json_array();

	for (size_t i = 0; i < naxes; i++) {
		json_t *values = json_array();

		for (size_t v = 0; v < axes[i].nvalues; v++)
			json_array_append_new(values, json_string(axes[i].values[v]));
		json_array_append_new(vary, json_pack("{s:s, s:o, s:s}", "key", axes[i].key, "values", values,
						      "unit", axis_unit(axes[i].key)));
	}
	return json_pack("{s:o, s:I, s:I, s:I}", "vary", vary, "points", (json_int_t)npoints,
			 "jobs_per_point", (json_int_t)jobs_per_point, "completed", (json_int_t)0);
}

/* Whether the grid and jobs built from a resumed result's argv are the
 * ones its sweep object describes; else what differs, into what. */
static bool resume_mismatch(const json_t *resumed, const json_t *built, char *what, size_t len)
{
	const json_t *had = json_object_get(resumed, "sweep");
	static const char *const keys[] = { "points", "jobs_per_point" };

	for (size_t i = 0; i < 2; i++)
		if (!json_equal(json_object_get(had, keys[i]), json_object_get(built, keys[i]))) {
			snprintf(what, len, "argv makes %lld for sweep.%s, the file says %lld",
				 (long long)json_integer_value(json_object_get(built, keys[i])), keys[i],
				 (long long)json_integer_value(json_object_get(had, keys[i])));
			return true;
		}
	const json_t *hv = json_object_get(had, "vary"), *bv = json_object_get(built, "vary");
	bool same = json_array_size(hv) == json_array_size(bv);

	/* The keys and values decide; unit is derived from the key. */
	for (size_t i = 0; same && i < json_array_size(bv); i++)
		same = json_equal(json_object_get(json_array_get(hv, i), "key"),
				  json_object_get(json_array_get(bv, i), "key")) &&
		       json_equal(json_object_get(json_array_get(hv, i), "values"),
				  json_object_get(json_array_get(bv, i), "values"));
	if (!same) {
		snprintf(what, len, "argv's --vary values are not those of sweep.vary");
		return true;
	}
	return false;
}

/* A sweep from its command line to its last point. */
struct sweep {
	struct run_args args;
	struct dbio_err err;
	struct axis *axes;
	size_t naxes, npoints;
	struct jobset *sets; /* one per point, built and validated up front */
	char **extra;	     /* the current point's key=value strings, one per axis */
	char **resume_argv;
	json_t *result, *resumed, *grid;
	const char *resuming; /* the file of --resume */
	size_t done;	      /* points finished before this run (a resume) */
	size_t completed;     /* points finished so far */
	size_t saved;	      /* points --output holds */
	struct dbio_err werr; /* the failure to write --output */
	bool written;	      /* whether --output holds this sweep at all */
};

/* --resume FILE: the command line recorded in FILE replaces this one, but
 * for what a resume takes only from this one (jobrun_resume_take: job
 * files, keys of free text, --force, --series-csv) and --format and
 * --progress, which only say how to show the sweep. 0 or an exit status
 * after printing the error. */
static int resume_args(struct sweep *s)
{
	const char *path = s->args.resume;
	struct run_args now = s->args;
	char note[4400];
	int rargc = 0, status;

	if (now.output) {
		cmd_error("sweep --resume: takes no --output: the result file is rewritten in place");
		return 2;
	}
	if (jobrun_resume_load(path, &s->resumed, &rargc, &s->resume_argv, &s->err)) {
		cmd_error("%s", s->err.msg);
		return 2;
	}
	memset(&s->args, 0, sizeof(s->args));
	status = jobrun_parse(&cmd_sweep_opts, rargc, s->resume_argv, &s->args);
	if (status) {
		jobrun_args_release(&now);
		cmd_error("sweep: %s: cannot resume: its argv is not a command line this dbio takes", path);
		return status == 1 ? 1 : 2;
	}
	if (jobrun_resume_take(path, &s->args, &now, note, sizeof(note), &s->err)) {
		jobrun_args_release(&now);
		cmd_error("%s", s->err.msg);
		return 2;
	}
	if (note[0])
		cmd_note("%s", note);
	if (now.format_set)
		s->args.format = now.format;
	if (now.progress >= 0)
		s->args.progress = now.progress;
	jobrun_args_release(&now);
	s->resuming = path;
	s->done = (size_t)json_integer_value(
		json_object_get(json_object_get(s->resumed, "sweep"), "completed"));
	return 0;
}

/* --metric, --op and --vary: 0 or DBIO_EINPUT; the grid's axes made. */
static int make_axes(struct sweep *s)
{
	const struct metric *metrics[TABLE_MAX_METRICS];
	struct run_args *a = &s->args;
	char names[256], phases[256];
	int bad, rc;

	if (a->metrics &&
	    (rc = metric_parse_list("command line", a->metrics, metrics, TABLE_MAX_METRICS, &s->err)) < 0)
		return rc;
	if (a->ops && (bad = cmd_check_ops_phases(a->ops, names, sizeof(names)))) {
		workload_phase_names(phases, sizeof(phases));
		return dbio_err_set(
			&s->err, DBIO_EINPUT,
			"command line: --op %s: item %d is neither an op type nor a phase: expected a list of %s; or a phase, bare or as 'phase NAME': %s",
			a->ops, bad, names, phases);
	}
	if (!a->nvary)
		return dbio_err_set(&s->err, DBIO_EINPUT,
				    "sweep: no --vary: give at least one, e.g. --vary numjobs=1,2,4");
	s->axes = calloc(a->nvary, sizeof(*s->axes));
	s->extra = calloc(a->nvary, sizeof(*s->extra));
	if (!s->axes || !s->extra)
		return dbio_err_set(&s->err, -ENOMEM, "out of memory");
	for (s->npoints = 1; s->naxes < a->nvary; s->naxes++) {
		struct axis *ax = &s->axes[s->naxes];
		if ((rc = parse_axis(a->vary[s->naxes], ax, &s->err))) {
			s->naxes++;
			return rc;
		}
		/* Two --vary of one key would make a grid whose points set it
		 * twice, and the last would silently win. */
		for (size_t i = 0; i < s->naxes; i++)
			if (!strcmp(s->axes[i].key, ax->key)) {
				rc = dbio_err_set(
					&s->err, DBIO_EINPUT,
					"--vary %s: key '%s' is varied twice (also --vary %s): give all its values in one --vary",
					a->vary[s->naxes], ax->key, a->vary[i]);
				s->naxes++;
				return rc;
			}
		s->npoints *= ax->nvalues;
		if (s->npoints > SWEEP_MAX_POINTS) {
			s->naxes++;
			return dbio_err_set(&s->err, DBIO_EINPUT, "--vary: the grid has more than %d points",
					    SWEEP_MAX_POINTS);
		}
	}
	return 0;
}

/* Every point built and validated before anything runs; the result to
 * fill, new or resumed. */
static int make_points(struct sweep *s, int argc, char **argv)
{
	char what[512];
	bool suite;
	int rc = 0;

	if (!(s->sets = calloc(s->npoints, sizeof(*s->sets))))
		return dbio_err_set(&s->err, -ENOMEM, "out of memory");
	for (size_t p = 0; p < s->npoints && !rc; p++) {
		point_keys(s->axes, s->naxes, p, s->extra);
		rc = jobrun_build(&s->args, s->extra, s->naxes, &s->sets[p], &suite, &s->err);
		if (s->args.mpi)
			rc = jobrun_mpi_prepare(&s->args, &s->sets[p], rc, &s->err);
		if (!rc)
			rc = jobrun_check(&s->args, &s->sets[p], &s->err);
		if (s->args.mpi)
			rc = run_coord_agree(s->args.opts.coord, rc, &s->err);
	}
	if (rc && s->args.mpi)
		run_coord_dirs_remove(s->args.opts.coord, false);
	if (rc)
		return rc;
	if (!(s->grid = sweep_json(s->axes, s->naxes, s->npoints, s->sets[0].njobs)))
		return dbio_err_set(&s->err, -ENOMEM, "out of memory");
	if (!s->resumed) {
		s->result = result_new(argc + 1, argv - 1);
		if (!s->result || json_object_set(s->result, "sweep", s->grid))
			return dbio_err_set(&s->err, -ENOMEM, "out of memory");
		return 0;
	}
	/* The file's counts are trusted only if its argv makes the same grid. */
	if (resume_mismatch(s->resumed, s->grid, what, sizeof(what)))
		return dbio_err_set(&s->err, DBIO_EINPUT, "%s", what);
	/* Drop the job entries of the point that was running when the sweep
	 * stopped; keep the finished ones. */
	json_t *jobs = json_object_get(s->resumed, "jobs");

	while (json_array_size(jobs) > s->done * s->sets[0].njobs)
		json_array_remove(jobs, json_array_size(jobs) - 1);
	s->result = s->resumed;
	s->resumed = NULL;
	if (s->done < s->npoints && s->args.format == FORMAT_TEXT)
		cmd_note("resuming at point %zu of %zu", s->done + 1, s->npoints);
	return 0;
}

/* Run point p, mark its job entries with it, and rewrite the outputs. */
static int run_point(struct sweep *s, size_t p)
{
	const size_t base = json_array_size(json_object_get(s->result, "jobs"));
	int rc, wrc = 0;

	point_keys(s->axes, s->naxes, p, s->extra);
	if (s->args.format == FORMAT_TEXT) {
		char line[4096] = "";
		size_t used = 0;

		for (size_t i = 0; i < s->naxes && used < sizeof(line); i++)
			used += (size_t)snprintf(line + used, sizeof(line) - used, " %s", s->extra[i]);
		cmd_note("point %zu of %zu:%s", p + 1, s->npoints, line);
	}
	rc = jobrun_jobs(&s->sets[p], &s->args, s->result, base, &s->err);
	for (size_t j = 0; j < s->sets[p].njobs; j++) {
		json_t *entry = json_array_get(json_object_get(s->result, "jobs"), base + j);
		json_t *point = json_object();

		for (size_t i = 0; i < s->naxes; i++)
			json_object_set_new(point, s->axes[i].key, json_string(strchr(s->extra[i], '=') + 1));
		json_object_set_new(entry, "point", point);
		json_object_set_new(entry, "point_index", json_integer((json_int_t)p));
	}
	if (!rc) {
		s->completed = p + 1;
		json_object_set_new(json_object_get(s->result, "sweep"), "completed",
				    json_integer((json_int_t)s->completed));
	}
	/* Partial until the last point is done: a sweep killed between two
	 * points leaves a file that says so (and sweep.completed says how far
	 * it got). */
	result_finish(s->result, rc != 0 || s->completed < s->npoints, rc ? s->err.msg : NULL);
	/* A FIFO or a device gets the result once, at the end; under MPI the
	 * merged result, after the last point (sweep_mpi_end). */
	if (s->args.mpi)
		return rc;
	if (s->args.output && (rc || p + 1 == s->npoints || atomic_write_replaces(s->args.output))) {
		wrc = result_write(s->result, s->args.output, &s->werr);
		if (!wrc) {
			s->saved = s->completed;
			s->written = true;
		} else if (!rc) {
			rc = wrc;
		}
	}
	if (!wrc && s->args.series_csv) {
		int crc = jobrun_write_outputs(&(struct run_args){ .series_csv = s->args.series_csv },
					       s->result, false);

		rc = rc ? rc : crc;
	}
	return rc;
}

/* The table or JSON on standard output, what happened to --output, and
 * the exit status. */
static int finish(struct sweep *s, int rc)
{
	const struct run_args *a = &s->args;
	char cmd[8192];

	if (!rc)
		result_finish(s->result, false, NULL);
	else if (!s->err.code && s->werr.code)
		/* Stopped because --output could not be written: that is what
		 * the JSON on standard output should say. */
		result_finish(s->result, s->completed < s->npoints,
			      s->completed < s->npoints ? s->werr.msg : NULL);
	if (a->format == FORMAT_JSON) {
		char *text = result_dump(s->result);

		if (text)
			puts(text);
		free(text);
	} else {
		table_points(stdout, s->result, a->metrics, a->ops, a->format == FORMAT_CSV);
		if (a->format != FORMAT_CSV) { /* as run says them, once */
			explain_print_sweep(stdout, s->result);
			text_warnings(stdout, s->result);
		}
	}
	fflush(stdout);
	if (rc && s->err.code)
		cmd_error("%s", s->err.msg);
	/* Say the finished points are in the file only when it was written
	 * after the last of them. */
	if (s->werr.code && !s->written)
		cmd_error("%s: the finished points are not saved", s->werr.msg);
	else if (s->werr.code)
		cmd_error("%s: it holds %zu of the %zu finished points; `%s` goes on from there", s->werr.msg,
			  s->saved, s->completed, jobrun_resume_command(a, a->output, cmd, sizeof(cmd)));
	else if (rc && a->output)
		cmd_note("the finished points are in %s; `%s` goes on", a->output,
			 jobrun_resume_command(a, a->output, cmd, sizeof(cmd)));
	/* Every point done is a complete sweep, as its file says, even if a
	 * signal came after the last point's runs. */
	return rc ? jobrun_status(rc) : jobrun_complete_status();
}

static void sweep_release(struct sweep *s)
{
	for (size_t p = 0; s->sets && p < s->npoints; p++)
		jobset_release(&s->sets[p]);
	free(s->sets);
	for (size_t i = 0; i < s->naxes; i++) {
		axis_release(&s->axes[i]);
		free(s->extra[i]);
	}
	free(s->axes);
	free(s->extra);
	json_decref(s->result);
	json_decref(s->resumed);
	json_decref(s->grid);
	free(s->resume_argv);
	jobrun_args_release(&s->args);
}

/* Under MPI, after the points: every rank's result merged at rank 0,
 * which writes --output and --series-csv once. true when this rank is
 * done (not rank 0, or the merge failed), with its exit status in
 * *status. */
static bool sweep_mpi_end(struct sweep *s, int *rc, int *status)
{
	if (jobrun_mpi_gather(&s->args, &s->result, rc, &s->err)) {
		*status = jobrun_status(*rc);
		return true;
	}
	if (!jobrun_write_outputs(&s->args, s->result, *rc != 0))
		s->saved = s->completed;
	s->written = s->args.output != NULL;
	return false;
}

static int sweep_main(int argc, char **argv)
{
	struct sweep s = { 0 };
	int rc = mpi_world_start(&s.args.mpi, &s.err), status;

	s.args.opts.coord = mpi_coord(s.args.mpi); /* NULL alone */

	if (rc) {
		cmd_error("%s", s.err.msg);
		return dbio_exit_status(rc);
	}
	status = jobrun_parse(&cmd_sweep_opts, argc, argv, &s.args);
	if (status) {
		status = status < 0 ? 0 : status;
		goto out;
	}
	if (s.args.resume && s.args.mpi) {
		cmd_error("command line: --resume: not under MPI: run the whole sweep again");
		status = 2;
		goto out;
	}
	if (s.args.resume && (status = resume_args(&s)))
		goto out;
	jobrun_progress(&s.args);
	if ((rc = make_axes(&s)) || (rc = make_points(&s, argc, argv))) {
		if (s.resuming)
			cmd_error("sweep: %s: cannot resume: %s", s.resuming, s.err.msg);
		else
			cmd_error("%s", s.err.msg);
		status = rc == DBIO_EUNSAFE ? 2 : dbio_exit_status(rc);
		goto out;
	}
	/* What the --output file holds: a resumed one its finished points. */
	s.completed = s.saved = s.done;
	s.written = s.resuming != NULL;
	run_signals_install();
	for (size_t p = s.done; p < s.npoints && !rc; p++)
		rc = run_point(&s, p);
	if (s.args.mpi && sweep_mpi_end(&s, &rc, &status))
		goto out;
	status = finish(&s, rc);
out:
	sweep_release(&s);
	mpi_world_end(s.args.mpi);
	return status;
}

const struct cmd cmd_sweep = {
	.name = "sweep",
	.summary = "run a job at every point of a grid of option values, resumable",
	.main = sweep_main,
	.opts = &cmd_sweep_opts,
};
