/*
 * kv backend: LevelDB, through its C API (leveldb/c.h). The database is a
 * directory (its log, tables, MANIFEST, LOG); a batch is one WriteBatch,
 * written with WriteOptions.sync when the batch is to be durable. Its own
 * keys (write_buffer_size, cache_size, compression_type) carry db_bench's
 * names and LevelDB's defaults, and belong to kv_engine=leveldb (and
 * rocksdb, which has the same three) alone.
 */
#ifdef DBIO_HAVE_LEVELDB /* left out of a build without the library: util/built.h */
#include <errno.h>
#include <leveldb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/workload_int.h"

struct kv_leveldb_conf {
	uint64_t write_buffer_size;
	uint64_t cache_size;
	int compression; /* enum kv_compression: none or snappy */
};

#define F(field) offsetof(struct kv_leveldb_conf, field)

/* clang-format off */
static const struct option_def leveldb_defs[] = {
	{ .name = "write_buffer_size", .type = OPT_SIZE, .offset = F(write_buffer_size), .def = "4m", .min = 64 << 10, .max = 64ull << 30, .dbio_own = 1,
	  .help = "LevelDB's memtable size (Options.write_buffer_size): a full memtable is written to a table of level 0. 4 MiB is LevelDB's default." },
	{ .name = "cache_size", .type = OPT_SIZE, .offset = F(cache_size), .def = "8m", .min = 0, .max = 1ull << 40, .dbio_own = 1,
	  .help = "LevelDB's block cache, an LRU cache of this many bytes (8 MiB is LevelDB's own default); LevelDB always has one, so 0 is refused." },
	{ .name = "compression_type", .type = OPT_ENUM, .offset = F(compression), .def = "snappy", .values = kv_compression_values, .dbio_own = 1,
	  .help = "how LevelDB compresses its table blocks: none or snappy (the others are RocksDB's)." },
};
/* clang-format on */

static const struct option_table leveldb_options = OPTION_TABLE(leveldb_defs, struct kv_leveldb_conf);

struct kv_db {
	leveldb_t *db;
	leveldb_options_t *opts;
	leveldb_cache_t *cache;
	leveldb_writeoptions_t *wsync, *wnosync;
	leveldb_readoptions_t *ropts;
	leveldb_writebatch_t *batch;
	leveldb_iterator_t *iter; /* seek's, until the next write batch */
	bool batch_used;
	char msg[256];
};

/* LevelDB's error text (freed) into db->msg: -EIO. */
static int fail(struct kv_db *db, const char *what, char *lerr)
{
	snprintf(db->msg, sizeof(db->msg), "%s: %s", what, lerr ? lerr : "failed");
	leveldb_free(lerr);
	return -EIO;
}

static void v_close(struct kv_db *db);

/* The handles of a database, its options unset: NULL when out of memory. */
static struct kv_db *v_new(void)
{
	struct kv_db *db = calloc(1, sizeof(*db));

	if (!db)
		return NULL;
	db->opts = leveldb_options_create();
	db->wsync = leveldb_writeoptions_create();
	db->wnosync = leveldb_writeoptions_create();
	db->ropts = leveldb_readoptions_create();
	db->batch = leveldb_writebatch_create();
	return db;
}

/* leveldb_open of db's options at path: 0, or -EIO with the error in err
 * and db freed. */
static int v_open_at(struct kv_db **out, struct kv_db *db, const char *path, struct dbio_err *err)
{
	char *lerr = NULL;

	db->db = leveldb_open(db->opts, path, &lerr);
	if (!db->db) {
		dbio_err_set(err, -EIO, "leveldb_open: %s", lerr ? lerr : "failed");
		leveldb_free(lerr);
		v_close(db);
		return -EIO;
	}
	*out = db;
	return 0;
}

static int v_open(struct kv_db **out, const char *path, const struct kv_conf *conf, const void *own,
		  struct dbio_err *err)
{
	const struct kv_leveldb_conf *lc = own;
	struct kv_db *db = v_new();

