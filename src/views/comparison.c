/*
 * The comparison (analysis/compare.h) as text, CSV and JSON; see
 * comparison.h. Only formatting: every figure, change and verdict was
 * computed when the comparison was built.
 */
#include "views/comparison.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/match.h"
#include "analysis/tree.h"
#include "result/result.h"
#include "views/csv.h"
#include "util/termesc.h"
#include "util/units.h"

/* ---- text ---- */

void compare_change_text(const struct compare_row *r, size_t f, char *buf, size_t len)
{
	const struct compare_change *ch = &r->changes[f];
	char pct[48], p[32] = "";

	if (!r->values[0].n || !r->values[f].n) {
		snprintf(buf, len, "n/a (no run holds it)");
		return;
	}
	if (ch->under_resolution) {
		const struct metric *m = r->metric;
		const double half = 0.5 * pow(10, -m->decimals);
		const bool a = fabs(r->values[0].mean) < half, b = fabs(r->values[f].mean) < half;
		char side[8];

		snprintf(side, sizeof(side), "%c", (int)('A' + f));
		snprintf(buf, len, "n/a (%s shown as %.*f %s)",
			 a && b ? "both"
			 : a	? "A"
				: side,
			 m->decimals, 0.0, m->unit);
		return;
	}
	if (!ch->has_pct)
		snprintf(pct, sizeof(pct), "n/a (A is 0)");
	else if (fabs(ch->change_pct) < 0.05) /* no "+0.0" or "-0.0" */
		snprintf(pct, sizeof(pct), "0.0 %%");
	else
		snprintf(pct, sizeof(pct), "%+.1f %%", ch->change_pct);
	if (ch->tested && ch->p_value < 0.0001)
		snprintf(p, sizeof(p), "p<0.0001, ");
	else if (ch->tested)
		snprintf(p, sizeof(p), "p=%.4f, ", ch->p_value);
	snprintf(buf, len, "%s, %s%s", pct, p, compare_verdict(r, f));
}

static void fmt_figure(const struct metric *m, const struct summary *s, char *buf, size_t len)
{
	char a[32], b[32];

	if (!s->n) {
		snprintf(buf, len, "n/a (no run holds it)");
	} else if (metric_in_ns(m)) {
		units_fmt_ns(a, sizeof(a), s->mean);
		if (s->n < 2)
			snprintf(buf, len, "%s", a);
		else
			snprintf(buf, len, "%s ± %s", a, units_fmt_ns(b, sizeof(b), s->ci95));
	} else if (s->n < 2) {
		snprintf(buf, len, "%.*f %s", m->decimals, s->mean, m->unit);
	} else {
		snprintf(buf, len, "%.*f ± %.*f %s", m->decimals, s->mean, m->decimals, s->ci95, m->unit);
	}
}

