/*
 * kv backend: RocksDB, through its C API (rocksdb/c.h). The database is a
 * directory (its WAL, SST files, MANIFEST, LOG); a batch is one
 * WriteBatch, written with WriteOptions.sync when the batch is to be
 * durable. Its own keys (write_buffer_size, cache_size, compression_type,
 * max_background_jobs, disable_wal, use_fsync) carry db_bench's names and
 * RocksDB's defaults, and belong to kv_engine=rocksdb alone.
 */
#ifdef DBIO_HAVE_ROCKSDB /* left out of a build without the library: util/built.h */
#include <errno.h>
#include <rocksdb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/workload_int.h"

struct kv_rocksdb_conf {
	uint64_t write_buffer_size;
	uint64_t cache_size;
	int compression; /* enum kv_compression */
	uint64_t max_background_jobs;
	bool disable_wal;
	bool use_fsync;
	bool statistics;
	bool pipelined;
	uint64_t delayed_write_rate;
	uint64_t table_cache_numshardbits;
	uint64_t hard_pending;
	bool pin_top_level;
};

#define F(field) offsetof(struct kv_rocksdb_conf, field)

/* clang-format off */
static const struct option_def rocksdb_defs[] = {
	{ .name = "write_buffer_size", .type = OPT_SIZE, .offset = F(write_buffer_size), .def = "64m", .min = 64 << 10, .max = 64ull << 30, .dbio_own = 1,
	  .help = "RocksDB's memtable size (Options.write_buffer_size, db_bench's --write_buffer_size): a full memtable is flushed to an SST file of level 0." },
	{ .name = "cache_size", .type = OPT_SIZE, .offset = F(cache_size), .def = "8m", .min = 0, .max = 1ull << 40, .dbio_own = 1,
	  .help = "RocksDB's block cache, an LRU cache of this many bytes (db_bench's --cache_size; 8 MiB is RocksDB's own default); 0: no block cache." },
	{ .name = "compression_type", .type = OPT_ENUM, .offset = F(compression), .def = "snappy", .values = kv_compression_values, .dbio_own = 1,
	  .help = "how RocksDB compresses its SST blocks (Options.compression, db_bench's --compression_type). dbio's values compress as their bytes are seeded random: about not at all." },
	{ .name = "max_background_jobs", .type = OPT_UINT, .offset = F(max_background_jobs), .def = "2", .min = 1, .max = 256, .dbio_own = 1,
	  .help = "RocksDB's threads for flushes and compactions together (Options.max_background_jobs)." },
	{ .name = "disable_wal", .type = OPT_BOOL, .offset = F(disable_wal), .def = "0", .dbio_own = 1,
	  .help = "1: write no WAL (WriteOptions.disableWAL, db_bench's --disable_wal): what is not yet flushed is lost in a crash; needs sync_each_batch=0, as RocksDB syncs a batch through its WAL." },
	{ .name = "use_fsync", .type = OPT_BOOL, .offset = F(use_fsync), .def = "0", .dbio_own = 1,
	  .help = "1: RocksDB makes its files durable with fsync, not fdatasync (Options.use_fsync, db_bench's --use_fsync)." },
	{ .name = "statistics", .type = OPT_BOOL, .offset = F(statistics), .def = "1", .dbio_own = 1,
	  .help = "1: RocksDB keeps its statistics (Options.statistics, db_bench's --statistics), the engine's account of the write amplification (its WAL, flush and compaction bytes, compaction and stall time); 0: none of these figures, and no timing of every get and write inside RocksDB (db_bench's default: about 5 % faster on small values)." },
	{ .name = "enable_pipelined_write", .type = OPT_BOOL, .offset = F(pipelined), .def = "0", .dbio_own = 1,
	  .help = "1: RocksDB writes the WAL and the memtable of successive batches in a pipeline (Options.enable_pipelined_write; RocksDB's default 0, db_bench's 1)." },
	{ .name = "delayed_write_rate", .type = OPT_SIZE, .offset = F(delayed_write_rate), .def = "16m", .min = 1, .max = 1ull << 40, .dbio_own = 1,
	  .help = "Bytes per second RocksDB lets writes through while it slows them for compaction to catch up (Options.delayed_write_rate; RocksDB's 16 MiB/s, db_bench's 8 MiB/s)." },
	{ .name = "table_cache_numshardbits", .type = OPT_UINT, .offset = F(table_cache_numshardbits), .def = "6", .min = 0, .max = 19, .dbio_own = 1,
	  .help = "RocksDB's table cache in 2^N shards (Options.table_cache_numshardbits; RocksDB's 6, db_bench's 4)." },
	{ .name = "hard_pending_compaction_bytes_limit", .type = OPT_SIZE, .offset = F(hard_pending), .def = "256g", .min = 0, .max = OPT_MAX, .dbio_own = 1,
	  .help = "RocksDB stops writes while its compactions owe this many bytes (Options.hard_pending_compaction_bytes_limit; RocksDB's 256 GiB, db_bench's 128 GiB; 0: no limit)." },
	{ .name = "pin_top_level_index_and_filter", .type = OPT_BOOL, .offset = F(pin_top_level), .def = "1", .dbio_own = 1,
	  .help = "1: RocksDB keeps the top level of a partitioned index and filter in its block cache (BlockBasedTableOptions.pin_top_level_index_and_filter; RocksDB's 1, db_bench's 0)." },
};
/* clang-format on */

