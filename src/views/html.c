/* The HTML report; see html.h. Every figure carries its unit. */
#include "views/html.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/termesc.h"
#include "util/units.h"

static const char *const op_names[] = { "read", "write", "fsync", "fdatasync" };
#define NOPS (sizeof(op_names) / sizeof(op_names[0]))

void html_escape(FILE *fp, const char *s)
{
	static const char *const refs[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };
	static const char specials[] = "&<>\"'";

	if (!s)
		return;
	for (;;) {
		size_t run = strcspn(s, specials);

		/* Control characters as the terminal views show them: a
		 * browser shows nothing of them, and the page copied or saved
		 * as text would carry them to a terminal. */
		termesc_write(fp, s, run, 0);
		if (!s[run])
			return;
		fputs(refs[strchr(specials, s[run]) - specials], fp);
		s += run + 1;
	}
}

void html_svg(FILE *fp, const char *svg, const char *prefix)
{
	static const char *const refs[] = { "href='#", "href=\"#", "url(#" };
	const char *p = strstr(svg, "<svg");
	char quote = 0;
	bool tag = false;

	if (!p)
		return;
	while (*p) {
		if (!tag) {
			if (!strncmp(p, "<!--", 4)) {
				const char *end = strstr(p + 4, "-->");

				if (!end)
					return;
				p = end + 3;
				continue;
			}
			switch (*p) {
			case '<':
				tag = true;
				fputc('<', fp);
				if (!strncmp(p, "</svg>", 6)) {
					fputs("/svg>", fp);
					return;
				}
				break;
			case '>':
				fputs("&gt;", fp);
				break;
			case '"':
				fputs("&quot;", fp);
				break;
			case '\'':
				fputs("&#39;", fp);
				break;
			default:
				fputc(*p, fp);
			}
			p++;
			continue;
		}
		/* In a tag: prefix ids and references to them. */
		if (!quote && (p[0] == ' ' || p[0] == '\t' || p[0] == '\n') && !strncmp(p + 1, "id=", 3) &&
		    (p[4] == '\'' || p[4] == '"')) {
			fprintf(fp, "%cid=%c%s", p[0], p[4], prefix);
			quote = p[4];
			p += 5;
			continue;
		}
		bool matched = false;

		for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]) && !matched; i++) {
			size_t len = strlen(refs[i]);

			if (!strncmp(p, refs[i], len)) {
				fprintf(fp, "%s%s", refs[i], prefix);
				if (refs[i][0] == 'h')
					quote = refs[i][5];
				p += len;
				matched = true;
			}
		}
		if (matched)
			continue;
		if (quote && *p == quote)
			quote = 0;
		else if (!quote && (*p == '\'' || *p == '"'))
			quote = *p;
		else if (!quote && *p == '>')
			tag = false;
		fputc(*p++, fp);
	}
}

/* ---- small helpers ------------------------------------------------------- */

static double num(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : 0.0;
}

static const char *str(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}

/* A latency with its unit, "µs" rather than "us". */
static void put_ns(FILE *fp, double ns)
{
	char buf[32];
	size_t len;

	units_fmt_ns(buf, sizeof(buf), ns);
	len = strlen(buf);
	if (len > 3 && !strcmp(buf + len - 3, " us"))
		fprintf(fp, "%.*s µs", (int)(len - 3), buf);
	else
		fputs(buf, fp);
}

static void put_bytes(FILE *fp, double bytes)
{
	char buf[32];

	fputs(units_fmt_bytes(buf, sizeof(buf), bytes > 0 ? (uint64_t)bytes : 0), fp);
}

/* A figure of metric m (a latency when m->unit is NULL) with its CI. */
static void put_figure(FILE *fp, const struct plot_metric *m, double v, double ci)
{
	if (m->unit)
		fprintf(fp, "%.1f", v);
	else
		put_ns(fp, v);
	if (ci > 0) {
		fputs(" ± ", fp);
		if (m->unit)
			fprintf(fp, "%.1f", ci);
		else
			put_ns(fp, ci);
	}
}

static void th(FILE *fp, const char *text, bool left)
{
	fprintf(fp, "<th%s>%s</th>", left ? " class=\"l\"" : "", text);
}

