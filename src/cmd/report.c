/*
 * dbio report RESULT.json... --html FILE: one self-contained HTML page of
 * result files (views/html.c), with the plots of `dbio plot` drawn as SVG by
 * gnuplot in memory (no temporary files) and embedded. Without gnuplot the page
 * has the tables only and says why. The page is written atomically.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metric.h"
#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "result/result.h"
#include "views/html.h"
#include "run/run.h"
#include "views/plot.h"
#include "views/text.h"
#include "util/atomic.h"

struct report_args {
	const char *html, *metric, *ops;
	struct plot_input *in; /* the result files, argc entries */
	size_t n;
};

/* A result file: an operand. */
static int report_operand(const struct cmd_opts *spec, void *args, char *arg)
{
	struct report_args *a = args;

	(void)spec;
	a->in[a->n++].label = arg;
	return 0;
}

static const struct cmd_opt report_rows[] = {
	{ .name = "--html",
	  .value = "FILE",
	  .offset = offsetof(struct report_args, html),
	  .help = "the page to write (atomically)" },
	{ .name = "--metric",
	  .value = "NAME",
	  .offset = offsetof(struct report_args, metric),
	  .help = "what sweep curves and comparison bars show (default iops); without --html, a LIST "
		  "as for dbio compare:",
	  .help_more = cmd_opts_metric_names },
	{ .name = "--op",
	  .value = "LIST",
	  .offset = offsetof(struct report_args, ops),
	  .help = "the op types of the sweep, comparison and latency plots (insert, or read,write; "
		  "default: every one)" },
	{ 0 },
};

static const struct cmd_opt *const report_tables[] = { report_rows, cmd_opts_help_h, NULL };

static const struct cmd_opts cmd_report_opts = {
	.name = "report",
	.subject = "report",
	.operands = "RESULT.json [MORE.json...]",
	.about = "Without --html, prints the text: a result of dbio run as dbio run printed it;\n"
		 "a matrix or sweep result, or several files, as dbio compare shows them.\n\n"
		 "With --html, writes one self-contained HTML page (no scripts, no external\n"
		 "files; readable on a phone, printable) of dbio result files: the environment\n"
		 "(host, kernel, memory, writeback settings, filesystems and disks), per job the\n"
		 "op tables (ops/s, MiB/s, latency percentiles) of every op type the job did\n"
		 "(inserts, commits, batches too), CPU, faults and context switches, a database\n"
		 "workload's phases and the stall probe, the repeats' mean and 95 % confidence\n"
		 "interval with a flag for high variation, the per-interval series, sweep\n"
		 "tables, a matrix's configurations named A, B ... side by side, and with\n"
		 "several files a side-by-side table with the change against the first. The\n"
		 "plots of `dbio plot` are embedded as SVG; without gnuplot (Debian:\n"
		 "gnuplot-nox) the page has the tables only and says so.\n",
	.tail = "Exit status: 0 written (or printed), 1 could not write, 2 bad input.\n",
	.tables = report_tables,
	.operand = report_operand,
};

/* Draw the plots as SVG into svgs[] (NULL where a plot could not be
 * drawn). Returns a note for the page when plots are missing, else NULL. */
static const char *draw(const struct plot_input *in, size_t n, const struct metric *m, const char *ops,
			struct plot_set *set, char ***svgs, char *note, size_t notelen)
{
	struct dbio_err err = { 0 };

	*svgs = NULL;
	if (!plot_have_gnuplot()) {
		snprintf(note, notelen, "Plots omitted: %s.", plot_no_gnuplot);
		cmd_error("report: %s: the page has the tables only", plot_no_gnuplot);
		return note;
	}
	if (plot_prepare(in, n, m, ops, PLOT_SVG, set, &err)) {
		snprintf(note, notelen, "Plots omitted: %s.", err.msg);
		cmd_error("report: %s", err.msg);
		return note;
	}
	*svgs = calloc(set->count + 1, sizeof(**svgs));
	if (!*svgs) {
		snprintf(note, notelen, "Plots omitted: out of memory.");
		return note;
	}
	for (size_t i = 0; i < set->count && !atomic_load(&run_stop_signal); i++) {
		struct dbio_err perr = { 0 };
		size_t len;

		if (plot_render(&set->plots[i], &(*svgs)[i], &len, &perr) && !err.code) {
			dbio_err_set(&err, perr.code, "%s", perr.msg);
			cmd_error("report: %s", perr.msg);
		}
	}
	if (err.code) {
		snprintf(note, notelen, "Some plots could not be drawn: %s.", err.msg);
		return note;
	}
	if (set->series_drawn < set->series_jobs) {
		snprintf(
			note, notelen,
			"Series plots of %zu of the %zu jobs with a series: at most %d per result file, those "
			"with the longest worst interval.",
			set->series_drawn, set->series_jobs, PLOT_MAX_SERIES);
		return note;
	}
	return NULL;
}

