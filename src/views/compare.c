/*
 * The comparison of result files; see compare.h. Building it is pure
 * computation on result trees (alignment, per-run values, Welch's test,
 * environment differences); the printers only format what was built.
 */
#include "views/compare.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "result/result.h"
#include "stats/opstats.h"
#include "util/list.h"
#include "util/termesc.h"
#include "util/units.h"

static const struct compare_metric metrics[] = {
	{ "iops", "ops/s", "iops", false, 1, 1, COMPARE_WORSE_LOWER },
	{ "bw", "MiB/s", "bw_bytes", false, 1.0 / 1048576, 2, COMPARE_WORSE_LOWER },
	{ "lat_mean", "ns", "lat_ns.mean", false, 1, 0, COMPARE_WORSE_HIGHER },
	{ "p50", "ns", "lat_ns.p50", false, 1, 0, COMPARE_WORSE_HIGHER },
	{ "p95", "ns", "lat_ns.p95", false, 1, 0, COMPARE_WORSE_HIGHER },
	{ "p99", "ns", "lat_ns.p99", false, 1, 0, COMPARE_WORSE_HIGHER },
	{ "p99_9", "ns", "lat_ns.p99_9", false, 1, 0, COMPARE_WORSE_HIGHER },
	{ "max", "ns", "lat_ns.max", false, 1, 0, COMPARE_WORSE_HIGHER },
	{ "cpu", "%", "rusage.cpu_pct", true, 1, 1, COMPARE_WORSE_NONE },
	{ "elapsed", "ns", "elapsed_ns", true, 1, 0, COMPARE_WORSE_HIGHER },
	{ "user", "s", "rusage.user_s", true, 1, 2, COMPARE_WORSE_HIGHER },
	{ "sys", "s", "rusage.sys_s", true, 1, 2, COMPARE_WORSE_HIGHER },
	{ "majflt", "faults", "rusage.majflt", true, 1, 0, COMPARE_WORSE_HIGHER },
	{ "minflt", "faults", "rusage.minflt", true, 1, 0, COMPARE_WORSE_HIGHER },
	{ "nvcsw", "switches", "rusage.nvcsw", true, 1, 0, COMPARE_WORSE_HIGHER },
};

const char compare_metric_names[] =
	"iops, bw, lat_mean, p50, p95, p99, p99_9, max, cpu, elapsed, user, sys, majflt, minflt, nvcsw";
const char compare_default_metrics[] = "iops,bw,p99";

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

int compare_parse_metrics(const char *list, const struct compare_metric **out, size_t max,
			  struct dbio_err *err)
{
	size_t n = 0;

	for (const char *p = list;;) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < N(metrics); i++)
			if (strlen(metrics[i].name) == len && !strncmp(metrics[i].name, p, len))
				break;
		if (i == N(metrics))
			return dbio_err_set(
				err, DBIO_EINPUT,
				"compare: --metric %s: '%.*s' is not a metric: expected a list of %s", list,
				(int)len, p, compare_metric_names);
		if (n == max)
			return dbio_err_set(err, DBIO_EINPUT, "compare: --metric %s: more than %zu metrics",
					    list, max);
		out[n++] = &metrics[i];
		if (!p[len])
			return (int)n;
		p += len + 1;
	}
}

void compare_change_of(const struct summary *base, const struct summary *other, enum compare_worse worse,
		       double alpha, struct compare_change *c)
{
	double diff = other->mean - base->mean;

	*c = (struct compare_change){ 0 };
	if (base->mean != 0) {
		c->has_pct = true;
		c->change_pct = diff / fabs(base->mean) * 100;
	} else if (other->mean == 0) {
		c->has_pct = true;
	}
	if (base->n < 2 || other->n < 2)
		return;
	c->tested = true;
	c->p_value = welch_p(base, other, NULL, NULL);
	c->significant = c->p_value < alpha;
	c->regression = c->significant && ((worse == COMPARE_WORSE_LOWER && diff < 0) ||
					   (worse == COMPARE_WORSE_HIGHER && diff > 0));
}

/* ---- small helpers ---- */

static const json_t *path_get(const json_t *v, const char *path)
{
	char key[64];

	while (v && *path) {
		size_t len = strcspn(path, ".");

		snprintf(key, sizeof(key), "%.*s", (int)len, path);
		v = json_object_get(v, key);
		path += len + (path[len] == '.');
	}
	return v;
}

