/*
 * Atomic file writes: the data goes to a temporary file beside path, is
 * fsync'd, and is renamed over path, so a reader sees the old file or the
 * whole new one, never half of it.
 */
#ifndef DBIO_UTIL_ATOMIC_H
#define DBIO_UTIL_ATOMIC_H

#include <stddef.h>

#include "util/err.h"

/* Write len bytes of data to path atomically; 0 or -errno with
 * "<path>: cannot write: <reason>" in err. */
int atomic_write(const char *path, const char *data, size_t len, struct dbio_err *err);

#endif
