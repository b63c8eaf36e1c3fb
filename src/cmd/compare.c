/*
 * dbio compare A.json B.json [C.json ...]: read result files, align their
 * jobs and sweep points, and print side by side each file's figures, the
 * change against the first file in percent and whether it is larger than
 * the noise (Welch's t-test over the runs), with the environment fields
 * that differ. The comparison itself is analysis/compare.c, printed by
 * views/comparison.c; this file reads the files, parses the command line,
 * prints warnings and errors, and decides the exit status (--fail-above
 * for CI pipelines).
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "analysis/compare.h"
#include "analysis/metric.h"
#include "views/comparison.h"
#include "views/explain.h"
#include "views/html.h"
#include "views/plot.h"
#include "util/atomic.h"
#include "views/table.h"
#include "util/list.h"
#include "result/result.h"

enum compare_format { COMPARE_TEXT, COMPARE_CSV, COMPARE_JSON, COMPARE_MARKDOWN };

struct compare_args {
	const char *files[COMPARE_MAX_FILES];
	size_t nfiles;
	const char *metrics;
	const char *ops;	/* --op: the op types that get rows, or NULL */
	const char *fail_above; /* as given, for messages */
	double fail_above_pct;	/* < 0: not given */
	double alpha;
	enum compare_format format;
	bool wide;	  /* --wide: a column per file however wide the table */
	bool stacked;	  /* --stacked: the files in rows however narrow */
	bool matrix;	  /* one matrix's result: as dbio matrix printed it */
	const char *html; /* --html FILE: the page too, or NULL */
};

/* A number >= 0 (with max: < max, and > 0); -1 when s is not one. */
static double parse_number(const char *s, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0 || (max > 0 && (v <= 0 || v >= max)))
		return -1;
	return v;
}

static int parse_alpha(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	struct compare_args *a = args;

	if ((a->alpha = parse_number(val, 1)) < 0) {
		cmd_error("compare: --alpha %s: expected a significance level between 0 and 1, e.g. 0.05",
			  val);
		return 2;
	}
	return 0;
}

static int parse_fail_above(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	struct compare_args *a = args;

	a->fail_above = val;
	if ((a->fail_above_pct = parse_number(val, 0)) < 0) {
		cmd_error("compare: --fail-above %s: expected a percentage >= 0, e.g. 5 or 2.5", val);
		return 2;
	}
	return 0;
}

static int parse_format(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	static const char *const names[] = { [COMPARE_TEXT] = "text",
					     [COMPARE_CSV] = "csv",
					     [COMPARE_JSON] = "json",
					     [COMPARE_MARKDOWN] = "markdown" };
	struct compare_args *a = args;

	for (size_t f = 0; f < sizeof(names) / sizeof(names[0]); f++)
		if (!strcmp(val, names[f])) {
			a->format = (enum compare_format)f;
			return 0;
		}
	cmd_error("compare: --format %s: expected text, markdown, csv or json", val);
	return 2;
}

/* A result file: an operand. */
static int compare_operand(const struct cmd_opts *spec, void *args, char *arg)
{
	struct compare_args *a = args;

	if (a->nfiles == COMPARE_MAX_FILES) {
		cmd_error("compare: more than %d result files", COMPARE_MAX_FILES);
		return 2;
	}
	a->files[a->nfiles++] = arg;
	return 0;
}

static const struct cmd_opt compare_rows[] = {
	{ .name = "--metric",
	  .value = "LIST",
	  .offset = offsetof(struct compare_args, metrics),
	  .help = "rows, from",
	  .help_more = cmd_opts_metric_lists,
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--op",
	  .value = "LIST",
	  .offset = offsetof(struct compare_args,
			     ops), /* op types or phases: checked when the files are read */
	  .help = "only the rows of these op types and phases (insert, or read,write; index: import's index "
		  "phase too); default every op type a job did and every phase it went through",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--alpha",
	  .value = "P",
	  .parse = parse_alpha,
	  .help = "significance level, 0 < P < 1 (default 0.05)",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--fail-above",
	  .value = "PCT",
	  .parse = parse_fail_above,
	  .help = "exit 1 when a significant regression is larger than PCT %",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--format",
	  .value = "FORMAT",
	  .parse = parse_format,
	  .help = "text (default), markdown (a table for mail), csv or json on standard output",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--wide",
	  .kind = CMD_OPT_FLAG,
	  .offset = offsetof(struct compare_args, wide),
	  .help = "text: a column per file, each change with its p-value, however wide" },
	{ .name = "--stacked",
	  .kind = CMD_OPT_FLAG,
	  .offset = offsetof(struct compare_args, stacked),
	  .help = "text: the files in rows (A, B, B vs A) under each job or point, the metrics in columns" },
	{ .name = "--html",
	  .value = "FILE",
	  .offset = offsetof(struct compare_args, html),
	  .help = "also write the comparison as one self-contained HTML page: the side-by-side figures and "
		  "why it changed, each counter that changed drawn beside it as a small chart of every file's "
		  "figure (small multiples); as dbio report A.json B.json --html FILE, without its plots",
	  .flags = CMD_OPT_NONEMPTY },
	{ 0 },
};