static void td_text(FILE *fp, const char *s)
{
	fputs("<td class=\"l\">", fp);
	html_escape(fp, s);
	fputs("</td>", fp);
}

static const char *job_label(const json_t *result, const json_t *job, char *buf, size_t len)
{
	return plot_job_label(result, job, buf, len);
}

static bool have_plot(const struct html_report *r, enum plot_kind kind, size_t file)
{
	for (size_t i = 0; r->plots && i < r->plots->count; i++)
		if (r->plots->plots[i].kind == kind && r->plots->plots[i].file == file && r->svgs[i])
			return true;
	return false;
}

/* The plot of kind for file and job, if it was drawn. */
static void figure(FILE *fp, const struct html_report *r, enum plot_kind kind, size_t file, size_t job)
{
	if (!r->plots)
		return;
	for (size_t i = 0; i < r->plots->count; i++) {
		const struct plot *p = &r->plots->plots[i];
		char prefix[32];

		if (p->kind != kind || p->file != file || p->job != job || !r->svgs[i])
			continue;
		snprintf(prefix, sizeof(prefix), "p%zu-", i);
		fputs("<figure>\n", fp);
		html_svg(fp, r->svgs[i], prefix);
		fputs("\n<figcaption>", fp);
		html_escape(fp, p->title);
		fputs("</figcaption></figure>\n", fp);
	}
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
	"figcaption{font-size:.85em;color:#555}\n"
	".warn{color:#a40000}.note{background:#fff4cc;border:1px solid #e0c060;padding:.4em .7em}\n"
	".better{color:#0a6b0a}.worse{color:#a40000}.noise{color:#777}\n"
	"code{font-size:.9em;overflow-wrap:anywhere}details{margin:.3em 0}\n"
	".env{display:flex;flex-wrap:wrap;gap:0 1.5em;align-items:flex-start}.env>div{max-width:100%}\n"
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
	th(fp, "result file", true);
	th(fp, "dbio", true);
	th(fp, "host", true);
	th(fp, "started (UTC)", true);
	th(fp, "jobs", false);
	th(fp, "command line", true);
	fputs("</tr>\n", fp);
	for (size_t f = 0; f < r->n; f++) {
		const json_t *res = r->in[f].result;

		fputs("<tr>", fp);
		td_text(fp, r->in[f].label);
		td_text(fp, str(json_object_get(res, "tool"), "version"));
		td_text(fp, str(json_object_get(res, "system"), "hostname"));
		td_text(fp, str(res, "started_at"));
		fprintf(fp, "<td>%zu</td><td class=\"l wrap\"><code>",
			json_array_size(json_object_get(res, "jobs")));
		html_escape(fp, str(res, "command_line"));
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
		if (*str(res, "error")) {
			fputs(": ", fp);
			html_escape(fp, str(res, "error"));
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

/* The job entry of result whose label and op match, or NULL. */
static const json_t *find_job(const json_t *result, const char *label, const char *op)
{
	size_t j;
	json_t *job;

	json_array_foreach (json_object_get(result, "jobs"), j, job) {
		char l[512];
		double v, ci;

		if (!strcmp(job_label(result, job, l, sizeof(l)), label) &&
		    plot_figure(job, op, plot_metric_find("iops"), &v, &ci))
			return job;
	}
	return NULL;
}

static void side_by_side(FILE *fp, const struct html_report *r)
{
	static const char *const mnames[] = { "iops", "bw", "lat_mean", "p99" };

	fputs("<h2 class=\"first\" id=\"compare\">Side by side</h2>\n<p>Each figure is the mean over a job's "
	      "runs (± the 95 % confidence interval when it has repeats); change is against the first "
	      "result. <span class=\"better\">Better</span> and <span class=\"worse\">worse</span> are "
	      "coloured; <span class=\"noise\">grey</span> when the confidence intervals overlap (within the "
	      "noise).</p>\n<div class=\"scroll\"><table>\n<tr>",
	      fp);
	th(fp, "job", true);
	th(fp, "op", true);
	th(fp, "figure", true);
	for (size_t f = 0; f < r->n; f++) {
		fputs("<th>", fp);
		html_escape(fp, r->in[f].label);
		fputs("</th>", fp);
		if (f)
			th(fp, "change", false);
	}
	fputs("</tr>\n", fp);
	/* Rows: every job and op type of any result, in order of appearance. */
	for (size_t f = 0; f < r->n; f++) {
		const json_t *res = r->in[f].result;
		size_t j;
		json_t *job;

		json_array_foreach (json_object_get(res, "jobs"), j, job) {
			char label[512];

			job_label(res, job, label, sizeof(label));
			for (size_t k = 0; k < NOPS; k++) {
				bool seen = false;

				if (find_job(res, label, op_names[k]) != job)
					continue;
				for (size_t g = 0; g < f && !seen; g++)
					seen = find_job(r->in[g].result, label, op_names[k]) != NULL;
				if (seen)
					continue;
				for (size_t mi = 0; mi < 4; mi++) {
					const struct plot_metric *m = plot_metric_find(mnames[mi]);
					double v0 = 0, c0 = 0;
					bool have0 = false;

					fputs("<tr>", fp);
					td_text(fp, mi ? "" : label);
					td_text(fp, mi ? "" : op_names[k]);
					fprintf(fp, "<td class=\"l\">%s%s%s%s</td>", m->label,
						m->unit ? " (" : "", m->unit ? m->unit : "",
						m->unit ? ")" : "");
					for (size_t g = 0; g < r->n; g++) {
						const json_t *gj =
							find_job(r->in[g].result, label, op_names[k]);
						double v, ci;

						if (!gj || !plot_figure(gj, op_names[k], m, &v, &ci)) {
							fputs(g ? "<td>–</td><td></td>" : "<td>–</td>", fp);
							continue;
						}
						fputs("<td>", fp);
						put_figure(fp, m, v, ci);
						fputs("</td>", fp);
						if (!g) {
							v0 = v, c0 = ci, have0 = true;
							continue;
						}
						if (!have0 || v0 == 0) {
							fputs("<td></td>", fp);
							continue;
						}
						double pct = (v - v0) / v0 * 100;
						bool up_good = m->unit != NULL;
						const char *cls =
							fabs(v - v0) <= c0 + ci && (c0 > 0 || ci > 0)
								? "noise"
							: (pct > 0) == up_good ? "better"
									       : "worse";

						fprintf(fp, "<td class=\"%s\">%+.1f %%</td>",
							pct == 0 ? "noise" : cls, pct);
					}
					fputs("</tr>\n", fp);
				}
			}
		}
	}
	fputs("</table></div>\n", fp);
	figure(fp, r, PLOT_COMPARE, 0, 0);
	figure(fp, r, PLOT_SWEEP, 0, 0);
}

/* ---- environment ----------------------------------------------------------- */

/* Rows "key | value" of every scalar in obj, nested objects with their
 * key as prefix; *_bytes also in binary units. */
static void kv_rows(FILE *fp, const json_t *obj, const char *prefix)
{
	const char *key;
	json_t *v;

	json_object_foreach ((json_t *)obj, key, v) {
		char full[256];

		snprintf(full, sizeof(full), "%s%s%s", prefix, *prefix ? "." : "", key);
		if (json_is_object(v)) {
			kv_rows(fp, v, full);
			continue;
		}
		fputs("<tr>", fp);
		td_text(fp, full);
		fputs("<td class=\"l wrap\">", fp);
		if (json_is_string(v)) {
			html_escape(fp, json_string_value(v));
		} else if (json_is_array(v)) {
			size_t i;
			json_t *e;

			json_array_foreach (v, i, e) {
				fputs(i ? ", " : "", fp);
				if (json_is_string(e))
					html_escape(fp, json_string_value(e));
				else if (json_is_number(e))
					fprintf(fp, "%g", json_number_value(e));
			}
		} else if (json_is_integer(v)) {
			fprintf(fp, "%lld", (long long)json_integer_value(v));
			size_t len = strlen(key);

			if (len > 6 && !strcmp(key + len - 6, "_bytes") && json_integer_value(v) >= 1024) {
				fputs(" (", fp);
				put_bytes(fp, (double)json_integer_value(v));
				fputs(")", fp);
			}
		} else if (json_is_real(v)) {
			fprintf(fp, "%g", json_real_value(v));
		} else if (json_is_boolean(v)) {
			fputs(json_is_true(v) ? "yes" : "no", fp);
		}
		fputs("</td></tr>\n", fp);
	}
}

static void environment(FILE *fp, const json_t *result)
{
	const json_t *seen[64];
	size_t nseen = 0, j, t;
	json_t *job, *target;

	fputs("<h3>Environment</h3>\n<div class=\"env\"><div class=\"scroll\"><table>\n<tr>", fp);
	th(fp, "system", true);
	th(fp, "value", true);
	fputs("</tr>\n", fp);
	kv_rows(fp, json_object_get(result, "system"), "");
	fputs("</table></div>\n", fp);
	json_array_foreach (json_object_get(result, "jobs"), j, job) {
		json_array_foreach (json_object_get(job, "targets"), t, target) {
			bool dup = false;

			for (size_t k = 0; k < nseen; k++)
				dup |= !strcmp(str(seen[k], "directory"), str(target, "directory")) &&
				       !strcmp(str(seen[k], "device"), str(target, "device"));
			if (dup || nseen == 64)
				continue;
			seen[nseen++] = target;
			fputs("<div class=\"scroll\"><table>\n<tr><th class=\"l\">target</th><th class=\"l\">",
			      fp);
			html_escape(fp, str(target, "directory"));
			fputs("</th></tr>\n", fp);
			kv_rows(fp, target, "");
			fputs("</table></div>\n", fp);
		}
	}
	fputs("</div>\n", fp);
}

/* ---- sweeps --------------------------------------------------------------- */

static void sweep_table(FILE *fp, const struct html_report *r, size_t f)
{
	static const char *const mnames[] = { "iops", "bw", "lat_mean", "p99" };
	const json_t *result = r->in[f].result;
	const json_t *sweep = json_object_get(result, "sweep");
	const json_t *vary = json_object_get(sweep, "vary");
	size_t i, j;
	json_t *v, *job;

	if (!sweep)
		return;
	fprintf(fp,
		"<h3>Sweep</h3>\n<p>%.0f of %.0f points done; mean ± 95 %% CI over each point's runs.</p>\n",
		num(sweep, "completed"), num(sweep, "points"));
	fputs("<div class=\"scroll\"><table>\n<tr>", fp);
	json_array_foreach (vary, i, v) {
		fputs("<th class=\"l\">", fp);
		html_escape(fp, str(v, "key"));
		fputs("</th>", fp);
	}
	th(fp, "job", true);
	th(fp, "op", true);
	for (size_t mi = 0; mi < 4; mi++) {
		const struct plot_metric *m = plot_metric_find(mnames[mi]);

		fprintf(fp, "<th>%s%s%s%s</th>", m->label, m->unit ? " (" : "", m->unit ? m->unit : "",
			m->unit ? ")" : "");
	}
	th(fp, "CV of ops/s", false);
	fputs("</tr>\n", fp);
	json_array_foreach (json_object_get(result, "jobs"), j, job) {
		for (size_t k = 0; k < NOPS; k++) {
			double val, ci;

			if (!plot_figure(job, op_names[k], plot_metric_find("iops"), &val, &ci))
				continue;
			fputs("<tr>", fp);
			json_array_foreach (vary, i, v)
				td_text(fp, str(json_object_get(job, "point"), str(v, "key")));
			td_text(fp, str(job, "name"));
			td_text(fp, op_names[k]);
			for (size_t mi = 0; mi < 4; mi++) {
				const struct plot_metric *m = plot_metric_find(mnames[mi]);

				plot_figure(job, op_names[k], m, &val, &ci);
				fputs("<td>", fp);
				put_figure(fp, m, val, ci);
				fputs("</td>", fp);
			}
			const json_t *iops = json_object_get(
				json_object_get(json_object_get(json_object_get(job, "summary"), "ops"),
						op_names[k]),
				"iops");
			double cv = num(iops, "cv") * 100;

			if (num(iops, "n") > 1)
				fprintf(fp, "<td%s>%.1f %%%s</td>", cv > 10 ? " class=\"warn\"" : "", cv,
					cv > 10 ? " HIGH" : "");
			else
				fputs("<td>–</td>", fp);
			fputs("</tr>\n", fp);
		}
	}
	fputs("</table></div>\n", fp);
	if (r->n == 1)
		figure(fp, r, PLOT_SWEEP, 0, 0);
}

/* ---- jobs ----------------------------------------------------------------- */

static void brief_options(FILE *fp, const json_t *opts)
{
	static const char *const keys[] = { "rw",	  "bs",	       "size",	       "nrfiles", "numjobs",
					    "ioengine",	  "direct",    "sync",	       "fsync",	  "fdatasync",
					    "time_based", "runtime",   "log_interval", "cache",	  "mem_limit",
					    "repeat",	  "rwmixread", "directory" };
	const char *key;
	json_t *v;

	fputs("<p><code>", fp);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		v = json_object_get(opts, keys[i]);
		if (!v)
			continue;
		fprintf(fp, "%s%s=", i ? " " : "", keys[i]);
		if (json_is_string(v))
			html_escape(fp, json_string_value(v));
		else if (json_is_boolean(v))
			fputs(json_is_true(v) ? "1" : "0", fp);
		else if (json_is_number(v) &&
			 (!strcmp(keys[i], "bs") || !strcmp(keys[i], "size") ||
			  !strcmp(keys[i], "mem_limit")) &&
			 json_number_value(v) > 0)
			put_bytes(fp, json_number_value(v));
		else if (json_is_number(v) && !strcmp(keys[i], "runtime") && json_number_value(v) > 0)
			put_ns(fp, json_number_value(v));
		else if (json_is_number(v))
			fprintf(fp, "%g", json_number_value(v));
	}
	fputs("</code></p>\n<details><summary>all options</summary><div class=\"scroll\"><table>\n", fp);
	json_object_foreach ((json_t *)opts, key, v) {
		fputs("<tr>", fp);
		td_text(fp, key);
		fputs("<td class=\"l wrap\">", fp);
		if (json_is_string(v)) {
			html_escape(fp, json_string_value(v));
		} else {
			char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

			html_escape(fp, text);
			free(text);
		}
		fputs("</td></tr>\n", fp);
	}
	fputs("</table></div></details>\n", fp);
}

static void op_tables(FILE *fp, const json_t *runs)
{
	static const char *const cols[] = { "min", "mean", "p50", "p95", "p99", "p99_9", "max" };
	static const char *const heads[] = { "lat min", "lat mean", "p50", "p95", "p99", "p99.9", "lat max" };
	bool extra = false;
	size_t r;
	json_t *run;

	json_array_foreach (runs, r, run)
		for (size_t k = 0; k < NOPS; k++)
			extra |= json_object_size(json_object_get(
					 json_object_get(
						 json_object_get(json_object_get(run, "ops"), op_names[k]),
						 "lat_ns"),
					 "percentiles")) > 0;
	fputs("<div class=\"scroll\"><table>\n<tr>", fp);
	th(fp, "run", false);
	th(fp, "op", true);
	th(fp, "count", false);
	th(fp, "ops/s", false);
	th(fp, "MiB/s", false);
	for (size_t i = 0; i < 7; i++)
		th(fp, heads[i], false);
	if (extra)
		th(fp, "other percentiles", true);
	fputs("</tr>\n", fp);
	json_array_foreach (runs, r, run) {
		for (size_t k = 0; k < NOPS; k++) {
			const json_t *op = json_object_get(json_object_get(run, "ops"), op_names[k]);
			const json_t *lat = json_object_get(op, "lat_ns");
			const char *pct;
			json_t *v;

			if (num(op, "count") == 0)
				continue;
			fprintf(fp,
				"<tr><td>%zu%s</td><td class=\"l\">%s</td><td>%.0f</td><td>%.1f</td><td>%.2f</td>",
				r + 1, json_is_true(json_object_get(run, "partial")) ? " (partial)" : "",
				op_names[k], num(op, "count"), num(op, "iops"),
				num(op, "bw_bytes") / 1048576.0);
			for (size_t i = 0; i < 7; i++) {
				fputs("<td>", fp);
				put_ns(fp, num(lat, cols[i]));
				fputs("</td>", fp);
			}
			if (!extra) {
				fputs("</tr>\n", fp);
				continue;
			}
			fputs("<td class=\"l\">", fp);
			json_object_foreach ((json_t *)json_object_get(lat, "percentiles"), pct, v) {
				fputs("p", fp);
				html_escape(fp, pct);
				fputs(" ", fp);
				put_ns(fp, json_number_value(v));
				fputs("; ", fp);
			}
			fputs("</td></tr>\n", fp);
		}
	}
	fputs("</table></div>\n<div class=\"scroll\"><table>\n<tr>", fp);
	th(fp, "run", false);
	th(fp, "elapsed", false);
	th(fp, "threads", false);
	th(fp, "user (s)", false);
	th(fp, "sys (s)", false);
	th(fp, "CPU (% of one core)", false);
	th(fp, "major faults", false);
	th(fp, "minor faults", false);
	th(fp, "voluntary switches", false);
	th(fp, "involuntary switches", false);
	th(fp, "block in (512 B)", false);
	th(fp, "block out (512 B)", false);
	th(fp, "memory cgroup peak", false);
	fputs("</tr>\n", fp);
	json_array_foreach (runs, r, run) {
		const json_t *ru = json_object_get(run, "rusage");
		const json_t *mem = json_object_get(run, "memory");

		fprintf(fp, "<tr><td>%zu</td><td>", r + 1);
		put_ns(fp, num(run, "elapsed_ns"));
		fprintf(fp,
			"</td><td>%.0f</td><td>%.2f</td><td>%.2f</td><td>%.1f</td><td>%.0f</td><td>%.0f</td>"
			"<td>%.0f</td><td>%.0f</td><td>%.0f</td><td>%.0f</td><td>",
			num(run, "threads"), num(ru, "user_s"), num(ru, "sys_s"), num(ru, "cpu_pct"),
			num(ru, "majflt"), num(ru, "minflt"), num(ru, "nvcsw"), num(ru, "nivcsw"),
			num(ru, "inblock"), num(ru, "oublock"));
		if (mem) {
			put_bytes(fp, num(mem, "peak_bytes"));
			fputs(" of ", fp);
			put_bytes(fp, num(mem, "limit_bytes"));
		} else {
			fputs("–", fp);
		}
		fputs("</td></tr>\n", fp);
	}
	fputs("</table></div>\n", fp);
}

static void ci_cell(FILE *fp, const json_t *s, double scale, bool ns)
{
	fputs("<td>", fp);
	if (ns) {
		put_ns(fp, num(s, "mean"));
		fputs(" ± ", fp);
		put_ns(fp, num(s, "ci95"));
	} else {
		fprintf(fp, "%.1f ± %.1f", num(s, "mean") * scale, num(s, "ci95") * scale);
	}
	fputs("</td>", fp);
}

static void repeats(FILE *fp, const json_t *sum)
{
	const json_t *ops = json_object_get(sum, "ops");

	fprintf(fp,
		"<h4>Repeats</h4>\n<p>%.0f complete runs: mean ± 95 %% confidence interval (Student's t). "
		"A coefficient of variation (CV) of ops/s above 10 %% is flagged.</p>\n"
		"<div class=\"scroll\"><table>\n<tr>",
		num(sum, "runs"));
	th(fp, "op", true);
	th(fp, "ops/s", false);
	th(fp, "MiB/s", false);
	th(fp, "lat mean", false);
	th(fp, "lat p99", false);
	th(fp, "lat max", false);
	th(fp, "CV of ops/s", false);
	fputs("</tr>\n", fp);
	for (size_t k = 0; k < NOPS; k++) {
		const json_t *op = json_object_get(ops, op_names[k]);
		double cv;

		if (!op)
			continue;
		cv = num(json_object_get(op, "iops"), "cv") * 100;
		fprintf(fp, "<tr><td class=\"l\">%s</td>", op_names[k]);
		ci_cell(fp, json_object_get(op, "iops"), 1, false);
		ci_cell(fp, json_object_get(op, "bw_bytes"), 1 / 1048576.0, false);
		ci_cell(fp, json_object_get(op, "lat_mean_ns"), 1, true);
		ci_cell(fp, json_object_get(op, "lat_p99_ns"), 1, true);
		ci_cell(fp, json_object_get(op, "lat_max_ns"), 1, true);
		fprintf(fp, "<td%s>%.1f %%%s</td></tr>\n", cv > 10 ? " class=\"warn\"" : "", cv,
			cv > 10 ? " HIGH VARIATION" : "");
	}
	fputs("</table></div>\n<p>elapsed ", fp);
	put_ns(fp, num(json_object_get(sum, "elapsed_ns"), "mean"));
	fputs(" ± ", fp);
	put_ns(fp, num(json_object_get(sum, "elapsed_ns"), "ci95"));
	fprintf(fp, ", CPU %.1f %% ± %.1f of one core</p>\n", num(json_object_get(sum, "cpu_pct"), "mean"),
		num(json_object_get(sum, "cpu_pct"), "ci95"));
}

static void series(FILE *fp, const struct html_report *r, size_t f, size_t j, const json_t *runs)
{
	static const char *const rank[] = { "worst", "second-worst" };
	bool any = false;
	size_t i, k;
	json_t *run, *w;

	json_array_foreach (runs, i, run)
		any |= json_object_get(run, "series") != NULL;
	if (!any)
		return;
	fputs("<h4>Per-interval series</h4>\n<ul>\n", fp);
	json_array_foreach (runs, i, run) {
		const json_t *s = json_object_get(run, "series");
		bool time_grid = !strcmp(str(s, "grid"), "time");

		if (!s)
			continue;
		fprintf(fp, "<li>run %zu: %zu intervals of ", i + 1,
			json_array_size(json_object_get(s, "points")));
		if (time_grid)
			put_ns(fp, num(s, "interval_ns"));
		else
			fprintf(fp, "%.0f reads and writes per thread", num(s, "interval_ops"));
		if (json_is_true(json_object_get(s, "truncated")))
			fputs(" <span class=\"warn\">(truncated: out of memory)</span>", fp);
		json_array_foreach (json_object_get(s, "worst"), k, w) {
			if (k >= 2)
				break;
			fprintf(fp, "; %s #%.0f", rank[k], num(w, "index") + 1);
			if (!time_grid)
				fprintf(fp, " of thread %.0f", num(w, "thread"));
			fputs(" ending ", fp);
			put_ns(fp, num(w, "end_ns"));
			if (time_grid) {
				double d = num(w, "duration_ns") / 1e9;

				fprintf(fp, ": %.0f reads and writes (%.1f ops/s)", num(w, "count"),
					d > 0 ? num(w, "count") / d : 0);
			} else {
				fprintf(fp, ": %.0f operations took ", num(w, "count"));
				put_ns(fp, num(w, "duration_ns"));
			}
		}
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
	figure(fp, r, PLOT_SERIES, f, j);
}

static void jobs(FILE *fp, const struct html_report *r, size_t f)
{
	const json_t *result = r->in[f].result;
	size_t j, k;
	json_t *job, *warning;

	json_array_foreach (json_object_get(result, "jobs"), j, job) {
		const json_t *runs = json_object_get(job, "runs");
		char label[512];

		fprintf(fp, "<h3 id=\"f%zu-j%zu\">job ", f + 1, j + 1);
		html_escape(fp, job_label(result, job, label, sizeof(label)));
		fputs("</h3>\n", fp);
		brief_options(fp, json_object_get(job, "options"));
		json_array_foreach (json_object_get(job, "warnings"), k, warning) {
			fputs("<p class=\"warn\">warning: ", fp);
			html_escape(fp, json_string_value(warning));
			fputs("</p>\n", fp);
		}
		op_tables(fp, runs);
		if (json_array_size(runs) > 1 && num(json_object_get(job, "summary"), "runs") > 0)
			repeats(fp, json_object_get(job, "summary"));
		series(fp, r, f, j, runs);
	}
}

void html_report_write(FILE *fp, const struct html_report *r)
{
	header(fp, r);
	if (r->n > 1)
		side_by_side(fp, r);
	for (size_t f = 0; f < r->n; f++) {
		fprintf(fp, "<h2%s id=\"f%zu\">", r->n == 1 ? " class=\"first\"" : "", f + 1);
		html_escape(fp, r->in[f].label);
		fputs("</h2>\n", fp);
		environment(fp, r->in[f].result);
		sweep_table(fp, r, f);
		if (have_plot(r, PLOT_LATENCY, f))
			fputs("<h3>Latency distribution</h3>\n", fp);
		figure(fp, r, PLOT_LATENCY, f, 0);
		jobs(fp, r, f);
	}
	fputs("<p style=\"color:#777;font-size:.8em\">Written by dbio report. Sizes in binary units "
	      "(1 MiB = 1048576 bytes); rates per second of each run's measured time.</p>\n</body>\n</html>\n",
	      fp);
}
