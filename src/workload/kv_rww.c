/*
 * db_bench's readwhilewriting as a phase of kv's benchmarks= (kv_bench.c
 * calls kv_rww_phase): `readers` threads doing random gets on the
 * thread's database while one writer thread beside them puts random keys
 * in batches, until the last reader is done (db_bench's ReadWhileWriting
 * and BGWriter). As db_bench reports it, the phase is the readers': its
 * ops are their gets, its time from their start to the last one's end,
 * its latencies (phase lat) theirs; the writer's puts are counted as
 * updates and batches in the run's ops, and the phase figure writes says
 * how many it did. The worker's own thread is reader 0 (it alone feeds
 * the series and the progress); the others, and the writer, are threads
 * of this phase with statistics of their own, added to the worker's after
 * they are joined, so that no counter is shared while they run. Only for
 * engines whose database handle takes gets from many threads beside one
 * writer (leveldb, rocksdb: kv_bench_check refuses the rest).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/rng.h"
#include "workload/workload.h"
#include "workload/workload_int.h"

#define KEY_BYTES 16

/* The phase's start: every thread waits until all are there (or until
 * one could not be started, when the job is stopped). */
struct rww_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool open;
	atomic_int readers_done; /* the writer stops when it reaches readers */
};

/* One thread of the phase: a reader's or the writer's figures. */
struct rww_thread {
	pthread_t tid;
	struct worker *w;
	struct kv_bench_ctx *c;
	struct rww_gate *gate;
	unsigned readers;
	uint64_t reads; /* a reader's gets */
	struct rng rng;
	struct op_stats get, put, batch; /* owned, filled without locks */
	uint64_t found, start_ns, end_ns;
	int rc;
	char msg[256];
};

