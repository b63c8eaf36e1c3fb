/* The job model's functions: keys, origins, copies; see job.h. The file
 * checks are validate.c's. */
#include "job/job.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/built.h"
#include "util/units.h"

void *job_keys_base(const struct job *job, const struct job_keys *k)
{
	return k->conf ? k->conf : (void *)job;
}

const struct option_def *job_find(const struct job *job, const char *key, const struct job_keys **keys)
{
	for (size_t t = 0; t < job->nkeys; t++) {
		const struct option_def *def = option_table_find(job->keys[t].table, key);

		if (def) {
			if (keys)
				*keys = &job->keys[t];
			return def;
		}
	}
	return NULL;
}

const char *job_where(const struct job_origin *origin, char *buf, size_t len)
{
	if (!origin || !origin->file)
		snprintf(buf, len, "command line");
	else
		snprintf(buf, len, "%s:%d", origin->file, origin->line);
	return buf;
}

/* The closest key of job's tables to an unknown one (edit distance <= 2 or
 * a prefix of at least 3 letters), or NULL. */
static const char *suggest(const struct job *job, const char *name)
{
	struct option_closest c = { .name = name };

	for (size_t t = 0; t < job->nkeys; t++)
		for (size_t i = 0; i < job->keys[t].table->count; i++)
			option_closest_offer(&c, job->keys[t].table->defs[i].name);
	return c.best;
}

int job_set(struct job *job, const char *key, const char *value, const struct job_origin *origin,
	    struct dbio_err *err)
{
	const struct job_origin none = { 0 };
	char where[4200], accepted[512];
	bool found = false;

	job_where(origin, where, sizeof(where));
	for (size_t t = 0; t < job->nkeys; t++) {
		struct job_keys *k = &job->keys[t];
		const struct option_def *def = option_table_find(k->table, key);
		int rc;

		if (!def)
			continue;
		found = true;
		if (!value && def->type != OPT_BOOL && !def->bare_empty) {
			option_accepted(def, accepted, sizeof(accepted));
			return dbio_err_set(err, DBIO_EINPUT, "%s: key '%s': needs a value: expected %s",
					    where, key, accepted);
		}
		/* the messages name the key as the user gave it (an alias too) */
		struct option_def given = *def;
		struct job_key_state *st = &k->state[def - k->table->defs];

		/* two names of one key at one level: the later wins, as in fio
		 * (bs=16k then blocksize=2k reads 2 KiB blocks) */
		given.name = key;
		rc = option_parse(&given, job_keys_base(job, k),
				  value		    ? value
				  : def->bare_empty ? ""
						    : "1",
				  where, err);
		if (rc)
			return rc;
		*st = (struct job_key_state){ .set = true, .origin = origin ? *origin : none };
	}
	if (!found) {
		const char *hint = suggest(job, key);

		if (hint)
			return dbio_err_set(err, DBIO_EINPUT, "%s: key '%s': unknown (did you mean '%s'?)",
					    where, key, hint);
		return dbio_err_set(err, DBIO_EINPUT,
				    "%s: key '%s': unknown (`dbio help options` lists the keys)", where, key);
	}
	return 0;
}

/* The state of key in job: the first table where it is set, else NULL. */
static const struct job_key_state *key_state(const struct job *job, const char *key)
{
	for (size_t t = 0; t < job->nkeys; t++) {
		const struct option_def *def = option_table_find(job->keys[t].table, key);

		if (def && job->keys[t].state[def - job->keys[t].table->defs].set)
			return &job->keys[t].state[def - job->keys[t].table->defs];
	}
	return NULL;
}

bool job_is_set(const struct job *job, const char *key)
{
	return key_state(job, key) != NULL;
}

const struct job_origin *job_origin_of(const struct job *job, const char *key)
{
	const struct job_key_state *st = key_state(job, key);

	return st ? &st->origin : &job->section;
}

int job_fail(const struct job *job, const char *key, struct dbio_err *err, const char *fmt, ...)
{
	char where[4200], what[600];
	va_list ap;

	job_where(job_origin_of(job, key), where, sizeof(where));
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return dbio_err_set(err, DBIO_EINPUT, "%s: key '%s': %s (job '%s')", where, key, what, job->name);
}

int job_fail_choice(const struct job *job, const char *key, const char *value, const char *choices,
		    struct dbio_err *err)
{
	const char *pkg = built_missing_package(key, value);

	if (pkg)
		return job_fail(job, key, err,
				"'%s' is not in this build of dbio: install %s and build dbio again", value,
				pkg);
	return job_fail(job, key, err, "bad value '%s': expected one of %s", value, choices);
}

void job_release(struct job *job)
{
	for (size_t t = 0; t < job->nkeys; t++) {
		free(job->keys[t].conf);
		free(job->keys[t].state);
	}
	free(job->keys);
	job->keys = NULL;
	job->nkeys = 0;
	job->wl_conf = job->eng_conf = NULL;
}

