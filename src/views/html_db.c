/*
 * The HTML report's sections for database workloads and matrix results
 * (html.h): a job's phases (schema, load, index; insert) with their
 * elapsed time, CPU and faults, its stall probe, the configurations of a
 * matrix named A, B … with a legend giving each one's full name, and the
 * matrix's configurations side by side. Called by html.c and
 * html_jobs.c; every string from a result is escaped (html_escape).
 *
 * The phases are not metrics of the registry yet: their figures are read
 * from runs[].phases here, the one place of the page that does.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/match.h"
#include "analysis/tree.h"
#include "stats/opstats.h"
#include "stats/summary.h"
#include "views/html.h"
#include "views/views_int.h"

void views_config_name(char *buf, size_t len, size_t index)
{
	if (index < 26)
		snprintf(buf, len, "%c", (char)('A' + index));
	else if (index < 26 * 27)
		snprintf(buf, len, "%c%c", (char)('A' + index / 26 - 1), (char)('A' + index % 26));
	else
		snprintf(buf, len, "#%zu", index + 1);
}

const json_t *views_job_config(const json_t *job)
{
	const json_t *c = json_object_get(job, "config");

	return json_is_object(c) && json_is_integer(json_object_get(c, "index")) ? c : NULL;
}

char *views_job_title(const json_t *result, const json_t *job, char *buf, size_t len)
{
	const json_t *c = views_job_config(job);
	char name[16];
	size_t used;

	match_label(result, job, buf, len);
	if (!c)
		return buf;
	used = strlen(buf);
	views_config_name(name, sizeof(name), (size_t)json_integer_value(json_object_get(c, "index")));
	snprintf(buf + used, len - used, " on %s: %s", name, tree_str(c, "label"));
	return buf;
}

/* ---- configurations ------------------------------------------------------- */

void html_config_legend(FILE *fp, const json_t *result)
{
	const json_t *configs = json_object_get(json_object_get(result, "matrix"), "configs");
	size_t i;
	json_t *c;

	if (!json_array_size(configs))
		return;
	fputs("<h3>Configurations</h3>\n<p>Each configuration is named by a letter in the tables and "
	      "plots of this page.</p>\n<div class=\"scroll\"><table>\n<tr>",
	      fp);
	html_th(fp, "name", true);
	html_th(fp, "configuration", true);
	html_th(fp, "filesystem", true);
	html_th(fp, "mkfs options", true);
	html_th(fp, "mount options", true);
	html_th(fp, "I/O scheduler", true);
	fputs("</tr>\n", fp);
	json_array_foreach (configs, i, c) {
		char name[16];

		views_config_name(name, sizeof(name), i);
		fprintf(fp, "<tr><td class=\"l\"><b>%s</b></td>", name);
		html_td_text(fp, tree_str(c, "label"));
		html_td_text(fp, tree_str(c, "fs"));
		html_td_text(fp, tree_str(c, "mkfs_options"));
		html_td_text(fp, *tree_str(c, "mount_options") ? tree_str(c, "mount_options") : "(none)");
		html_td_text(fp, *tree_str(c, "scheduler") ? tree_str(c, "scheduler") : "(as it was)");
		fputs("</tr>\n", fp);
	}
	fputs("</table></div>\n", fp);
}

/* ---- phases --------------------------------------------------------------- */

/* The figures of a phase, each as the phases[] entry holds it. */
static const struct phase_col {
	const char *head; /* markup */
	const char *path; /* in a phases[] entry */
	bool ns;	  /* a time in ns */
	int decimals;
	bool fixed; /* a count the job sets (records=): no "± 0" over repeats */
} phase_cols[] = {
	{ "elapsed", "elapsed_ns", true, 0, false },
	{ "ops", "ops", false, 0, true },
	{ "ops/s (of the phase's time)", "ops_per_s", false, 1, false },
	{ "user (s)", "rusage.user_s", false, 2, false },
	{ "sys (s)", "rusage.sys_s", false, 2, false },
	{ "CPU (% of one core)", "rusage.cpu_pct", false, 1, false },
	{ "major faults", "rusage.majflt", false, 0, false },
	{ "minor faults", "rusage.minflt", false, 0, false },
	{ "block in (512 B)", "rusage.inblock", false, 0, false },
	{ "block out (512 B)", "rusage.oublock", false, 0, false },
};

