/*
 * dbio plot RESULT.json... --out DIR: draw the plots of result files with
 * gnuplot (views/plot.c) into DIR — per-interval series, latency by
 * percentile, sweep curves and, for several files, comparison bars — and
 * keep each plot's data file and gnuplot script beside its image.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/metric.h"
#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "result/result.h"
#include "views/plot.h"
#include "util/atomic.h"
#include "util/safepath.h"

struct plot_args {
	const char *out, *format, *metric, *ops;
	struct plot_input *in; /* the result files, argc entries */
	size_t n;
};

/* A result file: an operand. */
static int plot_operand(const struct cmd_opts *spec, void *args, char *arg)
{
	struct plot_args *a = args;

	(void)spec;
	a->in[a->n++].label = arg;
	return 0;
}

static const struct cmd_opt plot_rows[] = {
	{ .name = "--out",
	  .value = "DIR",
	  .offset = offsetof(struct plot_args, out),
	  .help = "where to write the plots (required)",
	  .flags = CMD_OPT_REQUIRED },
	{ .name = "--format",
	  .value = "svg|png",
	  .offset = offsetof(struct plot_args, format),
	  .help = "svg (default) or png" },
	{ .name = "--metric",
	  .value = "NAME",
	  .offset = offsetof(struct plot_args, metric),
	  .help = "what sweep curves and comparison bars show (default iops):",
	  .help_more = cmd_opts_metric_names },
	{ .name = "--op",
	  .value = "LIST",
	  .offset = offsetof(struct plot_args, ops),
	  .help = "the op types of the sweep, comparison and latency plots (insert, or read,write; "
		  "default: every one)" },
	{ 0 },
};

static const struct cmd_opt *const plot_tables[] = { plot_rows, cmd_opts_help_h, NULL };

static const struct cmd_opts cmd_plot_opts = {
	.name = "plot",
	.subject = "plot",
	.operands = "RESULT.json [MORE.json...]",
	.about = "Draws the plots of dbio result files with gnuplot into DIR (created if missing):\n"
		 "  series-j<N>-<job>    per job with log_interval=: ops/s per interval (time grid)\n"
		 "                       or the time each N-op interval took (count grid), over\n"
		 "                       the max latency per interval; worst intervals marked\n"
		 "  latency              latency by percentile per job and op type (log axes)\n"
		 "  sweep-<metric>       for sweeps: the metric against the varied value (the last\n"
		 "                       --vary), mean with 95 % CI error bars, a curve per op\n"
		 "                       type and result file\n"
		 "  compare-<metric>     for several files: a bar per file (A, B ...), per job and\n"
		 "                       op type\n"
		 "  matrix-<metric>      for a matrix: a bar per configuration (A, B ...)\n"
		 "  phases               for database workloads: each phase's elapsed time per job\n"
		 "An ops/s metric is drawn per kind of operation (records, commits, batches ...):\n"
		 "-<kind> is added to the name when a result has several.\n"
		 "With several files the series and latency plots are named -f<N>- by file.\n"
		 "Beside each image are its data (.dat) and gnuplot script (.gp).\n",
	.tail = "Needs gnuplot (Debian: apt-get install gnuplot-nox). Prints the images it wrote.\n"
		"Exit status: 0 done, 1 gnuplot missing or failed, 2 bad input (a result file, an\n"
		"option, or a DIR that cannot be made or written; nothing is drawn).\n",
	.tables = plot_tables,
	.operand = plot_operand,
};

/* dir/name+ext, replaced as --output would be (util/atomic.h): a symlink
 * someone else planted in dir is not followed. */
static int put(const char *dir, const char *name, const char *ext, const char *data, size_t len,
	       struct dbio_err *err)
{
	char *path = NULL;
	int rc;

	if (asprintf(&path, "%s/%s%s", dir, name, ext) < 0)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	rc = atomic_write(path, data, len, err);
	free(path);
	return rc;
}

/* Whether --out DIR is (or is now made) a directory dbio can write in,
 * reached through no symlink of another user (util/safepath.h: each
 * file is then written by atomic_write, which walks the path again);
 * says why not. */
