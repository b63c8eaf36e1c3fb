/*
 * The HTML report; see html.h. This file writes the page, its head, the
 * side-by-side table and the sweep tables; html_jobs.c the environment and
 * the jobs. Every figure carries its unit; the figures of metrics are the
 * registry's (analysis/metric.h), the changes analysis/compare.h's.
 */
#include "views/html.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/match.h"
#include "analysis/tree.h"
#include "stats/opstats.h"
#include "util/list.h"
#include "util/termesc.h"
#include "util/units.h"
#include "views/views_int.h"

static bool have_plot(const struct html_report *r, enum plot_kind kind, size_t file)
{
	for (size_t i = 0; r->plots && i < r->plots->count; i++)
		if (r->plots->plots[i].kind == kind && r->plots->plots[i].file == file && r->svgs[i])
			return true;
	return false;
}

/* "throughput (ops/s)", or "p99 latency" (a latency's unit is its
 * figures'): what a row or column of metric m is called. */
static void metric_title(FILE *fp, const struct metric *m)
{
	if (metric_in_ns(m))
		fputs(m->label, fp);
	else
		fprintf(fp, "%s (%s)", m->label, m->unit);
}

/* The figure of m for op of job, v ± ci: with "±" when it is over repeats. */
static void put_figure(FILE *fp, const struct metric *m, const json_t *job, const char *op, double v,
		       double ci)
{
	html_put_value(fp, v, ci, metric_figure_runs(m, job, op) > 1, metric_in_ns(m), m->decimals);
}

/* ---- the page ------------------------------------------------------------- */

static const char css[] =
	"*{box-sizing:border-box}\n"
	"body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;color:#1a1a1a;"
	"background:#fff;margin:0 auto;max-width:1200px;padding:0 1em 2em;line-height:1.45;font-size:15px}\n"
	"h1{font-size:1.6em;margin:.8em 0 .3em}h2{font-size:1.3em;margin:1.6em 0 .4em;padding-top:.4em;"
	"border-top:2px solid #335}h3{font-size:1.1em;margin:1.3em 0 .3em}h4{font-size:1em;margin:1em 0 .2em}\n"
	".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%}\n"
	"table{border-collapse:collapse;margin:.3em 0 .8em;font-size:.9em;font-variant-numeric:tabular-nums}\n"
	"th,td{border:1px solid #c8c8d0;padding:.2em .5em;text-align:right;white-space:nowrap;vertical-align:top}\n"
	"th{background:#eef0f5;font-weight:600}.l{text-align:left}td.wrap{white-space:normal;min-width:16em}\n"
	"tr:nth-child(even) td{background:#fafafc}\n"
	"figure{margin:1em 0;max-width:900px}figure svg{display:block;width:100%;height:auto}\n"
	".warn{color:#a40000}.note{background:#fff4cc;border:1px solid #e0c060;padding:.4em .7em}\n"
	".better{color:#0a6b0a}.worse{color:#a40000}.noise{color:#777}\n"
	"code{font-size:.9em;overflow-wrap:anywhere}details{margin:.3em 0}\n"
	".env{display:flex;flex-wrap:wrap;gap:0 1.5em;align-items:flex-start}.env>div{max-width:100%}\n"
	".why{display:flex;flex-wrap:wrap;gap:0 1.5em;align-items:flex-start}\n"
	".multiples{display:flex;flex-wrap:wrap;gap:.5em 1em}figure.multiple{margin:.3em 0;width:170px}"
	"figure.multiple figcaption{font-size:.8em;line-height:1.2;min-height:2.4em}"
	".multiple .a{fill:#8090b0}.multiple .b{fill:#c06030}.multiple .p{fill:none;stroke:#c06030;stroke-width:2}.multiple text{font-size:11px}\n"
	"@media (max-width:600px){body{font-size:14px;padding:0 .5em}}\n"
	"@media print{body{max-width:none;font-size:10pt}.scroll{overflow:visible}"
	"h2{break-before:page}h2.first{break-before:auto}figure,table{break-inside:avoid}"
	"details>*{display:block}a{color:inherit;text-decoration:none}}\n";