#define PHASE_NCOLS (sizeof(phase_cols) / sizeof(phase_cols[0]))

/* The phases[] entry called name in run, or NULL. */
static const json_t *run_phase(const json_t *run, const char *name)
{
	size_t i;
	json_t *p;

	json_array_foreach (json_object_get(run, "phases"), i, p)
		if (!strcmp(tree_str(p, "name"), name))
			return p;
	return NULL;
}

bool views_phase_summary(const json_t *job, const char *phase, const char *path, struct summary *s)
{
	const json_t *runs = json_object_get(job, "runs");
	double *x = calloc(json_array_size(runs) + 1, sizeof(*x));
	size_t n = 0, i;
	json_t *run;

	memset(s, 0, sizeof(*s));
	if (!x)
		return false;
	json_array_foreach (runs, i, run) {
		const json_t *v = tree_get(run_phase(run, phase), path);

		if (json_is_number(v) && !json_is_true(json_object_get(run, "partial")))
			x[n++] = json_number_value(v);
	}
	if (n)
		summary_of(x, n, s);
	free(x);
	return n > 0;
}

void html_put_value(FILE *fp, double v, double ci, bool spread, bool ns, int decimals)
{
	if (ns)
		html_put_ns(fp, v);
	else
		fprintf(fp, "%.*f", decimals, v);
	if (!spread)
		return;
	fputs(" ± ", fp);
	if (ns)
		html_put_ns(fp, ci);
	else
		fprintf(fp, "%.*f", decimals, ci);
}

void html_phases(FILE *fp, const json_t *job)
{
	const json_t *runs = json_object_get(job, "runs");
	const json_t *first = NULL;
	size_t i, p;
	json_t *run, *phase;

	json_array_foreach (runs, i, run)
		if (json_array_size(json_object_get(run, "phases")) && !first)
			first = run;
	if (!first)
		return;
	fprintf(fp,
		"<h4>Phases</h4>\n<p>Each phase of the workload timed apart, with its own CPU and faults%s."
		"</p>\n<div class=\"scroll\"><table>\n<tr>",
		json_array_size(runs) > 1 ? ": mean ± 95 % CI over the complete runs" : "");
	html_th(fp, "phase", true);
	for (size_t c = 0; c < PHASE_NCOLS; c++)
		html_th(fp, phase_cols[c].head, false);
	fputs("</tr>\n", fp);
	json_array_foreach (json_object_get(first, "phases"), p, phase) {
		const char *name = tree_str(phase, "name");

		fputs("<tr>", fp);
		html_td_text(fp, name);
		for (size_t c = 0; c < PHASE_NCOLS; c++) {
			struct summary s;

			fputs("<td>", fp);
			if (views_phase_summary(job, name, phase_cols[c].path, &s))
				/* Over repeats with "±", but a count the job
				 * fixes when it did not vary. */
				html_put_value(fp, s.mean, s.ci95,
					       s.n > 1 && (!phase_cols[c].fixed || s.ci95 > 0),
					       phase_cols[c].ns, phase_cols[c].decimals);
			else
				fputs("–", fp);
			fputs("</td>", fp);
		}
		fputs("</tr>\n", fp);
	}
	fputs("</table></div>\n", fp);
}

/* ---- the stall probe ------------------------------------------------------ */

