/*
 * db_bench's workloads as the phases of a kv job: benchmarks=fillseq,
 * readrandom runs them in order on the thread's database, each with
 * db_bench's name and meaning (RocksDB's tools/db_bench_tool.cc): records
 * is db_bench's --num, lookups its --reads (0: records), batch its
 * --batch_size. kv.c calls kv_bench_check at validation and kv_bench_run
 * in place of its own insert, lookup and update phases; each benchmark is
 * one phase of the result, its operations timed as kv's op types (puts as
 * insert or update, gets, seeks and the steps of a scan as lookup, deletes
 * as delete), every batch's commit and the whole batch as commit and
 * batch.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "workload/workload.h"
#include "workload/workload_int.h"

#define KEY_BYTES 16 /* kv's keys: 16-digit decimal record numbers */

enum bench_act { B_PUT, B_GET, B_DEL, B_SEEK, B_SCAN, B_RWW };

struct bench {
	const char *name;
	enum bench_act act;
	bool random; /* keys drawn uniformly from 0..records-1, repeats and all; else 0, 1, 2 ... */
	enum op_type op;
	bool fill; /* db_bench starts it on a fresh database */
	bool sync; /* every batch synced, whatever sync_each_batch says */
	unsigned
		per_write; /* a write benchmark does records / per_write operations; 0: a read does lookups */
};

static const struct bench benches[] = {
	{ "fillseq", B_PUT, false, OP_INSERT, true, false, 1 },
	{ "fillrandom", B_PUT, true, OP_INSERT, true, false, 1 },
	{ "fillsync", B_PUT, true, OP_INSERT, true, true, 1000 },
	{ "overwrite", B_PUT, true, OP_UPDATE, false, false, 1 },
	{ "readseq", B_SCAN, false, OP_LOOKUP, false, false, 0 },
	{ "readrandom", B_GET, true, OP_LOOKUP, false, false, 0 },
	{ "deleterandom", B_DEL, true, OP_DELETE, false, false, 1 },
	{ "seekrandom", B_SEEK, true, OP_LOOKUP, false, false, 0 },
	{ "readwhilewriting", B_RWW, true, OP_LOOKUP, false, false, 0 }, /* kv_rww.c */
};

#define NBENCH (sizeof(benches) / sizeof(benches[0]))

static const struct bench *bench_find(const char *name, size_t len)
{
	for (size_t i = 0; i < NBENCH; i++)
		if (strlen(benches[i].name) == len && !strncmp(benches[i].name, name, len))
			return &benches[i];
	return NULL;
}

/* The next name of the comma-separated list at *at: its length, *at moved
 * past it; 0 at the end. */
static size_t next_name(const char **at, const char **name)
{
	const char *p = *at, *comma;
	size_t len;

	if (!*p)
		return 0;
	comma = strchr(p, ',');
	len = comma ? (size_t)(comma - p) : strlen(p);
	*name = p;
	*at = comma ? comma + 1 : p + len;
	return len ? len : 1; /* an empty name ("a,,b") is refused as one */
}

/* Operations benchmark b does. */
static uint64_t bench_ops(const struct kv_conf *conf, const struct bench *b)
{
	uint64_t n;

	if (!b->per_write)
		return conf->lookups ? conf->lookups : conf->records;
	/* fillsync: LevelDB's db_bench does records / 1000 puts; RocksDB's
	 * (7.8.3, Debian's rocksdb-tools) divides --num too but writes
	 * --writes, which is --num: records puts, "(records / 1000 ops)" only
	 * said after its figures */
	if (b->per_write > 1 && !strcmp(conf->kv_engine, "rocksdb"))
		return conf->records;
	n = conf->records / b->per_write;
	return n ? n : 1;
}

static void bench_names(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NBENCH && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", benches[i].name);
}

int kv_bench_check(const struct job *job, const struct kv_conf *conf, const struct kv_backend *be,
		   struct dbio_err *err)
{
	const char *at = conf->benchmarks, *name = NULL;
	char names[256];
	size_t len;

