/*
 * Reading the registry's metrics from result trees, and writing the
 * statistics across repeats back into them; see metric.h. Every view that
 * shows a metric of a job reads it through these, so a table, a plot and
 * a comparison of the same file agree.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/counter.h"
#include "analysis/metric.h"
#include "analysis/tree.h"
#include "util/list.h"
#include "result/result.h"
#include "stats/opstats.h"

/* The entry of run's phases named name, or NULL. */
static const json_t *run_phase(const json_t *run, const char *name)
{
	const json_t *ph;
	size_t i;

	json_array_foreach (json_object_get(run, "phases"), i, ph)
		if (!strcmp(tree_str(ph, "name"), name))
			return ph;
	return NULL;
}

/* The phase op names, or NULL when op names none. */
static const char *phase_of(const char *op)
{
	const size_t n = strlen(METRIC_PHASE_PREFIX);

	return op && !strncmp(op, METRIC_PHASE_PREFIX, n) ? op + n : NULL;
}

bool metric_op_listed(const char *list, const char *op)
{
	const char *phase = phase_of(op);

	return !list || list_has(list, op) || (phase && list_has(list, phase));
}

bool metric_phase_row(const json_t *job, const char *list, const char *op)
{
	return metric_op_listed(list, op) && (metric_job_phase(job, 1) || (list && list_has(list, op)));
}

/* Where a run holds m: its ops.<op>, its phase when op names one (a phase
 * holds the per-run figures of its own span), else the run itself. */
static const json_t *run_base(const struct metric *m, const json_t *run, const char *op)
{
	if (metric_per_op(m))
		return json_object_get(json_object_get(run, "ops"), op);
	return phase_of(op) ? run_phase(run, phase_of(op)) : run;
}

bool metric_phase_done(const json_t *job, const char *phase)
{
	const json_t *run;
	size_t i;

	json_array_foreach (json_object_get(job, "runs"), i, run)
		if (run_phase(run, phase))
			return true;
	return false;
}

bool metric_run_value(const struct metric *m, const json_t *run, const char *op, double *value)
{
	const json_t *v = tree_get(run_base(m, run, op), m->run_path), *ph;
	bool found = false;
	size_t i;

	*value = json_is_number(v) ? json_number_value(v) * m->scale : 0;
	if (!m->sum_phases || phase_of(op))
		return json_is_number(v);
	/* a figure phases hold alone (the server's CPU): the run's is their sum */
	json_array_foreach (json_object_get(run, "phases"), i, ph)
		if (json_is_number(v = tree_get(ph, m->run_path))) {
			*value += json_number_value(v) * m->scale;
			found = true;
		}
	return found;
}

size_t metric_run_values(const struct metric *m, const json_t *job, const char *op, double *x)
{
	const json_t *runs = json_object_get(job, "runs"), *run;
	size_t n = 0, i;

	json_array_foreach (runs, i, run)
		if (!json_is_true(json_object_get(run, "partial")) && metric_run_value(m, run, op, &x[n]))
			n++;
	return n;
}

bool metric_job_hist(const json_t *job, const char *op, struct hist *h, struct hist *tmp)
{
	size_t r;
	json_t *run;

	json_array_foreach (json_object_get(job, "runs"), r, run) {
		const json_t *o = json_object_get(json_object_get(run, "ops"), op);

		if (o && tree_num(o, "count") > 0 && !result_hist_load(o, tmp))
			hist_merge(h, tmp);
	}
	return h->count > 0;
}

bool metric_op_done(const json_t *job, const char *op, bool need_bytes)
{
	const json_t *runs = json_object_get(job, "runs"), *run;
	size_t i;

	json_array_foreach (runs, i, run) {
		const json_t *o = json_object_get(json_object_get(run, "ops"), op);

		if (tree_num(o, need_bytes ? "bytes" : "count") > 0)
			return true;
	}
	return false;
}

bool metric_summary(const struct metric *m, const json_t *job, const char *op, struct summary *s)
{
	const json_t *sum = json_object_get(job, "summary"), *st;

	*s = (struct summary){ 0 };
	if (!m->summary_key)
		return false;
	if (metric_per_op(m))
		sum = json_object_get(json_object_get(sum, "ops"), op);
	st = json_object_get(sum, m->summary_key);
	if (!json_is_object(st))
		return false;
	*s = (struct summary){
		.n = (size_t)tree_num(st, "n"),
		.mean = tree_num(st, "mean") * m->scale,
		.stddev = tree_num(st, "stddev") * m->scale,
		.min = tree_num(st, "min") * m->scale,
		.max = tree_num(st, "max") * m->scale,
		.ci95 = tree_num(st, "ci95") * m->scale,
		.cv = tree_num(st, "cv"),
	};
	return true;
}

