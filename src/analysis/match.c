/* Job entries of several result files side by side; see match.h. */
#include "analysis/match.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_int.h"
#include "analysis/tree.h"
#include "util/list.h"

int analysis_append(char **s, const char *fmt, ...)
{
	va_list ap;
	char *more, *joined;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&more, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -ENOMEM;
	if (!*s) {
		*s = more;
		return 0;
	}
	rc = asprintf(&joined, "%s%s", *s, more);
	free(more);
	if (rc < 0)
		return -ENOMEM;
	free(*s);
	*s = joined;
	return 0;
}

char *match_label(const json_t *result, const json_t *job, char *buf, size_t len)
{
	const json_t *vary = json_object_get(json_object_get(result, "sweep"), "vary");
	const json_t *point = json_object_get(job, "point");
	size_t used, i;
	json_t *v;

	snprintf(buf, len, "%s", tree_str(job, "name"));
	json_array_foreach (vary, i, v) {
		const char *key = tree_str(v, "key");

		used = strlen(buf);
		if (used + 1 < len)
			snprintf(buf + used, len - used, " %s=%s", key, tree_str(point, key));
	}
	return buf;
}

void match_quoted(const json_t *job, size_t occurrence, char *buf, size_t len)
{
	const json_t *point = json_object_get(job, "point");
	size_t used;
	const char *k;
	json_t *v;

	snprintf(buf, len, "'%s'", json_string_value(json_object_get(job, "name")));
	json_object_foreach ((json_t *)point, k, v) {
		used = strlen(buf);
		snprintf(buf + used, len - used, " %s=%s", k, json_is_string(v) ? json_string_value(v) : "?");
	}
	used = strlen(buf);
	if (occurrence > 1)
		snprintf(buf + used, len - used, " #%zu", occurrence);
}

size_t match_directories(const char *value)
{
	size_t n = 1;

	for (const char *p = value; *p; p++)
		if (*p == '\\' && p[1])
			p++;
		else if (*p == ':')
			n++;
	return n;
}

bool match_directories_distinct(const char *const *values, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; values[i] && j < i; j++)
			if (values[j] && strcmp(values[i], values[j]) &&
			    match_directories(values[i]) == match_directories(values[j]))
				return false;
	return true;
}

/* ---- alignment ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "name\x1fk1=v1\x1ek2=v2\x1e": keys sorted, so that their order in the
 * file does not matter. */
static char *base_key(const json_t *job)
{
	const json_t *point = json_object_get(job, "point");
	const char *name = json_string_value(json_object_get(job, "name"));
	const char **keys = NULL;
	size_t nkeys = json_object_size(point), i = 0;
	char *key = NULL;
	const char *k;
	json_t *v;

	if (analysis_append(&key, "%s\x1f", name ? name : ""))
		return NULL;
	if (!nkeys)
		return key;
	if (!(keys = calloc(nkeys, sizeof(*keys)))) {
		free(key);
		return NULL;
	}
	json_object_foreach ((json_t *)point, k, v)
		keys[i++] = k;
	qsort(keys, nkeys, sizeof(*keys), cmp_str);
	for (i = 0; i < nkeys && key; i++) {
		const char *val = json_string_value(json_object_get(point, keys[i]));

		if (analysis_append(&key, "%s=%s\x1e", keys[i], val ? val : "")) {
			free(key);
			key = NULL;
		}
	}
	free(keys);
	return key;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp((*(struct match_entry *const *)a)->key, (*(struct match_entry *const *)b)->key);
}

/* By key, then file order (entries is an array in file order). */
static int cmp_entry_at(const void *a, const void *b)
{
	const struct match_entry *x = *(struct match_entry *const *)a, *y = *(struct match_entry *const *)b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x > y) - (x < y);
}

void match_file_release(struct match_file *mf)
{
	for (size_t i = 0; i < mf->n; i++)
		free(mf->entries[i].key);
	free(mf->entries);
	free(mf->sorted);
	*mf = (struct match_file){ 0 };
}

/* Each entry's key gets its occurrence: the n-th entry of one name and
 * point is "#n". Sorted by base key and file order, the entries of one
 * base are a run, numbered in file order: n log n, where counting the
 * earlier entries of each one was quadratic (50,000 jobs took 20 s). */
static int number_entries(struct match_file *mf)
{
	qsort(mf->sorted, mf->n, sizeof(*mf->sorted), cmp_entry_at);
	for (size_t i = 0; i < mf->n; i++) {
		struct match_entry *e = mf->sorted[i];

		if (i && !strcmp(mf->sorted[i - 1]->key, e->key))
			e->occurrence = mf->sorted[i - 1]->occurrence + 1;
	}
	for (size_t i = 0; i < mf->n; i++) {
		struct match_entry *e = &mf->entries[i];
		char *key;

		if (asprintf(&key, "%s#%zu", e->key, e->occurrence) < 0)
			return -ENOMEM;
		free(e->key);
		e->key = key;
	}
	qsort(mf->sorted, mf->n, sizeof(*mf->sorted), cmp_entry);
	return 0;
}