/* Columns on the screen: UTF-8 continuation bytes take none. */
static size_t width_of(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void put_cell(FILE *fp, const char *s, size_t width, bool right, bool last)
{
	size_t pad = width > width_of(s) ? width - width_of(s) : 0;

	if (right)
		fprintf(fp, "%*s", (int)pad, "");
	fputs(s, fp);
	if (!right && !last)
		fprintf(fp, "%*s", (int)pad, "");
	if (!last)
		fputs("  ", fp);
}

static void fmt_json_value(const json_t *v, char *buf, size_t len)
{
	if (!v || json_is_null(v))
		snprintf(buf, len, "(absent)");
	else if (json_is_string(v))
		snprintf(buf, len, *json_string_value(v) ? "%s" : "\"\"", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	else {
		char *text = result_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

		snprintf(buf, len, "%s", text ? text : "?");
		free(text);
	}
}

/* The keys of every row's point, in order of appearance. */
static json_t *point_keys(const struct comparison *c)
{
	json_t *keys = json_array();

	for (size_t i = 0; keys && i < c->nrows; i++) {
		const char *k;
		json_t *v;

		json_object_foreach ((json_t *)c->rows[i].point, k, v) {
			size_t j;
			json_t *have;

			json_array_foreach (keys, j, have)
				if (!strcmp(json_string_value(have), k))
					break;
			if (j == json_array_size(keys))
				json_array_append_new(keys, json_string(k));
		}
	}
	return keys;
}

static void print_env(FILE *fp, const struct comparison *c)
{
	char val[256];

	if (!c->ndiffs) {
		fprintf(fp, "environment: identical\n");
		return;
	}
	fprintf(fp, "environment: %zu field%s differ%s\n", c->ndiffs, c->ndiffs == 1 ? "" : "s",
		c->ndiffs == 1 ? "s" : "");
	for (size_t i = 0; i < c->ndiffs; i++) {
		const struct compare_diff *d = &c->diffs[i];

		fprintf(fp, "  %s", d->field);
		if (d->jobs)
			fprintf(fp, " (job%s %s)", strchr(d->jobs, ',') ? "s" : "", d->jobs);
		fputc(':', fp);
		for (size_t f = 0; f < c->nfiles; f++) {
			fmt_json_value(json_array_get(d->values, f), val, sizeof(val));
			fprintf(fp, "%s %c %s", f ? "," : "", (int)('A' + f), val);
		}
		fputc('\n', fp);
	}
}

/* The table's cells as text, a row for the header and one per row of
 * the comparison, ncols each: the point keys, job, op, metric, a figure
 * per file, a change per later file. */
struct cells {
	size_t nkeys, ncols, nrows;
	int dirs_key;  /* the point key directory=, labelled by its count (S3), or -1 */
	char **text;   /* [(nrows + 1) * ncols] */
	size_t *width; /* [ncols]: the widest cell of each column */
};

static void cells_release(struct cells *t)
{
	for (size_t i = 0; t->text && i < (t->nrows + 1) * t->ncols; i++)
		free(t->text[i]);
	free(t->text);
	free(t->width);
}

static void change_short(const struct compare_row *r, size_t f, char *buf, size_t len);

/* brief: the changes as "+16.7 % *" (change_short), not with their p. */
static void row_cells(const struct comparison *c, const json_t *keys, int dirs_key,
		      const struct compare_row *r, char **row, bool brief)
{
	size_t col = 0, nkeys = json_array_size(keys);
	char buf[256];

	for (size_t k = 0; k < nkeys; k++) {
		const char *key = json_string_value(json_array_get(keys, k));
		const char *v = r ? json_string_value(json_object_get(r->point, key)) : key;

		if ((int)k == dirs_key) {
			snprintf(buf, sizeof(buf), "%zu", v ? match_directories(v) : 0);
			v = r ? buf : "directories";
		}
		row[col++] = strdup(v ? v : "");
	}
	if (r && r->occurrence > 1)
		snprintf(buf, sizeof(buf), "%s #%zu", r->job, r->occurrence);
	else
		snprintf(buf, sizeof(buf), "%s", r ? r->job : "job");
	row[col++] = strdup(buf);
	row[col++] = strdup(r ? r->op : "op");
	row[col++] = strdup(r ? r->metric->name : "metric");
	for (size_t f = 0; f < c->nfiles; f++) {
		if (r)
			fmt_figure(r->metric, &r->values[f], buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "%c", (int)('A' + f));
		row[col++] = strdup(buf);
	}
	for (size_t f = 1; f < c->nfiles; f++) {
		if (r && brief)
			change_short(r, f, buf, sizeof(buf));
		else if (r)
			compare_change_text(r, f, buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "%c vs A", (int)('A' + f));
		row[col++] = strdup(buf);
	}
}

/* The index among keys of directory= when the rows' values of it are
 * told apart by their number of directories (S3's axis), else -1. */
static int dirs_key_of(const struct comparison *c, const json_t *keys)
{
	size_t k;
	json_t *key;

	json_array_foreach (keys, k, key) {
		const char **values;
		bool distinct;

		if (strcmp(json_string_value(key), "directory"))
			continue;
		if (!(values = calloc(c->nrows + 1, sizeof(*values))))
			return -1;
		for (size_t i = 0; i < c->nrows; i++)
			values[i] = json_string_value(json_object_get(c->rows[i].point, "directory"));
		distinct = match_directories_distinct(values, c->nrows);
		free(values);
		return distinct ? (int)k : -1;
	}
	return -1;
}

/* Below a table whose points are labelled by their number of
 * directories: each label's directories, once. */
static void print_dirs_legend(FILE *fp, const struct comparison *c)
{
	fprintf(fp, "directories of each point:\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const char *v = json_string_value(json_object_get(c->rows[i].point, "directory"));
		bool seen = !v;

		for (size_t j = 0; !seen && j < i; j++)
			seen = !strcmp(v, tree_str(c->rows[j].point, "directory"));
		if (!seen)
			fprintf(fp, "  %zu  %s\n", match_directories(v), v);
	}
}

/* 0, or -1 when out of memory (t released). */
static int cells_init(struct cells *t, const struct comparison *c, bool brief)
{
	json_t *keys = point_keys(c);

	*t = (struct cells){ .nkeys = json_array_size(keys),
			     .nrows = c->nrows,
			     .dirs_key = dirs_key_of(c, keys) };
	t->ncols = t->nkeys + 3 + c->nfiles + (c->nfiles - 1);
	t->width = calloc(t->ncols, sizeof(*t->width));
	t->text = calloc((c->nrows + 1) * t->ncols, sizeof(*t->text));
	if (!keys || !t->width || !t->text) {
		json_decref(keys);
		cells_release(t);
		return -1;
	}
	for (size_t i = 0; i <= c->nrows; i++) {
		char **row = &t->text[i * t->ncols];

		row_cells(c, keys, t->dirs_key, i ? &c->rows[i - 1] : NULL, row, brief);
		for (size_t k = 0; k < t->ncols; k++)
			if (row[k] && width_of(row[k]) > t->width[k])
				t->width[k] = width_of(row[k]);
	}
	json_decref(keys);
	return 0;
}

static const char *cell(const struct cells *t, size_t i, size_t k)
{
	const char *s = t->text[i * t->ncols + k];

	return s ? s : "";
}

/* A column per file: as wide as the sum of its columns. */
static size_t wide_width(const struct cells *t)
{
	size_t w = 0;

	for (size_t k = 0; k < t->ncols; k++)
		w += t->width[k] + (k ? 2 : 0);
	return w;
}

static void print_wide(FILE *fp, const struct cells *t, size_t nfiles)
{
	for (size_t i = 0; i <= t->nrows; i++) {
		for (size_t k = 0; k < t->ncols; k++) {
			bool figure = k >= t->nkeys + 3 && k < t->nkeys + 3 + nfiles;

			put_cell(fp, cell(t, i, k), t->width[k], figure && i > 0, k == t->ncols - 1);
		}
		fputc('\n', fp);
	}
}

/* A change in a line of its own: "+16.7 %" and a mark — "*" significant,
 * "!" a significant regression, "~" not tested (no repeats). */
static void change_short(const struct compare_row *r, size_t f, char *buf, size_t len)
{
	const struct compare_change *ch = &r->changes[f];
	const char *mark = ch->regression ? " !" : ch->significant ? " *" : !ch->tested ? " ~" : "";

	if (!r->values[0].n || !r->values[f].n || ch->under_resolution)
		snprintf(buf, len, "n/a");
	else if (!ch->has_pct)
		snprintf(buf, len, "n/a%s", mark);
	else if (fabs(ch->change_pct) < 0.05)
		snprintf(buf, len, "0.0 %%%s", mark);
	else
		snprintf(buf, len, "%+.1f %%%s", ch->change_pct, mark);
}

/* Whether rows a and b are of the same job entry and op (a group). */
static bool same_group(const struct compare_row *a, const struct compare_row *b)
{
	return !strcmp(a->job, b->job) && a->occurrence == b->occurrence && !strcmp(a->op, b->op) &&
	       json_equal((json_t *)a->point, (json_t *)b->point) == (a->point && b->point ? 1 : 0) &&
	       (a->point != NULL) == (b->point != NULL);
}

/* Metric columns [m0, m1) of the group of rows [g0, g0 + n): a line per
 * file and per change against A. */
static void print_block(FILE *fp, const struct comparison *c, const struct cells *t, size_t g0, size_t m0,
			size_t m1)
{
	const size_t fig = t->nkeys + 3, lw = c->nfiles > 1 ? 8 : 3;
	char buf[64];

	fprintf(fp, "%*s", (int)lw, "");
	for (size_t m = m0; m < m1; m++) {
		fputs("  ", fp);
		put_cell(fp, c->rows[g0 + m].metric->name, t->width[t->ncols + m], true, true);
	}
	fputc('\n', fp);
	for (size_t f = 0; f < 2 * c->nfiles - 1; f++) {
		const bool change = f >= c->nfiles;
		const size_t file = change ? f - c->nfiles + 1 : f;

		snprintf(buf, sizeof(buf), change ? "  %c vs A" : "  %c", (int)('A' + file));
		fprintf(fp, "%-*s", (int)lw, buf);
		for (size_t m = m0; m < m1; m++) {
			char ch[48];

			if (change)
				change_short(&c->rows[g0 + m], file, ch, sizeof(ch));
			fputs("  ", fp);
			put_cell(fp, change ? ch : cell(t, g0 + m + 1, fig + file), t->width[t->ncols + m],
				 true, true);
		}
		fputc('\n', fp);
	}
}

/* Configurations as rows, for a table wider than a mail's 80 columns:
 * for each job (or point) and op, a line naming them, then a line per
 * file and per change against A with the metrics as columns, as the seed
 * reports print it — in blocks of as many metrics as fit. */
static void print_rows(FILE *fp, const struct comparison *c, struct cells *t, size_t columns)
{
	const size_t fig = t->nkeys + 3, lw = c->nfiles > 1 ? 8 : 3;
	size_t *mw = realloc(t->width, (t->ncols + c->nrows) * sizeof(*mw));

	if (!mw)
		return;
	t->width = mw; /* mw[ncols + m]: metric m's column in its group */
	for (size_t g0 = 0, n; g0 < c->nrows; g0 += n) {
		for (n = 1; g0 + n < c->nrows && same_group(&c->rows[g0], &c->rows[g0 + n]); n++)
			;
		for (size_t m = 0; m < n; m++) {
			char ch[48];
			size_t w = width_of(c->rows[g0 + m].metric->name);

			for (size_t f = 0; f < c->nfiles; f++) {
				w = width_of(cell(t, g0 + m + 1, fig + f)) > w
					    ? width_of(cell(t, g0 + m + 1, fig + f))
					    : w;
				change_short(&c->rows[g0 + m], f, ch, sizeof(ch));
				w = f && width_of(ch) > w ? width_of(ch) : w;
			}
			mw[t->ncols + m] = w;
		}
		for (size_t k = 0; k < fig - 1; k++)
			fprintf(fp, "%s%s", k ? "  " : "", cell(t, g0 + 1, k));
		fputc('\n', fp);
		for (size_t m0 = 0, m1; m0 < n; m0 = m1) {
			size_t used = lw;

			for (m1 = m0; m1 < n && (m1 == m0 || used + 2 + mw[t->ncols + m1] <= columns); m1++)
				used += 2 + mw[t->ncols + m1];
			print_block(fp, c, t, g0, m0, m1);
		}
	}
}

/* What the marks of change_short mean, under a table of them. */
static void print_marks(FILE *fp, const struct comparison *c)
{
	bool under = false;

	for (size_t i = 0; i < c->nrows; i++)
		for (size_t f = 1; f < c->nfiles; f++)
			under |= c->rows[i].changes[f].under_resolution;
	fprintf(fp, "* significant, ! significant regression, ~ no repeats (p-values: --wide)\n");
	if (under)
		fprintf(fp, "n/a: a side shown as 0 at the figure's precision, no percentage of it\n");
}

/* A Markdown table (GitHub's pipes): for mail and issue trackers. */
static void print_markdown(FILE *fp, const struct cells *t)
{
	for (size_t i = 0; i <= t->nrows; i++) {
		for (size_t k = 0; k < t->ncols; k++) {
			fputs("| ", fp);
			for (const char *s = cell(t, i, k); *s; s++) {
				if (*s == '|')
					fputc('\\', fp);
				fputc(*s, fp);
			}
			fputc(' ', fp);
		}
		fputs("|\n", fp);
		for (size_t k = 0; !i && k < t->ncols; k++)
			fprintf(fp, "|%s%s", k >= t->nkeys + 3 ? "---:" : "---",
				k == t->ncols - 1 ? "|\n" : "");
	}
}

/* The table as layout asks: a column per file (its changes with their p
 * when that fits columns, else as "+16.7 % *"), or the files in rows. */
static void print_table(FILE *fp, const struct comparison *c, enum compare_layout layout, size_t columns)
{
	struct cells t;
	bool brief = false;

	if (cells_init(&t, c, false))
		return;
	if (layout == COMPARE_LAYOUT_FIT && wide_width(&t) > columns) {
		cells_release(&t);
		if (cells_init(&t, c, true))
			return;
		brief = true;
	}
	if (layout == COMPARE_LAYOUT_MARKDOWN) {
		print_markdown(fp, &t);
	} else if (layout == COMPARE_LAYOUT_WIDE ||
		   (layout != COMPARE_LAYOUT_STACKED && wide_width(&t) <= columns)) {
		print_wide(fp, &t, c->nfiles);
		if (brief)
			print_marks(fp, c);
	} else {
		print_rows(fp, c, &t, columns);
		print_marks(fp, c);
	}
	if (t.dirs_key >= 0)
		print_dirs_legend(fp, c);
	cells_release(&t);
}

static void comparison_text(FILE *fp, const struct comparison *c, enum compare_layout layout, size_t columns)
{
	size_t tested = 0, significant = 0, regressions = 0;

	for (size_t f = 0; f < c->nfiles; f++)
		fprintf(fp, "%c = %s\n", (int)('A' + f), c->names[f]);
	print_env(fp, c);
	fprintf(fp, "mean ± 95 %% CI of the complete runs; change vs A: Welch's t-test, alpha %g\n\n",
		c->alpha);
	print_table(fp, c, layout, columns);
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].metric->sum_phases) {
			fprintf(fp,
				"user, sys: dbio's own CPU, the client's; pg_user, pg_sys: the PostgreSQL "
				"server's processes'\n");
			break;
		}
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t f = 1; f < c->nfiles; f++) {
			tested += c->rows[i].changes[f].tested;
			significant += c->rows[i].changes[f].significant;
			regressions += c->rows[i].changes[f].regression;
		}
	fprintf(fp,
		"\n%zu of %zu changes tested (both sides with repeats): %zu significant, %zu regression%s\n",
		tested, c->nrows * (c->nfiles - 1), significant, regressions, regressions == 1 ? "" : "s");
}

