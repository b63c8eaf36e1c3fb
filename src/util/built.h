/*
 * What this build of dbio left out, and the Debian package that brings each
 * part back. The Makefile defines DBIO_HAVE_<LIB> for every optional library
 * it links (gdbm, lmdb, sqlite3, liburing, libaio); a part whose library is
 * missing is not in its registry, and a job asking for it is told which
 * package to install instead of "bad value".
 */
#ifndef DBIO_UTIL_BUILT_H
#define DBIO_UTIL_BUILT_H

#include <stddef.h>

/* The package a left-out value of option needs ("libgdbm-dev" for
 * option "kv_engine", value "gdbm"), or NULL when that value is built in or
 * is not one dbio knows. */
const char *built_missing_package(const char *option, const char *value);

/* The package that brings back key, a key of a part this build left out
 * (io_uring's registerfiles ...), with the part in *option and *value; or
 * NULL. Only keys no part of the build has are listed. */
const char *built_missing_key(const char *key, const char **option, const char **value);

/* "kv_engine=gdbm (libgdbm-dev), ..." into buf, or "" when nothing is
 * left out; returns the number of parts left out. */
size_t built_missing_list(char *buf, size_t len);

/* Whether this build runs under MPI (make MPI=1), as --version says it:
 * "in: ..." or "not in this build (...)"; static. */
const char *built_mpi(void);

#endif
