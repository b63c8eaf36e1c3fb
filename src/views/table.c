/*
 * Tables of result points; see table.h. The figures are the registry's
 * (analysis/metric.h): this file only lays them out.
 */
#include "views/table.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/match.h"
#include "analysis/metric.h"
#include "analysis/tree.h"
#include "stats/opstats.h"
#include "views/csv.h"
#include "util/list.h"
#include "util/termesc.h"
#include "util/units.h"

/* The table being printed: its columns, and in text the width of each
 * (a pass that measures before the pass that prints). */
struct table {
	FILE *fp; /* NULL while measuring */
	bool csv;
	const json_t *vary;
	const struct metric *cols[TABLE_MAX_METRICS];
	size_t ncols;
	int *key_width; /* [vary keys] */
	int job_width, op_width;
	int col_width[TABLE_MAX_METRICS];
	int dir_width, rw_width[2]; /* the per-directory table's */
	int dirs_key;		    /* the vary key directory=, labelled by its count (S3), or -1 */
	bool run_on_op;		    /* a figure of the whole run on an op type's row */
	bool phase_rows;	    /* a row of a phase's figures */
	bool lost_col;		    /* text of jobs run on the power-cut layer: "lost after a cut" */
	int lost_width;
};

/* Columns on the screen: UTF-8 continuation bytes ("±", "µ") take none. */
static int cols_of(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* A text cell: measured, or printed padded to *width (left-aligned when
 * left), after a blank unless first. */
static void put_text(struct table *t, const char *s, int *width, bool left, bool first)
{
	const int pad = *width - cols_of(s);

	if (!t->fp) {
		if (cols_of(s) > *width)
			*width = cols_of(s);
		return;
	}
	fprintf(t->fp, "%s%*s%s%*s", first ? "" : "  ", left ? 0 : (pad > 0 ? pad : 0), "", s,
		left ? (pad > 0 ? pad : 0) : 0, "");
}

/* The cell of metric m for op of job: value and CI in CSV, "12.3 ± 0.4"
 * (with the unit of a latency) in text; "-" where the job has no figure. */
static void put_figure(struct table *t, const json_t *job, const char *op, size_t c)
{
	const struct metric *m = t->cols[c];
	double value, ci;
	char a[32], b[32], cell[80];

	/* A figure of bytes on a row of an op that moves none (fsync, commit)
	 * is "-", not 0.00 MiB/s, as on the page. */
	if ((metric_per_op(m) && !metric_op_done(job, op, m->scope == METRIC_PER_OP_BYTES)) ||
	    !metric_figure(m, job, op, &value, &ci)) {
		if (t->csv)
			fputs(",,", t->fp);
		else
			put_text(t, "-", &t->col_width[c], false, false);
		return;
	}
	if (t->csv) {
		fprintf(t->fp, ",%.10g,%.10g", value, ci);
		return;
	}
	/* At the registry's precision, as compare and the page print it; the
	 * spread at the mean's: "0.05 ± 0.00", not "± 0.0"; over repeats with
	 * a "±" even when every run gave the same ("27 ± 0"). */
	if (metric_in_ns(m))
		units_fmt_ns(a, sizeof(a), value);
	else
		snprintf(a, sizeof(a), "%.*f", m->decimals, value);
	if (ci > 0 || metric_figure_runs(m, job, op) > 1) {
		if (metric_in_ns(m))
			units_fmt_ns(b, sizeof(b), ci);
		else
			snprintf(b, sizeof(b), "%.*f", m->decimals, ci);
		snprintf(cell, sizeof(cell), "%s ± %s", a, b);
	} else {
		snprintf(cell, sizeof(cell), "%s", a);
	}
	put_text(t, cell, &t->col_width[c], false, false);
}

/* Whether every job entry that ran was checked on the power-cut layer
 * (runs[].durability: dbio crash, crash=1), and there is one. */
static bool all_durable(const json_t *jobs)
{
	const json_t *job, *run;
	size_t j, r, n = 0;

	json_array_foreach (jobs, j, job) {
		bool d = false;

		if (json_object_get(job, "skipped"))
			continue;
		json_array_foreach (json_object_get(job, "runs"), r, run)
			d |= json_is_object(json_object_get(run, "durability"));
		if (!d)
			return false;
		n++;
	}
	return n > 0;
}

/* The "lost after a cut" cell of a job entry, over its runs: the crash
 * states with losses / the most acknowledged operations one of them lost,
 * "3 / up to 37 acknowledged", or "0 / 0 acknowledged". */
static void put_lost(struct table *t, const json_t *job)
{
	double lossy = 0, max = 0;
	const json_t *run;
	char cell[80];
	size_t r;

	json_array_foreach (json_object_get(job, "runs"), r, run) {
		const json_t *d = json_object_get(run, "durability");
		const double m = tree_num(json_object_get(d, "acknowledged_lost"), "max");

		lossy += tree_num(d, "states_with_losses");
		max = m > max ? m : max;
	}
	snprintf(cell, sizeof(cell), "%.0f / %s%.0f acknowledged", lossy, max > 0 ? "up to " : "", max);
	put_text(t, cell, &t->lost_width, false, false);
}

/* The text of vary key i's value in a job entry's point: the number of
 * directories for t->dirs_key (the legend names them). */
static const char *point_value(const struct table *t, const json_t *job, size_t i, char *buf, size_t len)
{
	const char *v = tree_str(json_object_get(job, "point"), tree_str(json_array_get(t->vary, i), "key"));

	if ((int)i != t->dirs_key)
		return v;
	snprintf(buf, len, "%zu", match_directories(v));
	return buf;
}

/* The vary key's column title: "directories" for t->dirs_key. */
static const char *key_title(const struct table *t, size_t i)
{
	return (int)i == t->dirs_key ? "directories" : tree_str(json_array_get(t->vary, i), "key");
}

/* The index of the vary key directory= when its values are told apart
 * by their number of directories (S3's axis), else -1. */
static int dirs_key_of(const json_t *vary)
{
	const char *values[64];
	size_t i, k, n;
	json_t *v, *val;

	json_array_foreach (vary, i, v) {
		if (strcmp(tree_str(v, "key"), "directory"))
			continue;
		n = 0;
		json_array_foreach (json_object_get(v, "values"), k, val)
			if (n < sizeof(values) / sizeof(values[0]))
				values[n++] = json_string_value(val);
		return n == json_array_size(json_object_get(v, "values")) &&
				       match_directories_distinct(values, n)
			       ? (int)i
			       : -1;
	}
	return -1;
}

/* Below a table whose points are labelled by their number of
 * directories: each label's directories. */
static void put_dirs_legend(FILE *fp, const struct table *t)
{
	const json_t *values = json_object_get(json_array_get(t->vary, (size_t)t->dirs_key), "values"), *v;
	size_t i;

	fprintf(fp, "directories of each point:\n");
	json_array_foreach (values, i, v)
		fprintf(fp, "  %zu  %s\n", match_directories(json_string_value(v)), json_string_value(v));
}

/* The varied keys' values of a job entry's point, then its name. */
static void put_point(struct table *t, const json_t *job)
{
	char buf[32];
	size_t i;
	json_t *v;

	json_array_foreach (t->vary, i, v)
		put_text(t, point_value(t, job, i, buf, sizeof(buf)), &t->key_width[i], true, i == 0);
	put_text(t, tree_str(job, "name"), &t->job_width, true, json_array_size(t->vary) == 0);
}

/* A row: the point's values of the varied keys, job, op, each column's
 * figure — "-" where the row has none (a figure per op type on a phase's
 * row). */
static void put_row(struct table *t, const json_t *job, const char *op)
{
	size_t i;
	json_t *v;

	if (t->csv) {
		json_array_foreach (t->vary, i, v) {
			csv_field(t->fp, tree_str(json_object_get(job, "point"), tree_str(v, "key")));
			fputc(',', t->fp);
		}
		csv_field(t->fp, tree_str(job, "name"));
		fprintf(t->fp, ",%s", op);
	} else {
		put_point(t, job);
		put_text(t, op, &t->op_width, true, false);
	}
	for (size_t c = 0; c < t->ncols; c++)
		put_figure(t, job, op, c);
	if (t->lost_col)
		put_lost(t, job);
	if (t->fp)
		fputc('\n', t->fp);
}

static void put_header(struct table *t)
{
	size_t i;
	json_t *v;

	json_array_foreach (t->vary, i, v) {
		if (t->csv)
			fprintf(t->fp, "%s,", tree_str(v, "key"));
		else
			put_text(t, key_title(t, i), &t->key_width[i], true, i == 0);
	}
	if (t->csv) {
		fprintf(t->fp, "job,op");
		for (size_t c = 0; c < t->ncols; c++)
			fprintf(t->fp, ",%s,%s_ci95", t->cols[c]->name, t->cols[c]->name);
	} else {
		put_text(t, "job", &t->job_width, true, json_array_size(t->vary) == 0);
		put_text(t, "op", &t->op_width, true, false);
		for (size_t c = 0; c < t->ncols; c++)
			put_text(t, t->cols[c]->column, &t->col_width[c], false, false);
		if (t->lost_col)
			put_text(t, "lost after a cut", &t->lost_width, false, false);
	}
	if (t->fp)
		fputc('\n', t->fp);
}

/* The header, then a row per job entry and op type that did something
 * (one "all" row when every column is of the whole run), then one per
 * phase it went through when a column is of the whole run. */
static void put_rows(struct table *t, const json_t *jobs, const char *ops_shown)
{
	bool per_run = false, per_op = false;
	const json_t *job;
	size_t j;

	for (size_t c = 0; c < t->ncols; c++) {
		per_run |= !metric_per_op(t->cols[c]);
		per_op |= metric_per_op(t->cols[c]);
	}
	put_header(t);
	json_array_foreach (jobs, j, job) {
		/* Figures of the whole run only: one row of them ("all", as in
		 * compare), not the same figures again on each op type's row. */
		if (!per_op) {
			if (!ops_shown)
				put_row(t, job, "all");
			goto phases;
		}
		for (int o = 0; o < OP_NTYPES; o++) {
			const char *op = op_type_name((enum op_type)o);

			if (!metric_op_done(job, op, false) || (ops_shown && !list_has(ops_shown, op)))
				continue;
			put_row(t, job, op);
			t->run_on_op |= per_run;
		}
	phases:
		for (size_t k = 0; per_run && metric_job_phase(job, k); k++) {
			const char *phase = metric_job_phase(job, k);
			char op[64];

			snprintf(op, sizeof(op), "%s%s", METRIC_PHASE_PREFIX, phase);
			if (metric_phase_row(job, ops_shown, op)) {
				put_row(t, job, op);
				t->phase_rows = true;
			}
		}
	}
}

/* Whether some job entry ran over several directories. */
static bool several_directories(const json_t *jobs)
{
	const json_t *job;
	size_t j;

	json_array_foreach (jobs, j, job)
		if (metric_target_directory(job, 1))
			return true;
	return false;
}

/* Points over several directories (S3's disks): a row per point and
 * directory with its read and write MiB/s, which add up to the point's;
 * "-" where it moved no bytes that way. */
static void put_directory_rows(struct table *t, const json_t *jobs)
{
	static const char *const ops[] = { "read", "write" };
	static const char *const heads[] = { "read MiB/s", "write MiB/s" };
	const json_t *job, *v;
	size_t j, i;

	json_array_foreach (t->vary, i, v)
		put_text(t, key_title(t, i), &t->key_width[i], true, i == 0);
	put_text(t, "job", &t->job_width, true, json_array_size(t->vary) == 0);
	put_text(t, "in directory", &t->dir_width, true, false);
	for (int k = 0; k < 2; k++)
		put_text(t, heads[k], &t->rw_width[k], false, false);
	if (t->fp)
		fputc('\n', t->fp);
	json_array_foreach (jobs, j, job) {
		const char *dir;

		if (!metric_target_directory(job, 1))
			continue; /* one directory: the point's row says it all */
		for (size_t d = 0; (dir = metric_target_directory(job, d)); d++) {
			put_point(t, job);
			put_text(t, dir, &t->dir_width, true, false);
			for (int k = 0; k < 2; k++) {
				double mean, ci;
				char cell[80];
				const size_t n = metric_target_figure(job, d, ops[k], &mean, &ci);

				if (!n)
					snprintf(cell, sizeof(cell), "-");
				else if (n > 1) /* MiB/s to 0.01, as everywhere */
					snprintf(cell, sizeof(cell), "%.2f ± %.2f", mean, ci);
				else
					snprintf(cell, sizeof(cell), "%.2f", mean);
				put_text(t, cell, &t->rw_width[k], false, false);
			}
			if (t->fp)
				fputc('\n', t->fp);
		}
	}
}

/* "elapsed, user s" into buf: the columns of the whole run's figures. */
static const char *run_columns(const struct table *t, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t c = 0; c < t->ncols; c++)
		if (!metric_per_op(t->cols[c]))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", *buf ? ", " : "",
				 t->cols[c]->column);
	return buf;
}