void compare_print_text(FILE *fp, const struct comparison *c, enum compare_layout layout, size_t columns)
{
	FILE *out = termesc_open(fp);

	if (!out)
		return; /* out of memory: nothing rather than raw control characters */
	comparison_text(out, c, layout, columns ? columns : COMPARE_TEXT_COLUMNS);
	fclose(out);
}

/* ---- CSV ---- */

static void comparison_csv(FILE *fp, const struct comparison *c)
{
	json_t *keys = point_keys(c);
	size_t k;
	json_t *key;

	json_array_foreach (keys, k, key) {
		csv_field(fp, json_string_value(key));
		fputc(',', fp);
	}
	fprintf(fp, "job,op,metric,unit");
	for (size_t f = 0; f < c->nfiles; f++) {
		int x = 'a' + (int)f;

		fprintf(fp, ",%c_value,%c_ci95,%c_runs", x, x, x);
		if (f)
			fprintf(fp, ",%c_change_pct,%c_p_value,%c_significant,%c_regression", x, x, x, x);
	}
	fputc('\n', fp);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *r = &c->rows[i];
		char job[300];

		json_array_foreach (keys, k, key) {
			const char *v = json_string_value(json_object_get(r->point, json_string_value(key)));

			csv_field(fp, v ? v : "");
			fputc(',', fp);
		}
		if (r->occurrence > 1)
			snprintf(job, sizeof(job), "%s #%zu", r->job, r->occurrence);
		else
			snprintf(job, sizeof(job), "%s", r->job);
		csv_field(fp, job);
		fprintf(fp, ",%s,%s,%s", r->op, r->metric->name, r->metric->unit);
		for (size_t f = 0; f < c->nfiles; f++) {
			const struct summary *s = &r->values[f];
			const struct compare_change *ch = &r->changes[f];
			bool both = s->n && r->values[0].n;

			if (s->n)
				fprintf(fp, ",%.10g,%.10g,%zu", s->mean, s->ci95, s->n);
			else
				fprintf(fp, ",,,0");
			if (!f)
				continue;
			if (both && ch->has_pct)
				fprintf(fp, ",%.4f", ch->change_pct);
			else
				fputc(',', fp);
			if (both && ch->tested)
				fprintf(fp, ",%.6g,%s,%s", ch->p_value, ch->significant ? "true" : "false",
					ch->regression ? "true" : "false");
			else
				fprintf(fp, ",,,");
		}
		fputc('\n', fp);
	}
	json_decref(keys);
}