	(void)conf;
	if (!db)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	leveldb_options_set_create_if_missing(db->opts, 1);
	leveldb_options_set_error_if_exists(db->opts, 1);
	leveldb_options_set_write_buffer_size(db->opts, (size_t)lc->write_buffer_size);
	leveldb_options_set_compression(db->opts, lc->compression == KV_COMPRESS_SNAPPY
							  ? leveldb_snappy_compression
							  : leveldb_no_compression);
	db->cache = leveldb_cache_create_lru((size_t)lc->cache_size);
	leveldb_options_set_cache(db->opts, db->cache);
	leveldb_writeoptions_set_sync(db->wsync, 1);
	return v_open_at(out, db, path, err);
}

/* After a cut: LevelDB's recovery is its open, which replays the logs
 * its MANIFEST does not account for into a table of level 0 (a record
 * that is not whole ends the log's replay, paranoid_checks being off).
 * Read-write, as a restarted server opens it; the cut is dbio's. */
static int v_reopen(struct kv_db **out, const char *path, bool *intact, struct dbio_err *err)
{
	struct kv_db *db = v_new();

	*intact = true;
	if (!db)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	return v_open_at(out, db, path, err); /* create_if_missing is off by default */
}

/* A batch is acknowledged when leveldb_write returns: durable only when
 * its log was synced (WriteOptions.sync) before it returned. */
static void v_setting(const struct kv_conf *conf, const void *own, char *buf, size_t len)
{
	(void)own;
	snprintf(buf, len, "%s", conf->sync_each_batch ? "log synced per batch" : "log not synced");
}

static int v_begin(struct kv_db *db, bool write)
{
	if (write && db->iter) {
		leveldb_iter_destroy(db->iter);
		db->iter = NULL;
	}
	leveldb_writebatch_clear(db->batch);
	db->batch_used = false;
	return 0;
}

static int v_del(struct kv_db *db, const void *k, size_t kl)
{
	leveldb_writebatch_delete(db->batch, k, kl);
	db->batch_used = true;
	return 0;
}

/* Where the iterator stands: the entry's bytes, -ENOENT past the end. */
static int v_at(struct kv_db *db, size_t *kvl)
{
	size_t kl, vl;
	char *lerr = NULL;

	if (!leveldb_iter_valid(db->iter)) {
		leveldb_iter_get_error(db->iter, &lerr);
		if (lerr)
			return fail(db, "leveldb_iter", lerr);
		snprintf(db->msg, sizeof(db->msg), "leveldb_iter: past the last key");
		return -ENOENT;
	}
	leveldb_iter_key(db->iter, &kl);
	leveldb_iter_value(db->iter, &vl);
	*kvl = kl + vl;
	return 0;
}

static int v_seek(struct kv_db *db, const void *k, size_t kl, size_t *kvl)
{
	if (!db->iter)
		db->iter = leveldb_create_iterator(db->db, db->ropts);
	if (!k) {
		leveldb_iter_seek_to_first(db->iter);
		return v_at(db, kvl);
	}
	leveldb_iter_seek(db->iter, k, kl);
	int rc = v_at(db, kvl);
	size_t at_len;
	const char *at = rc ? NULL : leveldb_iter_key(db->iter, &at_len);

	return at && at_len == kl && !memcmp(at, k, kl) ? 1 : rc;
}

static int v_next(struct kv_db *db, size_t *kvl)
{
	leveldb_iter_next(db->iter);
	return v_at(db, kvl);
}

static int v_put(struct kv_db *db, const void *k, size_t kl, const void *v, size_t vl, bool update)
{
	(void)update; /* an LSM tree's put is blind: new or not, it is one more entry */
	leveldb_writebatch_put(db->batch, k, kl, v, vl);
	db->batch_used = true;
	return 0;
}

