/*
 * The plots of a metric (analysis/metric.h) across results, with gnuplot:
 * sweep curves (the metric against the varied value) and comparison bars
 * (a bar per result, per job and op type); see plot.h. The figures are
 * metric_figure's; the bars' rows are analysis/match.h's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/match.h"
#include "analysis/tree.h"
#include "stats/opstats.h"
#include "util/list.h"
#include "views/views_int.h"

/* What one operation of each op type is, in stats/opstats.h's order. */
static const char *const op_units[OP_NTYPES] = {
	[OP_READ] = "I/Os",
	[OP_WRITE] = "I/Os",
	[OP_FSYNC] = "syncs",
	[OP_FDATASYNC] = "syncs",
	[OP_INSERT] = "records",
	[OP_LOOKUP] = "records",
	[OP_UPDATE] = "records",
	[OP_COMMIT] = "commits",
	[OP_BATCH] = "batches",
	[OP_INDEX] = "index builds",
	[OP_TXN] = "transactions",
	[OP_LOG] = "log writes",
	[OP_SYNC_FILE_RANGE] = "syncs",
	[OP_CREATE] = "files",
	[OP_STAT] = "files",
	[OP_DELETE] = "files",
	[OP_TRIM] = "trims",
	[OP_RENAME] = "files",
};

const char *plot_op_unit(const char *name)
{
	for (int t = 0; t < OP_NTYPES; t++)
		if (!strcmp(op_type_name((enum op_type)t), name))
			return op_units[t] ? op_units[t] : "operations";
	return "operations";
}

bool plot_op_wanted(const struct plot_ctx *c, const char *op)
{
	return !c->ops || list_has(c->ops, op);
}

/* unit in a file name: lower case, letters and digits, '-' for a space
 * ("I/Os" is "ios", "index builds" "index-builds"). */
static void unit_stem(char *buf, size_t len, const char *unit)
{
	size_t i = 0;

	for (; *unit && i + 1 < len; unit++)
		if ((*unit >= 'a' && *unit <= 'z') || (*unit >= '0' && *unit <= '9'))
			buf[i++] = *unit;
		else if (*unit >= 'A' && *unit <= 'Z')
			buf[i++] = (char)(*unit - 'A' + 'a');
		else if (*unit == ' ')
			buf[i++] = '-';
	buf[i] = 0;
}

/* Whether metric m counts operations (ops/s): its curves are split by
 * what an operation is. */
static bool counts_ops(const struct metric *m)
{
	return metric_per_op(m) && !strcmp(m->unit, "ops/s");
}

/* ---- sweep curves --------------------------------------------------------- */

#define SWEEP_MAX_TICKS 32 /* values swept that get a tick each */

struct sweep_curve {
	char name[600];
	size_t file;
	size_t npts, cap;
	double *x, *y, *ci; /* npts points of cap, grown as a sweep has them */
};

/* Whether a varied key's values are numbers: its vary[].unit says so (a
 * result of a dbio before units were recorded: when the option is a
 * number). */
static bool numeric_unit(const char *unit, const json_t *opt)
{
	if (!unit)
		return json_is_number(opt);
	return !strcmp(unit, "bytes") || !strcmp(unit, "ns") || !strcmp(unit, "count");
}

/* The x value of a sweep point: the job's resolved option when the key is
 * numeric (unit), else the position of its text among cats[]. */
static bool sweep_x(const char *key, const char *unit, const json_t *job, char cats[][128], size_t *ncats,
		    double *x)
{
	const json_t *opt = json_object_get(json_object_get(job, "options"), key);
	const char *text = tree_str(json_object_get(job, "point"), key);

	if (numeric_unit(unit, opt) && json_is_number(opt)) {
		*x = json_number_value(opt);
		return true;
	}
	for (size_t i = 0; i < *ncats; i++)
		if (!strcmp(cats[i], text)) {
			*x = (double)i;
			return true;
		}
	if (*ncats == 64)
		return false;
	snprintf(cats[*ncats], 128, "%s", text);
	*x = (double)(*ncats)++;
	return true;
}

