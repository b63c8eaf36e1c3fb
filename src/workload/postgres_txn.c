/*
 * workload=postgres's transaction phase: pgbench's default script
 * ("TPC-B (sort of)") from clients connections, one thread each, as
 * pgbench -M simple runs it: seven statements, each a round trip
 *   BEGIN; UPDATE pgbench_accounts ...; SELECT abalance ...;
 *   UPDATE pgbench_tellers ...; UPDATE pgbench_branches ...;
 *   INSERT INTO pgbench_history ...; END;
 * with aid, tid, bid and delta drawn uniformly (pgbench's ranges) from
 * randseed and the client's number. Each client counts into its own
 * op_stats (the whole transaction as a txn, its END as a commit), merged
 * into the worker's after the join. It ends after transactions= each, at
 * runtime=, on a signal or on the first failure of any client. The phase
 * starts when every client has connected (the worker's phases[nphases]
 * start_ns is set here), as pgbench's tps "without initial connection
 * time" does.
 */
#ifdef DBIO_HAVE_LIBPQ
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "workload/postgres_int.h"
#include "workload/workload_int.h"

/* Clients connect first, then wait for the gate: pgbench's tps "without
 * initial connection time", and runtime= counts from when it opens. */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t ready;
	bool open;
	uint64_t deadline_ns; /* 0: none; set before open */
};

struct client {
	struct gate *gate;
	struct worker *w;
	const struct pg_server *server;
	const struct pg_remote *remote;
	unsigned index;
	struct op_stats txn, commit;
	struct usage usage;
	uint64_t done;
	int rc;
	struct dbio_err err;
};

static int statement(struct client *c, PGconn *conn, const char *sql)
{
	PGresult *res = PQexec(conn, sql);
	ExecStatusType st = PQresultStatus(res);
	int rc = 0;

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		atomic_store(c->w->job_stop, 1);
		rc = dbio_err_set(&c->err, -EIO, "postgres: client %u: %.40s: %s", c->index + 1, sql,
				  PQerrorMessage(conn));
	}
	PQclear(res);
	return rc;
}

static int transaction(struct client *c, PGconn *conn, struct rng *rng)
{
	const struct pg_conf *conf = c->w->job->wl_conf;
	const unsigned long long aid = 1 + rng_below(rng, 100000 * conf->scale),
				 bid = 1 + rng_below(rng, conf->scale),
				 tid = 1 + rng_below(rng, 10 * conf->scale);
	const long long delta = (long long)rng_below(rng, 10001) - 5000;
	const uint64_t start = clock_now_ns();
	char sql[5][192];
	uint64_t before_end, end;
	int rc = 0;

	snprintf(sql[0], sizeof(sql[0]),
		 "UPDATE pgbench_accounts SET abalance = abalance + %lld WHERE aid = %llu;", delta, aid);
	snprintf(sql[1], sizeof(sql[1]), "SELECT abalance FROM pgbench_accounts WHERE aid = %llu;", aid);
	snprintf(sql[2], sizeof(sql[2]),
		 "UPDATE pgbench_tellers SET tbalance = tbalance + %lld WHERE tid = %llu;", delta, tid);
	snprintf(sql[3], sizeof(sql[3]),
		 "UPDATE pgbench_branches SET bbalance = bbalance + %lld WHERE bid = %llu;", delta, bid);
	snprintf(
		sql[4], sizeof(sql[4]),
		"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (%llu, %llu, %llu, %lld, CURRENT_TIMESTAMP);",
		tid, bid, aid, delta);
	rc = statement(c, conn, "BEGIN;");
	for (int i = 0; i < 5 && !rc; i++)
		rc = statement(c, conn, sql[i]);
	before_end = clock_now_ns();
	if (rc || (rc = statement(c, conn, "END;")))
		return rc;
	end = clock_now_ns();
	op_stats_add(&c->commit, 0, end - before_end);
	op_stats_add(&c->txn, 0, end - start);
	return 0;
}

static void *client_main(void *arg)
{
	struct client *c = arg;
	const struct pg_conf *conf = c->w->job->wl_conf;
	struct usage u0, u1;
	struct rng rng;
	PGconn *conn = pg_connect(c->server, c->remote, &c->err);
	uint64_t deadline;

	if (!conn) {
		atomic_store(c->w->job_stop, 1);
		c->rc = -EIO;
	}
	pthread_mutex_lock(&c->gate->lock);
	c->gate->ready++;
	pthread_cond_broadcast(&c->gate->cond);
	while (!c->gate->open)
		pthread_cond_wait(&c->gate->cond, &c->gate->lock);
	deadline = c->gate->deadline_ns;
	pthread_mutex_unlock(&c->gate->lock);
	usage_thread(&u0);
	if (!conn)
		return NULL;
	rng_seed(&rng, (c->w->job->randseed + 1 + c->index) * 0x9e3779b97f4a7c15ull);
	while ((!conf->transactions || c->done < conf->transactions) && !workload_stopped(c->w) &&
	       (!deadline || clock_now_ns() < deadline)) {
		if ((c->rc = transaction(c, conn, &rng)))
			break;
		c->done++;
		atomic_fetch_add_explicit(&c->w->progress_ops, 1, memory_order_relaxed);
	}
	PQfinish(conn);
	usage_thread(&u1);
	c->usage = usage_sub(&u1, &u0);
	return NULL;
}

int pg_transactions(struct worker *w, const struct pg_server *s, const struct pg_remote *r, uint64_t *done,
		    struct usage *clients)
{
	const struct pg_conf *conf = w->job->wl_conf;
	struct client *c = calloc(conf->clients, sizeof(*c));
	pthread_t *threads = calloc(conf->clients, sizeof(*threads));
	struct gate gate = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };
	size_t started = 0;
	int rc = 0;

	if (!c || !threads) {
		free(c);
		free(threads);
		return dbio_err_set(&w->err, -ENOMEM, "out of memory for %llu clients",
				    (unsigned long long)conf->clients);
	}
	for (; started < conf->clients; started++) {
		struct client *ci = &c[started];
		int prc;

		*ci = (struct client){
			.gate = &gate, .w = w, .server = s, .remote = r, .index = (unsigned)started
		};
		op_stats_init(&ci->txn);
		op_stats_init(&ci->commit);
		if ((prc = pthread_create(&threads[started], NULL, client_main, ci))) {
			atomic_store(w->job_stop, 1);
			rc = dbio_err_set(&w->err, -prc, "cannot start client thread %zu: %s", started + 1,
					  strerror(prc));
			break;
		}
	}
	pthread_mutex_lock(&gate.lock);
	while (gate.ready < started)
		pthread_cond_wait(&gate.cond, &gate.lock);
	w->phases[w->nphases].start_ns = clock_now_ns();
	gate.deadline_ns = w->job->runtime_ns ? w->phases[w->nphases].start_ns + w->job->runtime_ns : 0;
	gate.open = true;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	for (size_t i = 0; i < started; i++) {
		pthread_join(threads[i], NULL);
		op_stats_merge(&w->stats[OP_TXN], &c[i].txn);
		op_stats_merge(&w->stats[OP_COMMIT], &c[i].commit);
		usage_add(clients, &c[i].usage);
		*done += c[i].done;
		if (c[i].rc && !rc)
			rc = dbio_err_set(&w->err, c[i].rc, "%s", c[i].err.msg);
	}
	free(threads);
	free(c);
	return rc;
}
#endif
