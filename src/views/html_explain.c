/*
 * The HTML page's "why it changed" (issue 30): for a page of several
 * results, each job's counters that changed significantly against the
 * first file (analysis/explain.h), as a small table under the
 * side-by-side figures, and beside it each of them drawn as a small chart
 * of the two files' figures (small multiples: one scale per chart, the
 * same shape for every counter, so the eye compares the bars); for a
 * sweep, the counters that move with its swept key. The same figures as
 * `dbio compare` and `dbio sweep` print.
 */
#include <math.h>
#include <stdlib.h>

#include "analysis/explain.h"
#include "views/views_int.h"

/* A figure in few characters, as the text says it. */
static void cell(FILE *fp, double v)
{
	if (v == 0)
		fputs("<td>0</td>", fp);
	else if (fabs(v) >= 1e6 || fabs(v) < 1e-3)
		fprintf(fp, "<td>%.2g</td>", v);
	else
		fprintf(fp, "<td>%.3g</td>", v);
}

static void name_cell(FILE *fp, const struct counter *k, const char *per)
{
	fputs("<td>", fp);
	html_escape(fp, k->label);
	if (k->norm == COUNTER_PER_OP) {
		fputs(" per ", fp);
		html_escape(fp, per[0] ? per : "op");
	} else {
		fputs(" (% of time)", fp);
	}
	fputs("</td>", fp);
}

/* "device flushes per write", "io pressure (some) % of time": as the
 * text of `dbio compare` names it. */
static void caption(FILE *fp, const struct counter *k, const char *per)
{
	html_escape(fp, k->label);
	if (k->norm == COUNTER_PER_OP) {
		fputs(" per ", fp);
		html_escape(fp, per[0] ? per : "op");
	} else {
		fputs(" % of time", fp);
	}
}

/* One bar of a small multiple: its letter under it, its figure over it. */
static void bar(FILE *fp, int x, double v, double top, char letter, const char *cls)
{
	const double h = top > 0 ? v / top * 50 : 0;
	char fig[32];

	if (v == 0)
		snprintf(fig, sizeof(fig), "0");
	else
		snprintf(fig, sizeof(fig), fabs(v) >= 1e6 || fabs(v) < 1e-3 ? "%.2g" : "%.3g", v);
	fprintf(fp,
		"<rect class=\"%s\" x=\"%d\" y=\"%.1f\" width=\"50\" height=\"%.1f\"/>"
		"<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\">%s</text>"
		"<text x=\"%d\" y=\"80\" text-anchor=\"middle\">%c</text>",
		cls, x, 66 - h, h, x + 25, 62 - h, fig, x + 25, letter);
}

/* A counter that changed as a small chart: the first file's figure and
 * the other's, bars on one scale from 0. */
static void multiple(FILE *fp, const struct explain_item *it, const struct explain_job *j)
{
	const double top = it->base > it->other ? it->base : it->other;

	fprintf(fp, "<figure class=\"multiple\" data-counter=\"%s\"><figcaption>", it->counter->name);
	caption(fp, it->counter, j->per);
	fputs("</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 170 84\" role=\"img\"><title>",
	      fp);
	caption(fp, it->counter, j->per);
	fputs("</title><line x1=\"10\" y1=\"66.5\" x2=\"160\" y2=\"66.5\" stroke=\"#888\"/>", fp);
	bar(fp, 20, it->base, top, 'A', "a");
	bar(fp, 100, it->other, top, (char)('A' + j->file), "b");
	fputs("</svg></figure>\n", fp);
}

static void job_table(FILE *fp, const struct explain_job *j, const char *const *labels)
{
	fputs("<h4>", fp);
	html_escape(fp, labels[j->file]);
	fputs(" vs ", fp);
	html_escape(fp, labels[0]);
	fputs(", job ", fp);
	html_escape(fp, j->label);
	if (j->head && j->head->changes[j->file].has_pct)
		fprintf(fp, ": %+.1f %% %s %s%s", j->head->changes[j->file].change_pct, j->head->op,
			j->head->metric->label, j->head->changes[j->file].significant ? " *" : "");
	fputs("</h4>\n", fp);
	if (!j->tested || !j->nitems) {
		fprintf(fp, "<p>%s</p>\n",
			!j->tested ? "No counter tested: each side needs 2 complete runs or more."
				   : "No counter changed significantly.");
		return;
	}
	fputs("<div class=\"why\"><table><tr><th>counter</th><th>A</th><th>other</th><th>ratio</th></tr>\n",
	      fp);
	for (size_t k = 0; k < j->nitems && k < 6; k++) {
		const struct explain_item *it = &j->items[k];

		fputs("<tr>", fp);
		name_cell(fp, it->counter, j->per);
		cell(fp, it->base);
		cell(fp, it->other);
		if (it->base == 0)
			fputs("<td>from 0</td>", fp);
		else
			fprintf(fp, "<td>%.3g×</td>", it->ratio);
		fputs("</tr>\n", fp);
	}
	fputs("</table>\n<div class=\"multiples\">\n", fp);
	for (size_t k = 0; k < j->nitems && k < 6; k++)
		multiple(fp, &j->items[k], j);
	fputs("</div></div>\n", fp);
}

