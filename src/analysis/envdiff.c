/*
 * The environment differences of a comparison (analysis/compare.h): the
 * system fields, targets and job options that are not the same in every
 * file, each once with every file's value and the jobs it holds for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_int.h"
#include "analysis/tree.h"

/* The environment fields compared, beside every vm.* and
 * transparent_hugepage.* key. */
static const char *const system_fields[] = { "hostname",  "kernel_release", "kernel_version", "machine",
					     "cpu_model", "cpus_online",    "mem_total_bytes" };
static const char *const target_fields[] = {
	"fs_type",
	"mount_options",
	"super_options",
	"fs_block_size_bytes",
	"block_device.scheduler",
	"block_device.nr_requests",
	"block_device.read_ahead_kb",
	"block_device.rotational",
	"block_device.write_cache",
	"block_device.model",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Record that field has values (stolen) in the files, for job (NULL:
 * system), when they are not all equal; one entry per field and values,
 * naming every job it holds for. */
static int diff_add(struct comparison *c, const char *field, const char *job, json_t *values)
{
	struct compare_diff *d, *grown;
	bool differ = false;
	char quoted[512];

	if (!values)
		return -ENOMEM;
	for (size_t f = 1; f < c->nfiles; f++)
		differ |= !json_equal(json_array_get(values, 0), json_array_get(values, f));
	if (!differ) {
		json_decref(values);
		return 0;
	}
	if (job)
		snprintf(quoted, sizeof(quoted), "'%s'", job);
	for (size_t i = 0; i < c->ndiffs; i++) {
		d = &c->diffs[i];
		if (strcmp(d->field, field) || !json_equal(d->values, values) || !d->jobs != !job)
			continue;
		json_decref(values);
		if (!job || strstr(d->jobs, quoted))
			return 0;
		return analysis_append(&d->jobs, ", %s", quoted);
	}
	grown = realloc(c->diffs, (c->ndiffs + 1) * sizeof(*grown));
	if (!grown) {
		json_decref(values);
		return -ENOMEM;
	}
	c->diffs = grown;
	d = &c->diffs[c->ndiffs];
	*d = (struct compare_diff){ .field = strdup(field),
				    .jobs = job ? strdup(quoted) : NULL,
				    .values = values };
	c->ndiffs++;
	if (!d->field || (job && !d->jobs))
		return -ENOMEM;
	return 0;
}

/* The values of path under roots[f] (NULL roots give null). */
static json_t *values_at(const json_t *const *roots, size_t n, const char *path)
{
	json_t *values = json_array();

	for (size_t f = 0; values && f < n; f++) {
		const json_t *v = roots[f] ? tree_get(roots[f], path) : NULL;

		if (json_array_append_new(values, v ? json_deep_copy(v) : json_null())) {
			json_decref(values);
			return NULL;
		}
	}
	return values;
}

/* Every key of the objects at path under the roots, first file's first. */
static int keys_union(const json_t *const *roots, size_t n, const char *path, json_t *keys)
{
	for (size_t f = 0; f < n; f++) {
		const char *k;
		json_t *v;

		json_object_foreach ((json_t *)tree_get(roots[f], path), k, v)
			if (json_object_set_new(keys, k, json_true()))
				return -ENOMEM;
	}
	return 0;
}

int compare_env_system(struct comparison *c, const json_t *const *results)
{
	const json_t *roots[COMPARE_MAX_FILES];
	static const char *const groups[] = { "vm", "transparent_hugepage" };
	char path[256];
	int rc = 0;

	for (size_t f = 0; f < c->nfiles; f++)
		roots[f] = json_object_get(results[f], "system");
	for (size_t i = 0; i < N(system_fields) && !rc; i++) {
		snprintf(path, sizeof(path), "system.%s", system_fields[i]);
		rc = diff_add(c, path, NULL, values_at(roots, c->nfiles, system_fields[i]));
	}
	for (size_t g = 0; g < N(groups) && !rc; g++) {
		json_t *keys = json_object();
		const char *k;
		json_t *v;

		if (!keys || keys_union(roots, c->nfiles, groups[g], keys)) {
			json_decref(keys);
			return -ENOMEM;
		}
		json_object_foreach (keys, k, v) {
			char sub[256];

			snprintf(sub, sizeof(sub), "%s.%s", groups[g], k);
			snprintf(path, sizeof(path), "system.%s", sub);
			if ((rc = diff_add(c, path, NULL, values_at(roots, c->nfiles, sub))))
				break;
		}
		json_decref(keys);
	}
	return rc;
}

int compare_env_job(struct comparison *c, const json_t *const *jobs)
{
	const json_t *roots[COMPARE_MAX_FILES];
	const char *name = json_string_value(json_object_get(jobs[0], "name"));
	size_t ntargets = 0;
	bool seed_varies = false;
	json_t *keys = NULL;
	const char *k;
	json_t *v;
	char path[256];
	int rc = 0;

	for (size_t f = 0; f < c->nfiles; f++) {
		size_t nt = json_array_size(json_object_get(jobs[f], "targets"));

		ntargets = nt > ntargets ? nt : ntargets;
		/* randrepeat=0 seeds every run from the clock: the seeds
		 * recorded differ by design. */
		seed_varies |= json_is_false(tree_get(jobs[f], "options.randrepeat"));
	}
	for (size_t t = 0; t < ntargets && !rc; t++) {
		for (size_t f = 0; f < c->nfiles; f++)
			roots[f] = json_array_get(json_object_get(jobs[f], "targets"), t);
		for (size_t i = 0; i < N(target_fields) && !rc; i++) {
			snprintf(path, sizeof(path), "targets[%zu].%s", t, target_fields[i]);
			rc = diff_add(c, path, name, values_at(roots, c->nfiles, target_fields[i]));
		}
	}
	for (size_t f = 0; f < c->nfiles; f++)
		roots[f] = json_object_get(jobs[f], "options");
	if (rc || !(keys = json_object()) || keys_union(roots, c->nfiles, "", keys)) {
		json_decref(keys);
		return rc ? rc : -ENOMEM;
	}
	json_object_foreach (keys, k, v) {
		if (!strcmp(k, "name") || (seed_varies && !strcmp(k, "randseed")))
			continue;
		snprintf(path, sizeof(path), "options.%s", k);
		if ((rc = diff_add(c, path, name, values_at(roots, c->nfiles, k))))
			break;
	}
	json_decref(keys);
	return rc;
}