static const struct option_table rocksdb_options = OPTION_TABLE(rocksdb_defs, struct kv_rocksdb_conf);

struct kv_db {
	rocksdb_t *db;
	rocksdb_options_t *opts;
	rocksdb_block_based_table_options_t *table;
	rocksdb_cache_t *cache;
	rocksdb_writeoptions_t *wsync, *wnosync;
	rocksdb_readoptions_t *ropts;
	rocksdb_writebatch_t *batch;
	rocksdb_iterator_t *iter; /* seek's, until the next write batch */
	char msg[256];
};

/* RocksDB's error text (freed) into db->msg: -EIO. */
static int fail(struct kv_db *db, const char *what, char *rerr)
{
	snprintf(db->msg, sizeof(db->msg), "%s: %s", what, rerr ? rerr : "failed");
	rocksdb_free(rerr);
	return -EIO;
}

static const int compression_of[] = {
	[KV_COMPRESS_NONE] = rocksdb_no_compression,   [KV_COMPRESS_SNAPPY] = rocksdb_snappy_compression,
	[KV_COMPRESS_ZLIB] = rocksdb_zlib_compression, [KV_COMPRESS_BZIP2] = rocksdb_bz2_compression,
	[KV_COMPRESS_LZ4] = rocksdb_lz4_compression,   [KV_COMPRESS_LZ4HC] = rocksdb_lz4hc_compression,
	[KV_COMPRESS_ZSTD] = rocksdb_zstd_compression,
};

static void r_close(struct kv_db *db);

/* RocksDB's options for rc, in db's handles: 0, or -EIO with RocksDB's
 * reason in err (delayed_write_rate, which the C API sets only through an
 * options string). */
static int r_configure(struct kv_db *db, const struct kv_rocksdb_conf *rc, struct dbio_err *err)
{
	rocksdb_options_t *with_rate;
	char rate[64], *rerr = NULL;

	if (rc->statistics)
		rocksdb_options_enable_statistics(db->opts); /* for kv_amp.c: its tickers, r_io */
	rocksdb_options_set_enable_pipelined_write(db->opts, rc->pipelined);
	rocksdb_options_set_create_if_missing(db->opts, 1);
	rocksdb_options_set_error_if_exists(db->opts, 1);
	rocksdb_options_set_write_buffer_size(db->opts, (size_t)rc->write_buffer_size);
	rocksdb_options_set_compression(db->opts, compression_of[rc->compression]);
	rocksdb_options_set_max_background_jobs(db->opts, (int)rc->max_background_jobs);
	rocksdb_options_set_use_fsync(db->opts, rc->use_fsync);
	rocksdb_options_set_table_cache_numshardbits(db->opts, (int)rc->table_cache_numshardbits);
	rocksdb_options_set_hard_pending_compaction_bytes_limit(db->opts, (size_t)rc->hard_pending);
	rocksdb_block_based_options_set_pin_top_level_index_and_filter(db->table, rc->pin_top_level);
	if (rc->cache_size) {
		db->cache = rocksdb_cache_create_lru((size_t)rc->cache_size);
		rocksdb_block_based_options_set_block_cache(db->table, db->cache);
	} else {
		rocksdb_block_based_options_set_no_block_cache(db->table, 1);
	}
	rocksdb_options_set_block_based_table_factory(db->opts, db->table);
	rocksdb_writeoptions_set_sync(db->wsync, 1);
	rocksdb_writeoptions_disable_WAL(db->wsync, rc->disable_wal);
	rocksdb_writeoptions_disable_WAL(db->wnosync, rc->disable_wal);
	snprintf(rate, sizeof(rate), "delayed_write_rate=%llu", (unsigned long long)rc->delayed_write_rate);
	with_rate = rocksdb_options_create();
	rocksdb_get_options_from_string(db->opts, rate, with_rate, &rerr);
	if (rerr) {
		rocksdb_options_destroy(with_rate);
		dbio_err_set(err, -EIO, "rocksdb options %s: %s", rate, rerr);
		rocksdb_free(rerr);
		return -EIO;
	}
	rocksdb_options_destroy(db->opts);
	db->opts = with_rate;
	return 0;
}

