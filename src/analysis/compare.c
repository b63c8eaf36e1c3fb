/*
 * The comparison of result files; see compare.h. Pure computation on
 * result trees: alignment (match.c), per-run values of each metric
 * (figure.c), Welch's test, and the environment differences (envdiff.c).
 * views/comparison.c prints it.
 */
#include "analysis/compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_int.h"
#include "analysis/match.h"
#include "analysis/tree.h"
#include "stats/opstats.h"
#include "util/list.h"

void compare_change_of(const struct summary *base, const struct summary *other, enum metric_better better,
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
	c->regression = c->significant && ((better == METRIC_BETTER_HIGHER && diff < 0) ||
					   (better == METRIC_BETTER_LOWER && diff > 0));
}

enum compare_side compare_side_of(const struct metric *m, double v0, double c0, double v, double ci,
				  double *pct)
{
	*pct = 0;
	if (v0 == 0)
		return COMPARE_SIDE_NONE;
	*pct = (v - v0) / v0 * 100;
	if (*pct == 0 || m->better == METRIC_BETTER_NONE || (fabs(v - v0) <= c0 + ci && (c0 > 0 || ci > 0)))
		return COMPARE_SIDE_NOISE;
	return (*pct > 0) == (m->better == METRIC_BETTER_HIGHER) ? COMPARE_SIDE_BETTER : COMPARE_SIDE_WORSE;
}

/* A side whose mean the text shows as zero (user 0.00 s at the metric's
 * 2 decimals): a percentage of it is noise, never a headline. Latencies
 * (ns) are printed to 3 significant digits and have no such floor. */
static void under_resolution(const struct metric *m, const struct summary *a, const struct summary *b,
			     struct compare_change *ch)
{
	const double half = 0.5 * pow(10, -m->decimals);

	if (metric_in_ns(m) || !a->n || !b->n || (fabs(a->mean) >= half && fabs(b->mean) >= half))
		return;
	ch->under_resolution = true;
	ch->has_pct = false;
	ch->change_pct = 0;
	ch->significant = ch->regression = false;
}

/* ---- rows ---- */

static int add_row(struct comparison *c, const struct match_entry *const *ents, const char *op,
		   const struct metric *m, size_t *cap)
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
		.metric = m,
	};
	snprintf(r->op, sizeof(r->op), "%s", op);
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
		summary_of(x, metric_run_values(m, ents[f]->job, op, x), &r->values[f]);
	free(x);
	for (size_t f = 1; f < c->nfiles; f++) {
		compare_change_of(&r->values[0], &r->values[f], m->better, c->alpha, &r->changes[f]);
		under_resolution(m, &r->values[0], &r->values[f], &r->changes[f]);
	}
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

