/*
 * kv backend: LMDB. A batch is one transaction (read-only for lookups);
 * without sync the environment is opened MDB_NOSYNC, so commits do not
 * reach the disk until the kernel writes them back.
 */
#ifdef DBIO_HAVE_LMDB /* left out of a build without the library: util/built.h */
#include <errno.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/workload_int.h"

struct kv_db {
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi dbi;
	bool dbi_open;
	char msg[256];
};

static int fail(struct kv_db *db, const char *what, int rc)
{
	snprintf(db->msg, sizeof(db->msg), "%s: %s", what, mdb_strerror(rc));
	return rc > 0 ? -rc : -EIO;
}

/* A handle on the environment at path opened with flags (and, unless 0,
 * a map of map bytes). */
static int env_open(struct kv_db **out, const char *path, unsigned flags, uint64_t map, struct dbio_err *err)
{
	struct kv_db *db = calloc(1, sizeof(*db));
	int rc;

	if (!db)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	if ((rc = mdb_env_create(&db->env)) || (map && (rc = mdb_env_set_mapsize(db->env, (size_t)map))) ||
	    (rc = mdb_env_open(db->env, path, MDB_NOSUBDIR | flags, 0644))) {
		dbio_err_set(err, -EIO, "mdb_env_open: %s", mdb_strerror(rc));
		if (db->env)
			mdb_env_close(db->env);
		free(db);
		return -EIO;
	}
	*out = db;
	return 0;
}

static int l_open(struct kv_db **out, const char *path, const struct kv_conf *conf, const void *own,
		  struct dbio_err *err)
{
	/* Room for every record (key, largest value, page overhead) twice
	 * over, for copy-on-write, plus slack. */
	uint64_t map = (conf->records * (conf->value_size.hi + 16 + 64)) * 2 + (64u << 20);

	return env_open(out, path, conf->sync_each_batch ? 0 : MDB_NOSYNC, map, err);
}

/* After a cut: LMDB's recovery is its open, which takes the newer of the
 * two meta pages that is whole. Read-only, no lock file of the cut's. */
static int l_reopen(struct kv_db **out, const char *path, bool *intact, struct dbio_err *err)
{
	*intact = true;
	return env_open(out, path, MDB_RDONLY | MDB_NOLOCK, 0, err);
}

static int l_begin(struct kv_db *db, bool write)
{
	int rc = mdb_txn_begin(db->env, NULL, write ? 0 : MDB_RDONLY, &db->txn);

	if (rc)
		return fail(db, "mdb_txn_begin", rc);
	if (!db->dbi_open) {
		if ((rc = mdb_dbi_open(db->txn, NULL, 0, &db->dbi)))
			return fail(db, "mdb_dbi_open", rc);
		db->dbi_open = true;
	}
	return 0;
}

static int l_put(struct kv_db *db, const void *k, size_t kl, const void *v, size_t vl, bool update)
{
	MDB_val key = { .mv_size = kl, .mv_data = (void *)k }, val = { .mv_size = vl, .mv_data = (void *)v };
	int rc = mdb_put(db->txn, db->dbi, &key, &val, update ? 0 : MDB_NOOVERWRITE);

	return rc ? fail(db, "mdb_put", rc) : 0;
}

static int l_get(struct kv_db *db, const void *k, size_t kl, void *buf, size_t cap, size_t *vl)
{
	MDB_val key = { .mv_size = kl, .mv_data = (void *)k }, val;
	int rc = mdb_get(db->txn, db->dbi, &key, &val);

	if (rc == MDB_NOTFOUND) {
		snprintf(db->msg, sizeof(db->msg), "mdb_get: key not found");
		return -ENOENT;
	}
	if (rc)
		return fail(db, "mdb_get", rc);
	*vl = val.mv_size;
	if (buf)
		memcpy(buf, val.mv_data, *vl < cap ? *vl : cap);
	return 0;
}

static int l_commit(struct kv_db *db, bool sync)
{
	int rc = mdb_txn_commit(db->txn); /* syncs unless the env is MDB_NOSYNC */

	(void)sync;
	db->txn = NULL;
	return rc ? fail(db, "mdb_txn_commit", rc) : 0;
}

static void l_close(struct kv_db *db)
{
	if (!db)
		return;
	if (db->txn)
		mdb_txn_abort(db->txn);
	if (db->env)
		mdb_env_close(db->env);
	free(db);
}

static const char *l_errmsg(struct kv_db *db)
{
	return db ? db->msg : "";
}

static void l_version(char *buf, size_t len)
{
	int major, minor, patch;

	mdb_version(&major, &minor, &patch);
	snprintf(buf, len, "%d.%d.%d", major, minor, patch);
}

static void l_setting(const struct kv_conf *conf, const void *own, char *buf, size_t len)
{
	(void)own;
	snprintf(buf, len, "%s", conf->sync_each_batch ? "synced commits" : "MDB_NOSYNC");
}

const struct kv_backend kv_lmdb = {
	.name = "lmdb",
	.package = "liblmdb-dev",
	.open = l_open,
	.begin = l_begin,
	.put = l_put,
	.get = l_get,
	.commit = l_commit,
	.close = l_close,
	.errmsg = l_errmsg,
	.version = l_version,
	.lib_symbol = (const void *)mdb_env_open,
	.reopen = l_reopen,
	.setting = l_setting,
};
#endif
