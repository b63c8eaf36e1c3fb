/*
 * The failures of the fileio loops' I/Os: the message of one that stops
 * the job, and continue_on_error's count of those it goes on after; see
 * fileio_int.h.
 */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>

#include "workload/fileio/fileio_int.h"
#include "workload/fileio/files.h"
#include "workload/workload.h"

int fileio_io_failed(struct worker *w, const struct io_req *req, size_t file, int rc)
{
	struct stat sb;

	atomic_store(w->job_stop, 1);
	/* The layout made every file whole, so an end of file inside it
	 * means someone cut the file short while the job ran; "No data
	 * available" alone would not say so. */
	if ((req->op == OP_READ || req->op == OP_WRITE) && rc == -ENODATA &&
	    fstat(w->files[file].fd, &sb) == 0 && (uint64_t)sb.st_size < req->off + req->len)
		return dbio_err_set(
			&w->err, rc,
			"%s: %s of %llu bytes at offset %llu: the file ends at %llu bytes now: truncated while the job ran?",
			w->files[file].path, op_type_name(req->op), (unsigned long long)req->len,
			(unsigned long long)req->off, (unsigned long long)sb.st_size);
	if (op_is_data(req->op))
		return dbio_err_set(&w->err, rc, "%s: %s of %llu bytes at offset %llu: %s",
				    w->files[file].path, op_type_name(req->op), (unsigned long long)req->len,
				    (unsigned long long)req->off, strerror(-rc));
	/* A failed fsync is not retried: the kernel may have dropped the dirty
	 * pages and cleared the error, so a second fsync could succeed with
	 * the data gone (the PostgreSQL fsync lesson, 2018). */
	if (req->op == OP_FSYNC || req->op == OP_FDATASYNC || req->op == OP_SYNC_FILE_RANGE)
		return dbio_err_set(
			&w->err, rc,
			"%s: %s: %s: what the job wrote to it since its last successful sync may be lost (not retried)",
			w->files[file].path, op_type_name(req->op), strerror(-rc));
	return dbio_err_set(&w->err, rc, "%s: %s: %s", w->files[file].path, op_type_name(req->op),
			    strerror(-rc));
}

bool fileio_io_continue(struct worker *w, const struct io_req *req, int rc)
{
	const unsigned kind = req->op == OP_READ    ? CONTINUE_READ
			      : req->op == OP_WRITE ? CONTINUE_WRITE
			      : req->op == OP_TRIM  ? CONTINUE_TRIM
						    : 0;

	if (!(fileio_files(w->job)->pacing.continue_on & kind))
		return false;
	return io_errors_add(&w->ioerr, rc, "%s: %s of %llu bytes at offset %llu: %s",
			     w->files[req->file].path, op_type_name(req->op), (unsigned long long)req->len,
			     (unsigned long long)req->off, strerror(-rc));
}