static void rww_wait(struct rww_gate *g)
{
	pthread_mutex_lock(&g->lock);
	while (!g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

static void rww_open(struct rww_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->open = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

static void rww_key(char key[KEY_BYTES], uint64_t rec)
{
	for (int i = KEY_BYTES - 1; i >= 0; i--, rec /= 10)
		key[i] = (char)('0' + rec % 10);
}

/* A reader's gets, once the gate opens. */
static void *rww_read(void *arg)
{
	struct rww_thread *t = arg;
	const struct kv_conf *conf = t->w->job->wl_conf;

	rww_wait(t->gate);
	t->start_ns = clock_now_ns();
	for (uint64_t i = 0; !t->rc && i < t->reads && !workload_stopped(t->w); i++) {
		char key[KEY_BYTES];
		size_t vl = 0;
		const uint64_t t0 = clock_now_ns();
		int rc;

		rww_key(key, rng_below(&t->rng, conf->records));
		rc = t->c->be->get(t->c->db, key, KEY_BYTES, NULL, 0, &vl);
		if (rc && rc != -ENOENT) {
			t->rc = rc;
			break;
		}
		t->found += rc == 0;
		op_stats_add(&t->get, rc ? 0 : KEY_BYTES + vl, clock_now_ns() - t0);
	}
	if (t->rc)
		snprintf(t->msg, sizeof(t->msg), "%s", t->c->be->errmsg(t->c->db));
	t->end_ns = clock_now_ns();
	atomic_fetch_add(&t->gate->readers_done, 1);
	return NULL;
}

/* The writer: batches of random puts, once the gate opens, until every
 * reader is done. Its values are the thread's fill (kv_bench_ctx.value:
 * reader 0, the worker's thread, puts nothing meanwhile). */
static void *rww_write(void *arg)
{
	struct rww_thread *t = arg;
	const struct kv_conf *conf = t->w->job->wl_conf;
	const struct kv_backend *be = t->c->be;

	rww_wait(t->gate);
	t->start_ns = clock_now_ns();
	while (atomic_load(&t->gate->readers_done) < (int)t->readers && !workload_stopped(t->w)) {
		const uint64_t b0 = clock_now_ns();
		uint64_t bytes = 0, now = b0;

		if ((t->rc = be->begin(t->c->db, true)))
			break;
		for (uint64_t i = 0; i < conf->batch && !t->rc; i++) {
			char key[KEY_BYTES];
			const uint64_t rec = rng_below(&t->rng, conf->records);
			/* the record number and a write count lead the value, as kv's puts */
			const uint64_t stamp[2] = { rec, ++*t->c->writes };
			const size_t vl =
				conf->value_size.lo +
				(size_t)rng_below(&t->rng, conf->value_size.hi - conf->value_size.lo + 1);
			uint64_t end;

			rww_key(key, rec);
			memcpy(t->c->value, stamp, sizeof(stamp) < vl ? sizeof(stamp) : vl);
			t->rc = be->put(t->c->db, key, KEY_BYTES, t->c->value, vl, true);
			end = clock_now_ns();
			op_stats_add(&t->put, KEY_BYTES + vl, end - now);
			bytes += KEY_BYTES + vl;
			now = end;
		}
		if (t->rc || (t->rc = be->commit(t->c->db, conf->sync_each_batch)))
			break;
		op_stats_add(&t->batch, bytes, clock_now_ns() - b0);
	}
	if (t->rc)
		snprintf(t->msg, sizeof(t->msg), "%s", be->errmsg(t->c->db));
	t->end_ns = clock_now_ns();
	return NULL;
}

static void rww_init(struct rww_thread *t, struct worker *w, struct kv_bench_ctx *c, struct rww_gate *g,
		     uint64_t seed)
{
	const struct kv_conf *conf = w->job->wl_conf;

	memset(t, 0, sizeof(*t));
	t->w = w;
	t->c = c;
	t->gate = g;
	t->readers = (unsigned)conf->readers;
	rng_seed(&t->rng, seed);
	op_stats_init(&t->get);
	op_stats_init(&t->put);
	op_stats_init(&t->batch);
}

/* The threads' figures into the worker's and the phase's: the readers'
 * gets as lookups (and the phase's own), the writer's puts and batches. */
static void rww_add(struct worker *w, struct phase *ph, struct rww_thread *t, unsigned n)
{
	uint64_t found = 0, start = UINT64_MAX, end = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!t[i].end_ns)
			continue; /* never started */
		op_stats_merge(&w->stats[OP_LOOKUP], &t[i].get);
		op_stats_merge(ph->lat, &t[i].get);
		found += t[i].found;
		start = t[i].start_ns < start ? t[i].start_ns : start;
		end = t[i].end_ns > end ? t[i].end_ns : end;
	}
	op_stats_merge(&w->stats[OP_UPDATE], &t[n].put);
	op_stats_merge(&w->stats[OP_BATCH], &t[n].batch);
	ph->start_ns = end ? start : ph->start_ns;
	ph->end_ns = end ? end : ph->start_ns;
	ph->ops = ph->lat->lat_ns.count;
	ph->figures[ph->nfigures++] = (struct phase_figure){ "found", (double)found };
	ph->figures[ph->nfigures++] = (struct phase_figure){ "readers", (double)n };
	ph->figures[ph->nfigures++] = (struct phase_figure){ "writes", (double)t[n].put.lat_ns.count };
}

/* The first failure of the threads, into w->err: 0 when none. */
static int rww_error(struct worker *w, struct kv_bench_ctx *c, const struct rww_thread *t, unsigned n)
{
	for (unsigned i = 0; i <= n; i++)
		if (t[i].rc)
			return dbio_err_set(&w->err, t[i].rc, "%s: %s readwhilewriting: %s%s", c->path,
					    c->be->name, i == n ? "the writer: " : "", t[i].msg);
	return 0;
}

int kv_rww_phase(struct worker *w, struct kv_bench_ctx *c, struct phase *ph, uint64_t reads, uint64_t *now)
{
	const struct kv_conf *conf = w->job->wl_conf;
	const unsigned n = (unsigned)conf->readers;
	struct rww_thread *t = calloc(n + 1, sizeof(*t)); /* t[0..n-1] readers, t[n] the writer */
	struct rww_gate gate = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };
	unsigned started = 1;
	int rc = 0;

	if (!t)
		return dbio_err_set(&w->err, -ENOMEM, "readwhilewriting: out of memory for its threads");
	for (unsigned i = 0; i <= n; i++) {
		rww_init(&t[i], w, c, &gate, worker_seed(w) * 0x9e3779b97f4a7c15ull + 1000 + i);
		t[i].reads = reads;
	}
	/* a read batch, once, before any other thread runs: begin touches
	 * the engine's write batch (leveldb's clears it) */
	if ((t[0].rc = c->be->begin(c->db, false)))
		snprintf(t[0].msg, sizeof(t[0].msg), "%s", c->be->errmsg(c->db));
	/* reader 0 is this thread; the others, and the writer, are started */
	for (; started <= n && !rc && !t[0].rc; started++)
		rc = -pthread_create(&t[started].tid, NULL, started < n ? rww_read : rww_write, &t[started]);
	if (rc || t[0].rc)
		atomic_store(w->job_stop, 1); /* the started ones see it and end */
	rww_open(&gate);
	if (!t[0].rc)
		rww_read(&t[0]);
	for (unsigned i = 1; i < started - (rc != 0); i++)
		pthread_join(t[i].tid, NULL);
	rww_add(w, ph, t, n);
	*now = clock_now_ns();
	if (rc)
		rc = dbio_err_set(&w->err, rc, "readwhilewriting: cannot start its threads: %s",
				  strerror(-rc));
	else
		rc = rww_error(w, c, t, n);
	if (rc)
		atomic_store(w->job_stop, 1);
	free(t);
	return rc;
}