static const struct cmd_opt *const compare_tables[] = { compare_rows, cmd_opts_help_h, NULL };

static const struct cmd_opts cmd_compare_opts = {
	.name = "compare",
	.subject = "compare",
	.operands = "A.json B.json [C.json ...]",
	.synopsis = "       dbio compare MATRIX.json|SWEEP.json [--metric LIST] [--op LIST] [...]\n",
	.about = "Compares result files of `dbio run` or `dbio sweep` (--output): jobs and sweep\n"
		 "points are matched by name and point parameters. For each job (or point), op\n"
		 "type and metric it prints every file's value (mean ± 95 % confidence interval\n"
		 "when the job has repeats) and, for each file after the first, the change\n"
		 "against the first in percent with Welch's t-test over the complete runs:\n"
		 "\"significant\" when p < alpha, \"within noise\" otherwise, \"n/a (no repeats)\"\n"
		 "when a side has fewer than 2 runs. A regression is a significant change for\n"
		 "the worse (lower iops or bw, higher latency). Also lists the environment\n"
		 "fields that differ: kernel, host, vm settings, filesystems, devices, options.\n"
		 "One result of `dbio matrix` is shown again as its configurations compared; one\n"
		 "of `dbio sweep` as its table, a row per point: with any --metric and --op.\n"
		 "The text has a row per job or point and a column per file when that fits the\n"
		 "terminal (100 columns when standard output is not one), the changes shortened\n"
		 "to \"+16.7 % *\" when only that fits; else the files (A, B …) go in rows.\n",
	.tail = "Exit status: 0 compared, 1 a regression above --fail-above, 2 bad input.\n",
	.tables = compare_tables,
	.operand = compare_operand,
};

/* 0, -1 after --help, or 2 after printing the error. */
static int parse_args(int argc, char **argv, struct compare_args *a)
{
	int rc;

	*a = (struct compare_args){ .fail_above_pct = -1, .alpha = 0.05 };
	if ((rc = cmd_opts_parse(&cmd_compare_opts, argc, argv, a)))
		return rc;
	if (a->wide && a->stacked) {
		cmd_error(
			"compare: --wide and --stacked: give one of them (a column per file, or the files in rows)");
		return 2;
	}
	if (!a->nfiles) {
		cmd_error(
			"compare: expected result files, got none: dbio compare A.json B.json [C.json ...], or one result of dbio matrix or dbio sweep");
		return 2;
	}
	return 0;
}

/* Print each significant regression larger than the --fail-above limit;
 * returns how many. */
static size_t report_failures(const struct comparison *c, const struct compare_args *a)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nrows; i++)
		for (size_t f = 1; f < c->nfiles; f++) {
			const struct compare_row *r = &c->rows[i];
			const struct compare_change *ch = &r->changes[f];
			char label[512], text[128];

			if (!ch->regression || (ch->has_pct && fabs(ch->change_pct) <= a->fail_above_pct))
				continue;
			compare_row_label(r, label, sizeof(label));
			compare_change_text(r, f, text, sizeof(text));
			cmd_error(
				"compare: regression beyond --fail-above %s %%: %s %s %s: %s against %s: %s",
				a->fail_above, label, r->op, r->metric->name, c->names[f], c->names[0], text);
			n++;
		}
	return n;
}

static enum compare_layout layout_of(const struct compare_args *a)
{
	if (a->format == COMPARE_MARKDOWN)
		return COMPARE_LAYOUT_MARKDOWN;
	if (a->stacked)
		return COMPARE_LAYOUT_STACKED;
	return a->wide ? COMPARE_LAYOUT_WIDE : a->matrix ? COMPARE_LAYOUT_FIT_FULL : COMPARE_LAYOUT_FIT;
}

