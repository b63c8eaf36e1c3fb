/*
 * The text report: a view of a result tree (result/), never of live state.
 * Control characters of the result's text (a job name, a hostname) are
 * written escaped (util/termesc.h): the text goes to a terminal.
 */
#ifndef DBIO_VIEWS_TEXT_H
#define DBIO_VIEWS_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* Per job and run: options in brief, elapsed, a table per op type with
 * ops/s, MiB/s and latency min/mean/p50/p95/p99/p99.9/max, then CPU,
 * faults, context switches and block I/O. */
void text_report(FILE *fp, const json_t *result);

/* A job run's "durability" (dbio crash; text_durable.c), if it has one:
 * the states checked and the acknowledged operations lost beside the
 * writes' ops/s, the first lost operation named. */
void text_durability(FILE *fp, const json_t *run);

/* A run's trace (trace=block) and where its operations' time went. */
void text_trace(FILE *fp, const json_t *run);

/* One table for the whole result: a row per job and op type with the
 * registry's figures (ops/s, MiB/s, mean and p99 latency, cpu): the mean ±
 * 95 % CI over the complete runs of a job with repeats ("mean of 3
 * runs"), else its run's; then where the jobs ran. A table wider than
 * 80 columns (repeats make it ~110) is cut into narrower ones, each with
 * the job and op and some of the figures, unless wide. */
void text_summary(FILE *fp, const json_t *result, bool wide);

/* Each warning of the result's jobs (jobs[].warnings: the page cache,
 * …) once: "warning: <text>", a subject (its text before ':') said for
 * one job entry not said again for the next (a sweep's points). */
void text_warnings(FILE *fp, const json_t *result);

#endif