/* The section for results[0..n) labelled labels[]. */
static void explain_of(FILE *fp, const json_t *const *results, const char *const *labels, size_t n)
{
	const struct metric *ms[COMPARE_MAX_METRICS];
	struct comparison c = { 0 };
	struct explanation x = { 0 };
	struct dbio_err err = { 0 };
	size_t nms = metric_defaults(results, n, ms, COMPARE_MAX_METRICS);

	if (n >= 2 && !compare_build(&c, results, labels, n, ms, nms, 0.05, NULL, &err) &&
	    !explain_build(&x, &c, results) && x.njobs) {
		fputs("<h3>Why it changed</h3>\n<p>The kernel's counters whose figure differs from the first "
		      "file's by Welch's test over the repeats (p &lt; 0.05), by effect size "
		      "(<code>dbio help counters</code>).</p>\n",
		      fp);
		for (size_t i = 0; i < x.njobs; i++)
			job_table(fp, &x.jobs[i], labels);
	}
	explain_release(&x);
	compare_release(&c);
}

void html_explain(FILE *fp, const struct html_report *r)
{
	const json_t *results[COMPARE_MAX_FILES] = { 0 };
	const char *labels[COMPARE_MAX_FILES] = { 0 };
	size_t n = r->n < COMPARE_MAX_FILES ? r->n : COMPARE_MAX_FILES;

	for (size_t f = 0; f < n; f++) {
		results[f] = r->in[f].result;
		labels[f] = r->in[f].label;
	}
	explain_of(fp, results, labels, n);
}

void html_explain_matrix(FILE *fp, const json_t *result)
{
	json_t *views[COMPARE_MAX_FILES] = { 0 };
	const char *names[COMPARE_MAX_FILES] = { 0 };
	int n = compare_split_matrix(result, views, names, COMPARE_MAX_FILES);

	if (n >= 2)
		explain_of(fp, (const json_t *const *)views, names, (size_t)n);
	for (int v = 0; v < n; v++)
		json_decref(views[v]);
}

/* A counter that moves with a sweep's key as a small chart: its figure at
 * each point, in point order, on the chart's own scale from 0. */
static void sweep_multiple(FILE *fp, const json_t *result, const struct explain_trend *t)
{
	const size_t max = json_array_size(json_object_get(result, "jobs"));
	double *y = calloc(max + 1, sizeof(*y)), top = 0;
	size_t n = y ? explain_sweep_figures(result, t->counter, y, max) : 0;

	for (size_t i = 0; i < n; i++)
		top = y[i] > top ? y[i] : top;
	fprintf(fp, "<figure class=\"multiple\" data-counter=\"%s\"><figcaption>", t->counter->name);
	caption(fp, t->counter, "op");
	fputs("</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 170 84\" role=\"img\"><title>",
	      fp);
	caption(fp, t->counter, "op");
	fputs("</title><line x1=\"10\" y1=\"66.5\" x2=\"160\" y2=\"66.5\" stroke=\"#888\"/><polyline class=\"p\" points=\"",
	      fp);
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "%s%.1f,%.1f", i ? " " : "",
			n > 1 ? 15 + 140.0 * (double)i / (double)(n - 1) : 85.0,
			top > 0 ? 66 - y[i] / top * 50 : 66.0);
	fprintf(fp,
		"\"/><text x=\"15\" y=\"80\">point 1</text><text x=\"155\" y=\"80\" text-anchor=\"end\">%zu</text>"
		"<text x=\"15\" y=\"12\">max %.3g</text></svg></figure>\n",
		n, top);
	free(y);
}

void html_sweep_trends(FILE *fp, const json_t *result)
{
	struct explain_trend t[6];
	size_t n = explain_sweep(result, 0.9, t, 6);

	if (!n)
		return;
	fputs("<p>Counters that move with the swept key (Spearman's rho over the points):</p>\n"
	      "<div class=\"why\"><table><tr><th>counter</th><th>rho</th></tr>\n",
	      fp);
	for (size_t i = 0; i < n; i++) {
		fputs("<tr>", fp);
		name_cell(fp, t[i].counter, "op");
		fprintf(fp, "<td>%+.2f</td></tr>\n", t[i].rho);
	}
	fputs("</table>\n<div class=\"multiples\">\n", fp);
	for (size_t i = 0; i < n; i++)
		sweep_multiple(fp, result, &t[i]);
	fputs("</div></div>\n", fp);
}
