/*
 * What fio has and dbio does not: every key fio documents (its job
 * options, the options of its I/O engines and profiles, and their aliases)
 * that is not a key of any option table of dbio, and every I/O engine of
 * fio's that dbio lacks, each with a one-line reason. dbio reads fio's
 * job-file format; the job-file parser and validation (plan/) use these to
 * refuse such a key or engine with its reason instead of "unknown", and
 * `dbio help fio-keys` lists them beside the keys dbio honours. Plain
 * const data: the names are fio's (fio 3.x, the union over its releases),
 * the reasons dbio's own.
 *
 * When dbio starts to honour one of these keys, its row here goes:
 * tests/unit/test_fio_keys.c fails while a key is both in a table of the
 * build and here.
 */
#ifndef DBIO_PLAN_FIO_KEYS_H
#define DBIO_PLAN_FIO_KEYS_H

#include <stddef.h>

/* A name of fio's that dbio does not take, and why, as one line of at most
 * 159 bytes: what the key is for in fio when dbio may honour it later,
 * whom it belongs to (an engine or profile dbio does not have), or what to
 * write instead ("fio's other name for rw; dbio takes rw= only"). */
struct fio_key {
	const char *name;
	const char *reason;
};

/* fio's documented key (or alias) named name that dbio does not honour, or
 * NULL: a key of dbio's, or a name fio does not have either. Exact,
 * case-sensitive match, as both parsers take keys. */
const struct fio_key *fio_key_find(const char *name);

/*
 * The one-line reason dbio has no ioengine named name when fio has one, or
 * NULL (an engine of dbio's, or a name fio does not have either;
 * "external:<file>" is fio's too). The reason says what the engine is and,
 * where dbio has something near, what to use: "fio's RDMA network engine",
 * "fio's engine that creates files; use workload=meta (...)". It does not
 * name dbio's engines, which depend on the build: the caller adds them
 * from engine_list() (engine/engine.h), as in
 *
 *     key 'ioengine': 'rdma' is fio's RDMA network engine; dbio's engines
 *     are psync, sync, pvsync2, io_uring, libaio, mmap, null
 *
 * (one line), so that the text here stays const and the same in every
 * build. An engine of dbio's that this build left out (io_uring without
 * liburing) is NULL here: built_missing_package() (util/built.h) names its
 * package.
 */
const char *fio_engine_reason(const char *name);

/* Every entry, sorted by name (strcmp) and unique, for docs and tests. */
extern const struct fio_key fio_keys[];
extern const size_t fio_key_count;

/* fio's I/O engines that dbio lacks, likewise. */
extern const struct fio_key fio_engines[];
extern const size_t fio_engine_count;

#endif
