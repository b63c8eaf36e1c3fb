/* Why a comparison changed; see explain.h. */
#include "analysis/explain.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/match.h"
#include "analysis/tree.h"
#include "stats/summary.h"

/* The per-run figures of counter k over the complete runs of job into x
 * (room for every run); how many. */
static size_t run_figures(const struct counter *k, const json_t *job, double *x)
{
	const json_t *runs = json_object_get(job, "runs"), *run;
	size_t i, n = 0;

	json_array_foreach (runs, i, run)
		if (!json_is_true(json_object_get(run, "partial")) && counter_value(k, run, &x[n]))
			n++;
	return n;
}

/* Counter k's resolution over the complete runs of job (the largest of
 * its runs' steps): a mean under it is not told from it. */
static double run_step(const struct counter *k, const json_t *job)
{
	const json_t *runs = json_object_get(job, "runs"), *run;
	double step = 0, s;
	size_t i;

	json_array_foreach (runs, i, run)
		if (!json_is_true(json_object_get(run, "partial")) && counter_step(k, run, &s) && s > step)
			step = s;
	return step;
}

/* See explain.h: the smallest |log ratio| the repeats leave likely. */
static double effect_of(const struct summary *a, const struct summary *b, double ratio)
{
	double ca, cb;

	if (isinf(ratio) || ratio == 0)
		return INFINITY;
	ca = a->stddev / a->mean;
	cb = b->stddev / b->mean;
	return fabs(log(ratio)) - 1.96 * sqrt(ca * ca / (double)a->n + cb * cb / (double)b->n);
}

/* The largest effect first; of equal ones (two counters from 0), the
 * surer (smaller p) first, then registry order. */
static int by_effect(const void *a, const void *b)
{
	const struct explain_item *x = a, *y = b;
	double ex = x->effect, ey = y->effect;

	if (ex != ey)
		return ex < ey ? 1 : -1;
	if (x->p_value != y->p_value)
		return x->p_value < y->p_value ? -1 : 1;
	return x->counter < y->counter ? -1 : x->counter > y->counter;
}

/* The comparison's first row of the job whose first file's entry is e,
 * for op when it has one, else its first. */
static const struct compare_row *head_row(const struct comparison *c, const struct match_entry *e,
					  const char *op)
{
	const json_t *point = json_object_get(e->job, "point");
	const char *name = json_string_value(json_object_get(e->job, "name"));
	const struct compare_row *first = NULL;

	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *r = &c->rows[i];

		if (!name || strcmp(r->job, name) || r->point != point || r->occurrence != e->occurrence)
			continue;
		if (!strcmp(r->op, op))
			return r;
		if (!first)
			first = r;
	}
	return first;
}

/* The counters of job a (the first file's) against b. */
static int explain_pair(struct explain_job *x, const json_t *a, const json_t *b, double alpha)
{
	size_t na = json_array_size(json_object_get(a, "runs")),
	       nb = json_array_size(json_object_get(b, "runs"));
	double *xa = calloc(na + 1, sizeof(*xa)), *xb = calloc(nb + 1, sizeof(*xb));
	int rc = 0;

	x->items = calloc(counter_count, sizeof(*x->items));
	if (!xa || !xb || !x->items) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t k = 0; k < counter_count; k++) {
		struct summary sa, sb;
		struct explain_item *it = &x->items[x->nitems];

		summary_of(xa, run_figures(&counter_registry[k], a, xa), &sa);
		summary_of(xb, run_figures(&counter_registry[k], b, xb), &sb);
		if (sa.n >= 2 && sb.n >= 2)
			x->tested = true;
		/* Under its resolution a side may have done one step: the
		 * ratio is of the means at least a step each (a CPU time per
		 * write of 2.9 µs against 0 is one tick against none, not a
		 * change from 0), and two sides under it are no change. */
		const double step_a = run_step(&counter_registry[k], a),
			     step_b = run_step(&counter_registry[k], b);
		const double ma = fmax(sa.mean, step_a), mb = fmax(sb.mean, step_b);

		if (sa.n < 2 || sb.n < 2 || (sa.mean == 0 && sb.mean == 0) ||
		    (sa.mean <= step_a && sb.mean <= step_b))
			continue;
		*it = (struct explain_item){ .counter = &counter_registry[k],
					     .base = sa.mean,
					     .other = sb.mean,
					     .ratio = ma != 0 ? mb / ma : INFINITY,
					     .p_value = welch_p(&sa, &sb, NULL, NULL) };
		it->significant = it->p_value < alpha;
		it->effect = effect_of(&sa, &sb, it->ratio);
		x->nitems += it->significant;
	}
	qsort(x->items, x->nitems, sizeof(*x->items), by_effect);
out:
	free(xa);
	free(xb);
	return rc;
}

