/*
 * Tables of result points: one row per job entry (a sweep point, or a job
 * of a run) and op type, chosen metrics (analysis/metric.h) as columns —
 * the seed reports' "one row per parameter value" shape. Text or CSV, with
 * control characters of the result's text escaped (util/termesc.h).
 */
#ifndef DBIO_VIEWS_TABLE_H
#define DBIO_VIEWS_TABLE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* The most columns of metrics a table has. */
#define TABLE_MAX_METRICS 32

/* Print the table: the sweep's varied keys (if any), job, op, then each
 * metric of the comma-separated list (NULL: the registry's default ones),
 * its figure as metric_figure gives it (mean ± 95 % CI when the entry has
 * repeats); a row per job entry and op type some run of it did, of the op
 * types in the comma-separated ops (NULL: every one). CSV: one header row,
 * stable column names, a <metric>_ci95 column beside each metric. A list
 * metric_parse_list refuses prints nothing: check it when it is read. */
void table_points(FILE *fp, const json_t *result, const char *metrics, const char *ops, bool csv);

/* Every metric of the registry (analysis/metric.h), in its order: as text
 * (name, label, unit, worse when, default for what) or as the Markdown
 * table of docs/compare.md (`dbio help metrics --markdown`, `make docs`). */
void table_metrics(FILE *fp, bool markdown);

#endif
