/*
 * What the LSM-tree backends of workload=kv (kv_rocksdb.c, kv_leveldb.c)
 * share: the names of their block compressions. Both tables take the same
 * values, as a key both have is parsed by both (job_set); each engine
 * refuses at validation those it does not have. And what the environment
 * says of a backend's library: its version, whether it was built with
 * assertions (Debian's RocksDB is: db_bench warns of it).
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/workload_int.h"

const struct opt_enum kv_compression_values[] = {
	{ "none", KV_COMPRESS_NONE, "no compression" },
	{ "snappy", KV_COMPRESS_SNAPPY, "Snappy" },
	{ "zlib", KV_COMPRESS_ZLIB, "zlib (RocksDB)" },
	{ "bzip2", KV_COMPRESS_BZIP2, "bzip2 (RocksDB)" },
	{ "lz4", KV_COMPRESS_LZ4, "LZ4 (RocksDB)" },
	{ "lz4hc", KV_COMPRESS_LZ4HC, "LZ4HC (RocksDB)" },
	{ "zstd", KV_COMPRESS_ZSTD, "Zstandard (RocksDB)" },
	{ NULL, 0, NULL },
};

/* The path of the shared library that holds sym, resolved, into path:
 * 0, or -1 when sym is in no shared library dladdr knows. */
static int lib_path(const void *sym, char *path, size_t len)
{
	Dl_info info;

	if (!sym || !dladdr(sym, &info) || !info.dli_fname || !realpath(info.dli_fname, path))
		return -1;
	path[len - 1] = '\0';
	return 0;
}

int kv_lib_assertions(const void *sym)
{
	char path[PATH_MAX];
	struct stat st;
	void *map;
	int fd, found = -1;

	if (lib_path(sym, path, sizeof(path)))
		return -1;
	/* a system library, named by the loader: not a path a user gave */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (!fstat(fd, &st) && st.st_size > 0 &&
	    (map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) != MAP_FAILED) {
		/* the name in its dynamic string table, as an import */
		found = memmem(map, (size_t)st.st_size, "__assert_fail", sizeof("__assert_fail")) != NULL;
		munmap(map, (size_t)st.st_size);
	}
	close(fd);
	return found;
}

void kv_lib_version(const void *sym, char *buf, size_t len)
{
	char path[PATH_MAX];
	const char *so;

	buf[0] = '\0';
	if (!lib_path(sym, path, sizeof(path)) && (so = strstr(path, ".so.")))
		snprintf(buf, len, "%s", so + 4);
}

/* What kv_lib_note found of each backend's library, once per process:
 * filled at validation, in the main thread before any worker starts, and
 * only read by the workers. */
static struct {
	const struct kv_backend *be;
	char version[32];
	int assertions;
} libs[8];

void kv_lib_note(const struct kv_backend *be)
{
	size_t i;

	for (i = 0; i < sizeof(libs) / sizeof(libs[0]) && libs[i].be; i++)
		if (libs[i].be == be)
			return;
	if (i == sizeof(libs) / sizeof(libs[0]) || !be->version)
		return;
	be->version(libs[i].version, sizeof(libs[i].version));
	libs[i].assertions = kv_lib_assertions(be->lib_symbol);
	libs[i].be = be;
}

void kv_lib_get(const struct kv_backend *be, const char **version, int *assertions)
{
	*version = NULL;
	*assertions = -1;
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]) && libs[i].be; i++)
		if (libs[i].be == be) {
			*version = libs[i].version[0] ? libs[i].version : NULL;
			*assertions = libs[i].assertions;
		}
}