/* Room for twice as many points; -ENOMEM leaves the curve as it was. */
static int curve_grow(struct sweep_curve *s)
{
	size_t cap = s->cap ? 2 * s->cap : 64;
	double *x = realloc(s->x, cap * sizeof(*x)), *y, *ci;

	if (!x)
		return -ENOMEM;
	s->x = x;
	if (!(y = realloc(s->y, cap * sizeof(*y))))
		return -ENOMEM;
	s->y = y;
	if (!(ci = realloc(s->ci, cap * sizeof(*ci))))
		return -ENOMEM;
	s->ci = ci;
	s->cap = cap;
	return 0;
}

static struct sweep_curve *find_curve(struct sweep_curve *cv, size_t *n, const char *name, size_t file)
{
	for (size_t i = 0; i < *n; i++)
		if (cv[i].file == file && !strcmp(cv[i].name, name))
			return &cv[i];
	if (*n == PLOT_MAX_CURVES)
		return NULL;
	memset(&cv[*n], 0, sizeof(cv[*n]));
	snprintf(cv[*n].name, sizeof(cv[*n].name), "%s", name);
	cv[*n].file = file;
	return &cv[(*n)++];
}

/* What a sweep plot shows, gathered from the inputs before any is drawn. */
struct sweep_data {
	const char *xkey;  /* the varied key of the x axis: every sweep's last --vary */
	const char *xunit; /* its vary[].unit (bytes, ns, count, text), NULL in older results */
	struct sweep_curve *cv;
	size_t ncv;
	char (*cats)[128]; /* the x values of a key that is not numeric, in order of appearance */
	size_t ncats;
	size_t nfiles; /* inputs that are sweeps over xkey */
	double ymax, xmin, xmax;
};

/* The legend of a curve: the input (with several), the job (with several
 * per point), the other varied keys' values, and the op. */
static void curve_name(char *name, size_t len, const struct plot_input *in, size_t nin, const json_t *job,
		       bool many_jobs, const json_t *vary, const char *op)
{
	size_t nvary = json_array_size(vary), used = 0;

	name[0] = 0;
	if (nin > 1)
		used += snprintf(name, len, "%s ", in->label);
	if (many_jobs && used < len)
		used += snprintf(name + used, len - used, "%s ", tree_str(job, "name"));
	for (size_t v = 0; v + 1 < nvary && used < len; v++) {
		const char *vk = tree_str(json_array_get(vary, v), "key");

		used += snprintf(name + used, len - used, "%s=%s ", vk,
				 tree_str(json_object_get(job, "point"), vk));
	}
	if (used < len)
		snprintf(name + used, len - used, "%s", op);
}

/* The points of every curve: per input that sweeps over the same key as
 * the first, per job entry and op of m with a figure. */
static void sweep_collect(struct sweep_data *d, const struct plot_ctx *c, const struct plot_input *in,
			  size_t nin, const struct metric *m, const char *unit)
{
	for (size_t f = 0; f < nin; f++) {
		const json_t *sweep = json_object_get(in[f].result, "sweep");
		const json_t *vary = json_object_get(sweep, "vary");
		size_t nvary = json_array_size(vary), j;
		const char *key = tree_str(json_array_get(vary, nvary - 1), "key");
		bool many_jobs = tree_num(sweep, "jobs_per_point") > 1;
		json_t *job;

		if (!nvary || (d->xkey && strcmp(key, d->xkey)))
			continue; /* not a sweep, or over another key */
		d->xkey = key;
		if (!d->xunit)
			d->xunit =
				json_string_value(json_object_get(json_array_get(vary, nvary - 1), "unit"));
		d->nfiles++;
		json_array_foreach (json_object_get(in[f].result, "jobs"), j, job) {
			const char *op;
			double x;

			if (!sweep_x(d->xkey, d->xunit, job, d->cats, &d->ncats, &x))
				continue;
			for (size_t k = 0; (op = metric_op(m, k)); k++) {
				struct sweep_curve *s;
				char name[600];
				double y, ci;

				if ((metric_per_op(m) && !plot_op_wanted(c, op)) ||
				    (unit && strcmp(plot_op_unit(op), unit)) ||
				    !metric_figure(m, job, op, &y, &ci))
					continue;
				curve_name(name, sizeof(name), &in[f], nin, job, many_jobs, vary, op);
				s = find_curve(d->cv, &d->ncv, name, f);
				if (!s || (s->npts == s->cap && curve_grow(s)))
					continue;
				s->x[s->npts] = x;
				s->y[s->npts] = y;
				s->ci[s->npts++] = ci;
				d->ymax = y + ci > d->ymax ? y + ci : d->ymax;
				if ((!d->xmin || x < d->xmin) && x > 0)
					d->xmin = x;
				d->xmax = x > d->xmax ? x : d->xmax;
			}
		}
	}
}