/* Append printf text to a growing string (*s may be NULL); -ENOMEM. */
__attribute__((format(printf, 2, 3))) static int str_append(char **s, const char *fmt, ...)
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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- alignment ---- */

/* A job entry of one file and the key it is aligned by: its name, its point
 * (keys sorted) and its occurrence among entries with both equal. */
struct entry {
	char *key;
	const json_t *job;
	size_t occurrence;
};

struct file_jobs {
	struct entry *entries; /* in file order */
	size_t n;
	struct entry **sorted; /* by key, for lookups */
};

/* "name\x1fk1=v1\x1ek2=v2": keys sorted so that key order does not matter. */
static char *base_key(const json_t *job)
{
	const json_t *point = json_object_get(job, "point");
	const char *name = json_string_value(json_object_get(job, "name"));
	const char **keys = NULL;
	size_t nkeys = json_object_size(point), i = 0;
	char *key = NULL;
	const char *k;
	json_t *v;

	if (str_append(&key, "%s\x1f", name ? name : ""))
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

		if (str_append(&key, "%s=%s\x1e", keys[i], val ? val : "")) {
			free(key);
			key = NULL;
		}
	}
	free(keys);
	return key;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp((*(struct entry *const *)a)->key, (*(struct entry *const *)b)->key);
}

static void file_jobs_release(struct file_jobs *fj)
{
	for (size_t i = 0; i < fj->n; i++)
		free(fj->entries[i].key);
	free(fj->entries);
	free(fj->sorted);
}

static int file_jobs_init(struct file_jobs *fj, const json_t *result)
{
	const json_t *jobs = json_object_get(result, "jobs"), *job;
	size_t n = json_array_size(jobs), i;

	*fj = (struct file_jobs){ 0 };
	if (!n)
		return 0;
	fj->entries = calloc(n, sizeof(*fj->entries));
	fj->sorted = calloc(n, sizeof(*fj->sorted));
	if (!fj->entries || !fj->sorted)
		return -ENOMEM;
	json_array_foreach (jobs, i, job) {
		struct entry *e = &fj->entries[fj->n];
		char *base;
		size_t blen;

		if (!json_is_string(json_object_get(job, "name")))
			continue; /* not a job: never aligned */
		if (!(base = base_key(job)))
			return -ENOMEM;
		blen = strlen(base);
		e->job = job;
		e->occurrence = 1;
		for (size_t j = 0; j < fj->n; j++) /* earlier entries of the same name and point */
			if (!strncmp(fj->entries[j].key, base, blen) && fj->entries[j].key[blen] == '#')
				e->occurrence++;
		if (asprintf(&e->key, "%s#%zu", base, e->occurrence) < 0)
			e->key = NULL;
		free(base);
		if (!e->key)
			return -ENOMEM;
		fj->sorted[fj->n] = e;
		fj->n++;
	}
	qsort(fj->sorted, fj->n, sizeof(*fj->sorted), cmp_entry);
	return 0;
}

static const struct entry *file_jobs_find(const struct file_jobs *fj, const char *key)
{
	struct entry probe = { .key = (char *)key }, *pp = &probe, **hit;

	if (!fj->n)
		return NULL;
	hit = bsearch(&pp, fj->sorted, fj->n, sizeof(*fj->sorted), cmp_entry);
	return hit ? *hit : NULL;
}

static void label_of(const json_t *job, size_t occurrence, char *buf, size_t len)
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

void compare_row_label(const struct compare_row *r, char *buf, size_t len)
{
	json_t *job = json_pack("{s:s}", "name", r->job);

	if (job && r->point)
		json_object_set(job, "point", (json_t *)r->point);
	if (job)
		label_of(job, r->occurrence, buf, len);
	else
		snprintf(buf, len, "'%s'", r->job);
	json_decref(job);
}

/* ---- values ---- */

/* The per-run values of metric m for op in the complete runs of job:
 * into x (room for every run); returns how many. */
static size_t run_values(const json_t *job, const char *op, const struct compare_metric *m, double *x)
{
	const json_t *runs = json_object_get(job, "runs"), *run;
	size_t n = 0, i;

	json_array_foreach (runs, i, run) {
		const json_t *base = m->per_run ? run : json_object_get(json_object_get(run, "ops"), op);
		const json_t *v = path_get(base, m->run_path);

		if (json_is_true(json_object_get(run, "partial")) || !json_is_number(v))
			continue;
		x[n++] = json_number_value(v) * m->scale;
	}
	return n;
}

