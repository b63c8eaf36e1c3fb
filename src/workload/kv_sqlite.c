/*
 * kv backend: SQLite. A table kv(k BLOB PRIMARY KEY, v BLOB); a batch is
 * one transaction; synchronous=FULL makes each commit durable, OFF leaves
 * it to the kernel. Statements are prepared once at open.
 */
#ifdef DBIO_HAVE_SQLITE3 /* left out of a build without the library: util/built.h */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/workload_int.h"

struct kv_db {
	sqlite3 *db;
	sqlite3_stmt *insert, *update, *select, *begin, *begin_ro, *commit;
	char msg[256];
};

static int fail(struct kv_db *db, const char *what)
{
	snprintf(db->msg, sizeof(db->msg), "%s: %s", what, sqlite3_errmsg(db->db));
	return -EIO;
}

static int step(struct kv_db *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : fail(db, what);
}

static void s_close(struct kv_db *db)
{
	if (!db)
		return;
	sqlite3_finalize(db->insert);
	sqlite3_finalize(db->update);
	sqlite3_finalize(db->select);
	sqlite3_finalize(db->begin);
	sqlite3_finalize(db->begin_ro);
	sqlite3_finalize(db->commit);
	sqlite3_close(db->db);
	free(db);
}

/* A handle on the database file at path, through dbio's VFS, in *out. */
static int open_file(struct kv_db **out, const char *path, struct dbio_err *err)
{
	struct kv_db *db = calloc(1, sizeof(*db));

	if (!db)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	if (workload_sqlite_vfs()) {
		free(db);
		return dbio_err_set(err, -ENOSYS, "sqlite: cannot register dbio's VFS");
	}
	if (sqlite3_open_v2(path, &db->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW,
			    WORKLOAD_SQLITE_VFS) != SQLITE_OK) {
		dbio_err_set(err, -EIO, "sqlite: %s", db->db ? sqlite3_errmsg(db->db) : "cannot open");
		s_close(db);
		return -EIO;
	}
	*out = db;
	return 0;
}

/* PRAGMA synchronous's values, and the one conf asks for: sqlite_synchronous
 * when given, else FULL with sync_each_batch and OFF without. */
static const char *const pragma[] = { [KV_SQLITE_SYNC_OFF] = "OFF",
				      [KV_SQLITE_SYNC_NORMAL] = "NORMAL",
				      [KV_SQLITE_SYNC_FULL] = "FULL",
				      [KV_SQLITE_SYNC_EXTRA] = "EXTRA" };

static int sync_of(const struct kv_conf *conf)
{
	return conf->sqlite_sync != KV_SQLITE_SYNC_AUTO ? conf->sqlite_sync
	       : conf->sync_each_batch			? KV_SQLITE_SYNC_FULL
							: KV_SQLITE_SYNC_OFF;
}

static void s_setting(const struct kv_conf *conf, const void *own, char *buf, size_t len)
{
	(void)own;
	snprintf(buf, len, "synchronous=%s", pragma[sync_of(conf)]);
}

static int s_open(struct kv_db **out, const char *path, const struct kv_conf *conf, const void *own,
		  struct dbio_err *err)
{
	struct kv_db *db;
	int rc;
	char setup[128];

	snprintf(setup, sizeof(setup), "PRAGMA synchronous=%s; CREATE TABLE kv(k BLOB PRIMARY KEY, v BLOB);",
		 pragma[sync_of(conf)]);

	if ((rc = open_file(&db, path, err)))
		return rc;
	if (sqlite3_exec(db->db, setup, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->db, "INSERT INTO kv(k, v) VALUES(?1, ?2)", -1, &db->insert, NULL) ||
	    sqlite3_prepare_v2(db->db, "UPDATE kv SET v = ?2 WHERE k = ?1", -1, &db->update, NULL) ||
	    sqlite3_prepare_v2(db->db, "SELECT v FROM kv WHERE k = ?1", -1, &db->select, NULL) ||
	    sqlite3_prepare_v2(db->db, "BEGIN IMMEDIATE", -1, &db->begin, NULL) ||
	    sqlite3_prepare_v2(db->db, "BEGIN DEFERRED", -1, &db->begin_ro, NULL) ||
	    sqlite3_prepare_v2(db->db, "COMMIT", -1, &db->commit, NULL)) {
		dbio_err_set(err, -EIO, "sqlite: %s", db->db ? sqlite3_errmsg(db->db) : "cannot open");
		s_close(db);
		return -EIO;
	}
	*out = db;
	return 0;
}

