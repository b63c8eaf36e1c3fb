/*
 * kv: inserts, then lookups, then updates, in batches, on a real embedded
 * database (gdbm, LMDB, SQLite) — scenario S2's "insert records, time
 * every 1,000, with and without a sync after each batch". Every put and
 * get is timed (insert, lookup, update), every batch's commit (commit) and
 * the whole batch (batch); the series has a point per batch unless
 * log_interval asks for another grid.
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
#include "workload/workload.h"
#include "workload/workload_int.h"

#define KV_KEY_BYTES 16

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
	NULL, /* no backend at all in a build without the three libraries */
};

static const struct kv_backend *backend_find(const char *name)
{
	for (size_t i = 0; backends[i]; i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}

struct kv_state {
	const struct kv_backend *be;
	struct kv_db *db;
	char path[4096];
	struct offgen keys; /* the insert order */
	char *value;	    /* value_size.hi bytes */
	uint64_t writes;    /* puts so far */
};

static int kv_validate(struct job *job, struct dbio_err *err)
{
	if (!backend_find(job->kv_engine)) {
		char list[64] = "";

		for (size_t i = 0; backends[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
				 backends[i]->name);
		return job_fail_choice(job, "kv_engine", job->kv_engine, list[0] ? list : "(none built in)",
				       err);
	}
	if (job->batch > job->records)
		job->batch = job->records;
	if (job->time_based)
		return job_fail(job, "time_based", err,
				"not for workload=kv: a kv job runs its records, lookups and updates");
	return 0;
}

static int kv_prepare(struct worker *w)
{
	const struct job *job = w->job;
	struct kv_state *st = calloc(1, sizeof(*st));
	struct dbio_err e = { 0 };
	char lib_path[64];
	struct rng fill;
	int fd, rc;

	w->eng.priv = st; /* the kv workload drives no I/O engine; its state lives here */
	if (!st)
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	st->be = backend_find(job->kv_engine);
	w->db_engine = st->be->name;
	if ((rc = workload_db_dir(w)))
		return rc;
	snprintf(st->path, sizeof(st->path), "%s/%s", w->db_dir, st->be->name);
	/* dbio makes the file (never over an existing one); the engine then
	 * formats it, and makes its own beside it, in the private directory. */
	fd = dbio_sys->openat(w->db_dirfd, st->be->name, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC,
			      0644);
	if (fd < 0)
		return dbio_err_set(&w->err, errno == EEXIST ? DBIO_EUNSAFE : -errno, "%s: cannot create: %s",
				    st->path, strerror(errno));
	dbio_sys->close(fd);
	snprintf(lib_path, sizeof(lib_path), "%s/%s", w->db_lib_dir, st->be->name);
	if ((rc = st->be->open(&st->db, lib_path, job, &e)))
		return dbio_err_set(&w->err, rc, "%s: %s", st->path, e.msg);
	st->value = malloc(job->value_size.hi);
	if (!st->value)
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	rng_seed(&fill, job->randseed + w->index);
	for (uint64_t i = 0; i < job->value_size.hi; i++)
		st->value[i] = (char)rng_next(&fill);
	offgen_init(&st->keys, job->key_order == KEY_RANDOM ? OFFGEN_RANDMAP : OFFGEN_SEQ, job->records,
		    job->randseed + w->index);
	rng_seed(&w->rng, (job->randseed + w->index) * 0x9e3779b97f4a7c15ull + 7);
	for (int t = 0; t < OP_NTYPES; t++)
		op_stats_init(&w->stats[t]);
	return 0;
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
	const struct job *job = w->job;
	const bool write = t != OP_LOOKUP, sync = write && job->sync_each_batch;
	const uint64_t span = job->value_size.hi - job->value_size.lo + 1;
	struct phase *ph = &w->phases[w->nphases++];
	struct usage u0, u1;
	char key[KV_KEY_BYTES];
	int rc = 0;

	ph->name = op_type_name(t);
	ph->start_ns = *now;
	usage_thread(&u0);
	for (uint64_t done = 0; done < n && !rc && !workload_stopped(w);) {
		uint64_t in_batch = n - done < job->batch ? n - done : job->batch, bytes = 0;
		const uint64_t batch_start = *now;

		if ((rc = st->be->begin(st->db, write)))
			break;
		for (uint64_t i = 0; i < in_batch; i++) {
			uint64_t rec =
				t == OP_INSERT ? offgen_next(&st->keys) : rng_below(&w->rng, job->records);
			size_t vl = job->value_size.lo + (size_t)rng_below(&w->rng, span);

			make_key(key, rec);
			if (t == OP_LOOKUP) {
				rc = st->be->get(st->db, key, KV_KEY_BYTES, &vl);
			} else {
				/* The record number and a per-operation counter lead the value,
				 * so an update always changes the stored bytes. */
				uint64_t stamp[2] = { rec, ++st->writes };

				memcpy(st->value, stamp, sizeof(stamp) < vl ? sizeof(stamp) : vl);
				rc = st->be->put(st->db, key, KV_KEY_BYTES, st->value, vl, t == OP_UPDATE);
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
	return rc ? be_fail(w, st, ph->name, rc) : 0;
}

static int kv_run(struct worker *w)
{
	struct kv_state *st = w->eng.priv;
	const struct job *job = w->job;
	uint64_t now = clock_now_ns();
	struct usage u0, u1;
	int rc;

	w->start_ns = now;
	usage_thread(&u0);
	series_start(&w->series, w->series.interval_ns ? w->origin_ns : now);
	rc = phase(w, st, OP_INSERT, job->records, &now);
	if (!rc && job->lookups)
		rc = phase(w, st, OP_LOOKUP, job->lookups, &now);
	if (!rc && job->updates)
		rc = phase(w, st, OP_UPDATE, job->updates, &now);
	if (series_on(&w->series) && !w->series.manual)
		series_finish(&w->series, now);
	w->end_ns = now;
	usage_thread(&u1);
	w->usage = usage_sub(&u1, &u0);
	st->be->close(st->db); /* the database as the engine leaves it, for its size */
	st->db = NULL;
	w->disk_bytes = workload_disk_bytes(w);
	return rc;
}

static void kv_cleanup(struct worker *w)
{
	struct kv_state *st = w->eng.priv;

	if (!st)
		return;
	if (st->be && st->db)
		st->be->close(st->db);
	free(st->value);
	free(st);
	w->eng.priv = NULL;
	workload_db_dir_close(w);
}

const struct workload_ops workload_kv = {
	.name = "kv",
	.prepare = kv_prepare,
	.run = kv_run,
	.cleanup = kv_cleanup,
	.validate = kv_validate,
};
