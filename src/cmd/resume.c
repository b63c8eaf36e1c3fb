/*
 * sweep --resume FILE: what a resume takes from the result file and what
 * only from its own command line (see cmd_int.h). A result file is input
 * anyone who can write it may have edited, so nothing in it may make dbio
 * read or write a path the real command line did not name: its argv gives
 * the sweep's plan (keys whose values are numbers, sizes, durations,
 * choices or on/off, the --vary axes of such keys, --metric, --op, --keep,
 * --wide), and everything that is or may hold a name (job files, keys of
 * free text: directory, filename, the log keys, pg_conninfo …, --force) must
 * be given again, the same, on the command line. --output is FILE itself;
 * --series-csv only the command line's. cmd/sweep.c runs the rest.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "plan/plan.h"
#include "result/result.h"
#include "util/termesc.h"

#define RESUME_MAX_POINTS 100000

/* What makes r unfit to resume, into what; false when nothing does. The
 * loop and the jobs[] trimming of a resume trust these: argv is a `dbio
 * sweep` command line of strings that does not itself resume or ask for
 * help, and sweep counts points, jobs per point and finished points that
 * jobs[] holds. */
static bool resume_unfit(const json_t *r, char *what, size_t len)
{
	const json_t *args = json_object_get(r, "argv"), *sweep = json_object_get(r, "sweep");
	const json_t *points = json_object_get(sweep, "points"),
		     *per = json_object_get(sweep, "jobs_per_point");
	const json_t *completed = json_object_get(sweep, "completed"), *a;
	size_t njobs = json_array_size(json_object_get(r, "jobs")), i;

	what[0] = '\0';
	if (!sweep)
		snprintf(what, len, "no sweep object: not a result of `dbio sweep`");
	else if (!json_is_object(sweep))
		snprintf(what, len, "sweep is not an object");
	else if (!json_is_array(args))
		snprintf(what, len, "argv is not an array");
	else if (json_array_size(args) < 3)
		snprintf(what, len, "argv holds %zu items: expected the `dbio sweep` command line",
			 json_array_size(args));
	json_array_foreach (args, i, a) {
		const char *s = json_string_value(a);

		if (what[0])
			break;
		if (!s)
			snprintf(what, len, "argv[%zu] is not a string", i);
		else if (termesc_needed(s))
			snprintf(what, len,
				 "argv[%zu] holds a control character: a recorded command line has none", i);
		else if (i == 1 && strcmp(s, "sweep"))
			snprintf(what, len, "argv[1] is '%s': expected 'sweep'", s);
		else if (i > 1 && (!strcmp(s, "--help") || !strncmp(s, "--resume", 8)))
			snprintf(what, len,
				 "argv[%zu] is '%s': a recorded sweep neither resumes nor asks for help", i,
				 s);
	}
	if (what[0])
		return true;
	if (!json_is_integer(points) || json_integer_value(points) < 1 ||
	    json_integer_value(points) > RESUME_MAX_POINTS)
		snprintf(what, len, "sweep.points is not a whole number from 1 to %d", RESUME_MAX_POINTS);
	else if (!json_is_integer(per) || json_integer_value(per) < 1)
		snprintf(what, len, "sweep.jobs_per_point is not a whole number >= 1");
	else if (!json_is_integer(completed) || json_integer_value(completed) < 0 ||
		 json_integer_value(completed) > json_integer_value(points))
		snprintf(what, len, "sweep.completed is not a whole number from 0 to sweep.points (%lld)",
			 (long long)json_integer_value(points));
	else if (!json_is_array(json_object_get(sweep, "vary")))
		snprintf(what, len, "sweep.vary is not an array");
	/* Division, not a product that could overflow. */
	else if (json_integer_value(completed) &&
		 (json_int_t)njobs / json_integer_value(completed) < json_integer_value(per))
		snprintf(what, len,
			 "jobs holds %zu %s, fewer than sweep.completed (%lld) x sweep.jobs_per_point (%lld)",
			 njobs, njobs == 1 ? "entry" : "entries", (long long)json_integer_value(completed),
			 (long long)json_integer_value(per));
	return what[0] != '\0';
}

int jobrun_resume_check(const json_t *r, const char *path, int *argc, char ***argv, struct dbio_err *err)
{
	const json_t *args = json_object_get(r, "argv");
	char what[512];

	if (resume_unfit(r, what, sizeof(what)))
		return dbio_err_set(err, DBIO_EINPUT, "sweep: %s: cannot resume: %s", path, what);
	*argc = (int)json_array_size(args) - 1; /* argv[0] is "dbio" */
	*argv = calloc(json_array_size(args), sizeof(**argv));
	if (!*argv)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	for (size_t i = 1; i < json_array_size(args); i++)
		(*argv)[i - 1] = (char *)json_string_value(json_array_get(args, i));
	return 0;
}

int jobrun_resume_load(const char *path, json_t **result, int *argc, char ***argv, struct dbio_err *err)
{
	struct dbio_err lerr = { 0 };
	json_t *r;
	int rc;

	if (result_load_whole(path, &r, &lerr))
		return dbio_err_set(err, lerr.code, "sweep: %s", lerr.msg);
	if ((rc = jobrun_resume_check(r, path, argc, argv, err))) {
		json_decref(r);
		return rc;
	}
	*result = r;
	return 0;
}

/* Why "--key[=value]" or "key=values" (a --vary) is taken only from the
 * command line: its key's value is free text, or it is no key this dbio
 * knows (text may be a path); NULL when it is not. */
