/*
 * Output files (--output, --series-csv, report --html, sync --output): what
 * dbio may do at a path the user names, as root.
 *
 *   missing, or a regular file   written atomically: a temporary file beside
 *                                path, fsync'd, renamed to path (a reader
 *                                sees the old file or the whole new one)
 *   "-", a FIFO, a character     written through, never replaced: /dev/null
 *   device                       stays /dev/null; a FIFO that no process
 *                                reads (within a second) is refused
 *                                rather than waited on forever
 *   dbio's standard output or    written to that stream, after what dbio
 *   error (/dev/stdout, or the   printed there
 *   file it is redirected to)
 *   a symlink                    followed only when it belongs to root or to
 *                                the user running dbio (another user could
 *                                have planted it); its target is then
 *                                written in place, as a shell's '>' would
 *                                (/dev/stdout); a symlink to nothing is
 *                                refused
 *   a directory, a block device, refused
 *   a socket
 */
#ifndef DBIO_UTIL_ATOMIC_H
#define DBIO_UTIL_ATOMIC_H

#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

/* Write len bytes of data to path as the table above says; 0, -errno with
 * "<path>: cannot write: <reason>" in err, or DBIO_EUNSAFE for a path it
 * refuses. */
int atomic_write(const char *path, const char *data, size_t len, struct dbio_err *err);

/* atomic_write for a file that is dbio's own, in a directory it writes
 * many of (plot --out's NAME.svg, .dat, .gp): a FIFO or a character device
 * there (or as a followed symlink's target) is not dbio's and is refused,
 * DBIO_EUNSAFE, never written through. */
int atomic_write_own(const char *path, const char *data, size_t len, struct dbio_err *err);

/* Whether atomic_write would replace a file at path (nothing or a regular
 * file is there): a result rewritten as it grows (sweep, matrix) is written
 * once, at the end, to anything else, such as a FIFO. */
bool atomic_write_replaces(const char *path);

/* Whether atomic_write could write path, without writing anything: 0, or
 * DBIO_EINPUT / DBIO_EUNSAFE with "<what> <path>: <reason>" in err, what
 * being the option that named it ("--output"). */
int atomic_write_check(const char *what, const char *path, struct dbio_err *err);

#endif