void compare_print_csv(FILE *fp, const struct comparison *c)
{
	FILE *out = termesc_open(fp);

	if (!out)
		return; /* out of memory: nothing rather than raw control characters */
	comparison_csv(out, c);
	fclose(out);
}

/* ---- JSON ---- */

static json_t *row_json(const struct comparison *c, const struct compare_row *r)
{
	json_t *values = json_array(), *changes = json_array();
	json_t *row =
		json_pack("{s:s, s:O?, s:I, s:s, s:s, s:s, s:o, s:o}", "job", r->job, "point",
			  (json_t *)r->point, "occurrence", (json_int_t)r->occurrence, "op", r->op, "metric",
			  r->metric->name, "unit", r->metric->unit, "values", values, "changes", changes);

	if (!row)
		return NULL;
	for (size_t f = 0; f < c->nfiles; f++) {
		const struct summary *s = &r->values[f];
		char label[2] = { (char)('A' + f), 0 };

		json_array_append_new(values,
				      s->n ? json_pack("{s:s, s:I, s:f, s:f, s:f}", "file", label, "runs",
						       (json_int_t)s->n, "mean", s->mean, "ci95", s->ci95,
						       "stddev", s->stddev)
					   : json_pack("{s:s, s:I, s:n, s:n, s:n}", "file", label, "runs",
						       (json_int_t)0, "mean", "ci95", "stddev"));
	}
	for (size_t f = 1; f < c->nfiles; f++) {
		const struct compare_change *ch = &r->changes[f];
		bool both = r->values[0].n && r->values[f].n;
		char label[2] = { (char)('A' + f), 0 };
		json_t *change = json_pack("{s:s, s:s, s:s}", "file", label, "against", "A", "verdict",
					   compare_verdict(r, f));

		if (!change)
			continue;
		json_object_set_new(change, "change_pct",
				    both && ch->has_pct ? json_real(ch->change_pct) : json_null());
		json_object_set_new(change, "p_value",
				    both && ch->tested ? json_real(ch->p_value) : json_null());
		json_object_set_new(change, "significant", json_boolean(both && ch->significant));
		json_object_set_new(change, "regression", json_boolean(both && ch->regression));
		json_array_append_new(changes, change);
	}
	return row;
}