/* Whether any run of job did an op of this type (with bytes when
 * need_bytes). */
static bool op_active(const json_t *job, const char *op, bool need_bytes)
{
	const json_t *runs = json_object_get(job, "runs"), *run;
	size_t i;

	json_array_foreach (runs, i, run) {
		const json_t *o = json_object_get(json_object_get(run, "ops"), op);
		const json_t *v = json_object_get(o, need_bytes ? "bytes" : "count");

		if (json_is_number(v) && json_number_value(v) > 0)
			return true;
	}
	return false;
}

static int add_row(struct comparison *c, const struct entry *const *ents, const char *op,
		   const struct compare_metric *m, size_t *cap)
{
	struct compare_row *r;
	double *x;
	size_t maxruns = 0;

	if (c->nrows == *cap) {
		size_t ncap = *cap ? *cap * 2 : 32;
		struct compare_row *grown = realloc(c->rows, ncap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		c->rows = grown;
		*cap = ncap;
	}
	r = &c->rows[c->nrows];
	*r = (struct compare_row){
		.job = json_string_value(json_object_get(ents[0]->job, "name")),
		.point = json_object_get(ents[0]->job, "point"),
		.occurrence = ents[0]->occurrence,
		.op = op,
		.metric = m,
	};
	r->values = calloc(c->nfiles, sizeof(*r->values));
	r->changes = calloc(c->nfiles, sizeof(*r->changes));
	if (!r->values || !r->changes) {
		free(r->values);
		free(r->changes);
		return -ENOMEM;
	}
	c->nrows++;
	for (size_t f = 0; f < c->nfiles; f++)
		if (json_array_size(json_object_get(ents[f]->job, "runs")) > maxruns)
			maxruns = json_array_size(json_object_get(ents[f]->job, "runs"));
	if (!(x = calloc(maxruns + 1, sizeof(*x))))
		return -ENOMEM;
	for (size_t f = 0; f < c->nfiles; f++)
		summary_of(x, run_values(ents[f]->job, op, m, x), &r->values[f]);
	free(x);
	for (size_t f = 1; f < c->nfiles; f++)
		compare_change_of(&r->values[0], &r->values[f], m->worse, c->alpha, &r->changes[f]);
	return 0;
}

/* Whether a row is of an op type (not a per-run figure, op "all"). */
static bool has_op_rows(const struct comparison *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (strcmp(c->rows[i].op, "all"))
			return true;
	return false;
}

static int add_rows(struct comparison *c, const struct entry *const *ents,
		    const struct compare_metric *const *ms, size_t nms, size_t *cap)
{
	int rc = 0;

	/* Rows in op_type_name's order (the file ops, then the database
	 * workloads'), only for op types some file did. */
	for (size_t o = 0; o < OP_NTYPES && !rc; o++) {
		bool active = false, bytes = false;

		if (c->ops && !list_has(c->ops, op_type_name((enum op_type)o)))
			continue;
		for (size_t f = 0; f < c->nfiles; f++) {
			active |= op_active(ents[f]->job, op_type_name((enum op_type)o), false);
			bytes |= op_active(ents[f]->job, op_type_name((enum op_type)o), true);
		}
		if (!active)
			continue;
		for (size_t m = 0; m < nms && !rc; m++)
			if (!ms[m]->per_run && (bytes || strcmp(ms[m]->name, "bw")))
				rc = add_row(c, ents, op_type_name((enum op_type)o), ms[m], cap);
	}
	for (size_t m = 0; m < nms && !rc; m++)
		if (ms[m]->per_run)
			rc = add_row(c, ents, "all", ms[m], cap);
	return rc;
}

/* ---- environment ---- */

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
		return str_append(&d->jobs, ", %s", quoted);
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
		const json_t *v = roots[f] ? path_get(roots[f], path) : NULL;

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

		json_object_foreach ((json_t *)path_get(roots[f], path), k, v)
			if (json_object_set_new(keys, k, json_true()))
				return -ENOMEM;
	}
	return 0;
}

static int system_diffs(struct comparison *c, const json_t *const *results)
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