static const char *text_key_kind(const char *arg, bool vary)
{
	char name[128];
	const struct option_def *def;

	if (!strncmp(arg, "--", 2))
		arg += 2;
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="), arg);
	if (!(def = plan_find(name)))
		return vary ? "a --vary of a key this dbio does not know (it may name a path)"
			    : "a key this dbio does not know (it may name a path)";
	if (def->type != OPT_STR)
		return NULL;
	return vary ? "a --vary of free text (it may name a path)"
		    : "a key of free text (it may name a path)";
}

static bool text_key(const char *arg)
{
	return text_key_kind(arg, false) != NULL;
}

/* The arguments of a that a resume takes only from its command line, in
 * order, each with its kind; into out (n at most max). */
struct taken {
	const char *arg;
	const char *kind; /* for the message: "job file", "text key" … */
};

static size_t only_from_line(const struct run_args *a, struct taken *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nfiles && n < max; i++)
		out[n++] = (struct taken){ a->files[i], "a job file" };
	for (size_t i = 0; i < a->nkeys && n < max; i++)
		if (text_key(a->keys[i]))
			out[n++] = (struct taken){ a->keys[i], text_key_kind(a->keys[i], false) };
	for (size_t i = 0; i < a->nvary && n < max; i++)
		if (text_key_kind(a->vary[i], true))
			out[n++] = (struct taken){ a->vary[i], text_key_kind(a->vary[i], true) };
	if (a->opts.force && n < max)
		out[n++] = (struct taken){ "--force", "an override of the target checks" };
	return n;
}

/* Whether list[0..n) holds arg. */
static bool holds(const struct taken *list, size_t n, const char *arg)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i].arg, arg))
			return true;
	return false;
}

/* The --vary of this command line as it is written: vary[] holds its value. */
static const char *shown(const struct run_args *a, const char *arg, char *buf, size_t len)
{
	for (size_t i = 0; i < a->nvary; i++)
		if (arg == a->vary[i]) {
			snprintf(buf, len, "--vary=%s", arg);
			return buf;
		}
	return arg;
}

int jobrun_resume_take(const char *path, struct run_args *rec, const struct run_args *now, char *note,
		       size_t notelen, struct dbio_err *err)
{
	struct taken want[64], have[64];
	size_t nw, nh;
	char b1[4200], b2[4200], cmd[8192];

	note[0] = '\0';
	for (size_t i = 0; i < now->nkeys; i++)
		if (!text_key(now->keys[i]))
			return dbio_err_set(
				err, DBIO_EINPUT,
				"sweep --resume: '%s': the file's argv gives the sweep's keys of numbers, sizes, durations and choices; the command line only what may name a path (job files, keys of free text, --force)",
				now->keys[i]);
	for (size_t i = 0; i < now->nvary; i++)
		if (!text_key_kind(now->vary[i], true))
			return dbio_err_set(
				err, DBIO_EINPUT,
				"sweep --resume: '--vary=%s': the file's argv gives the sweep's --vary of numbers, sizes, durations and choices",
				now->vary[i]);
	/* The file's --series-csv is never written, nor suggested. */
	const char *file_csv = rec->series_csv;

	rec->series_csv = now->series_csv;
	nw = only_from_line(rec, want, 64);
	nh = only_from_line(now, have, 64);
	for (size_t i = 0; i < nw || i < nh; i++) {
		if (i < nw && i < nh && !strcmp(want[i].arg, have[i].arg))
			continue;
		if (i < nw && !holds(have, nh, want[i].arg))
			return dbio_err_set(
				err, DBIO_EINPUT,
				"sweep: %s: cannot resume: its argv holds '%s', %s: a resume takes that only from the command line: give it again after --resume %s",
				path, shown(rec, want[i].arg, b1, sizeof(b1)), want[i].kind, path);
		if (i < nh && !holds(want, nw, have[i].arg))
			return dbio_err_set(
				err, DBIO_EINPUT,
				"sweep: %s: cannot resume: the command line gives '%s', which its argv does not hold: a resume runs the sweep the file recorded",
				path, shown(now, have[i].arg, b2, sizeof(b2)));
		return dbio_err_set(
			err, DBIO_EINPUT,
			"sweep: %s: cannot resume: the command line gives '%s' where its argv holds '%s': give them in its argv's order, as `%s`",
			path, shown(now, have[i].arg, b2, sizeof(b2)),
			shown(rec, want[i].arg, b1, sizeof(b1)),
			jobrun_resume_command(rec, path, cmd, sizeof(cmd)));
	}
	if (file_csv && !now->series_csv)
		snprintf(
			note, notelen,
			"sweep: %s: its argv's --series-csv=%s is not taken from a result file: give --series-csv on the command line to write it",
			path, file_csv);
	termesc_fix(note, notelen);
	rec->output = path;
	return 0;
}

const char *jobrun_resume_command(const struct run_args *a, const char *path, char *buf, size_t len)
{
	struct taken t[64];
	size_t n = only_from_line(a, t, 64), used;
	char b[4200];

	used = (size_t)snprintf(buf, len, "dbio sweep --resume %s", path);
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, " %s", shown(a, t[i].arg, b, sizeof(b)));
	if (a->series_csv && used < len)
		snprintf(buf + used, len - used, " --series-csv=%s", a->series_csv);
	termesc_fix(buf, len);
	return buf;
}