/* Ticks at the values swept, and the x range. */
static void sweep_xaxis(struct plot_ctx *c, const struct sweep_data *d, bool numeric, struct plot_unit xu)
{
	double done[SWEEP_MAX_TICKS + 1];
	size_t ndone = 0;

	/* The values swept, as ticks; gnuplot's own ticks when there are more
	 * than SWEEP_MAX_TICKS (a long sweep's labels would overlap). */
	for (size_t i = 0; numeric && i < d->ncv && ndone <= SWEEP_MAX_TICKS; i++)
		for (size_t p = 0; p < d->cv[i].npts && ndone <= SWEEP_MAX_TICKS; p++) {
			bool seen = false;

			for (size_t k = 0; k < ndone; k++)
				seen |= done[k] == d->cv[i].x[p];
			if (!seen)
				done[ndone++] = d->cv[i].x[p];
		}
	if (numeric && ndone <= SWEEP_MAX_TICKS) {
		fprintf(c->gp, "set xtics (");
		for (size_t k = 0; k < ndone; k++)
			fprintf(c->gp, "%s'%g' %.9g", k ? ", " : "", done[k] / xu.div, done[k] / xu.div);
		fprintf(c->gp, ")\n");
	} else if (!numeric) {
		fprintf(c->gp, "set xtics (");
		for (size_t i = 0; i < d->ncats; i++) {
			fputs(i ? ", " : "", c->gp);
			plot_gp_str(c->gp, d->cats[i]);
			fprintf(c->gp, " %zu", i);
		}
		fprintf(c->gp, ")\n");
	}
	if (numeric && d->xmin > 0 && d->xmax / d->xmin >= 8)
		fprintf(c->gp, "set logscale x 2\nset xrange [%.9g:%.9g]\n", d->xmin / xu.div / 1.2,
			d->xmax / xu.div * 1.2);
	else if (numeric)
		fprintf(c->gp, "set offsets graph 0.05, graph 0.05, 0, 0\n");
	else
		fprintf(c->gp, "set xrange [-0.5:%zu.5]\n", d->ncats - 1);
}

/* The sweep plot of m over the op types whose operations are unit (NULL:
 * every op type); split names the plot by unit. */