static int job_diffs(struct comparison *c, const struct entry *const *ents)
{
	const json_t *roots[COMPARE_MAX_FILES];
	const char *name = json_string_value(json_object_get(ents[0]->job, "name"));
	size_t ntargets = 0;
	bool seed_varies = false;
	json_t *keys = NULL;
	const char *k;
	json_t *v;
	char path[256];
	int rc = 0;

	for (size_t f = 0; f < c->nfiles; f++) {
		size_t nt = json_array_size(json_object_get(ents[f]->job, "targets"));

		ntargets = nt > ntargets ? nt : ntargets;
		/* randrepeat=0 seeds every run from the clock: the seeds
		 * recorded differ by design. */
		seed_varies |= json_is_false(path_get(ents[f]->job, "options.randrepeat"));
	}
	for (size_t t = 0; t < ntargets && !rc; t++) {
		for (size_t f = 0; f < c->nfiles; f++)
			roots[f] = json_array_get(json_object_get(ents[f]->job, "targets"), t);
		for (size_t i = 0; i < N(target_fields) && !rc; i++) {
			snprintf(path, sizeof(path), "targets[%zu].%s", t, target_fields[i]);
			rc = diff_add(c, path, name, values_at(roots, c->nfiles, target_fields[i]));
		}
	}
	for (size_t f = 0; f < c->nfiles; f++)
		roots[f] = json_object_get(ents[f]->job, "options");
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

/* ---- building ---- */

static int warn(struct comparison *c, char *text)
{
	char **grown;

	if (!text)
		return -ENOMEM;
	grown = realloc(c->warnings, (c->nwarnings + 1) * sizeof(*grown));
	if (!grown) {
		free(text);
		return -ENOMEM;
	}
	c->warnings = grown;
	c->warnings[c->nwarnings++] = text;
	return 0;
}

/* A warning per job that is not in every file: which have it, which not. */
static int warn_left_out(struct comparison *c, const struct file_jobs *fj)
{
	for (size_t f = 0; f < c->nfiles; f++)
		for (size_t i = 0; i < fj[f].n; i++) {
			const struct entry *e = &fj[f].entries[i];
			char label[512], *in = NULL, *out = NULL, *text = NULL;
			bool earlier = false;
			int rc = 0;

			for (size_t g = 0; g < f; g++)
				earlier |= file_jobs_find(&fj[g], e->key) != NULL;
			if (earlier)
				continue;
			for (size_t g = 0; g < c->nfiles && !rc; g++) {
				char **list = file_jobs_find(&fj[g], e->key) ? &in : &out;

				rc = str_append(list, "%s%s", *list ? ", " : "", c->names[g]);
			}
			if (!rc && out) {
				label_of(e->job, e->occurrence, label, sizeof(label));
				if (asprintf(&text, "compare: job %s is in %s but not in %s: left out", label,
					     in, out) < 0)
					text = NULL;
				rc = warn(c, text);
			}
			free(in);
			free(out);
			if (rc)
				return rc;
		}
	return 0;
}

/* DBIO_EINPUT: no job in common, with what each file has. */
static int no_common(struct comparison *c, const struct file_jobs *fj, struct dbio_err *err)
{
	char *msg = NULL, label[512];
	int rc = 0;

	for (size_t f = 0; f < c->nfiles && !rc; f++) {
		rc = str_append(&msg, "%s%s has ", f ? "; " : "", c->names[f]);
		for (size_t i = 0; i < fj[f].n && i < 8 && !rc; i++) {
			label_of(fj[f].entries[i].job, fj[f].entries[i].occurrence, label, sizeof(label));
			rc = str_append(&msg, "%s%s", i ? ", " : "", label);
		}
		if (!rc && fj[f].n > 8)
			rc = str_append(&msg, " and %zu more", fj[f].n - 8);
		if (!rc && !fj[f].n)
			rc = str_append(&msg, "no jobs");
	}
	if (rc) {
		free(msg);
		return dbio_err_set(err, -ENOMEM, "out of memory");
	}
	dbio_err_set(err, DBIO_EINPUT, "compare: no job in common: %s", msg);
	free(msg);
	return DBIO_EINPUT;
}

int compare_build(struct comparison *c, const json_t *const *results, const char *const *names, size_t n,
		  const struct compare_metric *const *ms, size_t nms, double alpha, const char *ops,
		  struct dbio_err *err)
{
	struct file_jobs fj[COMPARE_MAX_FILES] = { 0 };
	const struct entry *ents[COMPARE_MAX_FILES];
	size_t cap = 0, ncommon = 0;
	int rc = 0;

	*c = (struct comparison){ .nfiles = n, .names = names, .alpha = alpha, .ops = ops };
	if (n < 2 || n > COMPARE_MAX_FILES)
		return dbio_err_set(err, DBIO_EINPUT, "compare: expected 2 to %d result files, got %zu",
				    COMPARE_MAX_FILES, n);
	for (size_t f = 0; f < n && !rc; f++) {
		rc = file_jobs_init(&fj[f], results[f]);
		if (!rc && json_is_true(json_object_get(results[f], "partial"))) {
			const char *why = json_string_value(json_object_get(results[f], "error"));
			char *text;

			if (asprintf(&text,
				     "compare: %s: a partial result (%s): its unfinished runs are left out",
				     names[f], why ? why : "stopped early") < 0)
				text = NULL;
			rc = warn(c, text);
		}
	}
	if (!rc)
		rc = warn_left_out(c, fj);
	if (!rc)
		rc = system_diffs(c, results);
	for (size_t i = 0; i < fj[0].n && !rc; i++) {
		ents[0] = &fj[0].entries[i];
		for (size_t f = 1; f < n && ents[f - 1]; f++)
			ents[f] = file_jobs_find(&fj[f], ents[0]->key);
		if (!ents[n - 1])
			continue;
		ncommon++;
		rc = job_diffs(c, ents);
		if (!rc)
			rc = add_rows(c, ents, ms, nms, &cap);
	}
	if (!rc && !ncommon)
		rc = no_common(c, fj, err);
	else if (rc)
		dbio_err_set(err, rc, "compare: out of memory");
	else if (ops && !has_op_rows(c))
		rc = dbio_err_set(err, DBIO_EINPUT,
				  "compare: --op %s: no job in these files did any of these op types", ops);
	for (size_t f = 0; f < n; f++)
		file_jobs_release(&fj[f]);
	return rc;
}

void compare_release(struct comparison *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		free(c->rows[i].values);
		free(c->rows[i].changes);
	}
	free(c->rows);
	for (size_t i = 0; i < c->ndiffs; i++) {
		free(c->diffs[i].field);
		free(c->diffs[i].jobs);
		json_decref(c->diffs[i].values);
	}
	free(c->diffs);
	for (size_t i = 0; i < c->nwarnings; i++)
		free(c->warnings[i]);
	free(c->warnings);
	*c = (struct comparison){ 0 };
}