static void header(FILE *fp, const struct html_report *r)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>dbio report: ",
	      fp);
	for (size_t f = 0; f < r->n; f++) {
		fputs(f ? ", " : "", fp);
		html_escape(fp, r->in[f].label);
	}
	fprintf(fp, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>dbio report</h1>\n", css);
	fputs("<div class=\"scroll\"><table>\n<tr>", fp);
	if (r->n > 1)
		html_th(fp, "name", true);
	html_th(fp, "result file", true);
	html_th(fp, "dbio", true);
	html_th(fp, "host", true);
	html_th(fp, "started (UTC)", true);
	html_th(fp, "jobs", false);
	html_th(fp, "command line", true);
	fputs("</tr>\n", fp);
	for (size_t f = 0; f < r->n; f++) {
		const json_t *res = r->in[f].result;

		fputs("<tr>", fp);
		if (r->n > 1) {
			char name[16];

			views_config_name(name, sizeof(name), f);
			fprintf(fp, "<td class=\"l\"><b>%s</b></td>", name);
		}
		html_td_text(fp, r->in[f].label);
		html_td_text(fp, tree_str(json_object_get(res, "tool"), "version"));
		html_td_text(fp, tree_str(json_object_get(res, "system"), "hostname"));
		html_td_text(fp, tree_str(res, "started_at"));
		fprintf(fp, "<td>%zu</td><td class=\"l wrap\"><code>",
			json_array_size(json_object_get(res, "jobs")));
		html_escape(fp, tree_str(res, "command_line"));
		fputs("</code></td></tr>\n", fp);
	}
	fputs("</table></div>\n", fp);
	for (size_t f = 0; f < r->n; f++) {
		const json_t *res = r->in[f].result;

		if (!json_is_true(json_object_get(res, "partial")))
			continue;
		fputs("<p class=\"warn\">", fp);
		html_escape(fp, r->in[f].label);
		fputs(" is PARTIAL: dbio stopped early", fp);
		if (*tree_str(res, "error")) {
			fputs(": ", fp);
			html_escape(fp, tree_str(res, "error"));
		}
		fputs("</p>\n", fp);
	}
	if (r->note) {
		fputs("<p class=\"note\">", fp);
		html_escape(fp, r->note);
		fputs("</p>\n", fp);
	}
}

/* ---- side by side ---------------------------------------------------------- */

/* A row of the side-by-side table: metric m of job and op in every file,
 * with the change against the first (analysis/compare.h). None when no
 * file has the figure: an op that moves no bytes (fsync, commit) has no
 * bandwidth, as the text tables leave it out. */
static void side_row(FILE *fp, const struct html_report *r, const struct match_rows *mr, size_t i,
		     const struct metric *m, bool first)
{
	double v0 = 0, c0 = 0, v, ci;
	bool have0 = false, any = false;

	for (size_t g = 0; g < r->n && !any; g++) {
		const json_t *job = match_rows_job(mr, i, g);

		any = job && html_figure_of(m, job, mr->rows[i].op, &v, &ci);
	}
	if (!any)
		return;
	fputs("<tr>", fp);
	html_td_text(fp, first ? mr->rows[i].label : "");
	html_td_text(fp, first ? mr->rows[i].op : "");
	fputs("<td class=\"l\">", fp);
	metric_title(fp, m);
	fputs("</td>", fp);
	for (size_t g = 0; g < r->n; g++) {
		const json_t *job = match_rows_job(mr, i, g);

		if (!job || !html_figure_of(m, job, mr->rows[i].op, &v, &ci)) {
			fputs(g ? "<td>–</td><td></td>" : "<td>–</td>", fp);
			continue;
		}
		fputs("<td>", fp);
		put_figure(fp, m, job, mr->rows[i].op, v, ci);
		fputs("</td>", fp);
		if (!g)
			v0 = v, c0 = ci, have0 = true;
		else
			html_change_cell(fp, m, have0, v0, c0, v, ci);
	}
	fputs("</tr>\n", fp);
}

