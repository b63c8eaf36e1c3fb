/*
 * The HTML report's sections of each result (html.h): the environment (the
 * system and every target), and per job its options, warnings, op tables,
 * repeats and series, with the series plot. Called by html.c; every string
 * from the result is escaped (html_escape).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/match.h"
#include "analysis/metric.h"
#include "analysis/tree.h"
#include "result/result.h"
#include "stats/opstats.h"
#include "util/list.h"
#include "views/html.h"
#include "views/text.h"
#include "views/views_int.h"

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
		html_td_text(fp, full);
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
				html_put_bytes(fp, (double)json_integer_value(v));
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

void html_environment(FILE *fp, const json_t *result)
{
	const json_t *seen[64];
	size_t nseen = 0, j, t;
	json_t *job, *target;

	fputs("<h3>Environment</h3>\n<div class=\"env\"><div class=\"scroll\"><table>\n<tr>", fp);
	html_th(fp, "system", true);
	html_th(fp, "value", true);
	fputs("</tr>\n", fp);
	kv_rows(fp, json_object_get(result, "system"), "");
	fputs("</table></div>\n", fp);
	json_array_foreach (json_object_get(result, "jobs"), j, job) {
		json_array_foreach (json_object_get(job, "targets"), t, target) {
			bool dup = false;

			for (size_t k = 0; k < nseen; k++)
				dup |= !strcmp(tree_str(seen[k], "directory"),
					       tree_str(target, "directory")) &&
				       !strcmp(tree_str(seen[k], "device"), tree_str(target, "device"));
			if (dup || nseen == 64)
				continue;
			seen[nseen++] = target;
			fputs("<div class=\"scroll\"><table>\n<tr><th class=\"l\">target</th><th class=\"l\">",
			      fp);
			html_escape(fp, tree_str(target, "directory"));
			fputs("</th></tr>\n", fp);
			kv_rows(fp, target, "");
			fputs("</table></div>\n", fp);
		}
	}
	fputs("</div>\n", fp);
}

/* ---- jobs ----------------------------------------------------------------- */

/* The job's one-line summary (jobs[].brief), then every option in a
 * table to unfold. */