static int v_get(struct kv_db *db, const void *k, size_t kl, void *buf, size_t cap, size_t *vl)
{
	char *lerr = NULL;
	char *val = leveldb_get(db->db, db->ropts, k, kl, vl, &lerr);

	if (lerr)
		return fail(db, "leveldb_get", lerr);
	if (!val) {
		snprintf(db->msg, sizeof(db->msg), "leveldb_get: key not found");
		return -ENOENT;
	}
	if (buf)
		memcpy(buf, val, *vl < cap ? *vl : cap);
	leveldb_free(val); /* LevelDB hands out a malloc'd copy */
	return 0;
}

static int v_commit(struct kv_db *db, bool sync)
{
	char *lerr = NULL;

	if (!db->batch_used)
		return 0; /* a batch of reads */
	leveldb_write(db->db, sync ? db->wsync : db->wnosync, db->batch, &lerr);
	leveldb_writebatch_clear(db->batch);
	db->batch_used = false;
	return lerr ? fail(db, "leveldb_write", lerr) : 0;
}

static void v_close(struct kv_db *db)
{
	if (!db)
		return;
	if (db->iter)
		leveldb_iter_destroy(db->iter);
	if (db->db)
		leveldb_close(db->db);
	leveldb_writebatch_destroy(db->batch);
	leveldb_readoptions_destroy(db->ropts);
	leveldb_writeoptions_destroy(db->wnosync);
	leveldb_writeoptions_destroy(db->wsync);
	leveldb_options_destroy(db->opts);
	if (db->cache)
		leveldb_cache_destroy(db->cache);
	free(db);
}

static const char *v_errmsg(struct kv_db *db)
{
	return db ? db->msg : "";
}

/* LevelDB's own account, from leveldb.stats: the tables each level's
 * compactions (memtables written out among them) wrote and their time,
 * summed over the levels. LevelDB prints whole MiB and whole seconds and
 * counts no log bytes: wal_bytes and flush_bytes stay 0. */
static int v_io(struct kv_db *db, struct kv_engine_io *io)
{
	char *text = leveldb_property_value(db->db, "leveldb.stats");
	const char *line;
	int level, files;
	double size_mb, time_s, read_mb, write_mb;

	if (!text)
		return -ENOSYS;
	for (line = strchr(text, '\n'); line; line = strchr(line + 1, '\n'))
		if (sscanf(line + 1, "%d %d %lf %lf %lf %lf", &level, &files, &size_mb, &time_s, &read_mb,
			   &write_mb) == 6) {
			io->compaction_bytes += (uint64_t)(write_mb * 1048576.0);
			io->compaction_us += (uint64_t)(time_s * 1e6);
		}
	leveldb_free(text);
	return 0;
}

static void v_version(char *buf, size_t len)
{
	snprintf(buf, len, "%d.%d", leveldb_major_version(), leveldb_minor_version());
}

static int v_check(const struct job *job, const struct kv_conf *conf, const void *own, struct dbio_err *err)
{
	const struct kv_leveldb_conf *lc = own;

	(void)conf;
	if (!lc->cache_size)
		return job_fail(
			job, "cache_size", err,
			"LevelDB always has a block cache: give it a size (0, no block cache, is kv_engine=rocksdb's)");
	if (lc->compression != KV_COMPRESS_NONE && lc->compression != KV_COMPRESS_SNAPPY)
		return job_fail(
			job, "compression_type", err,
			"LevelDB compresses with snappy or not at all: none or snappy (the others are kv_engine=rocksdb's)");
	return 0;
}

const struct kv_backend kv_leveldb = {
	.name = "leveldb",
	.package = "libleveldb-dev",
	.open = v_open,
	.begin = v_begin,
	.put = v_put,
	.get = v_get,
	.commit = v_commit,
	.close = v_close,
	.errmsg = v_errmsg,
	.options = &leveldb_options,
	.makes_dir = true,
	.check = v_check,
	.del = v_del,
	.seek = v_seek,
	.next = v_next,
	.io = v_io,
	.version = v_version,
	.lib_symbol = (const void *)leveldb_open,
	.reopen = v_reopen,
	.setting = v_setting,
};
#endif