static int sweep_one(struct plot_ctx *c, const struct plot_input *in, size_t nin, const struct metric *m,
		     const char *unit, bool split)
{
	struct sweep_data d = { .cv = calloc(PLOT_MAX_CURVES, sizeof(*d.cv)), .cats = calloc(64, 128) };
	char title[1024], stem[96], xl[256], yname[64], us[32];
	int rc = 0;

	if (!d.cv || !d.cats) {
		rc = dbio_err_set(c->err, -ENOMEM, "plot: out of memory");
		goto out;
	}
	sweep_collect(&d, c, in, nin, m, unit);
	if (!d.ncv)
		goto out;
	bool numeric = !d.ncats;
	struct plot_unit xu = { "count", 1 }, yu = { m->unit, 1 };

	if (numeric && d.xunit && !strcmp(d.xunit, "bytes"))
		xu = plot_size_unit(d.xmin);
	else if (numeric && d.xunit && !strcmp(d.xunit, "ns"))
		xu = plot_time_unit(d.xmin);
	else if (numeric && !strcmp(d.xkey, "rwmixread"))
		xu = (struct plot_unit){ "% reads", 1 };
	if (metric_in_ns(m))
		yu = plot_time_unit(d.ymax);
	if (split) {
		snprintf(yname, sizeof(yname), "%s/s", unit);
		yu.name = yname;
	}
	snprintf(title, sizeof(title), "%s%s%s (mean, 95 %% CI) by %s%s", m->label, split ? " of " : "",
		 split ? unit : "", d.xkey, d.nfiles > 1 ? ", per result" : "");
	unit_stem(us, sizeof(us), split ? unit : "");
	snprintf(stem, sizeof(stem), "sweep-%s%s%s", m->name, split ? "-" : "", us);
	rc = plot_begin(c, PLOT_SWEEP, 0, 0, stem, title, 900, 560);
	if (rc)
		goto out_end;
	for (size_t i = 0; i < d.ncv; i++) {
		for (size_t p = 0; p < d.cv[i].npts; p++)
			fprintf(c->dat, "%.9g %.9g %.9g\n", numeric ? d.cv[i].x[p] / xu.div : d.cv[i].x[p],
				d.cv[i].y[p] / yu.div, d.cv[i].ci[p] / yu.div);
		int b = plot_block_end(c);

		fprintf(plot_curve(c, 0),
			"dat index %d using 1:2:3 with yerrorlines pt 7 ps 0.8 lw 1.5 title ", b);
		plot_gp_str(c->panel[0].fp, d.cv[i].name);
	}
	sweep_xaxis(c, &d, numeric, xu);
	fprintf(c->gp, "set xlabel ");
	snprintf(xl, sizeof(xl), "%s (%s)", d.xkey, numeric ? xu.name : "value");
	plot_gp_str(c->gp, xl);
	fprintf(c->gp, "\nset ylabel '%s (%s)'\nset yrange [0:%.9g]\n", m->label, yu.name,
		d.ymax / yu.div * 1.05);
	plot_panel_flush(c, 0);
out_end:
	rc = plot_end(c, rc);
out:
	for (size_t i = 0; d.cv && i < d.ncv; i++) {
		free(d.cv[i].x);
		free(d.cv[i].y);
		free(d.cv[i].ci);
	}
	free(d.cv);
	free(d.cats);
	return rc;
}

/* The units (plot_op_unit) of the op types of c->ops that jobs of the
 * inputs did (of the sweeps only, with sweeps), in order of appearance,
 * into units[0..OP_NTYPES); returns how many. */
static size_t units_done(const struct plot_ctx *c, const struct plot_input *in, size_t nin, bool sweeps,
			 const char **units)
{
	size_t nunits = 0;

	for (size_t f = 0; f < nin; f++) {
		size_t j;
		json_t *job;

		if (sweeps && !json_object_get(in[f].result, "sweep"))
			continue;
		json_array_foreach (json_object_get(in[f].result, "jobs"), j, job)
			for (int t = 0; t < OP_NTYPES; t++) {
				const char *op = op_type_name((enum op_type)t), *u = plot_op_unit(op);
				bool seen = false;

				if (!plot_op_wanted(c, op) || !metric_op_done(job, op, false))
					continue;
				for (size_t k = 0; k < nunits; k++)
					seen |= units[k] == u;
				if (!seen && nunits < OP_NTYPES)
					units[nunits++] = u;
			}
	}
	return nunits;
}

/* The op types of c->ops whose unit is unit (NULL: all of c->ops), as a
 * comma-separated list in buf; NULL when c->ops is NULL and unit too. */
static const char *ops_of_unit(const struct plot_ctx *c, const char *unit, char *buf, size_t len)
{
	size_t used = 0;

	if (!unit)
		return c->ops;
	buf[0] = 0;
	for (int t = 0; t < OP_NTYPES && used < len; t++) {
		const char *op = op_type_name((enum op_type)t);

		if (plot_op_wanted(c, op) && plot_op_unit(op) == unit)
			used += snprintf(buf + used, len - used, "%s%s", used ? "," : "", op);
	}
	return buf;
}