static void points_table(FILE *fp, const json_t *result, const char *list, const char *ops_shown, bool csv)
{
	char names[256];
	const json_t *jobs = json_object_get(result, "jobs"), *job;
	struct table t = { .csv = csv, .vary = json_object_get(json_object_get(result, "sweep"), "vary") };

	t.dirs_key = csv ? -1 : dirs_key_of(t.vary);
	struct dbio_err err = { 0 };
	int n = list ? metric_parse_list("table", list, t.cols, TABLE_MAX_METRICS, &err)
		     : (int)metric_defaults(&result, 1, t.cols, TABLE_MAX_METRICS);
	size_t j;

	if (n < 0)
		return; /* the caller checked the list */
	t.ncols = (size_t)n;
	/* Jobs run on the power-cut layer, in text: by default a row per point
	 * of what it acknowledged (inserts, updates, writes) at ops/s, beside
	 * what a cut lost of it. */
	t.lost_col = !csv && all_durable(jobs);
	if (t.lost_col && !list) {
		t.cols[0] = metric_find("iops");
		t.cols[1] = metric_find("crash_states");
		t.ncols = 2;
		ops_shown = ops_shown ? ops_shown : "insert,update,write";
	}
	t.key_width = calloc(json_array_size(t.vary) + 1, sizeof(*t.key_width));
	if (!t.key_width)
		return;
	if (!csv)
		put_rows(&t, jobs, ops_shown); /* measure */
	t.fp = fp;
	put_rows(&t, jobs, ops_shown);
	if (!csv && t.run_on_op)
		fprintf(fp, "the whole run's on an op type's row: %s%s\n",
			run_columns(&t, names, sizeof(names)),
			t.phase_rows ? " (a phase's row: the phase's)" : "");
	if (t.lost_col)
		fprintf(fp,
			"lost after a cut: the crash states with losses / the most acknowledged operations one of them lost\n");
	if (t.dirs_key >= 0)
		put_dirs_legend(fp, &t);
	if (!csv && several_directories(jobs)) {
		struct table d = t;

		d.fp = NULL;
		put_directory_rows(&d, jobs); /* measure */
		d.fp = fp;
		fprintf(fp, "\nper directory, of the points over several (they add up to the point's):\n");
		put_directory_rows(&d, jobs);
	}
	if (!csv)
		json_array_foreach (jobs, j, job)
			if (json_array_size(json_object_get(job, "runs")) > 1) {
				fprintf(fp,
					"a figure with ± is the mean of the point's complete runs ± its 95 %% CI\n");
				break;
			}
	free(t.key_width);
}