static void side_by_side(FILE *fp, const struct html_report *r)
{
	const struct metric *ms[HTML_MAX_METRICS];
	const json_t **results = calloc(r->n, sizeof(*results));
	struct dbio_err err = { 0 };
	struct match_rows mr = { 0 };
	int nms = metric_parse_list("report", HTML_METRICS, ms, HTML_MAX_METRICS, &err);

	html_side_head(fp, "<h2 class=\"first\" id=\"compare\">Side by side</h2>", "A, the first result",
		       "op");
	for (size_t f = 0; f < r->n; f++) {
		char name[16], head[48];

		views_config_name(name, sizeof(name), f);
		fputs("<th title=\"", fp);
		html_escape(fp, r->in[f].label);
		fprintf(fp, "\">%s</th>", name);
		snprintf(head, sizeof(head), "%s vs A", name);
		if (f)
			html_th(fp, head, false);
	}
	fputs("</tr>\n", fp);
	/* Rows: every job and op type of any result, in order of appearance. */
	for (size_t f = 0; results && f < r->n; f++)
		results[f] = r->in[f].result;
	if (results && nms > 0 && !match_rows_init(&mr, results, r->n, metric_find("iops"), NULL, SIZE_MAX))
		for (size_t i = 0; i < mr.count; i++)
			for (int mi = 0; mi < nms; mi++)
				side_row(fp, r, &mr, i, ms[mi], mi == 0);
	match_rows_release(&mr);
	free(results);
	fputs("</table></div>\n", fp);
	html_figure(fp, r, PLOT_COMPARE, 0, 0);
	html_figure(fp, r, PLOT_SWEEP, 0, 0);
}

/* ---- sweeps --------------------------------------------------------------- */

/* The per-run metrics of the sweep table: on the first row of a point. */
#define HTML_RUN_METRICS "elapsed,user,sys,worst,worst2"

static void sweep_head(FILE *fp, const json_t *vary, const struct metric *const *ms, int nms,
		       const struct metric *const *rs, int nrs)
{
	size_t i;
	json_t *v;

	fputs("<div class=\"scroll\"><table>\n<tr>", fp);
	json_array_foreach (vary, i, v) {
		fputs("<th class=\"l\">", fp);
		html_escape(fp, tree_str(v, "key"));
		fputs("</th>", fp);
	}
	html_th(fp, "job", true);
	html_th(fp, "op", true);
	for (int mi = 0; mi < nms + nrs; mi++) {
		fputs("<th>", fp);
		metric_title(fp, mi < nms ? ms[mi] : rs[mi - nms]);
		fputs("</th>", fp);
	}
	html_th(fp, "CV of ops/s", false);
	fputs("</tr>\n", fp);
}

/* The rows of one sweep point's job: one per op type it did; the run's
 * figures on the first. */