int plot_sweep(struct plot_ctx *c, const struct plot_input *in, size_t nin, const struct metric *m)
{
	const char *units[OP_NTYPES];
	size_t nunits;
	int rc = 0;

	if (!counts_ops(m))
		return sweep_one(c, in, nin, m, NULL, false);
	/* ops/s of records, of commits, of batches: a plot each. */
	nunits = units_done(c, in, nin, true, units);
	for (size_t k = 0; k < nunits && !rc; k++)
		rc = sweep_one(c, in, nin, m, units[k], nunits > 1);
	return rc;
}

/* ---- comparison bars ------------------------------------------------------ */

/* The rows of the bars: every job and op of m of any input (analysis/match.h). */
static int compare_rows(struct match_rows *mr, const struct plot_input *in, size_t nin,
			const struct metric *m, const char *ops)
{
	const json_t **results = calloc(nin, sizeof(*results));
	int rc;

	if (!results)
		return -ENOMEM;
	for (size_t f = 0; f < nin; f++)
		results[f] = in[f].result;
	rc = match_rows_init(mr, results, nin, m, ops, PLOT_MAX_CURVES);
	free(results);
	return rc;
}

/* The bars of m for the op types ops (NULL: all), of unit (NULL: m's),
 * one per input, named by letter (A: its label); stem and title say
 * what the inputs are. */
static int compare_one(struct plot_ctx *c, const struct plot_input *in, size_t nin, const struct metric *m,
		       const char *ops, const char *unit, enum plot_kind kind, size_t file, const char *stem,
		       const char *title)
{
	struct match_rows mr;
	double ymax = 0, y, ci;
	char row[600], yname[64];
	int rc = 0;

	if (compare_rows(&mr, in, nin, m, ops)) {
		match_rows_release(&mr);
		return dbio_err_set(c->err, -ENOMEM, "plot: out of memory");
	}
	if (!mr.count)
		goto out;
	for (size_t i = 0; i < mr.count; i++)
		for (size_t f = 0; f < nin; f++)
			if (metric_figure(m, match_rows_job(&mr, i, f), mr.rows[i].op, &y, &ci) &&
			    y + ci > ymax)
				ymax = y + ci;
	struct plot_unit yu = metric_in_ns(m) ? plot_time_unit(ymax) : (struct plot_unit){ m->unit, 1 };

	if (unit) {
		snprintf(yname, sizeof(yname), "%s/s", unit);
		yu.name = yname;
	}
	rc = plot_begin(c, kind, file, 0, stem, title, 900, 560);
	if (rc)
		goto out_end;
	/* One line per row: the row's number, then value and CI of each result. */
	for (size_t i = 0; i < mr.count; i++) {
		fprintf(c->dat, "%zu", i);
		for (size_t f = 0; f < nin; f++) {
			const json_t *job = match_rows_job(&mr, i, f);

			if (job && metric_figure(m, job, mr.rows[i].op, &y, &ci))
				fprintf(c->dat, " %.9g %.9g", y / yu.div, ci / yu.div);
			else
				fprintf(c->dat, " ? ?");
		}
		fputc('\n', c->dat);
	}
	plot_block_end(c);
	for (size_t f = 0; f < nin; f++) {
		char name[16], legend[600];

		views_config_name(name, sizeof(name), f);
		snprintf(legend, sizeof(legend), "%s: %s", name, in[f].label);
		fprintf(plot_curve(c, 0), "dat using %zu:%zu title ", 2 + 2 * f, 3 + 2 * f);
		plot_gp_str(c->panel[0].fp, legend);
	}
	fprintf(c->gp, "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
		       "set style fill solid 0.7 border -1\nset boxwidth 0.9\nset grid noxtics\n"
		       "set xtics rotate by -20 left (");
	for (size_t i = 0; i < mr.count; i++) {
		fputs(i ? ", " : "", c->gp);
		snprintf(row, sizeof(row), "%s %s", mr.rows[i].label, mr.rows[i].op);
		plot_gp_str(c->gp, row);
		fprintf(c->gp, " %zu", i);
	}
	fprintf(c->gp,
		")\nset xrange [-0.6:%zu.6]\nset xlabel 'job and op type (name)'\n"
		"set ylabel '%s (%s)'\nset yrange [0:*]\n",
		mr.count - 1, m->label, yu.name);
	plot_panel_flush(c, 0);
out_end:
	rc = plot_end(c, rc);
out:
	match_rows_release(&mr);
	return rc;
}