/* The longest and second-longest stalls of a probe, or NULL. */
static void worst_stalls(const json_t *probe, const json_t **w1, const json_t **w2)
{
	size_t i;
	json_t *s;

	*w1 = *w2 = NULL;
	json_array_foreach (json_object_get(probe, "stalls"), i, s) {
		double lat = tree_num(s, "lat_ns");

		if (!*w1 || lat > tree_num(*w1, "lat_ns")) {
			*w2 = *w1;
			*w1 = s;
		} else if (!*w2 || lat > tree_num(*w2, "lat_ns")) {
			*w2 = s;
		}
	}
}

/* "2.63 s at 41.2 s", or "–" without a stall. */
static void stall_cell(FILE *fp, const json_t *s)
{
	fputs("<td>", fp);
	if (!s) {
		fputs("–</td>", fp);
		return;
	}
	html_put_ns(fp, tree_num(s, "lat_ns"));
	fputs(" at ", fp);
	html_put_ns(fp, tree_num(s, "t_ns"));
	fputs("</td>", fp);
}

void html_probe(FILE *fp, const json_t *runs)
{
	static const char *const heads[] = { "run",    "probe",	      "probes",
					     "p50",    "p99",	      "max",
					     "stalls", "worst stall", "second-worst stall" };
	bool any = false;
	size_t i;
	json_t *run;

	json_array_foreach (runs, i, run)
		any |= json_object_get(run, "probe") != NULL;
	if (!any)
		return;
	fputs("<h4>Stall probe</h4>\n<p>A light foreground task while the job ran; a stall is a probe that "
	      "took probe_stall or longer. Stalls are given with their time into the run.</p>\n"
	      "<div class=\"scroll\"><table>\n<tr>",
	      fp);
	for (size_t h = 0; h < sizeof(heads) / sizeof(heads[0]); h++)
		html_th(fp, heads[h], h == 1);
	fputs("</tr>\n", fp);
	json_array_foreach (runs, i, run) {
		const json_t *p = json_object_get(run, "probe");
		const json_t *lat = json_object_get(p, "lat_ns");
		const json_t *w1, *w2;

		if (!p)
			continue;
		fprintf(fp, "<tr><td>%zu</td><td class=\"l\">", i + 1);
		html_escape(fp, tree_str(p, "kind"));
		fputs(" every ", fp);
		html_put_ns(fp, tree_num(p, "interval_ns"));
		fprintf(fp, "</td><td>%.0f</td>", tree_num(p, "count"));
		for (size_t k = 0; k < 3; k++) {
			fputs("<td>", fp);
			html_put_ns(fp, tree_num(lat, (const char *[]){ "p50", "p99", "max" }[k]));
			fputs("</td>", fp);
		}
		fprintf(fp, "<td>%.0f of at least ",
			(double)json_array_size(json_object_get(p, "stalls")) +
				tree_num(p, "stalls_dropped"));
		html_put_ns(fp, tree_num(p, "stall_ns"));
		fputs("</td>", fp);
		worst_stalls(p, &w1, &w2);
		stall_cell(fp, w1);
		stall_cell(fp, w2);
		fputs("</tr>\n", fp);
	}
	fputs("</table></div>\n", fp);
}

/* ---- a matrix's configurations side by side ----------------------------- */

void html_side_head(FILE *fp, const char *heading, const char *against, const char *op)
{
	fprintf(fp,
		"%s\n<p>Each figure is the mean over a job's runs (± the 95 %% confidence interval when it "
		"has repeats); change is against %s. <span class=\"better\">Better</span> and <span "
		"class=\"worse\">worse</span> are coloured; <span class=\"noise\">grey</span> when the "
		"confidence intervals overlap (within the noise).</p>\n<div class=\"scroll\"><table>\n<tr>",
		heading, against);
	html_th(fp, "job", true);
	html_th(fp, op, true);
	html_th(fp, "figure", true);
}