int job_copy(struct job *dst, const struct job *src)
{
	*dst = *src;
	dst->keys = calloc(src->nkeys ? src->nkeys : 1, sizeof(*dst->keys));
	dst->nkeys = 0;
	dst->wl_conf = dst->eng_conf = NULL;
	if (!dst->keys)
		return -ENOMEM;
	for (size_t t = 0; t < src->nkeys; t++) {
		const struct job_keys *from = &src->keys[t];
		struct job_keys *to = &dst->keys[t];

		*to = *from;
		to->conf = NULL;
		to->state = calloc(from->table->count ? from->table->count : 1, sizeof(*to->state));
		if (from->conf && (to->conf = malloc(from->table->conf_size)))
			memcpy(to->conf, from->conf, from->table->conf_size);
		dst->nkeys++;
		if (!to->state || (from->conf && !to->conf)) {
			job_release(dst);
			return -ENOMEM;
		}
		memcpy(to->state, from->state, from->table->count * sizeof(*to->state));
		if (src->wl_conf == from->conf && from->conf)
			dst->wl_conf = to->conf;
		if (src->eng_conf == from->conf && from->conf)
			dst->eng_conf = to->conf;
	}
	return 0;
}

/* One key as text: sizes and durations with their unit. */
static void brief_value(const void *base, const struct option_def *def, char *buf, size_t len)
{
	/* Only sizes and durations are uint64_t fields; read no other as one. */
	const uint64_t *v = (const uint64_t *)((const char *)base + def->offset);

	const uint64_t *w = def->pair_offset ? (const uint64_t *)((const char *)base + def->pair_offset) : v;
	char rs[32], ws[32];

	if (def->type == OPT_SIZE && *w != *v) /* fio's READ,WRITE */
		snprintf(buf, len, "%s,%s", units_fmt_bytes(rs, sizeof(rs), *v),
			 units_fmt_bytes(ws, sizeof(ws), *w));
	else if (def->type == OPT_SIZE)
		units_fmt_bytes(buf, len, *v);
	else if (def->type == OPT_TIME)
		units_fmt_ns(buf, len, (double)*v);
	else
		option_format(base, def, buf, len);
}

static void brief_table(const struct job *job, const struct job_keys *k, char *buf, size_t len, size_t *used)
{
	for (size_t d = 0; d < k->table->count && *used < len; d++) {
		const struct option_def *def = &k->table->defs[d];
		char v[256];

		if (!def->brief && (!k->state[d].set || def->never_brief || def->fio_noop))
			continue;
		brief_value(job_keys_base(job, k), def, v, sizeof(v));
		*used +=
			(size_t)snprintf(buf + *used, len - *used, "%s%s=%s", *used ? " " : "", def->name, v);
	}
}

void job_brief(const struct job *job, char *buf, size_t len)
{
	static const enum option_scope order[] = { OPTION_SCOPE_FILES, OPTION_SCOPE_WORKLOAD,
						   OPTION_SCOPE_PART, OPTION_SCOPE_ENGINE, OPTION_SCOPE_JOB };
	size_t used = 0;

	buf[0] = '\0';
	if (job_is_set(job, "workload"))
		used += (size_t)snprintf(buf, len, "workload=%s", job->workload);
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++)
		for (size_t t = 0; t < job->nkeys; t++)
			if (job->keys[t].scope == order[o] && job->keys[t].applies)
				brief_table(job, &job->keys[t], buf, len, &used);
}

int jobset_add(struct jobset *set, const struct job *job)
{
	struct job *jobs = realloc(set->jobs, (set->njobs + 1) * sizeof(*jobs));

	if (!jobs)
		return -ENOMEM;
	set->jobs = jobs;
	if (job_copy(&set->jobs[set->njobs], job))
		return -ENOMEM;
	set->njobs++;
	return 0;
}

void jobset_release(struct jobset *set)
{
	for (size_t i = 0; i < set->njobs; i++)
		job_release(&set->jobs[i]);
	for (size_t i = 0; i < set->nfiles; i++)
		free(set->files[i]);
	free(set->files);
	free(set->jobs);
	memset(set, 0, sizeof(*set));
}

int job_split_dirs(const char *spec, char ***out)
{
	char *copy = strdup(spec), *save = NULL;
	char **dirs = NULL;
	int n = 0;

	if (!copy)
		return -ENOMEM;
	for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char **grown = realloc(dirs, (size_t)(n + 1) * sizeof(*dirs));

		if (!grown || !(grown[n] = strdup(tok))) {
			free(grown ? grown : dirs);
			free(copy);
			return -ENOMEM;
		}
		dirs = grown;
		n++;
	}
	free(copy);
	*out = dirs;
	return n;
}
