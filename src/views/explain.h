/*
 * The explanation of a comparison (analysis/explain.h) as text, printed
 * by `dbio compare` below the figures, and a sweep's counters that move
 * with its swept variable, printed by `dbio sweep` below its table.
 */
#ifndef DBIO_VIEWS_EXPLAIN_H
#define DBIO_VIEWS_EXPLAIN_H

#include <jansson.h>
#include <stdio.h>

#include "analysis/explain.h"

/* At most this many counters per job (the strongest effects). */
#define EXPLAIN_SHOWN 6

/* "Why: B vs A 'job': -18.2 % write throughput *" then a line per
 * significant counter ("  device flushes per write  1 → 0.0147 (0.015×) *"),
 * or why there is none. names are the comparison's file letters' files. */
void explain_print(FILE *fp, const struct comparison *c, const struct explanation *x);

/* The counters that move with a sweep's variable (|rho| >= 0.9), or
 * nothing for a sweep of fewer than EXPLAIN_MIN_POINTS points. */
void explain_print_sweep(FILE *fp, const json_t *result);

#endif
