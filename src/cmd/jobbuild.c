/*
 * The jobs of a `dbio run` or `dbio sweep` command line (jobrun_build,
 * cmd_int.h): the user's job files or dbio's own, the command line's keys
 * beside them as fio takes them, --set over them, fio's jobs of the
 * command line (each --name), every job validated.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_int.h"
#include "plan/plan.h"

extern const char cmd_run_default_suite[]; /* jobs/default.fio, built in */

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

/* A note on stderr that the default keys[i] gives way to job's own key
 * from a job file, once per key (noted[i]): the same command line does
 * other work beside a file than alone, as in fio, and a user who meant
 * it over the file needs --set. */
static void note_default(const struct job *job, const char *arg, const char *key, bool *noted)
{
	const struct job_origin *o = job_origin_of(job, key);
	char where[4200];

	if (*noted || !o || !o->file)
		return;
	*noted = true;
	fprintf(stderr,
		"dbio: note: --%s beside a job file is a default: job '%s' sets %s at %s, which wins, as in fio; "
		"--set %s puts it over the file\n",
		arg, job->name, key, job_where(o, where, sizeof(where)), arg);
}

/* Apply "--key[=value]" (dashes optional) strings to job; shared: given
 * for every job of job files, not for this one alone; noted: not NULL
 * for defaults, only the keys job does not have from its file (fio's
 * command line beside a job file), a flag per key for note_default. */
static int apply_keys_as(struct job *job, char *const *keys, size_t n, bool shared, bool *noted,
			 struct dbio_err *err)
{
	const struct job_origin origin = { .shared = shared };

	for (size_t i = 0; i < n; i++) {
		const char *arg = keys[i];
		char *copy, *key, *value;
		int rc;

		if (!strncmp(arg, "--", 2))
			arg += 2;
		if (asprintf(&copy, "--%s", arg) < 0)
			return dbio_err_set(err, -ENOMEM, "out of memory");
		split_key(copy, &key, &value);
		if (noted && job_is_set(job, key)) {
			note_default(job, arg, key, &noted[i]);
			free(copy);
			continue;
		}
		rc = plan_set(job, key, value, &origin, err);
		free(copy);
		if (rc)
			return rc;
	}
	return 0;
}

static int apply_keys(struct job *job, char *const *keys, size_t n, bool shared, struct dbio_err *err)
{
	return apply_keys_as(job, keys, n, shared, NULL, err);
}

/* Whether "--key[=value]" is fio's name=, which starts a job. */
static bool is_name_key(const char *arg)
{
	return !strcmp(arg, "--name") || !strncmp(arg, "--name=", 7);
}

/* fio's jobs of the command line: the keys before the first --name are
 * every job's, each --name starts a job with the keys after it. Added to
 * set when there are two or more (*added; one is the probe itself); 0 or
 * an error. */
static int add_named_jobs(const struct run_args *a, char *const *extra, size_t nextra, struct jobset *set,
			  bool *added, struct dbio_err *err)
{
	size_t first = 0, names = 0;
	int rc = 0;

	for (size_t i = 0; i < a->nkeys; i++)
		if (is_name_key(a->keys[i]) && !names++)
			first = i;
	for (size_t i = first; names > 1 && i < a->nkeys && !rc; i++) {
		struct job job;
		size_t end = i + 1;

		if (!is_name_key(a->keys[i]))
			continue;
		while (end < a->nkeys && !is_name_key(a->keys[end]))
			end++;
		if (plan_job_init(&job, "job")) {
			job_release(&job);
			return dbio_err_set(err, -ENOMEM, "out of memory");
		}
		if (!(rc = apply_keys(&job, a->keys, first, true, err)) &&
		    !(rc = apply_keys(&job, a->keys + i, end - i, false, err)) &&
		    !(rc = apply_keys(&job, a->sets, a->nsets, true, err)) &&
		    !(rc = apply_keys(&job, extra, nextra, true, err)) && jobset_add(set, &job))
			rc = dbio_err_set(err, -ENOMEM, "out of memory");
		job_release(&job);
	}
	*added = names > 1;
	return rc;
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

int jobrun_build(const struct run_args *a, char *const *extra, size_t nextra, struct jobset *set, bool *suite,
		 struct dbio_err *err)
{
	struct job probe;
	bool files, named = false, *noted = NULL;
	int rc = 0;

	/* Check the command-line keys once, even when no job uses them. */
	if (plan_job_init(&probe, "job")) {
		job_release(&probe);
		return dbio_err_set(err, -ENOMEM, "out of memory");
	}
	*suite = a->builtin || wants_suite(a);
	files = a->nfiles || *suite;
	/* beside the user's own files the keys are defaults (noted, once
	 * each, where a file's key wins) */
	if (a->nfiles && !(noted = calloc(a->nkeys + 1, sizeof(*noted)))) {
		job_release(&probe);
		return dbio_err_set(err, -ENOMEM, "out of memory");
	}
	if ((rc = apply_keys(&probe, a->keys, a->nkeys, files, err)) ||
	    (rc = apply_keys(&probe, a->sets, a->nsets, files, err)) ||
	    (rc = apply_keys(&probe, extra, nextra, files, err)))
		goto out;
	if (*suite)
		rc = plan_jobfile_parse_string(set, a->builtin ? a->builtin : cmd_run_default_suite,
					       a->builtin ? a->builtin_name : "(default suite)", err);
	set->sections = a->sections;
	set->nsections = a->nsections;
	if (a->nsections && !a->nfiles)
		rc = dbio_err_set(err, DBIO_EINPUT,
				  "--section %s: picks the [sections] of job files, and none was given",
				  a->sections[0]);
	for (size_t i = 0; i < a->nfiles && !rc; i++)
		rc = plan_jobfile_parse(set, a->files[i], err);
	if (!rc && a->nsections && !set->njobs)
		rc = dbio_err_set(
			err, DBIO_EINPUT,
			"--section %s%s: no job: no [section] of the job files has %s (fio: \"No job(s) defined\")",
			a->sections[0], a->nsections > 1 ? " ..." : "",
			a->nsections > 1 ? "any of these names" : "that name");
	if (!rc && !files)
		rc = add_named_jobs(a, extra, nextra, set, &named, err);
	if (!rc && !files && !named) /* else fio's jobs of the command line, not the probe */
		rc = jobset_add(set, &probe) ? dbio_err_set(err, -ENOMEM, "out of memory") : 0;
	for (size_t j = 0; j < set->njobs && !rc; j++) {
		/* beside the user's job files, as fio: defaults the files'
		 * keys override; over dbio's own jobs (the suite, sync,
		 * bonnie) they are the user's choice */
		if (files)
			rc = apply_keys_as(&set->jobs[j], a->keys, a->nkeys, true, noted, err);
		if (!rc && files)
			rc = apply_keys(&set->jobs[j], a->sets, a->nsets, true, err);
		if (!rc && files)
			rc = apply_keys(&set->jobs[j], extra, nextra, true, err);
		if (!rc)
			rc = plan_validate(&set->jobs[j], err);
	}
	if (!rc)
		rc = plan_check_shared(set, err);
	if (!rc)
		rc = plan_groups(set, err);
out:
	free(noted);
	job_release(&probe);
	return rc;
}