/* After a cut: SQLite's open rolls a hot journal back (its recovery) on
 * the first read; PRAGMA integrity_check then reads every page. */
static int s_reopen(struct kv_db **out, const char *path, bool *intact, struct dbio_err *err)
{
	struct kv_db *db;
	sqlite3_stmt *check = NULL;
	int rc;

	if ((rc = open_file(&db, path, err)))
		return rc;
	if (sqlite3_prepare_v2(db->db, "PRAGMA integrity_check", -1, &check, NULL) ||
	    ((rc = sqlite3_step(check)) != SQLITE_ROW && rc != SQLITE_DONE) ||
	    sqlite3_prepare_v2(db->db, "SELECT v FROM kv WHERE k = ?1", -1, &db->select, NULL) ||
	    sqlite3_prepare_v2(db->db, "BEGIN DEFERRED", -1, &db->begin_ro, NULL) ||
	    sqlite3_prepare_v2(db->db, "COMMIT", -1, &db->commit, NULL)) {
		dbio_err_set(err, -EIO, "sqlite: %s", db->db ? sqlite3_errmsg(db->db) : "cannot open");
		sqlite3_finalize(check);
		s_close(db);
		return -EIO;
	}
	*intact = rc == SQLITE_ROW && !strcmp((const char *)sqlite3_column_text(check, 0), "ok");
	sqlite3_finalize(check);
	*out = db;
	return 0;
}

static int s_begin(struct kv_db *db, bool write)
{
	return step(db, write ? db->begin : db->begin_ro, "BEGIN");
}

static int s_put(struct kv_db *db, const void *k, size_t kl, const void *v, size_t vl, bool update)
{
	sqlite3_stmt *st = update ? db->update : db->insert;

	sqlite3_bind_blob(st, 1, k, (int)kl, SQLITE_STATIC);
	sqlite3_bind_blob(st, 2, v, (int)vl, SQLITE_STATIC);
	return step(db, st, update ? "UPDATE" : "INSERT");
}

static int s_get(struct kv_db *db, const void *k, size_t kl, void *buf, size_t cap, size_t *vl)
{
	int rc;

	sqlite3_bind_blob(db->select, 1, k, (int)kl, SQLITE_STATIC);
	rc = sqlite3_step(db->select);
	if (rc == SQLITE_ROW) {
		*vl = (size_t)sqlite3_column_bytes(db->select, 0);
		if (buf && *vl)
			memcpy(buf, sqlite3_column_blob(db->select, 0), *vl < cap ? *vl : cap);
	}
	sqlite3_reset(db->select);
	if (rc == SQLITE_DONE) {
		snprintf(db->msg, sizeof(db->msg), "SELECT: key not found");
		return -ENOENT;
	}
	return rc == SQLITE_ROW ? 0 : fail(db, "SELECT");
}

static int s_commit(struct kv_db *db, bool sync)
{
	(void)sync; /* synchronous= was set at open */
	return step(db, db->commit, "COMMIT");
}

static const char *s_errmsg(struct kv_db *db)
{
	return db ? db->msg : "";
}

static void s_version(char *buf, size_t len)
{
	snprintf(buf, len, "%s", sqlite3_libversion());
}

const struct kv_backend kv_sqlite = {
	.name = "sqlite",
	.package = "libsqlite3-dev",
	.open = s_open,
	.begin = s_begin,
	.put = s_put,
	.get = s_get,
	.commit = s_commit,
	.close = s_close,
	.errmsg = s_errmsg,
	.version = s_version,
	.lib_symbol = (const void *)sqlite3_open_v2,
	.reopen = s_reopen,
	.setting = s_setting,
};
#endif
