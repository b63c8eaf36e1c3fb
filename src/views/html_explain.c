/*
 * The HTML page's "why it changed" (issue 30): for a page of several
 * results, each job's counters that changed significantly against the
 * first file (analysis/explain.h), as a small table under the
 * side-by-side figures; for a sweep, the counters that move with its
 * swept key. The same figures as `dbio compare` and `dbio sweep` print.
 */
#include <math.h>

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
	fputs("<table><tr><th>counter</th><th>A</th><th>other</th><th>ratio</th></tr>\n", fp);
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
	fputs("</table>\n", fp);
}

void html_explain(FILE *fp, const struct html_report *r)
{
	const json_t *results[COMPARE_MAX_FILES] = { 0 };
	const char *labels[COMPARE_MAX_FILES] = { 0 };
	const struct metric *ms[COMPARE_MAX_METRICS];
	struct comparison c = { 0 };
	struct explanation x = { 0 };
	struct dbio_err err = { 0 };
	size_t n = r->n < COMPARE_MAX_FILES ? r->n : COMPARE_MAX_FILES, nms;

	for (size_t f = 0; f < n; f++) {
		results[f] = r->in[f].result;
		labels[f] = r->in[f].label;
	}
	nms = metric_defaults(results, n, ms, COMPARE_MAX_METRICS);
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

void html_sweep_trends(FILE *fp, const json_t *result)
{
	struct explain_trend t[6];
	size_t n = explain_sweep(result, 0.9, t, 6);

	if (!n)
		return;
	fputs("<p>Counters that move with the swept key (Spearman's rho over the points):</p>\n"
	      "<table><tr><th>counter</th><th>rho</th></tr>\n",
	      fp);
	for (size_t i = 0; i < n; i++) {
		fputs("<tr>", fp);
		name_cell(fp, t[i].counter, "op");
		fprintf(fp, "<td>%+.2f</td></tr>\n", t[i].rho);
	}
	fputs("</table>\n", fp);
}
