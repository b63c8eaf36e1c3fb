/*
 * kv-loop: the floor for dbio's kv workload (insert phase). The same calls
 * on the same engine with the same records, and nothing else:
 *
 *     kv-loop ENGINE DIR RECORDS BATCH VALUE_SIZE SYNC
 *
 * ENGINE gdbm, lmdb or sqlite; DIR an existing directory, where the loop
 * makes kv-loop.ENGINE (O_CREAT | O_EXCL, as dbio makes its database file)
 * and removes it (and LMDB's -lock file) at the end; VALUE_SIZE bytes, one
 * size or a range lo-hi; SYNC 1 or 0.
 *
 * As src/workload/kv.c with key_order=seq, randseed=24301, one thread:
 * record n (0, 1, ...) has the key "%016llu" of n (16 bytes, no NUL); its
 * value is value_size bytes drawn uniformly in [lo, hi] from a seeded
 * xoshiro256** stream, taken from one buffer filled from another seeded
 * stream and led by the record number and a put counter. Batches of BATCH
 * records:
 *
 *   gdbm    gdbm_open(GDBM_NEWDB | GDBM_NOLOCK); gdbm_store(GDBM_INSERT) per
 *           record; gdbm_sync per batch if SYNC
 *   lmdb    mdb_env_open(MDB_NOSUBDIR, plus MDB_NOSYNC without SYNC), map size
 *           as dbio's; per batch mdb_txn_begin, mdb_put(MDB_NOOVERWRITE) per
 *           record, mdb_txn_commit
 *   sqlite  PRAGMA synchronous=FULL (OFF without SYNC), table kv(k BLOB
 *           PRIMARY KEY, v BLOB); prepared BEGIN IMMEDIATE, INSERT, COMMIT;
 *           sqlite3_step then sqlite3_reset for each
 *
 * One clock_gettime(CLOCK_MONOTONIC) after each put and after each commit,
 * as dbio reads it (the end of one call is the start of the next); the
 * latencies are summed, not kept. The time printed covers what dbio's
 * elapsed_ns covers: from before the first batch to the end of the last
 * commit (not the open, not the close). Prints one line:
 *
 *     engine=E records=N batch=B sync=S elapsed_s=... open_s=... close_s=... put_mean_ns=...
 * commit_mean_ns=...
 */
#include <errno.h>
#include <fcntl.h>
#include <gdbm.h>
#include <lmdb.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KEY_BYTES 16
#define RANDSEED  24301ull /* dbio's default randseed; thread 0 */

/* dbio's own generator, so the values are byte for byte dbio's. */
#include "util/rng.h"

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "kv-loop: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(1);
}

static uint64_t parse_u64(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-')
		die("%s: expected a whole number, got '%s'", what, s);
	return v;
}

/* The engines behind one interface, as dbio's kv_backend. */
static GDBM_FILE gf;
static MDB_env *env;
static MDB_txn *txn;
static MDB_dbi dbi;
static bool dbi_open;
static sqlite3 *sq;
static sqlite3_stmt *sq_insert, *sq_begin, *sq_commit;
static enum { GDBM, LMDB, SQLITE } engine;