/* The handles of a database, its options unset: NULL when out of memory. */
static struct kv_db *r_new(void)
{
	struct kv_db *db = calloc(1, sizeof(*db));

	if (!db)
		return NULL;
	db->opts = rocksdb_options_create();
	db->table = rocksdb_block_based_options_create();
	db->wsync = rocksdb_writeoptions_create();
	db->wnosync = rocksdb_writeoptions_create();
	db->ropts = rocksdb_readoptions_create();
	db->batch = rocksdb_writebatch_create();
	return db;
}

/* rocksdb_open of db's options at path: 0, or -EIO with the error in err
 * and db freed. */
static int r_open_at(struct kv_db **out, struct kv_db *db, const char *path, struct dbio_err *err)
{
	char *rerr = NULL;

	db->db = rocksdb_open(db->opts, path, &rerr);
	if (!db->db) {
		dbio_err_set(err, -EIO, "rocksdb_open: %s", rerr ? rerr : "failed");
		rocksdb_free(rerr);
		r_close(db);
		return -EIO;
	}
	*out = db;
	return 0;
}

static int r_open(struct kv_db **out, const char *path, const struct kv_conf *conf, const void *own,
		  struct dbio_err *err)
{
	struct kv_db *db = r_new();

	(void)conf;
	if (!db)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	if (r_configure(db, own, err)) {
		r_close(db);
		return err->code;
	}
	return r_open_at(out, db, path, err);
}

/* After a cut: RocksDB's recovery is its open, which replays the WAL
 * files its MANIFEST does not account for (WALRecoveryMode's default,
 * point in time: up to the first record that is not whole). Read-write,
 * as a restarted server opens it; the cut is dbio's to write in. */
static int r_reopen(struct kv_db **out, const char *path, bool *intact, struct dbio_err *err)
{
	struct kv_db *db = r_new();

	*intact = true;
	if (!db)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	return r_open_at(out, db, path, err); /* create_if_missing is off by default */
}

/* A batch is acknowledged when rocksdb_write returns: durable only when
 * the WAL was synced (WriteOptions.sync) before it returned. */
static void r_setting(const struct kv_conf *conf, const void *own, char *buf, size_t len)
{
	const struct kv_rocksdb_conf *rc = own;

	snprintf(buf, len, "%s",
		 rc->disable_wal	 ? "no WAL"
		 : conf->sync_each_batch ? "WAL synced per batch"
					 : "WAL not synced");
}

/* The calling thread's perf context (thread-local; RocksDB's default
 * counts into it, db_bench turns it off) off: dbio reads none of it. In
 * begin, and in get for readwhilewriting's reader threads, which call no
 * begin (kv_rww.c). */
static void perf_off(void)
{
	static _Thread_local bool off;

	if (!off) {
		rocksdb_set_perf_level(rocksdb_disable);
		off = true;
	}
}

static int r_begin(struct kv_db *db, bool write)
{
	perf_off();
	if (write && db->iter) {
		rocksdb_iter_destroy(db->iter);
		db->iter = NULL;
	}
	if (rocksdb_writebatch_count(db->batch)) /* what a failed commit left */
		rocksdb_writebatch_clear(db->batch);
	return 0;
}

static int r_del(struct kv_db *db, const void *k, size_t kl)
{
	rocksdb_writebatch_delete(db->batch, k, kl);
	return 0;
}

/* Where the iterator stands: the entry's bytes, -ENOENT past the end. */
static int r_at(struct kv_db *db, size_t *kvl)
{
	size_t kl, vl;
	char *rerr = NULL;

	if (!rocksdb_iter_valid(db->iter)) {
		rocksdb_iter_get_error(db->iter, &rerr);
		if (rerr)
			return fail(db, "rocksdb_iter", rerr);
		snprintf(db->msg, sizeof(db->msg), "rocksdb_iter: past the last key");
		return -ENOENT;
	}
	rocksdb_iter_key(db->iter, &kl);
	rocksdb_iter_value(db->iter, &vl);
	*kvl = kl + vl;
	return 0;
}

static int r_seek(struct kv_db *db, const void *k, size_t kl, size_t *kvl)
{
	if (!db->iter)
		db->iter = rocksdb_create_iterator(db->db, db->ropts);
	if (!k) {
		rocksdb_iter_seek_to_first(db->iter);
		return r_at(db, kvl);
	}
	rocksdb_iter_seek(db->iter, k, kl);
	int rc = r_at(db, kvl);
	size_t at_len;
	const char *at = rc ? NULL : rocksdb_iter_key(db->iter, &at_len);

	return at && at_len == kl && !memcmp(at, k, kl) ? 1 : rc;
}

