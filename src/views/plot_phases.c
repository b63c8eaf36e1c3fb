/*
 * The elapsed time of each phase of a database workload (schema, load,
 * index; insert) per job, drawn with gnuplot: S0's question, how long the
 * index rebuild took on each filesystem, as bars (see plot.h). The
 * figures are those of the HTML page's phase tables (views_phase_summary),
 * read from runs[].phases.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/tree.h"
#include "views/views_int.h"

#define PHASES_MAX 8

/* The names of the phases of the jobs' first runs, in order of
 * appearance, into names[0..PHASES_MAX); returns how many. */
static size_t phase_names(const json_t *jobs, const char **names)
{
	size_t n = 0, j, p;
	json_t *job, *phase;

	json_array_foreach (jobs, j, job) {
		json_array_foreach (
			json_object_get(json_array_get(json_object_get(job, "runs"), 0), "phases"), p,
			phase) {
			const char *name = tree_str(phase, "name");
			bool seen = false;

			for (size_t k = 0; k < n; k++)
				seen |= !strcmp(names[k], name);
			if (!seen && n < PHASES_MAX)
				names[n++] = name;
		}
	}
	return n;
}

int plot_phases(struct plot_ctx *c, const struct plot_input *in, size_t nin, size_t f)
{
	const json_t *jobs = json_object_get(in[f].result, "jobs");
	const char *names[PHASES_MAX];
	size_t nph = phase_names(jobs, names), nrows = 0, j;
	char label[512];
	double ymax = 0;
	json_t *job;
	int rc;

	if (!nph)
		return 0;
	json_array_foreach (jobs, j, job)
		for (size_t k = 0; k < nph; k++) {
			struct summary s;

			if (views_phase_summary(job, names[k], "elapsed_ns", &s) && s.mean + s.ci95 > ymax)
				ymax = s.mean + (s.n > 1 ? s.ci95 : 0);
		}
	struct plot_unit yu = plot_time_unit(ymax);

	rc = plot_begin_of_file(c, PLOT_PHASES, in, nin, f, "phases",
				"elapsed time per phase (mean, 95 % CI), a bar per phase");
	if (rc)
		return plot_end(c, rc);
	/* One line per job (at most PLOT_MAX_CURVES): its number, then mean and CI of each phase. */
	json_array_foreach (jobs, j, job) {
		if (nrows == PLOT_MAX_CURVES)
			break;
		fprintf(c->dat, "%zu", nrows++);
		for (size_t k = 0; k < nph; k++) {
			struct summary s;

			if (views_phase_summary(job, names[k], "elapsed_ns", &s))
				fprintf(c->dat, " %.9g %.9g", s.mean / yu.div, s.n > 1 ? s.ci95 / yu.div : 0);
			else
				fputs(" ? ?", c->dat);
		}
		fputc('\n', c->dat);
	}
	plot_block_end(c);
	for (size_t k = 0; k < nph; k++) {
		fprintf(plot_curve(c, 0), "dat using %zu:%zu title ", 2 + 2 * k, 3 + 2 * k);
		plot_gp_str(c->panel[0].fp, names[k]);
	}
	fprintf(c->gp, "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
		       "set style fill solid 0.7 border -1\nset boxwidth 0.9\nset grid noxtics\n"
		       "set xtics rotate by -20 left (");
	json_array_foreach (jobs, j, job) {
		if (j == nrows)
			break;
		fputs(j ? ", " : "", c->gp);
		plot_gp_str(c->gp, views_job_title(in[f].result, job, label, sizeof(label)));
		fprintf(c->gp, " %zu", j);
	}
	fprintf(c->gp,
		")\nset xrange [-0.6:%zu.6]\nset xlabel 'job'\nset ylabel 'elapsed time (%s)'\n"
		"set yrange [0:*]\n",
		nrows - 1, yu.name);
	plot_panel_flush(c, 0);
	return plot_end(c, 0);
}