int match_file_init(struct match_file *mf, const json_t *result)
{
	const json_t *jobs = json_object_get(result, "jobs"), *job;
	size_t n = json_array_size(jobs), i;

	*mf = (struct match_file){ 0 };
	if (!n)
		return 0;
	mf->entries = calloc(n, sizeof(*mf->entries));
	mf->sorted = calloc(n, sizeof(*mf->sorted));
	if (!mf->entries || !mf->sorted)
		return -ENOMEM;
	json_array_foreach (jobs, i, job) {
		struct match_entry *e = &mf->entries[mf->n];

		if (!json_is_string(json_object_get(job, "name")))
			continue; /* not a job: never aligned */
		if (!(e->key = base_key(job)))
			return -ENOMEM;
		e->job = job;
		e->occurrence = 1;
		mf->sorted[mf->n] = e;
		mf->n++;
	}
	return number_entries(mf);
}

const struct match_entry *match_file_find(const struct match_file *mf, const char *key)
{
	struct match_entry probe = { .key = (char *)key }, *pp = &probe, **hit;

	if (!mf->n)
		return NULL;
	hit = bsearch(&pp, mf->sorted, mf->n, sizeof(*mf->sorted), cmp_entry);
	return hit ? *hit : NULL;
}

/* ---- rows ---- */

/* "label\x1fop": one row's key in the indexes below. */
static int row_key(char *buf, size_t len, const char *label, const char *op)
{
	return snprintf(buf, len, "%s\x1f%s", label, op) >= (int)len ? -ENAMETOOLONG : 0;
}

/* index[label, op] = the first job entry of result called label that has a
 * figure of m for op (a JSON object as the hash table: a lookup per row, where
 * scanning every job for every row was quadratic). */
static int index_first_jobs(json_t *index, const json_t *result, const struct metric *m)
{
	const json_t *job;
	size_t j;

	json_array_foreach (json_object_get(result, "jobs"), j, job) {
		char label[512], key[600];
		const char *op;
		double y, ci;

		match_label(result, job, label, sizeof(label));
		for (size_t k = 0; (op = metric_op(m, k)); k++)
			if (!row_key(key, sizeof(key), label, op) && !json_object_get(index, key) &&
			    metric_figure(m, job, op, &y, &ci) &&
			    json_object_set_new(index, key, json_integer((json_int_t)j)))
				return -ENOMEM;
	}
	return 0;
}

/* Append the row label, op unless it is there (seen) or there are max. */
static int add_row(struct match_rows *mr, json_t *seen, const char *label, const char *op, size_t max,
		   size_t *cap)
{
	char key[600];

	if (row_key(key, sizeof(key), label, op) || json_object_get(seen, key) || mr->count == max)
		return 0;
	if (mr->count == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct match_row *grown = realloc(mr->rows, ncap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		mr->rows = grown;
		*cap = ncap;
	}
	if (json_object_set_new(seen, key, json_true()))
		return -ENOMEM;
	snprintf(mr->rows[mr->count].label, sizeof(mr->rows[mr->count].label), "%s", label);
	mr->rows[mr->count++].op = op;
	return 0;
}

static int find_rows(struct match_rows *mr, const json_t *const *results, size_t n, const struct metric *m,
		     const char *ops, size_t max)
{
	json_t *seen = json_object();
	size_t cap = 0;
	int rc = seen ? 0 : -ENOMEM;

	for (size_t f = 0; f < n && !rc; f++) {
		const json_t *job;
		size_t j;

		json_array_foreach (json_object_get(results[f], "jobs"), j, job) {
			const char *op;
			char label[512];
			double y, ci;

			match_label(results[f], job, label, sizeof(label));
			for (size_t k = 0; !rc && (op = metric_op(m, k)); k++) {
				if (metric_per_op(m) && ops && !list_has(ops, op))
					continue;
				if (metric_figure(m, job, op, &y, &ci))
					rc = add_row(mr, seen, label, op, max, &cap);
			}
		}
	}
	json_decref(seen);
	return rc;
}

int match_rows_init(struct match_rows *mr, const json_t *const *results, size_t n, const struct metric *m,
		    const char *ops, size_t max)
{
	int rc;

	*mr = (struct match_rows){ .nfiles = n };
	rc = find_rows(mr, results, n, m, ops, max);
	if (!rc && mr->count && !(mr->jobs = calloc(mr->count * n, sizeof(*mr->jobs))))
		rc = -ENOMEM;
	for (size_t f = 0; f < n && !rc && mr->count; f++) {
		const json_t *jobs = json_object_get(results[f], "jobs");
		json_t *index = json_object();

		rc = index ? index_first_jobs(index, results[f], m) : -ENOMEM;
		for (size_t i = 0; i < mr->count && !rc; i++) {
			char key[600];
			const json_t *at;

			if (!row_key(key, sizeof(key), mr->rows[i].label, mr->rows[i].op) &&
			    (at = json_object_get(index, key)))
				mr->jobs[i * n + f] = json_array_get(jobs, (size_t)json_integer_value(at));
		}
		json_decref(index);
	}
	return rc;
}

void match_rows_release(struct match_rows *mr)
{
	free(mr->rows);
	free(mr->jobs);
	*mr = (struct match_rows){ 0 };
}

const json_t *match_rows_job(const struct match_rows *mr, size_t i, size_t f)
{
	return mr->jobs[i * mr->nfiles + f];
}