int explain_build(struct explanation *x, const struct comparison *c, const json_t *const *results)
{
	struct match_file *mf = calloc(c->nfiles, sizeof(*mf));
	int rc = mf ? 0 : -ENOMEM;

	*x = (struct explanation){ 0 };
	for (size_t f = 0; !rc && f < c->nfiles; f++)
		rc = match_file_init(&mf[f], results[f]);
	for (size_t i = 0; !rc && i < mf[0].n; i++) {
		const struct match_entry *e = &mf[0].entries[i];
		double ops;
		const char *per = counter_per_op(json_array_get(json_object_get(e->job, "runs"), 0), &ops);

		for (size_t f = 1; !rc && f < c->nfiles; f++) {
			const struct match_entry *o = match_file_find(&mf[f], e->key);
			struct explain_job *grown, *j;

			if (!o)
				continue;
			if (!(grown = realloc(x->jobs, (x->njobs + 1) * sizeof(*grown)))) {
				rc = -ENOMEM;
				break;
			}
			x->jobs = grown;
			j = &x->jobs[x->njobs++];
			*j = (struct explain_job){ .file = f, .head = head_row(c, e, per ? per : "") };
			snprintf(j->per, sizeof(j->per), "%s", per ? per : "");
			match_quoted(e->job, e->occurrence, j->label, sizeof(j->label));
			rc = explain_pair(j, e->job, o->job, c->alpha);
		}
	}
	for (size_t f = 0; mf && f < c->nfiles; f++)
		match_file_release(&mf[f]);
	free(mf);
	return rc;
}

void explain_release(struct explanation *x)
{
	for (size_t i = 0; i < x->njobs; i++)
		free(x->jobs[i].items);
	free(x->jobs);
	*x = (struct explanation){ 0 };
}

/* The rank of each y (1-based, ties their average) into r. */
static void ranks(const double *y, size_t n, double *r)
{
	for (size_t i = 0; i < n; i++) {
		size_t below = 0, equal = 0;

		for (size_t j = 0; j < n; j++) {
			below += y[j] < y[i];
			equal += y[j] == y[i];
		}
		r[i] = (double)below + ((double)equal + 1) / 2;
	}
}

double explain_spearman(const double *y, size_t n)
{
	double *r = n >= 2 ? malloc(n * sizeof(*r)) : NULL, mx = ((double)n + 1) / 2, my = mx, sxy = 0,
	       sxx = 0, syy = 0;

	if (!r)
		return 0;
	ranks(y, n, r);
	for (size_t i = 0; i < n; i++) {
		double dx = (double)(i + 1) - mx, dy = r[i] - my;

		sxy += dx * dy;
		sxx += dx * dx;
		syy += dy * dy;
	}
	free(r);
	return syy > 0 && sxx > 0 ? sxy / sqrt(sxx * syy) : 0;
}

/* Whether the figures span more than noise would: the largest at least
 * 1.25 times the smallest (or some 0 and some not). */
static bool moves(const double *y, size_t n)
{
	double lo = y[0], hi = y[0];

	for (size_t i = 1; i < n; i++) {
		lo = y[i] < lo ? y[i] : lo;
		hi = y[i] > hi ? y[i] : hi;
	}
	return lo > 0 ? hi >= 1.25 * lo : hi > lo;
}

static int by_rho(const void *a, const void *b)
{
	double ra = fabs(((const struct explain_trend *)a)->rho),
	       rb = fabs(((const struct explain_trend *)b)->rho);

	return ra < rb ? 1 : ra > rb ? -1 : 0;
}

size_t explain_sweep_figures(const json_t *result, const struct counter *c, double *y, size_t max)
{
	const json_t *jobs = json_object_get(result, "jobs"), *job;
	const char *first = tree_str(json_array_get(jobs, 0), "name");
	size_t maxruns = 0, n = 0, i;
	double *x;

	json_array_foreach (jobs, i, job)
		if (json_array_size(json_object_get(job, "runs")) > maxruns)
			maxruns = json_array_size(json_object_get(job, "runs"));
	if (!(x = calloc(maxruns + 1, sizeof(*x))))
		return 0;
	json_array_foreach (jobs, i, job) {
		struct summary s;

		if (strcmp(tree_str(job, "name"), first))
			continue; /* the first job of each point: its curve */
		summary_of(x, run_figures(c, job, x), &s);
		if (!s.n || n == max) {
			n = 0; /* a point without the counter: no curve */
			break;
		}
		y[n++] = s.mean;
	}
	free(x);
	return n;
}

size_t explain_sweep(const json_t *result, double min_rho, struct explain_trend *out, size_t max)
{
	const size_t npoints = json_array_size(json_object_get(result, "jobs"));
	double *y = calloc(npoints + 1, sizeof(*y));
	size_t n = 0;

	for (size_t k = 0; y && k < counter_count; k++) {
		struct explain_trend t = { .counter = &counter_registry[k] };

		t.points = explain_sweep_figures(result, t.counter, y, npoints);
		if (t.points < EXPLAIN_MIN_POINTS || !moves(y, t.points))
			continue; /* a point without the counter, too few points, or flat */
		t.rho = explain_spearman(y, t.points);
		if (fabs(t.rho) >= min_rho) {
			if (n < max)
				out[n++] = t;
			else if (fabs(t.rho) > fabs(out[max - 1].rho))
				out[max - 1] = t;
			qsort(out, n, sizeof(*out), by_rho);
		}
	}
	free(y);
	return n;
}