static int r_next(struct kv_db *db, size_t *kvl)
{
	rocksdb_iter_next(db->iter);
	return r_at(db, kvl);
}

static int r_put(struct kv_db *db, const void *k, size_t kl, const void *v, size_t vl, bool update)
{
	(void)update; /* an LSM tree's put is blind: new or not, it is one more entry */
	rocksdb_writebatch_put(db->batch, k, kl, v, vl);
	return 0;
}

static int r_get(struct kv_db *db, const void *k, size_t kl, void *buf, size_t cap, size_t *vl)
{
	char *rerr = NULL;
	rocksdb_pinnableslice_t *p;

	perf_off();
	p = rocksdb_get_pinned(db->db, db->ropts, k, kl, &rerr);
	const char *val;

	if (rerr)
		return fail(db, "rocksdb_get", rerr);
	if (!p) {
		snprintf(db->msg, sizeof(db->msg), "rocksdb_get: key not found");
		return -ENOENT;
	}
	val = rocksdb_pinnableslice_value(p, vl);
	if (buf)
		memcpy(buf, val, *vl < cap ? *vl : cap);
	rocksdb_pinnableslice_destroy(p);
	return 0;
}

static int r_commit(struct kv_db *db, bool sync)
{
	char *rerr = NULL;

	if (!rocksdb_writebatch_count(db->batch))
		return 0; /* a batch of reads */
	rocksdb_write(db->db, sync ? db->wsync : db->wnosync, db->batch, &rerr);
	rocksdb_writebatch_clear(db->batch);
	return rerr ? fail(db, "rocksdb_write", rerr) : 0;
}

static void r_close(struct kv_db *db)
{
	if (!db)
		return;
	if (db->iter)
		rocksdb_iter_destroy(db->iter);
	if (db->db)
		rocksdb_close(db->db);
	rocksdb_writebatch_destroy(db->batch);
	rocksdb_readoptions_destroy(db->ropts);
	rocksdb_writeoptions_destroy(db->wnosync);
	rocksdb_writeoptions_destroy(db->wsync);
	rocksdb_options_destroy(db->opts);
	rocksdb_block_based_options_destroy(db->table);
	if (db->cache)
		rocksdb_cache_destroy(db->cache);
	free(db);
}

static const char *r_errmsg(struct kv_db *db)
{
	return db ? db->msg : "";
}

/* The COUNT of ticker name (a counter) or the SUM of a histogram, in the
 * text of RocksDB's statistics ("rocksdb.wal.bytes COUNT : 123"). */
static uint64_t ticker(const char *text, const char *name, const char *field)
{
	const size_t len = strlen(name);
	const char *at;
	unsigned long long v = 0;

	for (at = strstr(text, name); at && at[len] != ' '; at = strstr(at + len, name))
		;
	if (at && (at = strstr(at, field)))
		sscanf(at + strlen(field), "%llu", &v);
	return v;
}

static int r_io(struct kv_db *db, struct kv_engine_io *io)
{
	char *text = rocksdb_options_statistics_get_string(db->opts);

	if (!text) /* statistics=0 */
		return -ENOSYS;
	io->wal_bytes = ticker(text, "rocksdb.wal.bytes", "COUNT : ");
	io->flush_bytes = ticker(text, "rocksdb.flush.write.bytes", "COUNT : ");
	io->compaction_bytes = ticker(text, "rocksdb.compact.write.bytes", "COUNT : ");
	io->stall_us = ticker(text, "rocksdb.stall.micros", "COUNT : ");
	io->compaction_us = ticker(text, "rocksdb.compaction.times.micros", "SUM : ");
	rocksdb_free(text);
	return 0;
}

static void r_version(char *buf, size_t len)
{
	kv_lib_version((const void *)rocksdb_open, buf, len); /* its C API has no version call */
}

static int r_check(const struct job *job, const struct kv_conf *conf, const void *own, struct dbio_err *err)
{
	const struct kv_rocksdb_conf *rc = own;

	if (rc->disable_wal && conf->sync_each_batch)
		return job_fail(
			job, "disable_wal", err,
			"RocksDB makes a write durable through its WAL: with disable_wal=1 set sync_each_batch=0");
	return 0;
}

const struct kv_backend kv_rocksdb = {
	.name = "rocksdb",
	.package = "librocksdb-dev",
	.open = r_open,
	.begin = r_begin,
	.put = r_put,
	.get = r_get,
	.commit = r_commit,
	.close = r_close,
	.errmsg = r_errmsg,
	.options = &rocksdb_options,
	.makes_dir = true,
	.check = r_check,
	.del = r_del,
	.seek = r_seek,
	.next = r_next,
	.io = r_io,
	.version = r_version,
	.lib_symbol = (const void *)rocksdb_open,
	.reopen = r_reopen,
	.setting = r_setting,
};
#endif