void html_change_cell(FILE *fp, const struct metric *m, bool have0, double v0, double c0, double v, double ci)
{
	double pct;
	enum compare_side side = have0 ? compare_side_of(m, v0, c0, v, ci, &pct) : COMPARE_SIDE_NONE;

	if (side == COMPARE_SIDE_NONE)
		fputs("<td></td>", fp);
	else
		fprintf(fp, "<td class=\"%s\">%+.1f %%</td>",
			side == COMPARE_SIDE_BETTER  ? "better"
			: side == COMPARE_SIDE_WORSE ? "worse"
						     : "noise",
			pct);
}

/* What a row of the matrix table shows: metric m of op, or the phase's
 * column pc (compared in the direction of metric m). */
struct matrix_row {
	const struct metric *m;
	const char *op;
	const char *phase;
	const struct phase_col *pc;
};

bool html_figure_of(const struct metric *m, const json_t *job, const char *op, double *v, double *ci)
{
	*v = *ci = 0;
	if (metric_per_op(m) && !metric_op_done(job, op, m->scope == METRIC_PER_OP_BYTES))
		return false;
	return metric_figure(m, job, op, v, ci);
}

/* The row's figure of a job, and in *spread whether it is over repeats. */
static bool row_figure(const struct matrix_row *row, const json_t *job, double *v, double *ci, bool *spread)
{
	struct summary s;

	*v = *ci = 0;
	*spread = false;
	if (!job)
		return false;
	if (!row->phase) {
		*spread = metric_figure_runs(row->m, job, row->op) > 1;
		return html_figure_of(row->m, job, row->op, v, ci);
	}
	if (!views_phase_summary(job, row->phase, row->pc->path, &s))
		return false;
	*v = s.mean;
	*ci = s.n > 1 ? s.ci95 : 0;
	*spread = s.n > 1;
	return true;
}

/* One row: the figure of every configuration, with the change against A. */
static bool matrix_row(FILE *fp, const struct matrix_row *row, const json_t *const *by, size_t nc,
		       const char *job, bool first)
{
	double v0 = 0, c0 = 0, v, ci;
	bool have0 = false, any = false, spread;

	for (size_t c = 0; c < nc; c++)
		any |= row_figure(row, by[c], &v, &ci, &spread);
	if (!any)
		return false;
	fputs("<tr>", fp);
	html_td_text(fp, first ? job : "");
	if (row->phase) {
		/* As the text tables label it: "index" alone is also an op type. */
		char label[80];

		snprintf(label, sizeof(label), "%s%s", METRIC_PHASE_PREFIX, row->phase);
		html_td_text(fp, label);
	} else {
		html_td_text(fp, row->op);
	}
	fputs("<td class=\"l\">", fp);
	if (row->phase)
		fputs(row->pc->head, fp);
	else if (metric_in_ns(row->m))
		fputs(row->m->label, fp);
	else
		fprintf(fp, "%s (%s)", row->m->label, row->m->unit);
	fputs("</td>", fp);
	for (size_t c = 0; c < nc; c++) {
		bool ns = row->phase ? row->pc->ns : metric_in_ns(row->m);

		if (!row_figure(row, by[c], &v, &ci, &spread)) {
			fputs(c ? "<td>–</td><td></td>" : "<td>–</td>", fp);
			continue;
		}
		fputs("<td>", fp);
		html_put_value(fp, v, ci, spread, ns, row->phase ? row->pc->decimals : row->m->decimals);
		fputs("</td>", fp);
		if (!c)
			v0 = v, c0 = ci, have0 = true;
		else
			html_change_cell(fp, row->m, have0, v0, c0, v, ci);
	}
	fputs("</tr>\n", fp);
	return true;
}

/* The rows of job entries by[0..nc) (one per configuration): per op type
 * some did, the page's metrics; the run's metrics; each phase's. */
