/*
 * The comparison of result files (analysis/compare.h) printed: the text
 * table of `dbio compare` and of matrix, its CSV, and its JSON document
 * (docs/compare.md). The text and CSV are written with control characters
 * escaped (util/termesc.h): file names, job names and environment values
 * come from the files.
 */
#ifndef DBIO_VIEWS_COMPARISON_H
#define DBIO_VIEWS_COMPARISON_H

#include <jansson.h>
#include <stdio.h>

#include "analysis/compare.h"

/* The text of row r's change cell for file f >= 1: "+16.7 %, p=0.0805,
 * within noise", "-48.3 %, p=0.0011, significant, regression", "+2.0 %,
 * n/a (no repeats)". */
void compare_change_text(const struct compare_row *r, size_t f, char *buf, size_t len);

/* The widest text table that is printed with a column per file when no
 * width is given (matrix's text, mail). */
#define COMPARE_TEXT_COLUMNS 80
/* The width `dbio compare` fits its text to when standard output is not a
 * terminal. */
#define COMPARE_PIPE_COLUMNS 100

enum compare_layout {
	COMPARE_LAYOUT_FIT,	 /* a column per file when that fits the width, else the files in rows */
	COMPARE_LAYOUT_FIT_FULL, /* the same, but the changes only in full (matrix's text) */
	COMPARE_LAYOUT_WIDE,	 /* a column per file, however wide */
	COMPARE_LAYOUT_STACKED,	 /* the files in rows (A / B / B vs A), however narrow the table */
	COMPARE_LAYOUT_MARKDOWN	 /* a Markdown table, a column per file */
};

/* The seed-report view: a legend line per file ("A = base.json", "B =
 * ext2 -b 4096"), the environment differences ("environment: identical"
 * when none), then a table with a row per job or point, op type and metric,
 * a column per file (mean ± 95 % CI, with its unit) and a column per later
 * file with the change against A ("+16.7 %, p=0.0805, within noise", or
 * "+16.7 % *" and a line saying what the marks mean when only that fits
 * columns with COMPARE_LAYOUT_FIT) — or, when even that is wider than
 * columns with COMPARE_LAYOUT_FIT, and always with COMPARE_LAYOUT_STACKED,
 * the job, op and metric on a line and a line per file ("  B  1400.0 ±
 * 196.3 ops/s  +16.7 %, …") under it, in blocks of metrics that fit
 * columns. columns 0: COMPARE_TEXT_COLUMNS. */
void compare_print_text(FILE *fp, const struct comparison *c, enum compare_layout layout, size_t columns);

/* CSV: one header row — the point keys, job, op, metric, unit, then per
 * file <x>_value, <x>_ci95, <x>_runs and, after the first, <x>_change_pct,
 * <x>_p_value, <x>_significant, <x>_regression (x = a, b, …) — and a row
 * per row of the comparison. Figures are in the row's unit; n/a is empty. */
void compare_print_csv(FILE *fp, const struct comparison *c);

/* The comparison as a JSON document (docs/compare.md); NULL when out of
 * memory. */
json_t *compare_json(const struct comparison *c);

#endif