	if (!conf->benchmarks[0])
		return 0;
	bench_names(names, sizeof(names));
	if (!be->del || !be->seek || !be->next)
		return job_fail(
			job, "benchmarks", err,
			"db_bench's workloads need deletes and an ordered iterator, which dbio's kv_engine=%s has not got (yet): use kv_engine=leveldb or rocksdb",
			be->name);
	for (unsigned i = 0; (len = next_name(&at, &name)); i++) {
		const struct bench *b = bench_find(name, len);

		if (!b)
			return job_fail(job, "benchmarks", err,
					"'%.*s' is not one of db_bench's workloads that dbio runs: %s",
					(int)len, name, names);
		if (i == WORKLOAD_MAX_PHASES)
			return job_fail(job, "benchmarks", err,
					"more than %d benchmarks: a kv job runs at most %d phases",
					WORKLOAD_MAX_PHASES, WORKLOAD_MAX_PHASES);
		if (b->fill && i)
			return job_fail(
				job, "benchmarks", err,
				"%s after another benchmark: db_bench starts each fill on a fresh database, dbio's kv job has one database per thread: put the fill first, or give it a job of its own",
				b->name);
	}
	if (job_is_set(job, "readers") && !strstr(conf->benchmarks, "readwhilewriting"))
		return job_fail(job, "readers", err,
				"readwhilewriting's reader threads: add readwhilewriting to benchmarks=");
	if (conf->updates)
		return job_fail(
			job, "updates", err,
			"not with benchmarks: db_bench's overwrite is the updates (benchmarks=...,overwrite)");
	if (conf->verify)
		return job_fail(
			job, "verify", err,
			"not with benchmarks: fillrandom's repeats and deleterandom leave no one value per record to check");
	if (job_is_set(job, "key_order"))
		return job_fail(job, "key_order", err,
				"not with benchmarks: fillseq and fillrandom say the order of their keys");
	return 0;
}

uint64_t kv_bench_batches(const struct kv_conf *conf)
{
	const char *at = conf->benchmarks, *name = NULL;
	uint64_t sum = 0;
	size_t len;

	while ((len = next_name(&at, &name))) {
		const struct bench *b = bench_find(name, len);

		if (b && b->act != B_RWW) /* readwhilewriting's writer: as many as the readers' time takes */
			sum += (bench_ops(conf, b) + conf->batch - 1) / conf->batch;
	}
	return sum;
}

/* rec as kv's key, its 16 decimal digits zero-padded ("%016llu", the
 * record numbers being below 10^16): by hand, as snprintf cost a
 * thousand instructions a put, a tenth of a RocksDB put's own. */
static void bench_key(char key[KEY_BYTES], uint64_t rec)
{
	for (int i = KEY_BYTES - 1; i >= 0; i--, rec /= 10)
		key[i] = (char)('0' + rec % 10);
}

/* One operation of b on record rec: 0, -ENOENT for a read that found
 * nothing (a scan past the last key), or the engine's error. *bytes: what
 * it moved (key and value; db_bench's bytes). */
static int bench_op(struct worker *w, struct kv_bench_ctx *c, const struct bench *b, uint64_t rec, bool first,
		    uint64_t *bytes)
{
	const struct kv_conf *conf = w->job->wl_conf;
	char key[KEY_BYTES];
	size_t vl = 0;
	int rc;

	bench_key(key, rec);
	*bytes = 0;
	switch (b->act) {
	case B_PUT: {
		/* as kv's puts: the record number and a write count lead the value */
		const uint64_t stamp[2] = { rec, ++*c->writes };

		vl = conf->value_size.lo +
		     (size_t)rng_below(&w->rng, conf->value_size.hi - conf->value_size.lo + 1);
		memcpy(c->value, stamp, sizeof(stamp) < vl ? sizeof(stamp) : vl);
		*bytes = KEY_BYTES + vl;
		return c->be->put(c->db, key, KEY_BYTES, c->value, vl, true);
	}
	case B_GET:
		rc = c->be->get(c->db, key, KEY_BYTES, NULL, 0, &vl);
		*bytes = rc ? 0 : KEY_BYTES + vl;
		return rc;
	case B_DEL:
		*bytes = KEY_BYTES;
		return c->be->del(c->db, key, KEY_BYTES);
	case B_SEEK: /* found, as db_bench counts it, when the seek lands on the key itself */
		rc = c->be->seek(c->db, key, KEY_BYTES, &vl);
		*bytes = rc >= 0 ? vl : 0;
		return rc == 1 ? 0 : rc == 0 ? -ENOENT : rc;
	case B_SCAN:
		rc = first ? c->be->seek(c->db, NULL, 0, &vl) : c->be->next(c->db, &vl);
		*bytes = rc ? 0 : vl;
		return rc;
	case B_RWW: /* a phase of threads of its own: kv_rww.c */
		break;
	}
	return -EINVAL;
}

