/*
 * Jobs of several result files side by side: what a job entry is called,
 * and which entries of different files are the same job. Two ways, for
 * two kinds of view:
 *
 *   - alignment (match_file_*), the comparison's (analysis/compare.h):
 *     by name and sweep point (its keys in any order), and for a name and
 *     point that appear more than once, by position among equals — the
 *     second 'job' of one file with the second of the other;
 *   - rows (match_rows_*), the plots' comparison bars and the HTML page's
 *     side-by-side table: every job label and op type of any file, in
 *     order of appearance, each with every file's first job entry of that
 *     label that did the op.
 *
 * Everything here borrows the result trees it was made from: they must
 * outlive it.
 */
#ifndef DBIO_ANALYSIS_MATCH_H
#define DBIO_ANALYSIS_MATCH_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/metric.h"

/* "name", or "name k1=v1 k2=v2" with the point's value of each varied key
 * of the result's sweep (--vary order): how plots and the HTML page call a
 * job entry. Returns buf. */
char *match_label(const json_t *result, const json_t *job, char *buf, size_t len);

/* "'name'", "'name' numjobs=2 bs=4k", "'name' #2": a job entry in
 * messages, with its point (in the point's order) and its occurrence
 * among entries of the same name and point when above 1. */
void match_quoted(const json_t *job, size_t occurrence, char *buf, size_t len);

/* S3's axis: a point's directory= (fio's list, "a:b:c", a "\\:" part of
 * a name) as the number of directories in it, its "drives". */
size_t match_directories(const char *value);

/* Whether the directory= values of values[0..n) (NULL ones skipped) are
 * told apart by their number of directories alone, so that a view may
 * label them by it ("2") with the paths in a legend. */
bool match_directories_distinct(const char *const *values, size_t n);

/* A job entry of a file and the key it is aligned by. */
struct match_entry {
	char *key;	   /* name, point keys sorted, occurrence */
	const json_t *job; /* borrowed */
	size_t occurrence; /* 1, or n for the n-th entry of the same name and point */
};

/* The job entries of one file (entries without a name are left out). */
struct match_file {
	struct match_entry *entries; /* in file order */
	size_t n;
	struct match_entry **sorted; /* by key, for match_file_find */
};

/* Index the job entries of result. 0 or -ENOMEM; released either way. */
int match_file_init(struct match_file *mf, const json_t *result);

void match_file_release(struct match_file *mf);

/* The entry of mf aligned with key (another file's entry's key), or NULL. */
const struct match_entry *match_file_find(const struct match_file *mf, const char *key);

/* The rows of a side-by-side view of n files. */
struct match_rows {
	size_t nfiles;
	size_t count;
	struct match_row {
		char label[512]; /* match_label of the job */
		const char *op;	 /* from metric_op(): an op type's name, or "all" */
	} * rows;
	const json_t **jobs; /* [count * nfiles]: row i's job entry in file f at [i * nfiles + f], or NULL */
};

/* The rows of results[0..n) for metric m: every match_label and op of m
 * (metric_op; for a per-op metric only those in the comma-separated ops
 * when it is not NULL) that some job of some file has a figure for
 * (metric_figure), in order of appearance (file, job, op), at most max.
 * 0 or -ENOMEM; released either way. */
int match_rows_init(struct match_rows *mr, const json_t *const *results, size_t n, const struct metric *m,
		    const char *ops, size_t max);

void match_rows_release(struct match_rows *mr);

/* Row i's job entry in file f, or NULL when the file has none. */
const json_t *match_rows_job(const struct match_rows *mr, size_t i, size_t f);

#endif
