/*
 * kv: inserts, then lookups, then updates, in batches, on a real embedded
 * database (gdbm, LMDB, SQLite, LevelDB, RocksDB) — scenario S2's "insert records, time
 * every 1,000, with and without a sync after each batch". Every put and
 * get is timed (insert, lookup, update), every batch's commit (commit) and
 * the whole batch (batch); the series has a point per batch unless
 * log_interval asks for another grid. With verify= (fio's key), every
 * record is read back at the end and its bytes checked against what was
 * last written (phase verify; the gets count as lookups).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/syscalls.h"
#include "workload/durable.h"
#include "workload/workload.h"
#include "workload/workload_int.h"

#define KV_KEY_BYTES 16

static const struct opt_enum key_order_values[] = {
	{ "seq", KV_KEY_SEQ, "keys in ascending order" },
	{ "random", KV_KEY_RANDOM, "every key once, in a seeded random order" },
	{ NULL, 0, NULL },
};

static const struct opt_enum sqlite_sync_values[] = {
	{ "auto", KV_SQLITE_SYNC_AUTO, "FULL with sync_each_batch=1, else OFF" },
	{ "off", KV_SQLITE_SYNC_OFF, "no sync at all" },
	{ "normal", KV_SQLITE_SYNC_NORMAL, "syncs, fewer than full (in DELETE mode, as full)" },
	{ "full", KV_SQLITE_SYNC_FULL, "syncs the journal and the database at every commit" },
	{ "extra", KV_SQLITE_SYNC_EXTRA, "full, and syncs the directory after the journal is deleted" },
	{ NULL, 0, NULL },
};

#define F(field) offsetof(struct kv_conf, field)
#define S(field) sizeof(((struct kv_conf *)0)->field)

/* clang-format off */
static const struct option_def kv_defs[] = {
	{ .name = "kv_engine", .type = OPT_STR, .offset = F(kv_engine), .size = S(kv_engine), .def = "sqlite", .dbio_own = 1, .brief = 1,
	  .help = "the database: gdbm (gdbm_store, gdbm_sync per batch), lmdb (one write transaction per batch; MDB_NOSYNC without sync_each_batch), sqlite (one transaction per batch; synchronous=FULL with sync_each_batch, else OFF), leveldb or rocksdb (LSM trees: a batch is one WriteBatch, written with sync=true under sync_each_batch; each has keys of its own, docs/workloads.md). Which of them this build has: `dbio --version`. The database lives in the thread's private directory, dbio.<job>.<thread>.db/<engine>, and is removed afterwards." },
	{ .name = "records", .type = OPT_UINT, .offset = F(records), .def = "100000", .min = 1, .max = 1000000000, .dbio_own = 1, .brief = 1,
	  .help = "records each thread inserts." },
	{ .name = "batch", .type = OPT_UINT, .offset = F(batch), .def = "1000", .min = 1, .max = 100000000, .dbio_own = 1, .brief = 1,
	  .help = "Records per batch; a batch is one transaction (lmdb, sqlite) and ends with a sync when sync_each_batch=1. The time series has one point per batch unless log_interval says otherwise." },
	{ .name = "value_size", .type = OPT_RANGE, .offset = F(value_size), .def = "100-400", .dbio_own = 1, .brief = 1,
	  .help = "bytes per value, one size or a range lo-hi drawn uniformly (from randseed, so runs repeat)." },
	{ .name = "key_order", .type = OPT_ENUM, .offset = F(key_order), .def = "seq", .values = key_order_values, .dbio_own = 1, .brief = 1,
	  .help = "the order of the inserted keys (16-byte decimal record numbers)." },
	{ .name = "sync_each_batch", .type = OPT_BOOL, .offset = F(sync_each_batch), .def = "1", .dbio_own = 1, .brief = 1,
	  .help = "make every batch durable before the next (gdbm_sync, a synced lmdb commit, sqlite synchronous=FULL); 0 leaves it to the kernel's writeback." },
	{ .name = "sqlite_synchronous", .type = OPT_ENUM, .offset = F(sqlite_sync), .def = "auto", .values = sqlite_sync_values, .dbio_own = 1,
	  .help = "kv_engine=sqlite's PRAGMA synchronous; auto follows sync_each_batch. Under a power cut (dbio crash) full can lose the last commit in the rollback journal's DELETE mode: the journal's unlink is not made durable, so a cut may find it and roll the commit back; extra syncs the directory after it." },
	{ .name = "lookups", .type = OPT_UINT, .offset = F(lookups), .def = "0", .min = 0, .max = 1000000000, .dbio_own = 1,
	  .help = "random gets of inserted keys after the inserts, in batches of batch." },
	{ .name = "updates", .type = OPT_UINT, .offset = F(updates), .def = "0", .min = 0, .max = 1000000000, .dbio_own = 1,
	  .help = "random overwrites of inserted keys after the lookups, in batches of batch, synced like the inserts." },
	{ .name = "benchmarks", .type = OPT_STR, .offset = F(benchmarks), .size = S(benchmarks), .def = "", .dbio_own = 1, .brief = 1,
	  .help = "db_bench's workloads, comma-separated, run in order in place of the inserts, lookups and updates, with db_bench's names and meanings: fillseq (records puts in key order), fillrandom (records puts of keys drawn uniformly, repeats and all), fillsync (random puts, every batch synced: records/1000 on leveldb, records on rocksdb, as each one's db_bench), overwrite (records random puts), readseq (an iterator's walk from the first key, lookups steps), readrandom (lookups gets of random keys; phase figure found), deleterandom (records deletes of random keys), seekrandom (lookups seeks to random keys; found), readwhilewriting (readers threads of lookups random gets each while one more thread puts random keys until they are done; found, writes). records is db_bench's --num, lookups its --reads (0: records), batch its --batch_size; a fill goes first (db_bench starts it on a fresh database). On kv_engine=leveldb and rocksdb. Each benchmark is a phase of the result, named as in db_bench." },
	{ .name = "readers", .type = OPT_UINT, .offset = F(readers), .def = "1", .min = 1, .max = 256, .dbio_own = 1,
	  .help = "benchmarks=readwhilewriting: its reader threads, each doing lookups (0: records) random gets on the thread's database while one more thread writes random puts in batches of batch until the readers are done (db_bench's --threads for it). The phase's ops/s are the readers', as db_bench reports it; the writer's puts are the run's updates and the phase figure writes." },
	{ .name = "verify", .type = OPT_ENUM, .offset = F(verify), .def = "0", .values = job_verify_values,
	  .help = "fio's key: for workload=kv any value but 0 (verify=1, verify=crc32c ...) reads every record back after the inserts, lookups and updates (phase verify, counted as lookups) and compares its bytes with what was last written; a record that differs or is missing is reported and fails the run (exit 1)." },
};
/* clang-format on */