static void db_open(const char *path, uint64_t records, uint64_t value_hi, bool sync)
{
	int rc;

	switch (engine) {
	case GDBM:
		if (!(gf = gdbm_open(path, 0, GDBM_NEWDB | GDBM_NOLOCK, 0644, NULL)))
			die("%s: gdbm_open: %s", path, gdbm_strerror(gdbm_errno));
		break;
	case LMDB: {
		uint64_t map = (records * (value_hi + 16 + 64)) * 2 + (64u << 20);

		if ((rc = mdb_env_create(&env)) || (rc = mdb_env_set_mapsize(env, (size_t)map)) ||
		    (rc = mdb_env_open(env, path, MDB_NOSUBDIR | (sync ? 0 : MDB_NOSYNC), 0644)))
			die("%s: mdb_env_open: %s", path, mdb_strerror(rc));
		break;
	}
	case SQLITE: {
		const char *setup =
			sync ? "PRAGMA synchronous=FULL; CREATE TABLE kv(k BLOB PRIMARY KEY, v BLOB);"
			     : "PRAGMA synchronous=OFF; CREATE TABLE kv(k BLOB PRIMARY KEY, v BLOB);";

		if (sqlite3_open_v2(path, &sq, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
			    SQLITE_OK ||
		    sqlite3_exec(sq, setup, NULL, NULL, NULL) != SQLITE_OK ||
		    sqlite3_prepare_v2(sq, "INSERT INTO kv(k, v) VALUES(?1, ?2)", -1, &sq_insert, NULL) ||
		    sqlite3_prepare_v2(sq, "BEGIN IMMEDIATE", -1, &sq_begin, NULL) ||
		    sqlite3_prepare_v2(sq, "COMMIT", -1, &sq_commit, NULL))
			die("%s: sqlite: %s", path, sq ? sqlite3_errmsg(sq) : "cannot open");
		break;
	}
	}
}

static void sq_step(sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		die("sqlite %s: %s", what, sqlite3_errmsg(sq));
}

static inline void db_begin(void)
{
	int rc;

	switch (engine) {
	case GDBM:
		break;
	case LMDB:
		if ((rc = mdb_txn_begin(env, NULL, 0, &txn)))
			die("%s: %s", "mdb_txn_begin", mdb_strerror(rc));
		if (!dbi_open) {
			if ((rc = mdb_dbi_open(txn, NULL, 0, &dbi)))
				die("%s: %s", "mdb_dbi_open", mdb_strerror(rc));
			dbi_open = true;
		}
		break;
	case SQLITE:
		sq_step(sq_begin, "BEGIN");
		break;
	}
}

static inline void db_put(const char *k, const char *v, size_t vl)
{
	int rc;

	switch (engine) {
	case GDBM: {
		datum key = { .dptr = (char *)k, .dsize = KEY_BYTES },
		      val = { .dptr = (char *)v, .dsize = (int)vl };

		if (gdbm_store(gf, key, val, GDBM_INSERT))
			die("%s: %s", "gdbm_store", gdbm_strerror(gdbm_errno));
		break;
	}
	case LMDB: {
		MDB_val key = { .mv_size = KEY_BYTES, .mv_data = (void *)k },
			val = { .mv_size = vl, .mv_data = (void *)v };

		if ((rc = mdb_put(txn, dbi, &key, &val, MDB_NOOVERWRITE)))
			die("%s: %s", "mdb_put", mdb_strerror(rc));
		break;
	}
	case SQLITE:
		sqlite3_bind_blob(sq_insert, 1, k, KEY_BYTES, SQLITE_STATIC);
		sqlite3_bind_blob(sq_insert, 2, v, (int)vl, SQLITE_STATIC);
		sq_step(sq_insert, "INSERT");
		break;
	}
}

static inline void db_commit(bool sync)
{
	int rc;

	switch (engine) {
	case GDBM:
		if (sync && gdbm_sync(gf))
			die("%s: %s", "gdbm_sync", gdbm_strerror(gdbm_errno));
		break;
	case LMDB:
		rc = mdb_txn_commit(txn); /* syncs unless the env is MDB_NOSYNC */
		txn = NULL;
		if (rc)
			die("%s: %s", "mdb_txn_commit", mdb_strerror(rc));
		break;
	case SQLITE:
		sq_step(sq_commit, "COMMIT");
		break;
	}
}

static void db_close(void)
{
	switch (engine) {
	case GDBM:
		gdbm_close(gf);
		break;
	case LMDB:
		mdb_env_close(env);
		break;
	case SQLITE:
		sqlite3_finalize(sq_insert);
		sqlite3_finalize(sq_begin);
		sqlite3_finalize(sq_commit);
		sqlite3_close(sq);
		break;
	}
}

int main(int argc, char **argv)
{
	char path[4096], lock[4200], key[KEY_BYTES], tmp[KEY_BYTES + 1], *value, *dash;
	uint64_t records, batch, lo, hi, span, writes = 0, put_ns = 0, commit_ns = 0;
	uint64_t t_open, t0, now, t_end, t_closed;
	struct rng fill, rng;
	bool sync;
	int fd;

	if (argc != 7) {
		fprintf(stderr, "usage: kv-loop ENGINE DIR RECORDS BATCH VALUE_SIZE SYNC\n"
				"  ENGINE gdbm | lmdb | sqlite; VALUE_SIZE bytes, N or LO-HI; SYNC 0 | 1\n");
		return 2;
	}
	if (!strcmp(argv[1], "gdbm"))
		engine = GDBM;
	else if (!strcmp(argv[1], "lmdb"))
		engine = LMDB;
	else if (!strcmp(argv[1], "sqlite"))
		engine = SQLITE;
	else
		die("ENGINE: expected gdbm, lmdb or sqlite, got '%s'%s", argv[1], "");
	records = parse_u64(argv[3], "RECORDS");
	batch = parse_u64(argv[4], "BATCH");
	if ((dash = strchr(argv[5], '-'))) {
		*dash = '\0';
		lo = parse_u64(argv[5], "VALUE_SIZE");
		hi = parse_u64(dash + 1, "VALUE_SIZE");
	} else {
		lo = hi = parse_u64(argv[5], "VALUE_SIZE");
	}
	sync = parse_u64(argv[6], "SYNC") != 0;
	if (!records || !batch || !lo || lo > hi)
		die("%s%s: need RECORDS >= 1, BATCH >= 1, 1 <= VALUE_SIZE lo <= hi", "", "");
	if (batch > records)
		batch = records;
	span = hi - lo + 1;
	snprintf(path, sizeof(path), "%s/kv-loop.%s", argv[2], argv[1]);
	snprintf(lock, sizeof(lock), "%s-lock", path);

	/* As dbio: make the file (never over an existing one), then let the
	 * engine format it; the value buffer from its own seeded stream. */
	if ((fd = open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0644)) < 0)
		die("%s: cannot create: %s", path, strerror(errno));
	close(fd);
	t_open = now_ns();
	db_open(path, records, hi, sync);
	if (!(value = malloc(hi)))
		die("%s%s", "out of memory", "");
	rng_seed(&fill, RANDSEED);
	for (uint64_t i = 0; i < hi; i++)
		value[i] = (char)rng_next(&fill);
	rng_seed(&rng, RANDSEED * 0x9e3779b97f4a7c15ull + 7);

	now = t0 = now_ns();
	for (uint64_t rec = 0; rec < records;) {
		uint64_t in_batch = records - rec < batch ? records - rec : batch;

		db_begin();
		for (uint64_t i = 0; i < in_batch; i++, rec++) {
			size_t vl = lo + (size_t)rng_below(&rng, span);
			uint64_t stamp[2] = { rec, ++writes };

			snprintf(tmp, sizeof(tmp), "%016llu", (unsigned long long)rec);
			memcpy(key, tmp, KEY_BYTES);
			memcpy(value, stamp, sizeof(stamp) < vl ? sizeof(stamp) : vl);
			db_put(key, value, vl);
			uint64_t end = now_ns();

			put_ns += end - now;
			now = end;
		}
		db_commit(sync);
		uint64_t end = now_ns();

		commit_ns += end - now;
		now = end;
	}
	t_end = now;
	db_close();
	t_closed = now_ns();
	unlink(path);
	if (engine == LMDB)
		unlink(lock);
	free(value);

	uint64_t nbatches = (records + batch - 1) / batch;

	printf("engine=%s records=%llu batch=%llu sync=%d elapsed_s=%.6f open_s=%.6f close_s=%.6f "
	       "put_mean_ns=%.0f commit_mean_ns=%.0f\n",
	       argv[1], (unsigned long long)records, (unsigned long long)batch, (int)sync,
	       (double)(t_end - t0) / 1e9, (double)(t0 - t_open) / 1e9, (double)(t_closed - t_end) / 1e9,
	       (double)put_ns / (double)records, (double)commit_ns / (double)nbatches);
	return 0;
}
