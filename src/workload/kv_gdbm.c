/* kv backend: GNU dbm. A batch is a run of gdbm_store calls; sync is gdbm_sync. */
#ifdef DBIO_HAVE_GDBM /* left out of a build without the library: util/built.h */
#include <errno.h>
#include <gdbm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/workload_int.h"

struct kv_db {
	GDBM_FILE f;
	char msg[256];
};

static int fail(struct kv_db *db, const char *what)
{
	snprintf(db->msg, sizeof(db->msg), "%s: %s", what, gdbm_strerror(gdbm_errno));
	return -EIO;
}

static int g_open(struct kv_db **out, const char *path, const struct kv_conf *conf, const void *own,
		  struct dbio_err *err)
{
	struct kv_db *db = calloc(1, sizeof(*db));

	(void)conf;
	if (!db)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	db->f = gdbm_open(path, 0, GDBM_NEWDB | GDBM_NOLOCK, 0644, NULL);
	if (!db->f) {
		dbio_err_set(err, -EIO, "gdbm_open: %s", gdbm_strerror(gdbm_errno));
		free(db);
		return -EIO;
	}
	*out = db;
	return 0;
}

/* After a cut: gdbm has no recovery of its own; a reader's open checks
 * the header and the directory. */
static int g_reopen(struct kv_db **out, const char *path, bool *intact, struct dbio_err *err)
{
	struct kv_db *db = calloc(1, sizeof(*db));

	if (!db)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	*intact = true;
	db->f = gdbm_open(path, 0, GDBM_READER | GDBM_NOLOCK, 0, NULL);
	if (!db->f) {
		dbio_err_set(err, -EIO, "gdbm_open: %s", gdbm_strerror(gdbm_errno));
		free(db);
		return -EIO;
	}
	*out = db;
	return 0;
}

static int g_begin(struct kv_db *db, bool write)
{
	(void)db;
	(void)write;
	return 0;
}

static int g_put(struct kv_db *db, const void *k, size_t kl, const void *v, size_t vl, bool update)
{
	datum key = { .dptr = (char *)k, .dsize = (int)kl }, val = { .dptr = (char *)v, .dsize = (int)vl };

	if (gdbm_store(db->f, key, val, update ? GDBM_REPLACE : GDBM_INSERT))
		return fail(db, "gdbm_store");
	return 0;
}

static int g_get(struct kv_db *db, const void *k, size_t kl, void *buf, size_t cap, size_t *vl)
{
	datum key = { .dptr = (char *)k, .dsize = (int)kl };
	datum val = gdbm_fetch(db->f, key);

	if (!val.dptr) {
		snprintf(db->msg, sizeof(db->msg), "gdbm_fetch: key not found");
		return -ENOENT;
	}
	*vl = (size_t)val.dsize;
	if (buf)
		memcpy(buf, val.dptr, *vl < cap ? *vl : cap);
	free(val.dptr); /* gdbm hands out a malloc'd copy */
	return 0;
}

static int g_commit(struct kv_db *db, bool sync)
{
	if (sync && gdbm_sync(db->f))
		return fail(db, "gdbm_sync");
	return 0;
}

static void g_close(struct kv_db *db)
{
	if (!db)
		return;
	if (db->f)
		gdbm_close(db->f);
	free(db);
}

static const char *g_errmsg(struct kv_db *db)
{
	return db ? db->msg : "";
}

static void g_version(char *buf, size_t len)
{
	snprintf(buf, len, "%d.%d.%d", gdbm_version_number[0], gdbm_version_number[1],
		 gdbm_version_number[2]);
}

static void g_setting(const struct kv_conf *conf, const void *own, char *buf, size_t len)
{
	(void)own;
	snprintf(buf, len, "%s", conf->sync_each_batch ? "gdbm_sync per batch" : "no gdbm_sync");
}

const struct kv_backend kv_gdbm = {
	.name = "gdbm",
	.package = "libgdbm-dev",
	.open = g_open,
	.begin = g_begin,
	.put = g_put,
	.get = g_get,
	.commit = g_commit,
	.close = g_close,
	.errmsg = g_errmsg,
	.version = g_version,
	.lib_symbol = (const void *)gdbm_open,
	.reopen = g_reopen,
	.setting = g_setting,
};
#endif
