/*
 * The counter registry (analysis/counter.h) as a reference: `dbio help
 * counters` as text and Markdown (docs/counters.md); cmd/help.c makes the
 * man page's list from the same rows and counters_unit.
 */
#ifndef DBIO_VIEWS_COUNTERS_H
#define DBIO_VIEWS_COUNTERS_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/counter.h"

enum counters_format { COUNTERS_TEXT, COUNTERS_MARKDOWN };

/* The unit of c's figure: "flushes per op", "% of the run's time". */
void counters_unit(const struct counter *c, char *buf, size_t len);

/* Every counter: name, figure and unit, where a run holds it, meaning. */
void counters_print(FILE *fp, enum counters_format format);

#endif
