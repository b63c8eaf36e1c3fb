/*
 * fio's steady state of a run, rendered (steady.c): fio 3.33's
 * "steadystate" object of a job for the fio JSON view, and the text
 * report's line. Both read the run's "steadystate" object of the result.
 */
#ifndef DBIO_VIEWS_STEADY_H
#define DBIO_VIEWS_STEADY_H

#include <jansson.h>
#include <stdio.h>

/* fio's object for run, or NULL when the run had no steady state. */
json_t *steady_fio_json(const json_t *run);

/* "    steady state: iops:5% attained after 3.00 s: ..." and a newline;
 * nothing when the run had no steady state. */
void steady_text_line(FILE *fp, const json_t *run);

#endif