static bool out_dir_ok(const char *out)
{
	struct dbio_err err = { 0 };
	struct safepath sp;
	char self[64];
	int rc = safepath_resolve("--out", out, &sp, &err), fd;
	bool ok = false;

	if (!rc && sp.fd < 0 && sp.dirfd >= 0 && mkdirat(sp.dirfd, sp.leaf, 0777) && errno != EEXIST)
		rc = -errno;
	safepath_release(&sp);
	if (rc == DBIO_EUNSAFE) {
		cmd_error("plot: %s", err.msg);
		return false;
	}
	if (rc) {
		cmd_error("plot: --out %s: cannot create: %s", out, strerror(-rc));
		return false;
	}
	if ((fd = safepath_open_dir("--out", out, &err)) == DBIO_EUNSAFE) {
		cmd_error("plot: %s", err.msg);
		return false;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	if (fd < 0)
		cmd_error("plot: --out %s: not a directory", out);
	else if (access(self, W_OK))
		cmd_error("plot: --out %s: cannot write there: %s", out, strerror(errno));
	else
		ok = true;
	if (fd >= 0)
		close(fd);
	return ok;
}

/* Draw each plot of set and write it, its data and script into out,
 * printing the image's path; says what failed. 0 or -1. */
static int write_plots(const char *out, const struct plot_set *set)
{
	struct dbio_err err = { 0 };
	int rc;

	for (size_t p = 0; p < set->count; p++) {
		const struct plot *pl = &set->plots[p];
		char *image = NULL;
		size_t len = 0;

		if ((rc = plot_render(pl, &image, &len, &err)) ||
		    (rc = put(out, pl->stem, ".dat", pl->data, pl->data_len, &err)) ||
		    (rc = put(out, pl->stem, ".gp", pl->script, pl->script_len, &err)) ||
		    (rc = put(out, pl->image, "", image, len, &err))) {
			free(image);
			cmd_error("plot: %s", err.msg);
			return -1;
		}
		free(image);
		printf("%s/%s\n", out, pl->image);
	}
	return 0;
}

static int plot_main(int argc, char **argv)
{
	struct plot_args a = { .format = "svg", .metric = "iops" };
	const char *out, *format, *metric, *ops;
	struct plot_input *in = NULL;
	struct plot_set set = { 0 };
	struct dbio_err err = { 0 };
	const struct metric *m;
	enum plot_format fmt;
	size_t n = 0;
	int status = 2, rc;

	in = calloc((size_t)argc, sizeof(*in));
	if (!in) {
		cmd_error("plot: out of memory");
		return 1;
	}
	a.in = in;
	if ((status = cmd_opts_parse(&cmd_plot_opts, argc, argv, &a))) {
		status = status < 0 ? 0 : status;
		goto out;
	}
	n = a.n, out = a.out, format = a.format, metric = a.metric, ops = a.ops;
	status = 2;
	if (!n) {
		cmd_error("plot: no result file: usage: dbio plot RESULT.json [MORE.json...] --out DIR");
		goto out;
	}
	if (!out || !*out) {
		cmd_error("plot: --out DIR is required: the directory to write the plots to");
		goto out;
	}
	if (!strcmp(format, "svg")) {
		fmt = PLOT_SVG;
	} else if (!strcmp(format, "png")) {
		fmt = PLOT_PNG;
	} else {
		cmd_error("plot: --format '%s': unknown: expected svg or png", format);
		goto out;
	}
	if (ops && cmd_ops_refused("plot", ops))
		goto out;
	if (!(m = metric_find(metric))) {
		char names[512];

		cmd_error("plot: --metric '%s': unknown: expected one of %s", metric,
			  metric_names(names, sizeof(names), ", ", false));
		goto out;
	}
	for (size_t f = 0; f < n; f++) {
		json_t *r;

		if ((rc = result_load(in[f].label, &r, &err))) {
			cmd_error("plot: %s", err.msg);
			goto out;
		}
		in[f].result = r;
	}
	if (!plot_have_gnuplot()) {
		cmd_error("plot: %s", plot_no_gnuplot);
		status = 1;
		goto out;
	}
	if (!out_dir_ok(out))
		goto out;
	status = 1;
	if ((rc = plot_prepare(in, n, m, ops, fmt, &set, &err))) {
		cmd_error("plot: %s", err.msg);
		goto out_set;
	}
	if (!set.count) {
		cmd_error("plot: nothing to plot: the results hold no jobs with operations");
		goto out_set;
	}
	if (write_plots(out, &set))
		goto out_set;
	if (set.series_drawn < set.series_jobs)
		cmd_error("plot: series of %zu of the %zu jobs with one drawn: at most %d per result file, "
			  "those with the longest worst interval",
			  set.series_drawn, set.series_jobs, PLOT_MAX_SERIES);
	status = 0;
out_set:
	plot_set_release(&set);
out:
	for (size_t f = 0; f < n; f++)
		result_release_at_exit((json_t *)in[f].result);
	free(in);
	return status;
}

const struct cmd cmd_plot = {
	.name = "plot",
	.summary = "draw result files with gnuplot: series, latency percentiles, sweeps, comparisons",
	.main = plot_main,
	.opts = &cmd_plot_opts,
};
