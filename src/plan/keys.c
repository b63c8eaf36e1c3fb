/*
 * The key tables of the build and the jobs made with them; see plan.h. The
 * tables are the keys of every job (job/option.c), the file workloads'
 * (workload/fileio/files.c) and the .options of every
 * workload and engine in their registries, in that order: adding a
 * plug-in's keys needs no line here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "plan/fio_keys.h"
#include "plan/plan.h"
#include "util/built.h"
#include "workload/fileio/files.h"
#include "workload/workload.h"

bool plan_table_at(size_t i, struct plan_table *t)
{
	if (i == 0) {
		*t = (struct plan_table){ .scope = OPTION_SCOPE_JOB, .table = &option_job_table };
		return true;
	}
	if (i == 1) {
		*t = (struct plan_table){ .scope = OPTION_SCOPE_FILES, .table = &fileio_files_table };
		return true;
	}
	i -= 2;
	for (size_t w = 0; w < workload_count; w++)
		if (workload_registry[w]->options && i-- == 0) {
			*t = (struct plan_table){ .scope = OPTION_SCOPE_WORKLOAD,
						  .owner = workload_registry[w]->name,
						  .table = workload_registry[w]->options };
			return true;
		}
	for (size_t e = 0; e < engine_count; e++)
		if (engine_registry[e]->options && i-- == 0) {
			*t = (struct plan_table){ .scope = OPTION_SCOPE_ENGINE,
						  .owner = engine_registry[e]->name,
						  .table = engine_registry[e]->options };
			return true;
		}
	for (size_t w = 0; w < workload_count; w++) {
		struct workload_part part;

		for (size_t p = 0; workload_registry[w]->part_at && workload_registry[w]->part_at(p, &part);
		     p++)
			if (i-- == 0) {
				*t = (struct plan_table){ OPTION_SCOPE_PART, part.value, part.options,
							  workload_registry[w]->name, part.key };
				return true;
			}
	}
	return false;
}

static size_t ntables(void)
{
	struct plan_table t;
	size_t n = 0;

	while (plan_table_at(n, &t))
		n++;
	return n;
}

int plan_job_init(struct job *job, const char *name)
{
	const size_t n = ntables();
	struct dbio_err err = { 0 };

	memset(job, 0, sizeof(*job));
	job->keys = calloc(n, sizeof(*job->keys));
	if (!job->keys)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct job_keys *k = &job->keys[i];
		struct plan_table t;

		plan_table_at(i, &t);
		*k = (struct job_keys){ .table = t.table, .scope = t.scope, .owner = t.owner };
		job->nkeys++;
		k->state = calloc(t.table->count ? t.table->count : 1, sizeof(*k->state));
		/* Every table but the keys of every job fills a struct of its
		 * own (the file keys: struct fileio_files). */
		if (t.scope != OPTION_SCOPE_JOB)
			k->conf = calloc(1, t.table->conf_size);
		if (!k->state || (t.scope != OPTION_SCOPE_JOB && !k->conf))
			return -ENOMEM;
		/* A default that does not parse is a bug plan_check finds. */
		for (size_t d = 0; d < t.table->count; d++)
			option_parse(&t.table->defs[d], job_keys_base(job, k), t.table->defs[d].def,
				     "default", &err);
	}
	snprintf(job->name, sizeof(job->name), "%s", name);
	return 0;
}

const struct option_def *plan_find(const char *name)
{
	struct plan_table t;
	const struct option_def *def;

	for (size_t i = 0; plan_table_at(i, &t); i++)
		if ((def = option_table_find(t.table, name)))
			return def;
	return NULL;
}

bool plan_key_shaped(const char *key)
{
	size_t n = 0;

	if (!isalpha((unsigned char)key[0]) && key[0] != '_')
		return false;
	for (; key[n]; n++)
		if (!isalnum((unsigned char)key[n]) && key[n] != '_' && key[n] != '-')
			return false;
	return n <= PLAN_KEY_MAX;
}