/* Benchmark b as one phase, in batches of batch: 0 or the error (detail
 * in w->err). */
static int bench_phase(struct worker *w, struct kv_bench_ctx *c, const struct bench *b, uint64_t *now)
{
	const struct kv_conf *conf = w->job->wl_conf;
	const bool write = b->act == B_PUT || b->act == B_DEL,
		   sync = write && (b->sync || conf->sync_each_batch);
	struct phase *ph = &w->phases[w->nphases++];
	uint64_t n = bench_ops(conf, b), done = 0, found = 0;
	struct usage u0, u1;
	bool ended = false;
	int rc = 0;

	ph->name = b->name;
	ph->start_ns = *now;
	/* the phase's own latencies, as db_bench's histogram has them: a
	 * write's batches, a read's operations */
	ph->lat_op = write ? OP_BATCH : b->op;
	if (!ph->lat && !(ph->lat = malloc(sizeof(*ph->lat))))
		return dbio_err_set(&w->err, -ENOMEM, "%s: out of memory for its latencies", b->name);
	op_stats_init(ph->lat);
	usage_thread(&u0);
	if (b->act == B_RWW) {
		rc = kv_rww_phase(w, c, ph, n, now);
		usage_thread(&u1);
		ph->usage = usage_sub(&u1, &u0);
		return rc;
	}
	while (done < n && !ended && !rc && !workload_stopped(w) && !(rc = c->be->begin(c->db, write))) {
		const uint64_t in_batch = n - done < conf->batch ? n - done : conf->batch, batch_start = *now;
		uint64_t batch_bytes = 0, i;

		for (i = 0; i < in_batch; i++) {
			uint64_t rec = b->random ? rng_below(&w->rng, conf->records) : done + i, bytes;

			rc = bench_op(w, c, b, rec, done + i == 0, &bytes);
			if (rc == -ENOENT && b->act == B_SCAN) {
				ended = true; /* db_bench's readseq stops at the last key */
				rc = 0;
				break;
			}
			found += rc == 0 && b->act != B_PUT && b->act != B_DEL;
			if (rc == -ENOENT)
				rc = 0;
			if (rc)
				break;
			const uint64_t end = clock_now_ns();

			workload_record(w, b->op, bytes, end - *now, end);
			if (!write)
				op_stats_add(ph->lat, bytes, end - *now);
			batch_bytes += bytes;
			*now = end;
		}
		if (rc || (rc = c->be->commit(c->db, sync)))
			break;
		const uint64_t end = clock_now_ns();

		workload_record(w, OP_COMMIT, 0, end - *now, end);
		workload_record(w, OP_BATCH, batch_bytes, end - batch_start, end);
		if (write)
			op_stats_add(ph->lat, batch_bytes, end - batch_start);
		if (w->series.manual)
			series_close(&w->series, end, end - batch_start);
		*now = end;
		done += i;
		atomic_store_explicit(&w->progress_ops, w->stats[b->op].lat_ns.count, memory_order_relaxed);
	}
	usage_thread(&u1);
	ph->end_ns = *now;
	ph->ops = done;
	ph->usage = usage_sub(&u1, &u0);
	if (b->act == B_GET || b->act == B_SEEK || b->act == B_SCAN)
		ph->figures[ph->nfigures++] = (struct phase_figure){ "found", (double)found };
	if (rc) {
		atomic_store(w->job_stop, 1);
		return dbio_err_set(&w->err, rc, "%s: %s %s: %s", c->path, c->be->name, b->name,
				    c->be->errmsg(c->db));
	}
	return 0;
}

int kv_bench_run(struct worker *w, struct kv_bench_ctx *c, uint64_t *now)
{
	const struct kv_conf *conf = w->job->wl_conf;
	const char *at = conf->benchmarks, *name = NULL;
	size_t len;
	int rc = 0;

	while (!rc && !workload_stopped(w) && (len = next_name(&at, &name)) &&
	       w->nphases < WORKLOAD_MAX_PHASES) {
		const struct bench *b = bench_find(name, len);
		struct kv_amp amp;

		kv_amp_begin(&amp, w, c->be, c->db);
		if (!(rc = bench_phase(w, c, b, now)))
			kv_amp_end(&amp, w, c->be, c->db);
	}
	return rc;
}
