/*
 * write_iolog: what a fileio thread did, captured as it completes and
 * written after its run, in issue order (as fio logs), in fio 3.33's
 * version 3 iolog (see replay.h):
 *
 *     fio version 3 iolog
 *     TIME FILE add|open|close
 *     TIME FILE read|write|trim|sync|datasync OFFSET LENGTH
 *
 * TIME in microseconds since the thread's start, FILE the path dbio opened
 * (directory= and the name), a sync's offset and length 0. The file is
 * dbio's own output: checked before the run and written as --output is
 * (util/atomic.h), but never through a FIFO or a device.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/atomic.h"
#include "util/safepath.h"
#include "workload/fileio/fileio_int.h"
#include "workload/fileio/keys.h"
#include "workload/fileio/replay.h"

#define CAP_HINT_MAX (1u << 20) /* records reserved per thread at most; more are grown */

struct replay_cap {
	struct replay_cap_rec {
		uint64_t start_ns;
		uint64_t off, len;
		uint32_t file;
		uint8_t op; /* enum op_type */
	} * rec;
	size_t n, cap;
	uint64_t lost; /* records that found no memory */
};

int replay_capture_validate(struct job *job, struct dbio_err *err)
{
	const char *path = fileio_conf(job)->write_iolog;

	if (!path[0])
		return 0;
	if (job->numjobs > 1)
		return job_fail(
			job, "write_iolog", err,
			"with numjobs=%llu: fio's clones would intersperse their lines in one file; give numjobs=1, or a job section of its own with its own write_iolog",
			(unsigned long long)job->numjobs);
	int rc = atomic_write_check("write_iolog", path, err);
	struct safepath sp;

	if (rc)
		return rc;
	/* an iolog is dbio's own file: a FIFO or a character device there
	 * is not written through (atomic_write_own) */
	rc = safepath_resolve("write_iolog", path, &sp, err);
	if (!rc && sp.fd >= 0 && !S_ISREG(sp.st.st_mode))
		rc = job_fail(job, "write_iolog", err,
			      "%s: not a regular file: dbio writes an iolog to a new or regular file only",
			      path);
	safepath_release(&sp);
	return rc == DBIO_EUNSAFE || rc == DBIO_EINPUT ? rc : 0;
}

int replay_capture_prepare(struct worker *w)
{
	struct fileio_state *st = w->priv;
	const uint64_t hint = w->ops_total + 64;

	if (!fileio_conf(w->job)->write_iolog[0])
		return 0;
	if (!(st->cap = calloc(1, sizeof(*st->cap))))
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory for write_iolog", w->index);
	st->cap->cap = hint > CAP_HINT_MAX ? CAP_HINT_MAX : (size_t)hint;
	if (!(st->cap->rec = malloc(st->cap->cap * sizeof(*st->cap->rec))))
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory for write_iolog", w->index);
	return 0;
}

void replay_capture_free(struct replay_cap *c)
{
	if (!c)
		return;
	free(c->rec);
	free(c);
}

void replay_capture(struct replay_cap *c, const struct io_req *req, uint64_t start_ns)
{
	if (c->n == c->cap) {
		struct replay_cap_rec *nr = realloc(c->rec, 2 * c->cap * sizeof(*nr));

		if (!nr) {
			c->lost++;
			return;
		}
		c->rec = nr;
		c->cap *= 2;
	}
	c->rec[c->n++] = (struct replay_cap_rec){ .start_ns = start_ns,
						  .off = req->off,
						  .len = op_is_data(req->op) ? req->len : 0,
						  .file = req->file,
						  .op = (uint8_t)req->op };
}

/* fio's name of op in a log line. */
static const char *cap_op_name(enum op_type op)
{
	switch (op) {
	case OP_READ:
		return "read";
	case OP_WRITE:
		return "write";
	case OP_TRIM:
		return "trim";
	case OP_FSYNC:
		return "sync";
	default:
		return "datasync";
	}
}

/* The records in the order their I/O was issued: a queued engine completes
 * them out of order, and fio logs at issue, so the timestamps go up. An
 * insertion sort, stable (one start time keeps completion order) and
 * quick here: a record is at most iodepth places from its own. */
static void issue_order(struct replay_cap *c)
{
	for (size_t i = 1; i < c->n; i++) {
		const struct replay_cap_rec r = c->rec[i];
		size_t j = i;

		for (; j > 0 && c->rec[j - 1].start_ns > r.start_ns; j--)
			c->rec[j] = c->rec[j - 1];
		c->rec[j] = r;
	}
}

int replay_capture_write(struct worker *w)
{
	const struct fileio_state *st = w->priv;
	struct replay_cap *c = st->cap;
	const char *path = fileio_conf(w->job)->write_iolog;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc = 0;

	if (!c || w->err.code)
		return w->err.code;
	if (c->lost)
		return dbio_err_set(&w->err, -ENOMEM, "%s: %llu lines of the iolog found no memory", path,
				    (unsigned long long)c->lost);
	if (!(f = open_memstream(&buf, &len)))
		return dbio_err_set(&w->err, -ENOMEM, "%s: out of memory for the iolog", path);
	issue_order(c);
	/* fio 3.33's: the version, every file added, opened at its first I/O,
	 * closed at the end; microseconds since the thread's start */
	bool *opened = calloc(w->nfiles ? w->nfiles : 1, sizeof(*opened));

	fprintf(f, "fio version 3 iolog\n");
	for (size_t i = 0; i < w->nfiles; i++)
		fprintf(f, "0 %s add\n", w->files[i].path);
	for (size_t i = 0; opened && i < c->n; i++) {
		const struct replay_cap_rec *r = &c->rec[i];
		const unsigned long long us =
			r->start_ns > w->start_ns ? (r->start_ns - w->start_ns) / 1000 : 0;

		if (!opened[r->file]) {
			opened[r->file] = true;
			fprintf(f, "%llu %s open\n", us, w->files[r->file].path);
		}
		fprintf(f, "%llu %s %s %llu %llu\n", us, w->files[r->file].path, cap_op_name(r->op),
			(unsigned long long)r->off, (unsigned long long)r->len);
	}
	for (size_t i = 0; opened && i < w->nfiles; i++)
		if (opened[i])
			fprintf(f, "%llu %s close\n", (unsigned long long)((w->end_ns - w->start_ns) / 1000),
				w->files[i].path);
	if (fclose(f) || !opened)
		rc = dbio_err_set(&w->err, -ENOMEM, "%s: out of memory for the iolog", path);
	if (!rc)
		rc = atomic_write_own(path, buf ? buf : "", len, &w->err);
	free(opened);
	free(buf);
	return rc;
}
