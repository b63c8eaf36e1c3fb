/*
 * fio's JSON of a dbio result (`dbio run --output-format=json|json+`): a
 * view of the result tree, like the text report, in the shape fio 3.33
 * prints with --output-format=json and json+, for the tools written for
 * fio's output. Only the fields dbio measured are filled in; what each
 * is made of is in docs/fio-output.md.
 */
#ifndef DBIO_VIEWS_FIO_JSON_H
#define DBIO_VIEWS_FIO_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* The fio document of result: "fio version" (dbio's, saying it is fio's
 * JSON), the time the result was finished, "global options" (the keys
 * every job has with one value), one entry of "jobs" per job (its runs
 * merged, as fio merges loops) and an empty "disk_util". dbio's
 * histograms give the percentiles and, with plus (json+), each latency's
 * "bins": a bucket's middle value in ns and its count. NULL when out of
 * memory. */
json_t *fio_json_new(const json_t *result, bool plus);

/* Write fio_json_new(result, plus) to fp, indented, with a final newline.
 * 0, or -ENOMEM (nothing written). */
int fio_json_print(FILE *fp, const json_t *result, bool plus);

#endif