json_t *compare_json(const struct comparison *c)
{
	json_t *files = json_array(), *diffs = json_array(), *rows = json_array(), *warnings = json_array();
	json_t *doc = json_pack("{s:f, s:o, s:{s:b, s:o}, s:o, s:o}", "alpha", c->alpha, "files", files,
				"environment", "identical", c->ndiffs == 0, "differences", diffs, "warnings",
				warnings, "rows", rows);
	size_t tested = 0, significant = 0, regressions = 0;

	if (!doc)
		return NULL;
	for (size_t f = 0; f < c->nfiles; f++) {
		char label[2] = { (char)('A' + f), 0 };

		json_array_append_new(files, json_pack("{s:s, s:s}", "label", label, "path", c->names[f]));
	}
	for (size_t i = 0; i < c->ndiffs; i++) {
		const struct compare_diff *d = &c->diffs[i];

		json_array_append_new(diffs, json_pack("{s:s, s:s?, s:O}", "field", d->field, "jobs", d->jobs,
						       "values", d->values));
	}
	for (size_t i = 0; i < c->nwarnings; i++)
		json_array_append_new(warnings, json_string(c->warnings[i]));
	for (size_t i = 0; i < c->nrows; i++) {
		json_array_append_new(rows, row_json(c, &c->rows[i]));
		for (size_t f = 1; f < c->nfiles; f++) {
			tested += c->rows[i].changes[f].tested;
			significant += c->rows[i].changes[f].significant;
			regressions += c->rows[i].changes[f].regression;
		}
	}
	json_object_set_new(doc, "tested", json_integer((json_int_t)tested));
	json_object_set_new(doc, "significant", json_integer((json_int_t)significant));
	json_object_set_new(doc, "regressions", json_integer((json_int_t)regressions));
	return doc;
}