bool metric_figure(const struct metric *m, const json_t *job, const char *op, double *mean, double *ci95)
{
	const json_t *runs = json_object_get(job, "runs");
	size_t nruns = json_array_size(runs);
	struct summary s;

	const bool phase = !metric_per_op(m) && phase_of(op);

	*mean = *ci95 = 0;
	if (!nruns || (metric_per_op(m) && !metric_op_done(job, op, false)) ||
	    (phase && !metric_phase_done(job, phase_of(op))))
		return false;
	if (nruns > 1 && m->summary_key && !phase && json_object_get(job, "summary")) {
		metric_summary(m, job, op, &s);
		*mean = s.mean;
		*ci95 = s.ci95;
		return true;
	}
	if (nruns > 1) {
		/* Not in the summary (a phase's figures, the series' worst
		 * intervals): the same statistics, from the runs. */
		double *x = calloc(nruns, sizeof(*x));
		size_t n = 0;

		if (x) {
			summary_of(x, n = metric_run_values(m, job, op, x), &s);
			*mean = s.mean;
			*ci95 = s.ci95;
		}
		free(x);
		return n > 0;
	}
	return metric_run_value(m, json_array_get(runs, nruns - 1), op, mean);
}

/* The statistics of the number at path under every complete run. */
static json_t *summarize_path(const json_t *runs, const char *path)
{
	size_t n = json_array_size(runs), used = 0, i;
	double *x = calloc(n ? n : 1, sizeof(*x));
	const json_t *run;
	struct summary s;

	if (!x)
		return NULL;
	json_array_foreach (runs, i, run) {
		const json_t *v = tree_get(run, path);

		if (!json_is_true(json_object_get(run, "partial")) && json_is_number(v))
			x[used++] = json_number_value(v);
	}
	summary_of(x, used, &s);
	free(x);
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f}", "n", (json_int_t)s.n, "mean", s.mean,
			 "stddev", s.stddev, "min", s.min, "max", s.max, "ci95", s.ci95, "cv", s.cv);
}

/* summary.ops.<op> for every op type some run did (partial runs count). */
static json_t *summarize_ops(const json_t *runs)
{
	json_t *ops = json_object();

	for (int t = 0; ops && t < OP_NTYPES; t++) {
		const char *name = op_type_name((enum op_type)t);
		const json_t *run;
		json_t *op;
		bool any = false;
		size_t i;

		json_array_foreach (runs, i, run) {
			const json_t *o = json_object_get(json_object_get(run, "ops"), name);

			any |= json_integer_value(json_object_get(o, "count")) > 0;
		}
		if (!any || !(op = json_object()))
			continue;
		for (size_t k = 0; k < metric_count; k++) {
			const struct metric *m = &metric_registry[k];
			char path[128];

			if (!metric_per_op(m) || !m->summary_key)
				continue;
			snprintf(path, sizeof(path), "ops.%s.%s", name, m->run_path);
			json_object_set_new(op, m->summary_key, summarize_path(runs, path));
		}
		json_object_set_new(ops, name, op);
	}
	return ops;
}

void metric_summarize(json_t *result, size_t index)
{
	json_t *job = json_array_get(json_object_get(result, "jobs"), index);
	const json_t *runs = json_object_get(job, "runs"), *run;
	json_t *summary = json_object(), *ops;
	size_t complete = 0, i;

	if (!job || !summary) {
		json_decref(summary);
		return;
	}
	json_array_foreach (runs, i, run)
		complete += !json_is_true(json_object_get(run, "partial"));
	json_object_set_new(summary, "runs", json_integer((json_int_t)complete));
	for (size_t k = 0; k < metric_count; k++) {
		const struct metric *m = &metric_registry[k];

		if (!metric_per_op(m) && m->summary_key)
			json_object_set_new(summary, m->summary_key, summarize_path(runs, m->run_path));
	}
	if (!(ops = summarize_ops(runs))) {
		json_decref(summary);
		return;
	}
	json_object_set_new(summary, "ops", ops);
	result_settle(summary);
	json_object_set_new(job, "summary", summary);
	counter_annotate(job);
}

size_t metric_target_figure(const json_t *job, size_t t, const char *op, double *mean, double *ci95)
{
	const json_t *runs = json_object_get(job, "runs"), *run;
	double *x = calloc(json_array_size(runs) + 1, sizeof(*x));
	bool moved = false;
	struct summary s;
	size_t n = 0, r;

	*mean = *ci95 = 0;
	if (!x)
		return 0;
	json_array_foreach (runs, r, run) {
		const json_t *o = json_object_get(json_array_get(json_object_get(run, "targets"), t), op);

		if (!o || json_is_true(json_object_get(run, "partial")))
			continue;
		moved |= tree_num(o, "bytes") > 0;
		x[n++] = tree_num(o, "bw_bytes") / 1048576.0;
	}
	if (moved) {
		summary_of(x, n, &s);
		*mean = s.mean;
		*ci95 = s.ci95;
	}
	free(x);
	return moved ? n : 0;
}

const char *metric_target_directory(const json_t *job, size_t t)
{
	const json_t *run;
	size_t r;

	json_array_foreach (json_object_get(job, "runs"), r, run) {
		const json_t *target = json_array_get(json_object_get(run, "targets"), t);

		if (target)
			return tree_str(target, "directory");
	}
	return NULL;
}

size_t metric_figure_runs(const struct metric *m, const json_t *job, const char *op)
{
	const size_t nruns = json_array_size(json_object_get(job, "runs"));
	double *x;
	size_t n;

	if (nruns < 2)
		return nruns;
	x = calloc(nruns, sizeof(*x));
	n = x ? metric_run_values(m, job, op, x) : 0;
	free(x);
	return n;
}