static void brief_options(FILE *fp, const json_t *job)
{
	const json_t *opts = json_object_get(job, "options");
	const char *key;
	json_t *v;

	fputs("<p><code>", fp);
	html_escape(fp, tree_str(job, "brief"));
	fputs("</code></p>\n<details><summary>all options</summary><div class=\"scroll\"><table>\n", fp);
	json_object_foreach ((json_t *)opts, key, v) {
		fputs("<tr>", fp);
		html_td_text(fp, key);
		fputs("<td class=\"l wrap\">", fp);
		if (json_is_string(v)) {
			html_escape(fp, json_string_value(v));
		} else {
			char *text = result_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

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
		for (int t = 0; t < OP_NTYPES; t++) {
			const char *name = op_type_name((enum op_type)t);
			const json_t *op = json_object_get(json_object_get(run, "ops"), name);

			if (tree_num(op, "count") > 0)
				extra |= json_object_size(tree_get(op, "lat_ns.percentiles")) > 0;
		}
	fputs("<div class=\"scroll\"><table>\n<tr>", fp);
	html_th(fp, "run", false);
	html_th(fp, "op", true);
	html_th(fp, "count", false);
	html_th(fp, "ops/s", false);
	html_th(fp, "MiB/s", false);
	for (size_t i = 0; i < 7; i++)
		html_th(fp, heads[i], false);
	if (extra)
		html_th(fp, "other percentiles", true);
	fputs("</tr>\n", fp);
	json_array_foreach (runs, r, run) {
		for (int t = 0; t < OP_NTYPES; t++) {
			const char *name = op_type_name((enum op_type)t);
			const json_t *op = json_object_get(json_object_get(run, "ops"), name);
			const json_t *lat = json_object_get(op, "lat_ns");
			const char *pct;
			json_t *v;

			if (tree_num(op, "count") == 0)
				continue;
			fprintf(fp, "<tr><td>%zu%s</td><td class=\"l\">%s</td><td>%.0f</td><td>%.1f</td>",
				r + 1, json_is_true(json_object_get(run, "partial")) ? " (partial)" : "",
				name, tree_num(op, "count"), tree_num(op, "iops"));
			if (tree_num(op, "bytes") > 0)
				fprintf(fp, "<td>%.2f</td>", tree_num(op, "bw_bytes") / 1048576.0);
			else
				fputs("<td>–</td>", fp); /* a commit, an fsync: moves no bytes of its own */
			for (size_t i = 0; i < 7; i++) {
				fputs("<td>", fp);
				html_put_ns(fp, tree_num(lat, cols[i]));
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
				html_put_ns(fp, json_number_value(v));
				fputs("; ", fp);
			}
			fputs("</td></tr>\n", fp);
		}
	}
	fputs("</table></div>\n<div class=\"scroll\"><table>\n<tr>", fp);
	html_th(fp, "run", false);
	html_th(fp, "elapsed", false);
	html_th(fp, "threads", false);
	html_th(fp, "user (s)", false);
	html_th(fp, "sys (s)", false);
	html_th(fp, "CPU (% of one core)", false);
	html_th(fp, "major faults", false);
	html_th(fp, "minor faults", false);
	html_th(fp, "voluntary switches", false);
	html_th(fp, "involuntary switches", false);
	html_th(fp, "block in (512 B)", false);
	html_th(fp, "block out (512 B)", false);
	html_th(fp, "memory cgroup peak", false);
	fputs("</tr>\n", fp);
	json_array_foreach (runs, r, run) {
		const json_t *ru = json_object_get(run, "rusage");
		const json_t *mem = json_object_get(run, "memory");

		fprintf(fp, "<tr><td>%zu</td><td>", r + 1);
		html_put_ns(fp, tree_num(run, "elapsed_ns"));
		fprintf(fp,
			"</td><td>%.0f</td><td>%.2f</td><td>%.2f</td><td>%.1f</td><td>%.0f</td><td>%.0f</td>"
			"<td>%.0f</td><td>%.0f</td><td>%.0f</td><td>%.0f</td><td>",
			tree_num(run, "threads"), tree_num(ru, "user_s"), tree_num(ru, "sys_s"),
			tree_num(ru, "cpu_pct"), tree_num(ru, "majflt"), tree_num(ru, "minflt"),
			tree_num(ru, "nvcsw"), tree_num(ru, "nivcsw"), tree_num(ru, "inblock"),
			tree_num(ru, "oublock"));
		if (mem) {
			html_put_bytes(fp, tree_num(mem, "peak_bytes"));
			fputs(" of ", fp);
			html_put_bytes(fp, tree_num(mem, "limit_bytes"));
		} else {
			fputs("–", fp);
		}
		fputs("</td></tr>\n", fp);
	}
	fputs("</table></div>\n", fp);
}

/* A job over several directories (S3's disks): per run, each one's reads
 * and writes over the run (they add up to the job's) and its device's busy
 * time, as the text report's "per directory" lines. */
static void directory_table(FILE *fp, const json_t *runs)
{
	bool any = false;
	size_t r, i;
	json_t *run, *t;

	json_array_foreach (runs, r, run)
		any |= json_array_size(json_object_get(run, "targets")) > 0;
	if (!any)
		return;
	fputs("<div class=\"scroll\"><table>\n<tr>", fp);
	html_th(fp, "run", false);
	html_th(fp, "directory", true);
	html_th(fp, "device busy", false);
	html_th(fp, "read ops/s", false);
	html_th(fp, "read MiB/s", false);
	html_th(fp, "write ops/s", false);
	html_th(fp, "write MiB/s", false);
	fputs("</tr>\n", fp);
	json_array_foreach (runs, r, run)
		json_array_foreach (json_object_get(run, "targets"), i, t) {
			const json_t *rd = json_object_get(t, "read"), *wr = json_object_get(t, "write");

			fprintf(fp, "<tr><td>%zu</td>", r + 1);
			html_td_text(fp, tree_str(t, "directory"));
			fputs("<td>", fp);
			if (json_is_integer(json_object_get(t, "busy_ns")))
				html_put_ns(fp, tree_num(t, "busy_ns"));
			else
				fputs("–", fp);
			fprintf(fp, "</td><td>%.1f</td><td>%.2f</td><td>%.1f</td><td>%.2f</td></tr>\n",
				tree_num(rd, "iops"), tree_num(rd, "bw_bytes") / 1048576.0,
				tree_num(wr, "iops"), tree_num(wr, "bw_bytes") / 1048576.0);
		}
	fputs("</table></div>\n", fp);
}

/* A cell "mean ± CI" of a summary, with the unit of a latency. */
static void ci_cell(FILE *fp, const struct summary *s, bool ns)
{
	fputs("<td>", fp);
	if (ns) {
		html_put_ns(fp, s->mean);
		fputs(" ± ", fp);
		html_put_ns(fp, s->ci95);
	} else {
		fprintf(fp, "%.1f ± %.1f", s->mean, s->ci95);
	}
	fputs("</td>", fp);
}

/* The repeats of a job: per op type the mean ± CI of the columns' metrics
 * and the CV of its throughput, then elapsed and CPU. */
static void repeats(FILE *fp, const json_t *job)
{
	const struct metric *cols[5], *iops = metric_find("iops");
	struct dbio_err err = { 0 };
	int ncols = metric_parse_list("report", "iops,bw,lat_mean,p99,max", cols, 5, &err);
	struct summary s, el, cpu;

	fprintf(fp,
		"<h4>Repeats</h4>\n<p>%.0f complete runs: mean ± 95 %% confidence interval (Student's t). "
		"A coefficient of variation (CV) of ops/s above 10 %% is flagged.</p>\n"
		"<div class=\"scroll\"><table>\n<tr>",
		tree_num(json_object_get(job, "summary"), "runs"));
	html_th(fp, "op", true);
	for (int c = 0; c < ncols; c++)
		html_th(fp, cols[c]->column, false);
	html_th(fp, "CV of ops/s", false);
	fputs("</tr>\n", fp);
	for (int t = 0; t < OP_NTYPES; t++) {
		const char *name = op_type_name((enum op_type)t);
		double cv;

		if (!metric_summary(iops, job, name, &s))
			continue;
		cv = s.cv * 100;
		fprintf(fp, "<tr><td class=\"l\">%s</td>", name);
		for (int c = 0; c < ncols; c++) {
			if (cols[c]->scope == METRIC_PER_OP_BYTES && !metric_op_done(job, name, true)) {
				fputs("<td>–</td>", fp);
				continue;
			}
			metric_summary(cols[c], job, name, &s);
			ci_cell(fp, &s, metric_in_ns(cols[c]));
		}
		fprintf(fp, "<td%s>%.1f %%%s</td></tr>\n", cv > 10 ? " class=\"warn\"" : "", cv,
			cv > 10 ? " HIGH VARIATION" : "");
	}
	metric_summary(metric_find("elapsed"), job, NULL, &el);
	metric_summary(metric_find("cpu"), job, NULL, &cpu);
	fputs("</table></div>\n<p>elapsed ", fp);
	html_put_ns(fp, el.mean);
	fputs(" ± ", fp);
	html_put_ns(fp, el.ci95);
	fprintf(fp, ", CPU %.1f %% ± %.1f of one core</p>\n", cpu.mean, cpu.ci95);
}

static void series(FILE *fp, const struct html_report *r, size_t f, size_t j, const json_t *runs)
{
	static const char *const rank[] = { "worst", "second-worst" };
	struct views_series_shape sh;
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
		bool time_grid = !strcmp(tree_str(s, "grid"), "time");
		bool batch_grid = !strcmp(tree_str(s, "grid"), "batch");

		if (!s)
			continue;
		views_series_shape(s, &sh);
		fprintf(fp, "<li>run %zu: %zu ", i + 1,
			time_grid || batch_grid || !sh.even ? sh.points : sh.per_thread);
		if (time_grid) {
			fputs("intervals of ", fp);
			html_put_ns(fp, tree_num(s, "interval_ns"));
		} else if (batch_grid) {
			fputs("database batches (a point per batch of each thread)", fp);
		} else if (sh.even) {
			fprintf(fp, "intervals of %.0f reads and writes per thread",
				tree_num(s, "interval_ops"));
			if (sh.last_ops > 0)
				fprintf(fp, ", the last of %.0f", sh.last_ops);
		} else {
			fprintf(fp, "intervals of %.0f reads and writes of %zu threads, %zu of them partial",
				tree_num(s, "interval_ops"), sh.threads, sh.partial);
		}
		if (json_is_true(json_object_get(s, "truncated")))
			fputs(" <span class=\"warn\">(truncated: out of memory)</span>", fp);
		json_array_foreach (json_object_get(s, "worst"), k, w) {
			if (k >= 2)
				break;
			fprintf(fp, "; %s %s #%.0f", rank[k], batch_grid ? "batch" : "interval",
				tree_num(w, "index") + 1);
			if (!time_grid)
				fprintf(fp, " of thread %.0f", tree_num(w, "thread"));
			fputs(" ending ", fp);
			html_put_ns(fp, tree_num(w, "end_ns"));
			if (time_grid) {
				double d = tree_num(w, "duration_ns") / 1e9;

				fprintf(fp, ": %.0f reads and writes (%.1f ops/s)", tree_num(w, "count"),
					d > 0 ? tree_num(w, "count") / d : 0);
			} else {
				fprintf(fp, ": %.0f %s took ", tree_num(w, "count"),
					batch_grid ? "records" : "operations");
				html_put_ns(fp, tree_num(w, "duration_ns"));
			}
		}
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
	html_figure(fp, r, PLOT_SERIES, f, j);
}

/* Whether job j of input f has a series plot drawn. */
static bool series_drawn(const struct html_report *r, size_t f, size_t j)
{
	for (size_t i = 0; r->plots && i < r->plots->count; i++)
		if (r->plots->plots[i].kind == PLOT_SERIES && r->plots->plots[i].file == f &&
		    r->plots->plots[i].job == j && r->svgs[i])
			return true;
	return false;
}

/* What a power cut lost of what each run saw acknowledged
 * (runs[].durability: dbio crash, crash=1), in the text report's words,
 * beside the ops/s of the tables above: a line each, escaped. */
static void durability(FILE *fp, const json_t *runs)
{
	size_t i;
	json_t *run;

	json_array_foreach (runs, i, run) {
		char *text = NULL, *line, *nl;
		size_t len = 0;
		FILE *m;

		if (!json_object_get(run, "durability") || !(m = open_memstream(&text, &len)))
			continue;
		text_durability(m, run);
		if (fclose(m) || !text) {
			free(text);
			continue;
		}
		fputs("<pre class=\"durability\">", fp);
		for (line = text; *line; line = nl + 1) {
			if ((nl = strchr(line, '\n')))
				*nl = '\0';
			html_escape(fp, line);
			fputc('\n', fp);
			if (!nl)
				break;
		}
		fputs("</pre>\n", fp);
		free(text);
	}
}

void html_jobs(FILE *fp, const struct html_report *r, size_t f)
{
	const json_t *result = r->in[f].result;
	const json_t *jobs = json_object_get(result, "jobs");
	/* A sweep's or a matrix's table has every job: their sections can be cut. */
	bool cut = json_array_size(jobs) > HTML_MAX_JOBS &&
		   (json_object_get(result, "sweep") || json_object_get(result, "matrix"));
	size_t j, k, shown = 0;
	json_t *job, *warning;

	if (cut)
		fprintf(fp,
			"<p class=\"note\">%zu jobs: the sections of the first %d and of those whose series is "
			"drawn follow; the table above has every job.</p>\n",
			json_array_size(jobs), HTML_MAX_JOBS);
	json_array_foreach (jobs, j, job) {
		const json_t *runs = json_object_get(job, "runs");
		char label[512];

		if (cut && shown >= HTML_MAX_JOBS && !series_drawn(r, f, j))
			continue;
		shown++;
		fprintf(fp, "<h3 id=\"f%zu-j%zu\">job ", f + 1, j + 1);
		html_escape(fp, views_job_title(result, job, label, sizeof(label)));
		fputs("</h3>\n", fp);
		brief_options(fp, job);
		json_array_foreach (json_object_get(job, "warnings"), k, warning) {
			fputs("<p class=\"warn\">warning: ", fp);
			html_escape(fp, json_string_value(warning));
			fputs("</p>\n", fp);
		}
		op_tables(fp, runs);
		durability(fp, runs);
		directory_table(fp, runs);
		html_phases(fp, job);
		html_probe(fp, runs);
		if (json_array_size(runs) > 1 && tree_num(json_object_get(job, "summary"), "runs") > 0)
			repeats(fp, job);
		series(fp, r, f, j, runs);
	}
}
