/*
 * Reading result trees (jansson json_t): the one set of lookups every
 * analysis and view uses, so that a missing field reads the same way
 * everywhere — as 0, as "", or as NULL — instead of each file keeping its
 * own copy of these helpers.
 */
#ifndef DBIO_ANALYSIS_TREE_H
#define DBIO_ANALYSIS_TREE_H

#include <jansson.h>

/* The number at obj.key; 0 when obj is not an object, or the key is
 * missing or not a number. */
double tree_num(const json_t *obj, const char *key);

/* The string at obj.key; "" when obj is not an object, or the key is
 * missing or not a string. Borrowed from obj. */
const char *tree_str(const json_t *obj, const char *key);

/* The node at path under v: keys separated by '.', where a key of an
 * array is its index ("series.worst.0.duration_ns"); "" is v itself.
 * NULL when some step is missing (or v is NULL). Borrowed from v. */
const json_t *tree_get(const json_t *v, const char *path);

#endif