/* ---- text ---- */

const char *compare_verdict(const struct compare_row *r, size_t f)
{
	const struct compare_change *ch = &r->changes[f];

	if (!r->values[0].n || !r->values[f].n)
		return "n/a (no complete run)";
	if (!ch->tested)
		return "n/a (no repeats)";
	if (!ch->significant)
		return "within noise";
	if (ch->regression)
		return "significant, regression";
	if (r->metric->worse == COMPARE_WORSE_NONE || r->values[f].mean == r->values[0].mean)
		return "significant";
	return "significant, improvement";
}

void compare_change_text(const struct compare_row *r, size_t f, char *buf, size_t len)
{
	const struct compare_change *ch = &r->changes[f];
	char pct[48], p[32] = "";

	if (!r->values[0].n || !r->values[f].n) {
		snprintf(buf, len, "n/a (no complete run)");
		return;
	}
	if (!ch->has_pct)
		snprintf(pct, sizeof(pct), "n/a (A is 0)");
	else if (fabs(ch->change_pct) < 0.05) /* no "+0.0" or "-0.0" */
		snprintf(pct, sizeof(pct), "0.0 %%");
	else
		snprintf(pct, sizeof(pct), "%+.1f %%", ch->change_pct);
	if (ch->tested && ch->p_value < 0.0001)
		snprintf(p, sizeof(p), "p<0.0001, ");
	else if (ch->tested)
		snprintf(p, sizeof(p), "p=%.4f, ", ch->p_value);
	snprintf(buf, len, "%s, %s%s", pct, p, compare_verdict(r, f));
}