/* The terminal's width, or COMPARE_PIPE_COLUMNS when standard output is
 * not a terminal (or says no width). */
static size_t text_columns(void)
{
	struct winsize ws;

	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 20)
		return ws.ws_col;
	return COMPARE_PIPE_COLUMNS;
}

/* The counters that changed, below the text's figures (issue 30). */
static void explain_text(const struct comparison *c, const json_t *const *results)
{
	struct explanation x;

	if (explain_build(&x, c, results))
		cmd_error("compare: out of memory for the counters' explanation");
	else
		explain_print(stdout, c, &x);
	explain_release(&x);
}

/* --html FILE: the page of the files (views/html.c) without plots,
 * written atomically; 0, or 1 with the error printed. */
static int write_page(const char *html, const json_t *const *results, const char *const *names, size_t n)
{
	struct plot_input in[COMPARE_MAX_FILES];
	struct dbio_err err = { 0 };
	char *page = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&page, &len);
	int status = 1;

	for (size_t f = 0; f < n; f++)
		in[f] = (struct plot_input){ .label = names[f], .result = results[f] };
	if (!fp) {
		cmd_error("compare: out of memory");
		return 1;
	}
	html_report_write(fp, &(struct html_report){ .in = in, .n = n, .metric = metric_find("iops") });
	if (fclose(fp))
		cmd_error("compare: out of memory");
	else if (atomic_write(html, page, len, &err))
		cmd_error("compare: %s", err.msg);
	else
		status = 0;
	free(page);
	return status;
}

/* Build the comparison of results[0..n) named names[] and print it as
 * asked; the exit status. */
static int compare_results(const json_t *const *results, const char *const *names, size_t n,
			   const struct compare_args *a)
{
	const struct metric *metrics[COMPARE_MAX_METRICS];
	struct comparison c = { 0 };
	struct dbio_err err = { 0 };
	int nmetrics, rc, status = 0;

	if (a->metrics)
		nmetrics = metric_parse_list("compare", a->metrics, metrics, COMPARE_MAX_METRICS, &err);
	else
		nmetrics = (int)metric_defaults(results, n, metrics, COMPARE_MAX_METRICS);
	rc = compare_build(&c, results, names, n, metrics, (size_t)nmetrics, a->alpha, a->ops, &err);
	if (rc) { /* the error lists what each file has: no warnings */
		cmd_error("%s", err.msg);
		status = dbio_exit_status(rc);
		goto out;
	}
	for (size_t i = 0; i < c.nwarnings; i++)
		cmd_error("%s", c.warnings[i]);
	if (a->format == COMPARE_JSON) {
		json_t *doc = compare_json(&c);
		char *text = doc ? result_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
							     JSON_REAL_PRECISION(10))
				 : NULL;

		if (text)
			puts(text);
		else
			cmd_error("compare: out of memory");
		status = text ? 0 : 1;
		free(text);
		json_decref(doc);
	} else if (a->format == COMPARE_CSV) {
		compare_print_csv(stdout, &c);
	} else {
		compare_print_text(stdout, &c, layout_of(a),
				   a->matrix ? COMPARE_TEXT_COLUMNS : text_columns());
		explain_text(&c, results);
	}
	fflush(stdout);
	if (!status && a->html)
		status = write_page(a->html, results, names, n);
	if (!status && a->fail_above_pct >= 0 && report_failures(&c, a))
		status = 1;
out:
	compare_release(&c);
	return status;
}

/* One file: a matrix's configurations compared, or a sweep's table. */
static int show_one(const json_t *result, const struct compare_args *a)
{
	json_t *views[COMPARE_MAX_FILES];
	const char *names[COMPARE_MAX_FILES];
	int n, status;

	if (json_object_get(result, "sweep")) {
		if (a->format == COMPARE_JSON || a->format == COMPARE_MARKDOWN) {
			cmd_error("compare: %s: --format %s: a sweep's table is text or csv", a->files[0],
				  a->format == COMPARE_JSON ? "json" : "markdown");
			return 2;
		}
		table_points(stdout, result, a->metrics, a->ops, a->format == COMPARE_CSV);
		return 0;
	}
	n = compare_split_matrix(result, views, names, COMPARE_MAX_FILES);
	if (n < 0) {
		cmd_error("compare: out of memory");
		return 1;
	}
	if (n < 2) {
		cmd_error(
			"compare: %s: %s: give a second result file to compare it with (one result alone is shown for dbio matrix with 2 or more configurations, and for dbio sweep)",
			a->files[0],
			n ? "a matrix of one configuration" : "not a result of dbio matrix or dbio sweep");
		status = 2;
	} else {
		struct compare_args as_matrix = *a;

		as_matrix.matrix = true;
		status = compare_results((const json_t *const *)views, names, (size_t)n, &as_matrix);
	}
	for (int v = 0; v < n; v++)
		json_decref(views[v]);
	return status;
}