static const struct option_table kv_options = OPTION_TABLE(kv_defs, struct kv_conf);

static const struct kv_backend *const backends[] = {
#ifdef DBIO_HAVE_GDBM
	&kv_gdbm,
#endif
#ifdef DBIO_HAVE_LMDB
	&kv_lmdb,
#endif
#ifdef DBIO_HAVE_SQLITE3
	&kv_sqlite,
#endif
#ifdef DBIO_HAVE_LEVELDB
	&kv_leveldb,
#endif
#ifdef DBIO_HAVE_ROCKSDB
	&kv_rocksdb,
#endif
	NULL, /* no backend at all in a build without the libraries */
};

static const struct kv_backend *backend_find(const char *name)
{
	for (size_t i = 0; backends[i]; i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}

/* "gdbm, lmdb, sqlite": the backends of this build, or "(none built in)". */
static void backend_list(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; backends[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", backends[i]->name);
	if (!buf[0])
		snprintf(buf, len, "(none built in)");
}

/* The backends with keys of their own, as parts of workload=kv. */
static bool kv_part_at(size_t i, struct workload_part *part)
{
	for (size_t b = 0; backends[b]; b++)
		if (backends[b]->options && i-- == 0) {
			*part = (struct workload_part){ "kv_engine", backends[b]->name,
							backends[b]->options };
			return true;
		}
	return false;
}

static void kv_choices(char *buf, size_t len)
{
	char list[64];

	backend_list(list, sizeof(list));
	snprintf(buf, len, "kv_engine: %s", list);
}

struct kv_state {
	const struct kv_backend *be;
	struct kv_db *db;
	char path[4096];
	struct offgen keys; /* the insert order */
	char *value;	    /* value_size.hi bytes */
	uint64_t writes;    /* puts so far */
	/* verify=: each record's last value (its size, its stamp), and
	 * value_size.hi bytes to read one back into */
	uint32_t *vlen;
	uint64_t *vstamp;
	char *back;
	bool durable; /* dbio crash: kv_durable.c checks what was acknowledged */
};

static int kv_validate(struct job *job, struct dbio_err *err)
{
	struct kv_conf *conf = (struct kv_conf *)job->wl_conf;

	if (!backend_find(conf->kv_engine)) {
		char list[64];

		backend_list(list, sizeof(list));
		return job_fail_choice(job, "kv_engine", conf->kv_engine, list, err);
	}
	if (conf->batch > conf->records)
		conf->batch = conf->records;
	const struct kv_backend *be = backend_find(conf->kv_engine);
	int rc;

	kv_lib_note(be);
	if ((be->check && (rc = be->check(job, conf, workload_part_conf(job), err))) ||
	    (rc = kv_bench_check(job, conf, be, err)))
		return rc;
	if (job->time_based)
		return job_fail(job, "time_based", err,
				"not for workload=kv: a kv job runs its records, lookups and updates");
	if (conf->verify)
		return workload_check_memory(job, "records", "records * 12 bytes * numjobs",
					     "verify's table of what each record holds",
					     conf->records * 12 * job->numjobs, "lower records or numjobs",
					     err);
	return 0;
}

static int kv_prepare(struct worker *w)
{
	const struct job *job = w->job;
	const struct kv_conf *conf = job->wl_conf;
	struct kv_state *st = calloc(1, sizeof(*st));
	struct dbio_err e = { 0 };
	char lib_path[64];
	struct rng fill;
	int fd, rc;

	w->priv = st;
	if (!st)
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	st->be = backend_find(conf->kv_engine);
	w->db_engine = st->be->name;
	kv_lib_get(st->be, &w->db_version, &w->db_assertions);
	if ((rc = workload_db_dir(w)))
		return rc;
	snprintf(st->path, sizeof(st->path), "%s/%s", w->db_dir, st->be->name);
	/* dbio makes the file (never over an existing one); the engine then
	 * formats it, and makes its own beside it, in the private directory. */
	fd = st->be->makes_dir ? mkdirat(w->db_dirfd, st->be->name, 0700)
			       : dbio_sys->openat(w->db_dirfd, st->be->name,
						  O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return dbio_err_set(&w->err, errno == EEXIST ? DBIO_EUNSAFE : -errno, "%s: cannot create: %s",
				    st->path, strerror(errno));
	if (!st->be->makes_dir)
		dbio_sys->close(fd);
	snprintf(lib_path, sizeof(lib_path), "%s/%s", w->db_lib_dir, st->be->name);
	if ((rc = st->be->open(&st->db, lib_path, conf, workload_part_conf(job), &e)))
		return dbio_err_set(&w->err, rc, "%s: %s", st->path, e.msg);
	st->value = malloc(conf->value_size.hi);
	if (!st->value)
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	if (conf->verify && (!(st->vlen = calloc(conf->records, sizeof(*st->vlen))) ||
			     !(st->vstamp = calloc(conf->records, sizeof(*st->vstamp))) ||
			     !(st->back = malloc(conf->value_size.hi))))
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory for verify's table",
				    w->index);
	rng_seed(&fill, worker_seed(w));
	for (uint64_t i = 0; i < conf->value_size.hi; i++)
		st->value[i] = (char)rng_next(&fill);
	offgen_init(&st->keys, conf->key_order == KV_KEY_RANDOM ? OFFGEN_RANDMAP : OFFGEN_SEQ, conf->records,
		    worker_seed(w));
	rng_seed(&w->rng, worker_seed(w) * 0x9e3779b97f4a7c15ull + 7);
	for (int t = 0; t < OP_NTYPES; t++)
		op_stats_init(&w->stats[t]);
	st->durable = durable_armed();
	return kv_durable_start(w, st->be, conf, workload_part_conf(job), st->value, st->path);
}

static void make_key(char *key, uint64_t n)
{
	char tmp[KV_KEY_BYTES + 1];

	snprintf(tmp, sizeof(tmp), "%016llu", (unsigned long long)n);
	memcpy(key, tmp, KV_KEY_BYTES);
}

static int be_fail(struct worker *w, struct kv_state *st, const char *phase, int rc)
{
	atomic_store(w->job_stop, 1);
	return dbio_err_set(&w->err, rc, "%s: %s %s: %s", st->path, st->be->name, phase,
			    st->be->errmsg(st->db));
}

/* One phase: n operations of type t in batches; returns 0 or the error. */
static int phase(struct worker *w, struct kv_state *st, enum op_type t, uint64_t n, uint64_t *now)
{
	const struct kv_conf *conf = w->job->wl_conf;
	const bool write = t != OP_LOOKUP, sync = write && conf->sync_each_batch;
	const uint64_t span = conf->value_size.hi - conf->value_size.lo + 1;
	struct phase *ph = &w->phases[w->nphases++];
	struct usage u0, u1;
	char key[KV_KEY_BYTES];
	int rc = 0;

	ph->name = op_type_name(t);
	ph->start_ns = *now;
	usage_thread(&u0);
	for (uint64_t done = 0; done < n && !rc && !workload_stopped(w);) {
		uint64_t in_batch = n - done < conf->batch ? n - done : conf->batch, bytes = 0;
		const uint64_t batch_start = *now;

		if ((rc = st->be->begin(st->db, write)))
			break;
		for (uint64_t i = 0; i < in_batch; i++) {
			uint64_t rec =
				t == OP_INSERT ? offgen_next(&st->keys) : rng_below(&w->rng, conf->records);
			size_t vl = conf->value_size.lo + (size_t)rng_below(&w->rng, span);

			make_key(key, rec);
			if (t == OP_LOOKUP) {
				rc = st->be->get(st->db, key, KV_KEY_BYTES, NULL, 0, &vl);
			} else {
				/* The record number and a per-operation counter lead the value,
				 * so an update always changes the stored bytes. */
				uint64_t stamp[2] = { rec, ++st->writes };

				memcpy(st->value, stamp, sizeof(stamp) < vl ? sizeof(stamp) : vl);
				if (st->durable)
					kv_durable_seal(st->value, vl, key, KV_KEY_BYTES);
				rc = st->be->put(st->db, key, KV_KEY_BYTES, st->value, vl, t == OP_UPDATE);
				if (!rc && st->durable)
					kv_durable_issue(rec, st->writes, vl);
				if (!rc && st->vlen) {
					st->vlen[rec] = (uint32_t)vl;
					st->vstamp[rec] = st->writes;
				}
			}
			uint64_t end = clock_now_ns();

			if (rc)
				break;
			workload_record(w, t, KV_KEY_BYTES + vl, end - *now, end);
			bytes += KV_KEY_BYTES + vl;
			*now = end;
		}
		if (rc || (rc = st->be->commit(st->db, sync)))
			break;
		if (write && st->durable)
			kv_durable_ack(); /* the commit returned: the batch is acknowledged */
		uint64_t end = clock_now_ns();

		workload_record(w, OP_COMMIT, 0, end - *now, end);
		workload_record(w, OP_BATCH, bytes, end - batch_start, end);
		if (w->series.manual)
			series_close(&w->series, end, end - batch_start);
		*now = end;
		done += in_batch;
		atomic_store_explicit(&w->progress_ops, w->stats[t].lat_ns.count, memory_order_relaxed);
	}
	usage_thread(&u1);
	ph->end_ns = *now;
	ph->ops = w->stats[t].lat_ns.count;
	ph->usage = usage_sub(&u1, &u0);
	if (rc && write && st->durable)
		kv_durable_failed(st->be->errmsg(st->db));
	return rc ? be_fail(w, st, ph->name, rc) : 0;
}

/* Record rec read back as got (vl bytes) against what was last written
 * to it: its size, its stamp (record number and write count) and the
 * fill after it; false when it differs, with why in why. */
static bool record_ok(const struct kv_state *st, uint64_t rec, const char *got, size_t vl, char *why,
		      size_t len)
{
	const uint64_t stamp[2] = { rec, st->vstamp[rec] };
	const size_t head = sizeof(stamp) < vl ? sizeof(stamp) : vl;

	if (vl != st->vlen[rec])
		snprintf(why, len, "value of %u bytes expected, found %zu", st->vlen[rec], vl);
	else if (memcmp(got, stamp, head))
		snprintf(why, len, "stamp expected record %llu write %llu, found other bytes",
			 (unsigned long long)rec, (unsigned long long)st->vstamp[rec]);
	else if (memcmp(got + head, st->value + head, vl - head))
		snprintf(why, len, "the bytes after the stamp differ from what was written");
	else
		return true;
	return false;
}

/* verify=: every record read back, in batches, and checked (record_ok);
 * each bad one named in the error (as many as fit). */
static int verify_phase(struct worker *w, struct kv_state *st, uint64_t *now)
{
	const struct kv_conf *conf = w->job->wl_conf;
	struct phase *ph = &w->phases[w->nphases++];
	char key[KV_KEY_BYTES], lines[20 * 4300] = "", why[128];
	uint64_t bad = 0, done = 0;
	size_t used = 0;
	struct usage u0, u1;
	int rc = 0;

	ph->name = "verify";
	ph->start_ns = *now;
	usage_thread(&u0);
	while (done < conf->records && !rc && !workload_stopped(w) && !(rc = st->be->begin(st->db, false))) {
		for (uint64_t end = done + conf->batch < conf->records ? done + conf->batch : conf->records;
		     done < end && !rc; done++) {
			size_t vl = 0;

			make_key(key, done);
			rc = st->be->get(st->db, key, KV_KEY_BYTES, st->back, conf->value_size.hi, &vl);
			uint64_t t = clock_now_ns();

			if (rc && rc != -ENOENT)
				break;
			workload_record(w, OP_LOOKUP, KV_KEY_BYTES + vl, t - *now, t);
			*now = t;
			const bool missing = rc == -ENOENT;

			rc = 0;
			if (missing)
				snprintf(why, sizeof(why), "missing");
			if (!missing && record_ok(st, done, st->back, vl, why, sizeof(why)))
				continue;
			if (bad++ < 20)
				used += (size_t)snprintf(lines + used, sizeof(lines) - used,
							 "\n%s: key %016llu: %s", st->path,
							 (unsigned long long)done, why);
		}
		if (!rc)
			rc = st->be->commit(st->db, false);
	}
	usage_thread(&u1);
	ph->end_ns = *now;
	ph->ops = done;
	ph->usage = usage_sub(&u1, &u0);
	if (rc)
		return be_fail(w, st, ph->name, rc);
	if (bad)
		return dbio_err_set(
			&w->err, -EIO,
			"%s: verify: %llu of %llu records read back did not match what was written%s",
			st->path, (unsigned long long)bad, (unsigned long long)done, lines);
	return 0;
}

static int kv_run(struct worker *w)
{
	struct kv_state *st = w->priv;
	const struct kv_conf *conf = w->job->wl_conf;
	uint64_t now = clock_now_ns();
	struct usage u0, u1;
	struct kv_amp amp;
	int rc;

	w->start_ns = now;
	usage_thread(&u0);
	series_start(&w->series, w->series.interval_ns ? w->origin_ns : now);
	if (conf->benchmarks[0]) {
		struct kv_bench_ctx c = { st->be, st->db, st->path, st->value, &st->writes };

		rc = kv_bench_run(w, &c, &now);
		goto done;
	}
	/* each phase with what it made the engine, the process and the device write */
	const enum op_type order[] = { OP_INSERT, OP_LOOKUP, OP_UPDATE };
	const uint64_t count[] = { conf->records, conf->lookups, conf->updates };

	rc = 0;
	for (size_t p = 0; !rc && p < 3; p++) {
		kv_amp_begin(&amp, w, st->be, st->db);
		if (count[p] && !(rc = phase(w, st, order[p], count[p], &now)))
			kv_amp_end(&amp, w, st->be, st->db);
	}
	if (!rc && conf->verify)
		rc = verify_phase(w, st, &now);
done:
	if (series_on(&w->series) && !w->series.manual)
		series_finish(&w->series, now);
	w->end_ns = now;
	usage_thread(&u1);
	w->usage = usage_sub(&u1, &u0);
	if (st->durable)
		kv_durable_finish(w);
	st->be->close(st->db); /* the database as the engine leaves it, for its size */
	st->db = NULL;
	w->disk_bytes =
		workload_disk_bytes(w) + (st->be->makes_dir ? workload_db_subdir_bytes(w, st->be->name) : 0);
	return rc;
}

static void kv_cleanup(struct worker *w)
{
	struct kv_state *st = w->priv;

	if (!st)
		return;
	if (st->durable)
		kv_durable_finish(w);
	if (st->be && st->db)
		st->be->close(st->db);
	free(st->value);
	free(st->vlen);
	free(st->vstamp);
	free(st->back);
	free(st);
	w->priv = NULL;
	workload_db_dir_close(w);
}

static uint64_t kv_work_items(const struct job *job)
{
	return ((const struct kv_conf *)job->wl_conf)->records;
}

static uint64_t kv_series_points(const struct job *job)
{
	const struct kv_conf *conf = job->wl_conf;

	if (conf->benchmarks[0])
		return kv_bench_batches(conf);
	return (conf->records + conf->lookups + conf->updates) / conf->batch;
}

/* phase() names each after its op type; verify_phase() its own;
 * kv_bench.c each after its db_bench benchmark. */
static const char *const kv_phases[] = { "insert",	 "lookup",     "update",    "verify",  "fillseq",
					 "fillrandom",	 "fillsync",   "overwrite", "readseq", "readrandom",
					 "deleterandom", "seekrandom", NULL };

const struct workload_ops workload_kv = {
	.name = "kv",
	.caps = WORKLOAD_CAP_LIBRARY_IO,
	.prepare = kv_prepare,
	.run = kv_run,
	.cleanup = kv_cleanup,
	.validate = kv_validate,
	.options = &kv_options,
	.work_items = kv_work_items,
	.series_points = kv_series_points,
	.choices = kv_choices,
	.phases = kv_phases,
	.part_at = kv_part_at,
};