static void fmt_figure(const struct compare_metric *m, const struct summary *s, char *buf, size_t len)
{
	char a[32], b[32];

	if (!s->n) {
		snprintf(buf, len, "n/a (no complete run)");
	} else if (!strcmp(m->unit, "ns")) {
		units_fmt_ns(a, sizeof(a), s->mean);
		if (s->n < 2)
			snprintf(buf, len, "%s", a);
		else
			snprintf(buf, len, "%s ± %s", a, units_fmt_ns(b, sizeof(b), s->ci95));
	} else if (s->n < 2) {
		snprintf(buf, len, "%.*f %s", m->decimals, s->mean, m->unit);
	} else {
		snprintf(buf, len, "%.*f ± %.*f %s", m->decimals, s->mean, m->decimals, s->ci95, m->unit);
	}
}

/* Columns on the screen: UTF-8 continuation bytes take none. */
static size_t width_of(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void put_cell(FILE *fp, const char *s, size_t width, bool right, bool last)
{
	size_t pad = width > width_of(s) ? width - width_of(s) : 0;

	if (right)
		fprintf(fp, "%*s", (int)pad, "");
	fputs(s, fp);
	if (!right && !last)
		fprintf(fp, "%*s", (int)pad, "");
	if (!last)
		fputs("  ", fp);
}

static void fmt_json_value(const json_t *v, char *buf, size_t len)
{
	if (!v || json_is_null(v))
		snprintf(buf, len, "(absent)");
	else if (json_is_string(v))
		snprintf(buf, len, *json_string_value(v) ? "%s" : "\"\"", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	else {
		char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

		snprintf(buf, len, "%s", text ? text : "?");
		free(text);
	}
}

/* The keys of every row's point, in order of appearance. */
static json_t *point_keys(const struct comparison *c)
{
	json_t *keys = json_array();

	for (size_t i = 0; keys && i < c->nrows; i++) {
		const char *k;
		json_t *v;

		json_object_foreach ((json_t *)c->rows[i].point, k, v) {
			size_t j;
			json_t *have;

			json_array_foreach (keys, j, have)
				if (!strcmp(json_string_value(have), k))
					break;
			if (j == json_array_size(keys))
				json_array_append_new(keys, json_string(k));
		}
	}
	return keys;
}

static void print_env(FILE *fp, const struct comparison *c)
{
	char val[256];

	if (!c->ndiffs) {
		fprintf(fp, "environment: identical\n");
		return;
	}
	fprintf(fp, "environment: %zu field%s differ%s\n", c->ndiffs, c->ndiffs == 1 ? "" : "s",
		c->ndiffs == 1 ? "s" : "");
	for (size_t i = 0; i < c->ndiffs; i++) {
		const struct compare_diff *d = &c->diffs[i];

		fprintf(fp, "  %s", d->field);
		if (d->jobs)
			fprintf(fp, " (job%s %s)", strchr(d->jobs, ',') ? "s" : "", d->jobs);
		fputc(':', fp);
		for (size_t f = 0; f < c->nfiles; f++) {
			fmt_json_value(json_array_get(d->values, f), val, sizeof(val));
			fprintf(fp, "%s %c %s", f ? "," : "", (int)('A' + f), val);
		}
		fputc('\n', fp);
	}
}

static void comparison_text(FILE *fp, const struct comparison *c)
{
	json_t *keys = point_keys(c);
	size_t nkeys = json_array_size(keys);
	size_t ncols = nkeys + 3 + c->nfiles + (c->nfiles - 1);
	size_t *width = calloc(ncols, sizeof(*width));
	char **cells = calloc((c->nrows + 1) * ncols, sizeof(*cells));
	size_t tested = 0, significant = 0, regressions = 0;

	for (size_t f = 0; f < c->nfiles; f++)
		fprintf(fp, "%c: %s\n", (int)('A' + f), c->names[f]);
	print_env(fp, c);
	fprintf(fp, "mean ± 95 %% CI of the complete runs; changes against A, Welch's t-test at alpha %g\n\n",
		c->alpha);
	if (!width || !cells || !keys)
		goto out;
	/* Every cell as text first, so each column is as wide as its widest. */
	for (size_t i = 0; i <= c->nrows; i++) {
		char **row = &cells[i * ncols], buf[256];
		const struct compare_row *r = i ? &c->rows[i - 1] : NULL;
		size_t col = 0;

		for (size_t k = 0; k < nkeys; k++) {
			const char *key = json_string_value(json_array_get(keys, k));
			const char *v = r ? json_string_value(json_object_get(r->point, key)) : key;

			row[col++] = strdup(v ? v : "");
		}
		if (r && r->occurrence > 1)
			snprintf(buf, sizeof(buf), "%s #%zu", r->job, r->occurrence);
		else
			snprintf(buf, sizeof(buf), "%s", r ? r->job : "job");
		row[col++] = strdup(buf);
		row[col++] = strdup(r ? r->op : "op");
		row[col++] = strdup(r ? r->metric->name : "metric");
		for (size_t f = 0; f < c->nfiles; f++) {
			if (r)
				fmt_figure(r->metric, &r->values[f], buf, sizeof(buf));
			else
				snprintf(buf, sizeof(buf), "%c", (int)('A' + f));
			row[col++] = strdup(buf);
		}
		for (size_t f = 1; f < c->nfiles; f++) {
			if (r)
				compare_change_text(r, f, buf, sizeof(buf));
			else
				snprintf(buf, sizeof(buf), "%c vs A", (int)('A' + f));
			row[col++] = strdup(buf);
		}
		for (size_t k = 0; k < ncols; k++)
			if (row[k] && width_of(row[k]) > width[k])
				width[k] = width_of(row[k]);
	}
	for (size_t i = 0; i <= c->nrows; i++) {
		for (size_t k = 0; k < ncols; k++) {
			const char *s = cells[i * ncols + k];
			bool figure = k >= nkeys + 3 && k < nkeys + 3 + c->nfiles;

			put_cell(fp, s ? s : "", width[k], figure && i > 0, k == ncols - 1);
		}
		fputc('\n', fp);
	}
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t f = 1; f < c->nfiles; f++) {
			tested += c->rows[i].changes[f].tested;
			significant += c->rows[i].changes[f].significant;
			regressions += c->rows[i].changes[f].regression;
		}
	fprintf(fp,
		"\n%zu of %zu changes tested (both sides with repeats): %zu significant, %zu regression%s\n",
		tested, c->nrows * (c->nfiles - 1), significant, regressions, regressions == 1 ? "" : "s");
out:
	for (size_t i = 0; cells && i < (c->nrows + 1) * ncols; i++)
		free(cells[i]);
	free(cells);
	free(width);
	json_decref(keys);
}

void compare_print_text(FILE *fp, const struct comparison *c)
{
	FILE *out = termesc_open(fp);

	if (!out)
		return; /* out of memory: nothing rather than raw control characters */
	comparison_text(out, c);
	fclose(out);
}

/* ---- CSV ---- */

static void csv_field(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

static void comparison_csv(FILE *fp, const struct comparison *c)
{
	json_t *keys = point_keys(c);
	size_t k;
	json_t *key;

	json_array_foreach (keys, k, key) {
		csv_field(fp, json_string_value(key));
		fputc(',', fp);
	}
	fprintf(fp, "job,op,metric,unit");
	for (size_t f = 0; f < c->nfiles; f++) {
		int x = 'a' + (int)f;

		fprintf(fp, ",%c_value,%c_ci95,%c_runs", x, x, x);
		if (f)
			fprintf(fp, ",%c_change_pct,%c_p_value,%c_significant,%c_regression", x, x, x, x);
	}
	fputc('\n', fp);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *r = &c->rows[i];
		char job[300];

		json_array_foreach (keys, k, key) {
			const char *v = json_string_value(json_object_get(r->point, json_string_value(key)));

			csv_field(fp, v ? v : "");
			fputc(',', fp);
		}
		if (r->occurrence > 1)
			snprintf(job, sizeof(job), "%s #%zu", r->job, r->occurrence);
		else
			snprintf(job, sizeof(job), "%s", r->job);
		csv_field(fp, job);
		fprintf(fp, ",%s,%s,%s", r->op, r->metric->name, r->metric->unit);
		for (size_t f = 0; f < c->nfiles; f++) {
			const struct summary *s = &r->values[f];
			const struct compare_change *ch = &r->changes[f];
			bool both = s->n && r->values[0].n;

			if (s->n)
				fprintf(fp, ",%.10g,%.10g,%zu", s->mean, s->ci95, s->n);
			else
				fprintf(fp, ",,,0");
			if (!f)
				continue;
			if (both && ch->has_pct)
				fprintf(fp, ",%.4f", ch->change_pct);
			else
				fputc(',', fp);
			if (both && ch->tested)
				fprintf(fp, ",%.6g,%s,%s", ch->p_value, ch->significant ? "true" : "false",
					ch->regression ? "true" : "false");
			else
				fprintf(fp, ",,,");
		}
		fputc('\n', fp);
	}
	json_decref(keys);
}

void compare_print_csv(FILE *fp, const struct comparison *c)
{
	FILE *out = termesc_open(fp);

	if (!out)
		return; /* out of memory: nothing rather than raw control characters */
	comparison_csv(out, c);
	fclose(out);
}

/* ---- JSON ---- */

static json_t *row_json(const struct comparison *c, const struct compare_row *r)
{
	json_t *values = json_array(), *changes = json_array();
	json_t *row =
		json_pack("{s:s, s:O?, s:I, s:s, s:s, s:s, s:o, s:o}", "job", r->job, "point",
			  (json_t *)r->point, "occurrence", (json_int_t)r->occurrence, "op", r->op, "metric",
			  r->metric->name, "unit", r->metric->unit, "values", values, "changes", changes);

	if (!row)
		return NULL;
	for (size_t f = 0; f < c->nfiles; f++) {
		const struct summary *s = &r->values[f];
		char label[2] = { (char)('A' + f), 0 };

		json_array_append_new(values,
				      s->n ? json_pack("{s:s, s:I, s:f, s:f, s:f}", "file", label, "runs",
						       (json_int_t)s->n, "mean", s->mean, "ci95", s->ci95,
						       "stddev", s->stddev)
					   : json_pack("{s:s, s:I, s:n, s:n, s:n}", "file", label, "runs",
						       (json_int_t)0, "mean", "ci95", "stddev"));
	}
	for (size_t f = 1; f < c->nfiles; f++) {
		const struct compare_change *ch = &r->changes[f];
		bool both = r->values[0].n && r->values[f].n;
		char label[2] = { (char)('A' + f), 0 };
		json_t *change = json_pack("{s:s, s:s, s:s}", "file", label, "against", "A", "verdict",
					   compare_verdict(r, f));

		if (!change)
			continue;
		json_object_set_new(change, "change_pct",
				    both && ch->has_pct ? json_real(ch->change_pct) : json_null());
		json_object_set_new(change, "p_value",
				    both && ch->tested ? json_real(ch->p_value) : json_null());
		json_object_set_new(change, "significant", json_boolean(both && ch->significant));
		json_object_set_new(change, "regression", json_boolean(both && ch->regression));
		json_array_append_new(changes, change);
	}
	return row;
}

json_t *compare_json(const struct comparison *c)
{
	json_t *files = json_array(), *diffs = json_array(), *rows = json_array(), *warnings = json_array();
	json_t *doc = json_pack("{s:f, s:o, s:{s:b, s:o}, s:o, s:o}", "alpha", c->alpha, "files", files,
				"environment", "identical", c->ndiffs == 0, "differences", diffs, "warnings",
				warnings, "rows", rows);
	size_t tested = 0, significant = 0, regressions = 0;

	if (!doc)
		return NULL;
	for (size_t f = 0; f < c->nfiles; f++) {
		char label[2] = { (char)('A' + f), 0 };

		json_array_append_new(files, json_pack("{s:s, s:s}", "label", label, "path", c->names[f]));
	}
	for (size_t i = 0; i < c->ndiffs; i++) {
		const struct compare_diff *d = &c->diffs[i];

		json_array_append_new(diffs, json_pack("{s:s, s:s?, s:O}", "field", d->field, "jobs", d->jobs,
						       "values", d->values));
	}
	for (size_t i = 0; i < c->nwarnings; i++)
		json_array_append_new(warnings, json_string(c->warnings[i]));
	for (size_t i = 0; i < c->nrows; i++) {
		json_array_append_new(rows, row_json(c, &c->rows[i]));
		for (size_t f = 1; f < c->nfiles; f++) {
			tested += c->rows[i].changes[f].tested;
			significant += c->rows[i].changes[f].significant;
			regressions += c->rows[i].changes[f].regression;
		}
	}
	json_object_set_new(doc, "tested", json_integer((json_int_t)tested));
	json_object_set_new(doc, "significant", json_integer((json_int_t)significant));
	json_object_set_new(doc, "regressions", json_integer((json_int_t)regressions));
	return doc;
}