int plan_set(struct job *job, const char *key, const char *value, const struct job_origin *origin,
	     struct dbio_err *err)
{
	const char *option, *part, *package;
	const struct fio_key *fio;
	char where[4200];

	job_where(origin, where, sizeof(where));
	/* Text that is not a key may be a line of a file that is no job file
	 * (include /etc/shadow): it is described, never quoted. */
	if (!plan_key_shaped(key))
		return dbio_err_set(err, DBIO_EINPUT, "%s: %s", where, PLAN_NOT_A_KEY);
	if (job_find(job, key, NULL))
		return job_set(job, key, value, origin, err);
	if ((package = built_missing_key(key, &option, &part)))
		return dbio_err_set(
			err, DBIO_EINPUT,
			"%s: key '%s': belongs to %s=%s, which this build of dbio left out: install %s and build dbio again",
			where, key, option, part, package);
	if (!(fio = fio_key_find(key)))
		return job_set(job, key, value, origin, err);
	return dbio_err_set(err, DBIO_EINPUT, "%s: key '%s': %s", where, key, fio->reason);
}

const char *plan_suggest(const char *name)
{
	struct option_closest c = { .name = name };
	struct plan_table t;

	for (size_t i = 0; plan_table_at(i, &t); i++)
		for (size_t k = 0; k < t.table->count; k++)
			option_closest_offer(&c, t.table->defs[k].name);
	return c.best;
}

/* "fileio, oltp": the workloads that lay out files. */
static void file_workloads(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t w = 0; w < workload_count && used < len; w++)
		if (workload_registry[w]->caps & WORKLOAD_CAP_FILES)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 workload_registry[w]->name);
}

const char *plan_owners(const char *name, char *buf, size_t len)
{
	const char *kinds[] = { [OPTION_SCOPE_WORKLOAD] = "workload",
				[OPTION_SCOPE_ENGINE] = "ioengine",
				[OPTION_SCOPE_PART] = NULL };
	enum option_scope last = OPTION_SCOPE_JOB;
	struct plan_table t;
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; plan_table_at(i, &t) && used < len; i++) {
		char files[128];

		if (!option_table_find(t.table, name))
			continue;
		if (t.scope == OPTION_SCOPE_JOB)
			return buf;
		if (t.scope == OPTION_SCOPE_FILES) {
			file_workloads(files, sizeof(files));
			used += (size_t)snprintf(buf + used, len - used,
						 "%sthe workloads that do file I/O (%s)", used ? " and " : "",
						 files);
		} else if (used && t.scope == last) {
			used += (size_t)snprintf(buf + used, len - used, " and %s", t.owner);
		} else {
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " and " : "",
						 t.part_key ? t.part_key : kinds[t.scope], t.owner);
		}
		last = t.scope;
	}
	return buf;
}

int plan_check(struct dbio_err *err)
{
	struct plan_table a, b;
	struct job job;
	int rc = plan_job_init(&job, "x") ? -ENOMEM : 0;

	for (size_t i = 0; plan_table_at(i, &a) && !rc; i++)
		for (size_t k = 0; k < a.table->count && !rc; k++) {
			const struct option_def *def = &a.table->defs[k];
			struct dbio_err perr = { 0 };

			for (size_t j = 0; j <= i && !rc; j++) {
				const struct option_def *other;

				plan_table_at(j, &b);
				other = option_table_find(b.table, def->name);
				if (other && other != def && (j == i || other->type != def->type))
					rc = dbio_err_set(err, -EINVAL, "key '%s': twice %s", def->name,
							  j == i ? "in one table" : "with different types");
			}
			if (!rc &&
			    option_parse(def, job_keys_base(&job, &job.keys[i]), def->def, "default", &perr))
				rc = dbio_err_set(err, -EINVAL, "key '%s': its default: %s", def->name,
						  perr.msg);
		}
	job_release(&job);
	return rc;
}