/* Whether some job of results[0..n) went through the phase of the len
 * bytes at name; with list, each phase's name is appended to it. */
static bool some_phase(const json_t *const *results, size_t n, const char *name, size_t len, char *list,
		       size_t size)
{
	bool found = false;

	for (size_t f = 0; f < n; f++) {
		const json_t *job;
		size_t i;

		json_array_foreach (json_object_get(results[f], "jobs"), i, job)
			for (size_t k = 0; metric_job_phase(job, k); k++) {
				const char *ph = metric_job_phase(job, k);

				found |= strlen(ph) == len && !strncmp(ph, name, len);
				if (list && !list_has(list, ph))
					snprintf(list + strlen(list), size - strlen(list), "%s%s",
						 *list ? "," : "", ph);
			}
	}
	return found;
}

/* --op: each item an op type, or a phase some job of the files went
 * through. 0, or 2 after the message. */
static int check_ops(const char *ops, const json_t *const *results, size_t n)
{
	char names[256], phases[256] = "", item[64];
	int pos = 1;

	for (const char *p = ops;; pos++) {
		size_t len = strcspn(p, ","), pre = cmd_phase_prefix(p, len);

		snprintf(item, sizeof(item), "%.*s", (int)len, p);
		if (len >= sizeof(item) || ((pre || cmd_check_ops(item, names, sizeof(names))) &&
					    !some_phase(results, n, p + pre, len - pre, NULL, 0))) {
			some_phase(results, n, "", 0, phases, sizeof(phases));
			for (char *c = strchr(phases, ','); c; c = strchr(c + 1, ','))
				*c = ' '; /* "schema load index": as a list in prose */
			cmd_error(
				"compare: --op %s: item %d is neither an op type nor a phase of these files' jobs: expected a list of %s%s%s",
				ops, pos, names, *phases ? "; or a phase: " : "", phases);
			return 2;
		}
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static int compare_main(int argc, char **argv)
{
	const struct metric *metrics[COMPARE_MAX_METRICS];
	json_t *results[COMPARE_MAX_FILES] = { 0 };
	struct dbio_err err = { 0 };
	struct compare_args a;
	int status;

	status = parse_args(argc, argv, &a);
	if (status)
		return status < 0 ? 0 : status;
	/* The list is checked before any file is read. */
	if (a.metrics && metric_parse_list("compare", a.metrics, metrics, COMPARE_MAX_METRICS, &err) < 0) {
		cmd_error("%s", err.msg);
		return 2;
	}
	for (size_t f = 0; f < a.nfiles; f++)
		if (result_load(a.files[f], &results[f], &err)) {
			cmd_error("compare: %s", err.msg);
			status = 2;
			goto out;
		}
	if (a.ops && (status = check_ops(a.ops, (const json_t *const *)results, a.nfiles)))
		goto out;
	if (a.html && a.nfiles == 1) {
		cmd_error(
			"compare: --html needs two result files or more (one file's page: dbio report FILE --html PAGE)");
		status = 2;
		goto out;
	}
	/* Refuse a page that cannot be written before comparing anything. */
	if (a.html && atomic_write_check("--html", a.html, &err)) {
		cmd_error("compare: %s", err.msg);
		status = 2;
		goto out;
	}
	if (a.nfiles == 1)
		status = show_one(results[0], &a);
	else
		status = compare_results((const json_t *const *)results, a.files, a.nfiles, &a);
out:
	for (size_t f = 0; f < a.nfiles; f++)
		json_decref(results[f]);
	return status;
}

const struct cmd cmd_compare = {
	.name = "compare",
	.summary = "compare result files side by side: change in percent, and whether it is noise",
	.main = compare_main,
	.opts = &cmd_compare_opts,
};
