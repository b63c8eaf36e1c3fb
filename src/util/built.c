/* The parts a build can leave out; see built.h. One line per part. */
#include "util/built.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *option;
	const char *value;
	const char *package;
	const char *keys; /* the part's own keys, ' ' between them and at both ends */
} missing[] = {
#ifndef DBIO_HAVE_LIBURING
	{ "ioengine", "io_uring", "liburing-dev", " registerfiles fixedbufs sqthread_poll " },
#endif
#ifndef DBIO_HAVE_LIBAIO
	{ "ioengine", "libaio", "libaio-dev", NULL },
#endif
#ifndef DBIO_HAVE_GDBM
	{ "kv_engine", "gdbm", "libgdbm-dev", NULL },
#endif
#ifndef DBIO_HAVE_LMDB
	{ "kv_engine", "lmdb", "liblmdb-dev", NULL },
#endif
#ifndef DBIO_HAVE_ROCKSDB
	{ "kv_engine", "rocksdb", "librocksdb-dev",
	  " write_buffer_size cache_size compression_type max_background_jobs disable_wal use_fsync " },
#endif
#ifndef DBIO_HAVE_LEVELDB
	{ "kv_engine", "leveldb", "libleveldb-dev", " write_buffer_size cache_size compression_type " },
#endif
#ifndef DBIO_HAVE_SQLITE3
	{ "kv_engine", "sqlite", "libsqlite3-dev", NULL },
	{ "workload", "import", "libsqlite3-dev", " rows indexes page_size journal_mode synchronous " },
#endif
#ifndef DBIO_HAVE_LIBPQ
	{ "workload", "postgres", "libpq-dev",
	  " scale clients transactions shared_buffers wal_level pg_fsync synchronous_commit full_page_writes checkpoint_timeout max_wal_size wal_sync_method maintenance_work_mem pg_conninfo " },
#endif
#ifndef DBIO_HAVE_LIBXXHASH
	{ "verify", "xxhash", "libxxhash-dev", NULL },
#endif
#ifndef DBIO_HAVE_LIBCRYPTO
	{ "verify", "md5", "libssl-dev", NULL },
	{ "verify", "sha1", "libssl-dev", NULL },
	{ "verify", "sha256", "libssl-dev", NULL },
	{ "verify", "sha512", "libssl-dev", NULL },
	{ "verify", "sha3-224", "libssl-dev", NULL },
	{ "verify", "sha3-256", "libssl-dev", NULL },
	{ "verify", "sha3-384", "libssl-dev", NULL },
	{ "verify", "sha3-512", "libssl-dev", NULL },
#endif
	{ NULL, NULL, NULL, NULL },
};

const char *built_missing_key(const char *key, const char **option, const char **value)
{
	char word[80];

	if (snprintf(word, sizeof(word), " %s ", key) >= (int)sizeof(word))
		return NULL;
	for (size_t i = 0; missing[i].option; i++)
		if (missing[i].keys && strstr(missing[i].keys, word)) {
			*option = missing[i].option;
			*value = missing[i].value;
			return missing[i].package;
		}
	return NULL;
}

const char *built_missing_package(const char *option, const char *value)
{
	for (size_t i = 0; missing[i].option; i++)
		if (!strcmp(missing[i].option, option) && !strcmp(missing[i].value, value))
			return missing[i].package;
	return NULL;
}

size_t built_missing_list(char *buf, size_t len)
{
	size_t used = 0, i;

	buf[0] = '\0';
	for (i = 0; missing[i].option; i++) {
		int n = snprintf(buf + used, len - used, "%s%s=%s (%s)", i ? ", " : "", missing[i].option,
				 missing[i].value, missing[i].package);

		if (n > 0 && (size_t)n < len - used)
			used += (size_t)n;
		else
			len = used + 1; /* full: count the rest, write no more */
	}
	return i;
}

const char *built_mpi(void)
{
#ifdef DBIO_HAVE_MPI
	return "in: runs as one rank of mpirun (docs/mpi.md)";
#else
	return "not in this build (make MPI=1 with libopenmpi-dev and openmpi-bin)";
#endif
}