static void sweep_rows(FILE *fp, const json_t *vary, const json_t *job, const struct metric *const *ms,
		       int nms, const struct metric *const *rs, int nrs)
{
	const struct metric *iops = metric_find("iops");
	bool first = true;
	size_t i;
	json_t *v;

	for (int t = 0; t < OP_NTYPES; t++) {
		const char *op = op_type_name((enum op_type)t);
		double val, ci;
		struct summary s;

		if (!metric_figure(iops, job, op, &val, &ci))
			continue;
		fputs("<tr>", fp);
		json_array_foreach (vary, i, v)
			html_td_text(fp, first ? tree_str(json_object_get(job, "point"), tree_str(v, "key"))
					       : "");
		html_td_text(fp, first ? tree_str(job, "name") : "");
		html_td_text(fp, op);
		for (int mi = 0; mi < nms + nrs; mi++) {
			const struct metric *m = mi < nms ? ms[mi] : rs[mi - nms];
			bool have = mi < nms ? html_figure_of(m, job, op, &val, &ci)
					     : first && metric_figure(m, job, "all", &val, &ci);

			fputs("<td>", fp);
			if (have)
				put_figure(fp, m, job, mi < nms ? op : "all", val, ci);
			else if (mi < nms)
				fputs("–", fp);
			fputs("</td>", fp);
		}
		metric_summary(iops, job, op, &s);
		if (s.n > 1)
			fprintf(fp, "<td%s>%.1f %%%s</td>", s.cv * 100 > 10 ? " class=\"warn\"" : "",
				s.cv * 100, s.cv * 100 > 10 ? " HIGH" : "");
		else
			fputs("<td>–</td>", fp);
		fputs("</tr>\n", fp);
		first = false;
	}
}

static void sweep_table(FILE *fp, const struct html_report *r, size_t f)
{
	const struct metric *ms[HTML_MAX_METRICS], *rs[HTML_MAX_METRICS];
	const json_t *result = r->in[f].result;
	const json_t *sweep = json_object_get(result, "sweep");
	const json_t *vary = json_object_get(sweep, "vary");
	struct dbio_err err = { 0 };
	int nms = metric_parse_list("report", HTML_METRICS, ms, HTML_MAX_METRICS, &err);
	int nrs = metric_parse_list("report", HTML_RUN_METRICS, rs, HTML_MAX_METRICS, &err);
	size_t j;
	json_t *job;

	if (!sweep || nms < 0 || nrs < 0)
		return;
	fprintf(fp,
		"<h3>Sweep</h3>\n<p>%.0f of %.0f points done; mean ± 95 %% CI over each point's runs. "
		"Elapsed, CPU times and the worst intervals are of the whole run, on its first row.</p>\n",
		tree_num(sweep, "completed"), tree_num(sweep, "points"));
	sweep_head(fp, vary, ms, nms, rs, nrs);
	json_array_foreach (json_object_get(result, "jobs"), j, job)
		sweep_rows(fp, vary, job, ms, nms, rs, nrs);
	fputs("</table></div>\n", fp);
	html_sweep_trends(fp, result);
	if (r->n == 1)
		html_figure(fp, r, PLOT_SWEEP, 0, 0);
}

void html_report_write(FILE *fp, const struct html_report *r)
{
	header(fp, r);
	if (r->n > 1) {
		side_by_side(fp, r);
		html_explain(fp, r);
	}
	for (size_t f = 0; f < r->n; f++) {
		fprintf(fp, "<h2%s id=\"f%zu\">", r->n == 1 ? " class=\"first\"" : "", f + 1);
		html_escape(fp, r->in[f].label);
		fputs("</h2>\n", fp);
		html_environment(fp, r->in[f].result);
		html_config_legend(fp, r->in[f].result);
		html_matrix_table(fp, r->in[f].result);
		html_figure(fp, r, PLOT_MATRIX, f, 0);
		html_explain_matrix(fp, r->in[f].result);
		sweep_table(fp, r, f);
		if (have_plot(r, PLOT_LATENCY, f))
			fputs("<h3>Latency distribution</h3>\n", fp);
		html_figure(fp, r, PLOT_LATENCY, f, 0);
		if (have_plot(r, PLOT_PHASES, f))
			fputs("<h3>Phases</h3>\n", fp);
		html_figure(fp, r, PLOT_PHASES, f, 0);
		html_jobs(fp, r, f);
	}
	fputs("<p style=\"color:#777;font-size:.8em\">Written by dbio report. Sizes in binary units "
	      "(1 MiB = 1048576 bytes); rates per second of each run's measured time.</p>\n</body>\n</html>\n",
	      fp);
}
