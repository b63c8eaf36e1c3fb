/*
 * Tables of result points: one row per job entry (a sweep point, or a job
 * of a run) and op type, chosen metrics as columns — the seed reports'
 * "one row per parameter value" shape. Text or CSV, with control
 * characters of the result's text escaped (util/termesc.h).
 */
#ifndef DBIO_VIEWS_TABLE_H
#define DBIO_VIEWS_TABLE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* The metric names table_points accepts, for messages. */
extern const char table_metric_names[];

/* 0 when every name in the comma-separated list is a metric, else the
 * 1-based position of the first unknown one. */
int table_check_metrics(const char *metrics);

/* Print the table: the sweep's varied keys (if any), job, op, then each
 * metric (mean ± 95 % CI when the entry has repeats); a row per job entry
 * and op type that did something, of the op types in the comma-separated
 * ops (NULL: every one). CSV: one header row, stable column names, a
 * <metric>_ci95 column beside each metric. */
void table_points(FILE *fp, const json_t *result, const char *metrics, const char *ops, bool csv);

#endif