void table_points(FILE *fp, const json_t *result, const char *list, const char *ops_shown, bool csv)
{
	FILE *out = termesc_open(fp);

	if (!out)
		return; /* out of memory: nothing rather than raw control characters */
	points_table(out, result, list, ops_shown, csv);
	fclose(out);
}

/* ---- the registry itself ---- */

/* Whether a phase holds m too: the per-run figures but the series' and
 * dbio crash's (a run's). */
static bool in_phases(const struct metric *m)
{
	return !metric_per_op(m) && strncmp(m->run_path, "series.", strlen("series.")) &&
	       strncmp(m->run_path, "durability.", strlen("durability."));
}

void table_metrics(FILE *fp, bool markdown)
{
	static const char *const worse[] = {
		[METRIC_BETTER_NONE] = "—", [METRIC_BETTER_HIGHER] = "lower", [METRIC_BETTER_LOWER] = "higher"
	};

	if (markdown)
		fprintf(fp, "| name | figure | of | read from a run | unit | worse when | default for |\n"
			    "|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < metric_count; i++) {
		const struct metric *m = &metric_registry[i];
		const char *of = m->scope == METRIC_PER_OP_BYTES ? "each op type that moves bytes"
				 : metric_per_op(m)		 ? "each op type"
				 : in_phases(m)			 ? "the run, each phase"
								 : "the run";
		const char *dflt = m->by_default	   ? "file I/O"
				   : m->by_default_phases  ? "jobs with phases"
				   : m->sum_phases	   ? "postgres jobs"
				   : m->by_default_durable ? "dbio crash"
							   : "";
		char where[160], line[256];

		if (metric_per_op(m))
			snprintf(where, sizeof(where), "`ops.<op>.%s`", m->run_path);
		else if (m->sum_phases)
			snprintf(where, sizeof(where), "`phases[].%s` (the run: their sum)", m->run_path);
		else if (in_phases(m))
			snprintf(where, sizeof(where), "`%s`, `phases[].%s`", m->run_path, m->run_path);
		else
			snprintf(where, sizeof(where), "`%s`", m->run_path);
		if (markdown) {
			fprintf(fp, "| `%s` | %s | %s | %s | %s%s | %s | %s |\n", m->name, m->label, of,
				where, m->unit, metric_in_ns(m) ? " (printed as µs, ms, s)" : "",
				worse[m->better], dflt);
			continue;
		}
		snprintf(line, sizeof(line), "%-12s %-31s %-8s %s%s", m->name, m->label, m->unit,
			 dflt[0] ? "default: " : "", dflt);
		for (size_t n = strlen(line); n && line[n - 1] == ' '; n--)
			line[n - 1] = '\0';
		fprintf(fp, "%s\n", line);
	}
}
