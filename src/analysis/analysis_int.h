/*
 * Private to src/analysis/: the string helper the comparison, its
 * environment differences and the matching share, and the environment
 * differences compare.c asks envdiff.c for. No other folder includes this.
 */
#ifndef DBIO_ANALYSIS_ANALYSIS_INT_H
#define DBIO_ANALYSIS_ANALYSIS_INT_H

#include <jansson.h>

#include "analysis/compare.h"

/* Append printf text to a growing string (*s may be NULL). 0 or -ENOMEM
 * (*s is kept). */
int analysis_append(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Add to c the system fields (hostname, kernel, vm.*, …) that are not the
 * same in every file. 0 or -ENOMEM. */
int compare_env_system(struct comparison *c, const json_t *const *results);

/* Add to c the target fields and options of the aligned job entries
 * jobs[0..c->nfiles) that are not the same in every file, naming the job.
 * 0 or -ENOMEM. */
int compare_env_job(struct comparison *c, const json_t *const *jobs);

#endif