/* Bars of m per unit of its op types (one plot when m does not count
 * operations), named stem[-unit]. */
static int compare_units(struct plot_ctx *c, const struct plot_input *in, size_t nin, const struct metric *m,
			 enum plot_kind kind, size_t file, const char *stem, const char *what)
{
	const char *units[OP_NTYPES];
	size_t nunits = counts_ops(m) ? units_done(c, in, nin, false, units) : 0;
	char title[512], name[96], ops[256];
	int rc = 0;

	if (!nunits) {
		snprintf(title, sizeof(title), "%s per job and op type (mean, 95 %% CI), one bar per %s",
			 m->label, what);
		snprintf(name, sizeof(name), "%s-%s", stem, m->name);
		return compare_one(c, in, nin, m, c->ops, NULL, kind, file, name, title);
	}
	for (size_t k = 0; k < nunits && !rc; k++) {
		snprintf(title, sizeof(title),
			 "%s of %s per job and op type (mean, 95 %% CI), one bar per %s", m->label, units[k],
			 what);
		char us[32];

		unit_stem(us, sizeof(us), units[k]);
		snprintf(name, sizeof(name), "%s-%s%s%s", stem, m->name, nunits > 1 ? "-" : "",
			 nunits > 1 ? us : "");
		rc = compare_one(c, in, nin, m, ops_of_unit(c, units[k], ops, sizeof(ops)), units[k], kind,
				 file, name, title);
	}
	return rc;
}

int plot_compare(struct plot_ctx *c, const struct plot_input *in, size_t nin, const struct metric *m)
{
	return compare_units(c, in, nin, m, PLOT_COMPARE, 0, "compare", "result");
}

int plot_matrix(struct plot_ctx *c, const struct plot_input *in, size_t f, const struct metric *m)
{
	const json_t *configs = json_object_get(json_object_get(in[f].result, "matrix"), "configs");
	size_t nc = json_array_size(configs), i;
	struct plot_input *cin;
	json_t **parts;
	json_t *job;
	int rc = 0;

	if (nc < 2)
		return 0;
	cin = calloc(nc, sizeof(*cin));
	parts = calloc(nc, sizeof(*parts));
	if (!cin || !parts) {
		rc = dbio_err_set(c->err, -ENOMEM, "plot: out of memory");
		goto out;
	}
	/* Each configuration as a result of its own jobs, named by its label. */
	for (size_t k = 0; k < nc; k++) {
		parts[k] = json_pack("{s:[]}", "jobs");
		if (!parts[k]) {
			rc = dbio_err_set(c->err, -ENOMEM, "plot: out of memory");
			goto out;
		}
		cin[k].label = tree_str(json_array_get(configs, k), "label");
		cin[k].result = parts[k];
	}
	json_array_foreach (json_object_get(in[f].result, "jobs"), i, job) {
		const json_t *cfg = views_job_config(job);
		size_t k = cfg ? (size_t)json_integer_value(json_object_get(cfg, "index")) : nc;

		if (k < nc && json_array_append(json_object_get(parts[k], "jobs"), job)) {
			rc = dbio_err_set(c->err, -ENOMEM, "plot: out of memory");
			goto out;
		}
	}
	rc = compare_units(c, cin, nc, m, PLOT_MATRIX, f, "matrix", "configuration");
out:
	for (size_t k = 0; parts && k < nc; k++)
		json_decref(parts[k]);
	free(parts);
	free(cin);
	return rc;
}
