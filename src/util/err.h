/*
 * Errors: every fallible function in dbio returns 0 or a negative code, either
 * -errno from the kernel or one of dbio's own codes below (a separate range),
 * and puts the human detail into a caller's struct dbio_err. The first error
 * wins: later failures during cleanup never overwrite the cause.
 * Only cmd/ and main.c print errors.
 */
#ifndef DBIO_UTIL_ERR_H
#define DBIO_UTIL_ERR_H

#include <stddef.h>

enum {
	DBIO_EBASE = 10000,
	DBIO_EINPUT = -(DBIO_EBASE + 1),   /* bad job, option or command line: exit 2 */
	DBIO_EUNSAFE = -(DBIO_EBASE + 2),  /* refused to touch data dbio did not create */
	DBIO_ESTOPPED = -(DBIO_EBASE + 3), /* stopped by a signal */
	DBIO_EFORMAT = -(DBIO_EBASE + 4),  /* a file dbio reads is malformed */
};

struct dbio_err {
	int code;	/* 0 while no error has been recorded */
	char msg[8192]; /* "<subject>: <what failed>: <reason>", no "dbio: " prefix; lines after the
			 * first (a list of every bad key of a file) begin with "dbio: " */
};

/* Record an error unless one is already recorded; returns code (or the
 * earlier code) so callers can write `return dbio_err_set(...)`. The
 * message's control characters are escaped (util/termesc.h), and for bad
 * input (DBIO_EINPUT, DBIO_EFORMAT, DBIO_EUNSAFE) newline and tab too: it
 * is one line of visible text whatever its arguments held. A runtime
 * failure's message keeps its newlines (a list of bad blocks). */
int dbio_err_set(struct dbio_err *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* dbio_err_set for a message of several lines, which are kept: fmt's
 * arguments must be messages dbio_err_set made (already escaped), joined
 * by the newlines of fmt or of one such argument. */
int dbio_err_set_lines(struct dbio_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Text for a code: strerror() for -errno, dbio's own text otherwise. */
const char *dbio_strerror(int code);

/* Process exit status for an error code: 2 for bad input, 1 otherwise. */
int dbio_exit_status(int code);

#endif
