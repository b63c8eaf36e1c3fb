/*
 * workload=postgres's import phase: COPY ... FROM STDIN of rows dbio
 * generates from randseed (the same rows for the same seed), in batches of
 * batch rows, each COPY its own transaction (autocommit), each batch timed
 * as a batch operation; and, for the transaction phase, pgbench's
 * branches, tellers and accounts at scale, as pgbench -i fills them. Rows
 * go to libpq in blocks of COPY_BLOCK bytes of COPY's text format.
 */
#ifdef DBIO_HAVE_LIBPQ
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "workload/postgres_int.h"
#include "workload/workload_int.h"

#define COPY_BLOCK (256 * 1024)
#define ROW_MAX	   1024 /* one generated row of records in COPY's text format */

static const char *const statuses[] = { "new", "paid", "shipped", "returned", "cancelled" };

struct copy {
	struct worker *w;
	PGconn *conn;
	char *buf;
	size_t used;
	uint64_t bytes;
};

static int copy_fail(struct copy *c, const char *what)
{
	atomic_store(c->w->job_stop, 1);
	return dbio_err_set(&c->w->err, -EIO, "postgres: %s: %s", what, PQerrorMessage(c->conn));
}

static int copy_begin(struct copy *c, const char *sql)
{
	PGresult *res = PQexec(c->conn, sql);
	int ok = PQresultStatus(res) == PGRES_COPY_IN;

	PQclear(res);
	c->used = 0;
	return ok ? 0 : copy_fail(c, sql);
}

static int copy_flush(struct copy *c)
{
	if (c->used && PQputCopyData(c->conn, c->buf, (int)c->used) != 1)
		return copy_fail(c, "COPY data");
	c->bytes += c->used;
	c->used = 0;
	return 0;
}

/* The row (len bytes) into the block, sent when full. */
static int copy_row(struct copy *c, const char *row, size_t len)
{
	int rc = 0;

	if (c->used + len > COPY_BLOCK)
		rc = copy_flush(c);
	memcpy(c->buf + c->used, row, len);
	c->used += len;
	return rc;
}

static int copy_end(struct copy *c)
{
	PGresult *res;
	int rc = copy_flush(c);

	if (!rc && PQputCopyEnd(c->conn, NULL) != 1)
		rc = copy_fail(c, "COPY end");
	while ((res = PQgetResult(c->conn))) {
		if (!rc && PQresultStatus(res) != PGRES_COMMAND_OK)
			rc = copy_fail(c, "COPY");
		PQclear(res);
	}
	return rc;
}

/* A COPY given up (a signal): the server rolls it back. */
static void copy_abort(struct copy *c)
{
	PGresult *res;

	PQputCopyEnd(c->conn, "dbio was stopped");
	while ((res = PQgetResult(c->conn)))
		PQclear(res);
}

/* Row id of records, from the worker's generator, into row. */
static size_t record_row(struct worker *w, uint64_t id, char *row)
{
	const struct pg_conf *conf = w->job->wl_conf;
	char name[32], payload[420];
	size_t namelen = 8 + (size_t)rng_below(&w->rng, 17), plen = 100 + (size_t)rng_below(&w->rng, 301);
	const uint64_t customer = rng_below(&w->rng, conf->rows / 10 + 1);
	const uint64_t created = 1700000000 + rng_below(&w->rng, 100000000);
	const uint64_t cents = rng_below(&w->rng, 10000000);
	const char *status = statuses[rng_below(&w->rng, 5)];

	for (size_t i = 0; i < namelen; i++)
		name[i] = (char)('a' + rng_below(&w->rng, 26));
	name[namelen] = '\0';
	for (size_t i = 0; i < plen; i++)
		payload[i] = (char)('a' + rng_below(&w->rng, 26));
	payload[plen] = '\0';
	return (size_t)snprintf(row, ROW_MAX, "%llu\t%llu\t%llu\t%llu.%02llu\t%s\t%s\t%s\n",
				(unsigned long long)id, (unsigned long long)customer,
				(unsigned long long)created, (unsigned long long)(cents / 100),
				(unsigned long long)(cents % 100), status, name, payload);
}

int pg_load_records(struct worker *w, PGconn *conn, uint64_t *rows)
{
	const struct pg_conf *conf = w->job->wl_conf;
	struct copy c = { .w = w, .conn = conn, .buf = malloc(COPY_BLOCK) };
	uint64_t now = clock_now_ns();
	char row[ROW_MAX];
	int rc = 0;

	if (!c.buf)
		return dbio_err_set(&w->err, -ENOMEM, "out of memory");
	for (uint64_t done = 0; !rc && done < conf->rows && !workload_stopped(w);) {
		const uint64_t n = conf->rows - done < conf->batch ? conf->rows - done : conf->batch;
		const uint64_t before = c.bytes;

		if ((rc = copy_begin(&c, "COPY records FROM STDIN")))
			break;
		for (uint64_t i = 0; i < n && !rc; i++) {
			rc = copy_row(&c, row, record_row(w, done + i + 1, row));
			if (i % 1024 == 1023 && workload_stopped(w))
				break;
			if (i % 1024 == 1023)
				atomic_store_explicit(&w->progress_ops, done + i + 1, memory_order_relaxed);
		}
		if (!rc && workload_stopped(w)) {
			copy_abort(&c); /* the batch is rolled back: *rows stays what was committed */
			break;
		}
		if (!rc)
			rc = copy_end(&c);
		if (rc)
			break;
		uint64_t end = clock_now_ns();

		workload_record(w, OP_BATCH, c.bytes - before, end - now, end);
		now = end;
		done += n;
		*rows = done;
		atomic_store_explicit(&w->progress_ops, done, memory_order_relaxed);
	}
	free(c.buf);
	return rc;
}

int pg_load_pgbench(struct worker *w, PGconn *conn, uint64_t *rows)
{
	const struct pg_conf *conf = w->job->wl_conf;
	static const struct {
		const char *copy;
		uint64_t per_scale;
		const char *fmt; /* id, branch of the id */
		uint64_t per_branch;
	} tables[] = {
		{ "COPY pgbench_branches(bid, bbalance) FROM STDIN", 1, "%llu\t0\n", 1 },
		{ "COPY pgbench_tellers(tid, bid, tbalance) FROM STDIN", 10, "%llu\t%llu\t0\n", 10 },
		{ "COPY pgbench_accounts(aid, bid, abalance, filler) FROM STDIN", 100000, "%llu\t%llu\t0\t\n",
		  100000 },
	};
	struct copy c = { .w = w, .conn = conn, .buf = malloc(COPY_BLOCK) };
	char row[64];
	int rc = 0;

	if (!c.buf)
		return dbio_err_set(&w->err, -ENOMEM, "out of memory");
	for (size_t t = 0; t < 3 && !rc && !workload_stopped(w); t++) {
		const uint64_t n = tables[t].per_scale * conf->scale;
		uint64_t start = clock_now_ns();

		if ((rc = copy_begin(&c, tables[t].copy)))
			break;
		for (uint64_t id = 1; id <= n && !rc; id++) {
			int len = snprintf(row, sizeof(row), tables[t].fmt, (unsigned long long)id,
					   (unsigned long long)((id - 1) / tables[t].per_branch + 1));

			rc = copy_row(&c, row, (size_t)len);
		}
		if (!rc && !(rc = copy_end(&c))) {
			uint64_t end = clock_now_ns();

			workload_record(w, OP_BATCH, 0, end - start, end);
			*rows += n;
		}
	}
	free(c.buf);
	return rc;
}
#endif