static int add_rows(struct comparison *c, const struct match_entry *const *ents,
		    const struct metric *const *ms, size_t nms, size_t *cap)
{
	int rc = 0;

	/* Rows in op_type_name's order (the file ops, then the database
	 * workloads'), only for op types some file did. */
	for (size_t o = 0; o < OP_NTYPES && !rc; o++) {
		bool active = false, bytes = false;

		if (c->ops && !list_has(c->ops, op_type_name((enum op_type)o)))
			continue;
		for (size_t f = 0; f < c->nfiles; f++) {
			active |= metric_op_done(ents[f]->job, op_type_name((enum op_type)o), false);
			bytes |= metric_op_done(ents[f]->job, op_type_name((enum op_type)o), true);
		}
		if (!active)
			continue;
		for (size_t m = 0; m < nms && !rc; m++)
			if (metric_per_op(ms[m]) && (bytes || ms[m]->scope != METRIC_PER_OP_BYTES))
				rc = add_row(c, ents, op_type_name((enum op_type)o), ms[m], cap);
	}
	for (size_t m = 0; m < nms && !rc; m++)
		if (!metric_per_op(ms[m]))
			rc = add_row(c, ents, "all", ms[m], cap);
	/* Then each phase of the first file's job (import's schema, load,
	 * index), its per-run figures as rows of their own. */
	for (size_t k = 0; !rc && metric_job_phase(ents[0]->job, k); k++) {
		const char *phase = metric_job_phase(ents[0]->job, k);
		char op[COMPARE_OP_MAX];

		snprintf(op, sizeof(op), "%s%s", METRIC_PHASE_PREFIX, phase);
		if (!metric_phase_row(ents[0]->job, c->ops, op))
			continue;
		for (size_t m = 0; m < nms && !rc; m++)
			if (!metric_per_op(ms[m]))
				rc = add_row(c, ents, op, ms[m], cap);
	}
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
static int warn_left_out(struct comparison *c, const struct match_file *fj)
{
	for (size_t f = 0; f < c->nfiles; f++)
		for (size_t i = 0; i < fj[f].n; i++) {
			const struct match_entry *e = &fj[f].entries[i];
			char label[512], *in = NULL, *out = NULL, *text = NULL;
			bool earlier = false;
			int rc = 0;

			for (size_t g = 0; g < f; g++)
				earlier |= match_file_find(&fj[g], e->key) != NULL;
			if (earlier)
				continue;
			for (size_t g = 0; g < c->nfiles && !rc; g++) {
				char **list = match_file_find(&fj[g], e->key) ? &in : &out;

				rc = analysis_append(list, "%s%s", *list ? ", " : "", c->names[g]);
			}
			if (!rc && out) {
				match_quoted(e->job, e->occurrence, label, sizeof(label));
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
static int no_common(struct comparison *c, const struct match_file *fj, struct dbio_err *err)
{
	char *msg = NULL, label[512];
	int rc = 0;

	for (size_t f = 0; f < c->nfiles && !rc; f++) {
		rc = analysis_append(&msg, "%s%s has ", f ? "; " : "", c->names[f]);
		for (size_t i = 0; i < fj[f].n && i < 8 && !rc; i++) {
			match_quoted(fj[f].entries[i].job, fj[f].entries[i].occurrence, label, sizeof(label));
			rc = analysis_append(&msg, "%s%s", i ? ", " : "", label);
		}
		if (!rc && fj[f].n > 8)
			rc = analysis_append(&msg, " and %zu more", fj[f].n - 8);
		if (!rc && !fj[f].n)
			rc = analysis_append(&msg, "no jobs");
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
		  const struct metric *const *ms, size_t nms, double alpha, const char *ops,
		  struct dbio_err *err)
{
	struct match_file fj[COMPARE_MAX_FILES] = { 0 };
	const struct match_entry *ents[COMPARE_MAX_FILES];
	const json_t *jobs[COMPARE_MAX_FILES];
	size_t cap = 0, ncommon = 0;
	int rc = 0;

	*c = (struct comparison){ .nfiles = n, .names = names, .alpha = alpha, .ops = ops };
	if (n < 2 || n > COMPARE_MAX_FILES)
		return dbio_err_set(err, DBIO_EINPUT, "compare: expected 2 to %d result files, got %zu",
				    COMPARE_MAX_FILES, n);
	for (size_t f = 0; f < n && !rc; f++) {
		rc = match_file_init(&fj[f], results[f]);
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
		rc = compare_env_system(c, results);
	for (size_t i = 0; i < fj[0].n && !rc; i++) {
		ents[0] = &fj[0].entries[i];
		for (size_t f = 1; f < n && ents[f - 1]; f++)
			ents[f] = match_file_find(&fj[f], ents[0]->key);
		if (!ents[n - 1])
			continue;
		ncommon++;
		for (size_t f = 0; f < n; f++)
			jobs[f] = ents[f]->job;
		rc = compare_env_job(c, jobs);
		if (!rc)
			rc = add_rows(c, ents, ms, nms, &cap);
	}
	if (!rc && !ncommon)
		rc = no_common(c, fj, err);
	else if (rc)
		dbio_err_set(err, rc, "compare: out of memory");
	else if (ops && !has_op_rows(c))
		rc = dbio_err_set(
			err, DBIO_EINPUT,
			"compare: --op %s: no job in these files did any of these op types or went through such a phase",
			ops);
	for (size_t f = 0; f < n; f++)
		match_file_release(&fj[f]);
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

/* ---- a matrix result as files ---- */

int compare_split_matrix(const json_t *result, json_t **views, const char **names, size_t max)
{
	const json_t *configs = json_object_get(json_object_get(result, "matrix"), "configs");
	const json_t *jobs = json_object_get(result, "jobs"), *job;
	size_t n = 0, i;

	for (size_t c = 0; c < json_array_size(configs) && n < max; c++) {
		json_t *view = json_copy((json_t *)result), *mine = json_array();

		if (!view || !mine || json_object_set_new(view, "jobs", mine)) {
			json_decref(view);
			goto out_nomem;
		}
		json_array_foreach (jobs, i, job) {
			const json_t *cfg = json_object_get(job, "config");
			json_t *copy;

			if (json_integer_value(json_object_get(cfg, "index")) != (json_int_t)c)
				continue;
			if (!(copy = json_copy((json_t *)job)) || json_array_append_new(mine, copy)) {
				json_decref(view);
				goto out_nomem;
			}
			/* The point tells the configurations apart: without it
			 * their jobs align. */
			json_object_del(copy, "point");
		}
		if (!json_array_size(mine)) { /* not run: stopped before it */
			json_decref(view);
			continue;
		}
		views[n] = view;
		names[n++] = tree_str(json_array_get(configs, c), "label");
	}
	return (int)n;
out_nomem:
	for (size_t v = 0; v < n; v++)
		json_decref(views[v]);
	return -ENOMEM;
}

/* ---- for the views ---- */

void compare_row_label(const struct compare_row *r, char *buf, size_t len)
{
	json_t *job = json_pack("{s:s}", "name", r->job);

	if (job && r->point)
		json_object_set(job, "point", (json_t *)r->point);
	if (job)
		match_quoted(job, r->occurrence, buf, len);
	else
		snprintf(buf, len, "'%s'", r->job);
	json_decref(job);
}

const char *compare_verdict(const struct compare_row *r, size_t f)
{
	const struct compare_change *ch = &r->changes[f];

	if (!r->values[0].n || !r->values[f].n)
		return "n/a (no run holds it)";
	if (ch->under_resolution)
		return "n/a (under the resolution)";
	if (!ch->tested)
		return "n/a (no repeats)";
	if (!ch->significant)
		return "within noise";
	if (ch->regression)
		return "significant, regression";
	if (r->metric->better == METRIC_BETTER_NONE || r->values[f].mean == r->values[0].mean)
		return "significant";
	return "significant, improvement";
}
