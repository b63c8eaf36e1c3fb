/*
 * Tables of result points; see table.h. The figures are the registry's
 * (analysis/metric.h): this file only lays them out.
 */
#include "views/table.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/metric.h"
#include "analysis/tree.h"
#include "stats/opstats.h"
#include "views/csv.h"
#include "util/list.h"
#include "util/termesc.h"
#include "util/units.h"

/* The cell of metric m for op of job: value and CI in CSV, "12.3 ± 0.4"
 * (with the unit of a latency) in text; 0 where the job has no figure. */
static void put_figure(FILE *fp, const json_t *job, const char *op, const struct metric *m, bool csv)
{
	double value, ci;
	char a[32], b[32], cell[80];

	metric_figure(m, job, op, &value, &ci);
	if (csv) {
		fprintf(fp, ",%.10g,%.10g", value, ci);
		return;
	}
	if (metric_in_ns(m))
		units_fmt_ns(a, sizeof(a), value);
	else
		snprintf(a, sizeof(a), value < 100 ? "%.2f" : "%.1f", value);
	if (ci > 0) {
		if (metric_in_ns(m))
			units_fmt_ns(b, sizeof(b), ci);
		else
			snprintf(b, sizeof(b), "%.1f", ci);
		snprintf(cell, sizeof(cell), "%s ± %s", a, b);
	} else {
		snprintf(cell, sizeof(cell), "%s", a);
	}
	/* "±" is two bytes but one column. */
	fprintf(fp, " %*s", ci > 0 ? 23 : 22, cell);
}

static void points_table(FILE *fp, const json_t *result, const char *list, const char *ops_shown, bool csv)
{
	const json_t *vary = json_object_get(json_object_get(result, "sweep"), "vary");
	const json_t *jobs = json_object_get(result, "jobs");
	const struct metric *cols[TABLE_MAX_METRICS];
	struct dbio_err err = { 0 };
	int ncols = metric_parse_list("table", list, cols, TABLE_MAX_METRICS, &err);
	size_t i, j;
	json_t *v, *job;

	if (ncols < 0)
		return; /* the caller checked the list */
	/* A varied key's column is as wide as its widest value (at least 12). */
	int *width = calloc(json_array_size(vary) + 1, sizeof(*width));

	json_array_foreach (vary, i, v) {
		const char *key = tree_str(v, "key");

		if (!width)
			break;
		width[i] = (int)strlen(key) > 12 ? (int)strlen(key) : 12;
		json_array_foreach (jobs, j, job) {
			const char *val = tree_str(json_object_get(job, "point"), key);

			if ((int)strlen(val) > width[i])
				width[i] = (int)strlen(val);
		}
	}
	/* Header. */
	json_array_foreach (vary, i, v) {
		if (csv)
			fprintf(fp, "%s,", tree_str(v, "key"));
		else
			fprintf(fp, "%-*s ", width ? width[i] : 12, tree_str(v, "key"));
	}
	if (csv) {
		fprintf(fp, "job,op");
		for (int c = 0; c < ncols; c++)
			fprintf(fp, ",%s,%s_ci95", cols[c]->name, cols[c]->name);
		fputc('\n', fp);
	} else {
		fprintf(fp, "%-20s %-9s", "job", "op");
		for (int c = 0; c < ncols; c++)
			fprintf(fp, " %22s", cols[c]->column);
		fputc('\n', fp);
	}
	/* A row per job entry and op type that did something. */
	json_array_foreach (jobs, j, job) {
		for (int t = 0; t < OP_NTYPES; t++) {
			const char *op = op_type_name((enum op_type)t);

			if (!metric_op_done(job, op, false) || (ops_shown && !list_has(ops_shown, op)))
				continue;
			json_array_foreach (vary, i, v) {
				const char *val = tree_str(json_object_get(job, "point"), tree_str(v, "key"));

				if (csv) {
					csv_field(fp, val);
					fputc(',', fp);
				} else {
					fprintf(fp, "%-*s ", width ? width[i] : 12, val);
				}
			}
			if (csv) {
				csv_field(fp, tree_str(job, "name"));
				fprintf(fp, ",%s", op);
			} else {
				fprintf(fp, "%-20s %-9s", tree_str(job, "name"), op);
			}
			for (int c = 0; c < ncols; c++)
				put_figure(fp, job, op, cols[c], csv);
			fputc('\n', fp);
		}
	}
	free(width);
}

void table_points(FILE *fp, const json_t *result, const char *list, const char *ops_shown, bool csv)
{
	FILE *out = termesc_open(fp);

	if (!out)
		return; /* out of memory: nothing rather than raw control characters */
	points_table(out, result, list, ops_shown, csv);
	fclose(out);
}