/* dbio compare (compare.c): report's text of several files is its table. */
extern const struct cmd cmd_compare;

/* Without --html, the text: one result of dbio run as dbio run printed
 * it; a matrix or sweep result, or several files, as dbio compare shows
 * them (the same arguments: --metric and --op mean the same there). */
static int report_text(int argc, char **argv, struct plot_input *in, size_t n, const char *html)
{
	struct dbio_err err = { 0 };
	json_t *r;

	if (html) { /* --html "" */
		cmd_error("report: --html FILE is required: the page to write");
		return 2;
	}
	if (n > 1)
		return cmd_compare.main(argc, argv);
	if (result_load(in[0].label, &r, &err)) {
		cmd_error("report: %s", err.msg);
		return 2;
	}
	in[0].result = r;
	if (json_object_get(r, "sweep") || json_object_get(r, "matrix"))
		return cmd_compare.main(argc, argv);
	text_report(stdout, r);
	if (json_array_size(json_object_get(r, "jobs")) > 1)
		text_summary(stdout, r, false);
	return 0;
}

static int report_main(int argc, char **argv)
{
	struct report_args a = { .metric = "iops" };
	const char *html, *metric, *ops, *note;
	struct plot_input *in = NULL;
	struct plot_set set = { 0 };
	struct dbio_err err = { 0 };
	const struct metric *m;
	char **svgs = NULL, *page = NULL, notebuf[1200];
	size_t n = 0, pagelen = 0;
	int status = 2;
	FILE *fp;

	in = calloc((size_t)argc, sizeof(*in));
	if (!in) {
		cmd_error("report: out of memory");
		return 1;
	}
	a.in = in;
	if ((status = cmd_opts_parse(&cmd_report_opts, argc, argv, &a))) {
		status = status < 0 ? 0 : status;
		goto out;
	}
	n = a.n, html = a.html, metric = a.metric, ops = a.ops;
	status = 2;
	if (!n) {
		cmd_error(
			"report: no result file: usage: dbio report RESULT.json [MORE.json...] --html FILE");
		goto out;
	}
	if (!html || !*html) {
		status = report_text(argc, argv, in, n, html);
		goto out;
	}
	if (ops && cmd_ops_refused("report", ops))
		goto out;
	if (!(m = metric_find(metric))) {
		char names[512];

		cmd_error("report: --metric '%s': unknown: expected one of %s", metric,
			  metric_names(names, sizeof(names), ", ", false));
		goto out;
	}
	for (size_t f = 0; f < n; f++) {
		json_t *r;

		if (result_load(in[f].label, &r, &err)) {
			cmd_error("report: %s", err.msg);
			goto out;
		}
		in[f].result = r;
	}
	/* Refuse an output that cannot be written before drawing anything. */
	if (atomic_write_check("--html", html, &err)) {
		cmd_error("report: %s", err.msg);
		goto out;
	}
	status = 1;
	/* A signal stops the drawing, and no page is written. */
	run_signals_install();
	note = draw(in, n, m, ops, &set, &svgs, notebuf, sizeof(notebuf));
	if (atomic_load(&run_stop_signal)) {
		cmd_error("report: interrupted by %s: no page written",
			  run_signal_name(atomic_load(&run_stop_signal)));
		status = 128 + atomic_load(&run_stop_signal);
		goto out_svgs;
	}
	fp = open_memstream(&page, &pagelen);
	if (!fp) {
		cmd_error("report: out of memory");
		goto out_svgs;
	}
	html_report_write(fp, &(struct html_report){ .in = in,
						     .n = n,
						     .metric = m,
						     .plots = svgs ? &set : NULL,
						     .svgs = (const char *const *)svgs,
						     .note = note });
	if (fclose(fp)) {
		cmd_error("report: out of memory");
		goto out_page;
	}
	if (atomic_write(html, page, pagelen, &err)) {
		cmd_error("report: %s", err.msg);
		goto out_page;
	}
	status = 0;
out_page:
	free(page);
out_svgs:
	for (size_t i = 0; svgs && i < set.count; i++)
		free(svgs[i]);
	free(svgs);
	plot_set_release(&set);
out:
	for (size_t f = 0; f < n; f++)
		result_release_at_exit((json_t *)in[f].result);
	free(in);
	return status;
}

const struct cmd cmd_report = {
	.name = "report",
	.summary = "one self-contained HTML page of result files, with tables and plots",
	.main = report_main,
	.opts = &cmd_report_opts,
};
