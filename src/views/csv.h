/*
 * CSV views of a result tree, for spreadsheets and plotting tools, with
 * control characters of the result's text escaped (util/termesc.h), and
 * the field quoting every CSV view (tables, comparisons) uses.
 */
#ifndef DBIO_VIEWS_CSV_H
#define DBIO_VIEWS_CSV_H

#include <jansson.h>
#include <stdio.h>

/* Write s as one CSV field: as it is, or in double quotes (a quote
 * doubled) when it holds a comma, quote or line break (RFC 4180). */
void csv_field(FILE *fp, const char *s);

/* Every series point of every run, one row per point and op type:
 * job,run,thread,interval,end_s,duration_s,op,count,bytes,lat_mean_ns,lat_max_ns
 * (thread is empty on a time grid, where threads are merged). Returns the
 * number of rows. */
size_t csv_series(FILE *fp, const json_t *result);

#endif