static void matrix_job_rows(FILE *fp, const json_t *const *by, size_t nc, const char *name)
{
	static const char *const per_run = "elapsed,user,sys,cpu,majflt,minflt,worst,worst2";
	static const struct {
		size_t col;
		const char *metric;
	} phase_rows[] = { { 0, "elapsed" }, { 3, "user" },   { 4, "sys" },
			   { 5, "cpu" },     { 6, "majflt" }, { 7, "minflt" } };
	const struct metric *ms[HTML_MAX_METRICS];
	struct dbio_err err = { 0 };
	int nms = metric_parse_list("report", HTML_METRICS, ms, HTML_MAX_METRICS, &err);
	const json_t *first = NULL;
	bool head = true;
	size_t i;
	json_t *phase;

	for (int t = 0; t < OP_NTYPES; t++) {
		const char *op = op_type_name((enum op_type)t);

		for (int k = 0; k < nms; k++) {
			struct matrix_row row = { .m = ms[k], .op = op };

			head &= !matrix_row(fp, &row, by, nc, name, head);
		}
	}
	nms = metric_parse_list("report", per_run, ms, HTML_MAX_METRICS, &err);
	for (int k = 0; k < nms; k++) {
		head &= !matrix_row(fp, &(struct matrix_row){ .m = ms[k], .op = "all" }, by, nc, name, head);
	}
	for (size_t c = 0; c < nc && !first; c++)
		first = json_array_get(json_object_get(by[c], "runs"), 0);
	/* A job of one phase (kv's inserts alone): the phase's rows would
	 * repeat the run's, and the text leaves them out (metric_phase_row). */
	if (json_array_size(json_object_get(first, "phases")) < 2)
		return;
	json_array_foreach (json_object_get(first, "phases"), i, phase)
		for (size_t k = 0; k < sizeof(phase_rows) / sizeof(phase_rows[0]); k++) {
			struct matrix_row row = { .m = metric_find(phase_rows[k].metric),
						  .phase = tree_str(phase, "name"),
						  .pc = &phase_cols[phase_rows[k].col] };

			head &= !matrix_row(fp, &row, by, nc, name, head);
		}
}

void html_matrix_table(FILE *fp, const json_t *result)
{
	const json_t *configs = json_object_get(json_object_get(result, "matrix"), "configs");
	const json_t *jobs = json_object_get(result, "jobs");
	size_t nc = json_array_size(configs), nj = json_array_size(jobs), per = 0, i;
	const json_t **by;
	size_t *seen;
	json_t *job;

	if (!nc || !nj)
		return;
	by = calloc(nc * nj, sizeof(*by));
	seen = calloc(nc, sizeof(*seen));
	if (!by || !seen)
		goto out;
	/* by[k * nc + c]: the k-th job entry of configuration c. */
	json_array_foreach (jobs, i, job) {
		const json_t *c = views_job_config(job);
		size_t ci = c ? (size_t)json_integer_value(json_object_get(c, "index")) : nc;

		if (ci >= nc)
			continue;
		by[seen[ci] * nc + ci] = job;
		per = ++seen[ci] > per ? seen[ci] : per;
	}
	html_side_head(fp, "<h3 id=\"matrix\">Configurations side by side</h3>", "A", "op or phase");
	for (size_t c = 0; c < nc; c++) {
		char name[16], head[64];

		views_config_name(name, sizeof(name), c);
		fputs("<th title=\"", fp);
		html_escape(fp, tree_str(json_array_get(configs, c), "label"));
		fprintf(fp, "\">%s</th>", name);
		if (c) {
			snprintf(head, sizeof(head), "%s vs A", name);
			html_th(fp, head, false);
		}
	}
	fputs("</tr>\n", fp);
	for (size_t k = 0; k < per; k++) {
		const json_t *const *row = &by[k * nc];
		const json_t *any = NULL;

		for (size_t c = 0; c < nc && !any; c++)
			any = row[c];
		matrix_job_rows(fp, row, nc, tree_str(any, "name"));
	}
	fputs("</table></div>\n", fp);
out:
	free(by);
	free(seen);
}
