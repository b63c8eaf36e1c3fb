/*
 * What the LSM-tree backends of workload=kv (kv_rocksdb.c, kv_leveldb.c)
 * share: the names of their block compressions. Both tables take the same
 * values, as a key both have is parsed by both (job_set); each engine
 * refuses at validation those it does not have.
 */
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
