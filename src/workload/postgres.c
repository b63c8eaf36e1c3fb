/*
 * postgres: a real PostgreSQL server on the filesystem under test —
 * scenario S1's schema load and data import, then optional pgbench-shaped
 * transactions. The worker's prepare claims a private cluster in the
 * target directory, runs initdb and starts the server with the job's
 * settings (postgres_server.c: a setting PostgreSQL refuses ends the job
 * there, exit 2, before any measured phase); run times the phases apart:
 *   schema      the tables (records; pgbench's four when transactions)
 *   import      COPY of rows generated from randseed (postgres_load.c),
 *               batch rows per COPY, each its own transaction
 *   index       records' primary key and indexes=K secondary indexes,
 *               pgbench's primary keys (maintenance_work_mem)
 *   analyze     ANALYZE
 *   checkpoint  CHECKPOINT
 *   transactions  pgbench's TPC-B-like script from clients connections
 *               (postgres_txn.c)
 * and beside each phase the server's own view (phase figures): WAL bytes
 * (from the insert LSN) and records (pg_stat_wal), checkpoints and
 * buffers written (pg_stat_bgwriter), the database's size before and
 * after, the server processes' CPU from /proc. cleanup stops the server
 * and removes the cluster, also after an error or a signal.
 */
#ifdef DBIO_HAVE_LIBPQ /* left out of a build without the library: util/built.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "workload/durable.h"
#include "workload/postgres_int.h"
#include "workload/workload_int.h"

static const char *const index_columns[PG_MAX_INDEXES] = {
	"customer", "created", "amount", "status", "name", "customer, created",
};

const char *const pg_setting_names[PG_NSETTINGS] = {
	"shared_buffers",     "wal_level",    "fsync",		 "synchronous_commit",	 "full_page_writes",
	"checkpoint_timeout", "max_wal_size", "wal_sync_method", "maintenance_work_mem",
};

#define F(field)   offsetof(struct pg_conf, field)
#define SETTING(i) .type = OPT_STR, .offset = F(settings[i]), .size = 32, .dbio_own = 1

/* clang-format off */
static const struct option_def pg_defs[] = {
	{ .name = "rows", .type = OPT_UINT, .offset = F(rows), .def = "100000", .min = 1, .max = 1000000000, .dbio_own = 1, .brief = 1,
	  .help = "rows each thread loads into its table." },
	{ .name = "indexes", .type = OPT_UINT, .offset = F(indexes), .def = "3", .min = 0, .max = 6, .dbio_own = 1, .brief = 1,
	  .help = "indexes on the table (on customer, created, amount, status, name, (customer, created), in that order); kept during the load, then dropped and built again in the index phase. workload=postgres builds them (and the primary key) after the import, as pg_restore does." },
	{ .name = "batch", .type = OPT_UINT, .offset = F(batch), .def = "100000000", .min = 1, .max = 100000000, .dbio_own = 1, .brief = 1,
	  .help = "Rows per transaction of the load phase. The time series has one point per batch unless log_interval says otherwise. workload=postgres: rows per COPY, each its own transaction; its default, the most there is, makes one COPY of all rows." },
	{ .name = "scale", .type = OPT_UINT, .offset = F(scale), .def = "1", .min = 1, .max = 10000, .dbio_own = 1, .brief = 1,
	  .help = "pgbench's scale factor for the transaction phase: scale branches, 10 x scale tellers, 100000 x scale accounts, loaded in the import phase when there are transactions." },
	{ .name = "clients", .type = OPT_UINT, .offset = F(clients), .def = "1", .min = 1, .max = 256, .dbio_own = 1, .brief = 1,
	  .help = "Connections of the transaction phase, one thread each (pgbench's -c and -j)." },
	{ .name = "transactions", .type = OPT_UINT, .offset = F(transactions), .def = "0", .min = 0, .max = 1000000000, .dbio_own = 1, .brief = 1,
	  .help = "Transactions of pgbench's default TPC-B-like script each client runs (pgbench's -t); 0: none, unless runtime= bounds the phase by time." },
	{ .name = "shared_buffers", SETTING(0), .def = "128MB", .brief = 1,
	  .help = "PostgreSQL's shared_buffers, passed to the server as it is (its units: kB, MB, GB, or 8 kB pages)." },
	{ .name = "wal_level", SETTING(1), .def = "replica",
	  .help = "PostgreSQL's wal_level (minimal, replica, logical)." },
	{ .name = "pg_fsync", SETTING(2), .def = "on", .brief = 1,
	  .help = "PostgreSQL's fsync setting (on, off); named pg_fsync because fsync is fio's key of every job." },
	{ .name = "synchronous_commit", SETTING(3), .def = "on", .brief = 1,
	  .help = "PostgreSQL's synchronous_commit (on, off, local, remote_write, remote_apply)." },
	{ .name = "full_page_writes", SETTING(4), .def = "on",
	  .help = "PostgreSQL's full_page_writes (on, off)." },
	{ .name = "checkpoint_timeout", SETTING(5), .def = "5min",
	  .help = "PostgreSQL's checkpoint_timeout (30s to 1d)." },
	{ .name = "max_wal_size", SETTING(6), .def = "1GB",
	  .help = "PostgreSQL's max_wal_size: WAL between checkpoints that asks for one." },
	{ .name = "wal_sync_method", SETTING(7), .def = "fdatasync", .brief = 1,
	  .help = "PostgreSQL's wal_sync_method (fsync, fdatasync, open_sync, open_datasync), to check dbio sync's table against the real server." },
	{ .name = "maintenance_work_mem", SETTING(8), .def = "64MB",
	  .help = "PostgreSQL's maintenance_work_mem: memory of each CREATE INDEX of the index phase." },
	{ .name = "pg_conninfo", .type = OPT_STR, .offset = F(pg_conninfo), .size = 512, .def = "", .dbio_own = 1, .never_brief = 1,
	  .help = "A libpq connection string (host=/run/postgresql dbname=postgres) of a server to use instead of dbio's own cluster: dbio creates a database of its own there (dbio_<pid>_<hex>), runs the phases in it and drops it at the end; a database a killed dbio left is dropped by a later run in the same directory when dbio's record there proves it dbio's, others named like dbio's only named in a warning (docs/postgres.md). The server's settings are its own (the setting keys are refused), its statistics (WAL, checkpoints) are the whole server's, and its CPU is not measured." },
};
/* clang-format on */

static const struct option_table pg_options = OPTION_TABLE(pg_defs, struct pg_conf);

struct pg_state {
	struct pg_server server;
	struct pg_remote remote;
	PGconn *conn;
	char settings[PG_NSETTINGS][80]; /* "name=value" */
	char *settings_of[PG_NSETTINGS]; /* them, for the server on a crash state */
	bool durable;			 /* dbio crash: postgres_durable.c checks the commits */
};

/* The server's counters at a phase boundary. */
struct pg_snap {
	double wal_bytes, wal_records, ckpt_timed, ckpt_req, buf_ckpt, buf_clean, buf_backend, db_bytes;
	double user_s, sys_s;
};

/* The key of the i-th setting (its row fills settings[i]). */
static const char *setting_key(size_t i)
{
	const size_t off = F(settings) + i * sizeof(((struct pg_conf *)0)->settings[0]);

	for (size_t d = 0; d < sizeof(pg_defs) / sizeof(pg_defs[0]); d++)
		if (pg_defs[d].offset == off)
			return pg_defs[d].name;
	return pg_setting_names[i];
}

static int pg_validate(struct job *job, struct dbio_err *err)
{
	struct pg_conf *conf = (struct pg_conf *)job->wl_conf;

	for (size_t i = 0; i < PG_NSETTINGS; i++) {
		const char *v = conf->settings[i];
		const char *key = setting_key(i);

		if (!*v || strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") !=
				   strlen(v))
			return job_fail(
				job, key, err,
				"'%s': expected a PostgreSQL value of letters, digits, '_' and '.' (such as 128MB, on, 5min)",
				v);
	}
	if (conf->pg_conninfo[0]) {
		char *msg = NULL;
		PQconninfoOption *opts = PQconninfoParse(conf->pg_conninfo, &msg);

		PQconninfoFree(opts);
		if (!opts) {
			size_t n = msg ? strcspn(msg, "\n") : 0; /* libpq's ends in a newline */
			int rc = job_fail(job, "pg_conninfo", err, "%.*s", (int)n, msg ? msg : "");

			PQfreemem(msg);
			return rc;
		}
		for (size_t i = 0; i < PG_NSETTINGS; i++)
			if (job_is_set(job, setting_key(i)))
				return job_fail(
					job, setting_key(i), err,
					"not with pg_conninfo=: the server dbio connects to keeps its own settings");
	}
	if (job->numjobs != 1)
		return job_fail(
			job, "numjobs", err,
			"%llu: workload=postgres runs one server per job: give clients= for concurrent connections",
			(unsigned long long)job->numjobs);
	if (conf->indexes > PG_MAX_INDEXES)
		return job_fail(job, "indexes", err,
				"%llu: at most %d indexes are defined (see docs/postgres.md)",
				(unsigned long long)conf->indexes, PG_MAX_INDEXES);
	if (conf->batch > conf->rows)
		conf->batch = conf->rows;
	if (job->time_based && !job->runtime_ns)
		return job_fail(job, "time_based", err,
				"needs runtime= for workload=postgres's transaction phase");
	return 0;
}

int pg_exec(struct worker *w, PGconn *conn, const char *sql)
{
	PGresult *res = PQexec(conn, sql);
	ExecStatusType st = PQresultStatus(res);
	int rc = 0;

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		char what[48];

		snprintf(what, sizeof(what), "%.40s", sql);
		atomic_store(w->job_stop, 1);
		rc = dbio_err_set(&w->err, -EIO, "postgres: %s...: %s", what, PQerrorMessage(conn));
	}
	PQclear(res);
	return rc;
}

/* The first column of the one row sql returns, as a number; -1 on error. */
static double query_num(PGconn *conn, const char *sql)
{
	PGresult *res = PQexec(conn, sql);
	double v = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 ? atof(PQgetvalue(res, 0, 0))
										 : -1;

	PQclear(res);
	return v;
}

static int snap(struct worker *w, struct pg_state *st, struct pg_snap *s)
{
	PGresult *res;
	int rc = 0;

	/* This backend's pending statistics (COPY's WAL records ...) into
	 * pg_stat_wal first: PostgreSQL flushes them at most once a second.
	 * A server older than 15 has no such function: its figures lag. */
	PQclear(PQexec(st->conn, "SELECT pg_stat_force_next_flush()"));
	res = PQexec(
		st->conn,
		"SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn, w.wal_records, b.checkpoints_timed, b.checkpoints_req, b.buffers_checkpoint, b.buffers_clean, b.buffers_backend, pg_database_size(current_database()) FROM pg_stat_wal w, pg_stat_bgwriter b");
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1 || PQnfields(res) != 8) {
		rc = dbio_err_set(&w->err, -EIO, "postgres: reading the server's statistics: %s",
				  PQerrorMessage(st->conn));
	} else {
		double *v[] = { &s->wal_bytes, &s->wal_records, &s->ckpt_timed,	 &s->ckpt_req,
				&s->buf_ckpt,  &s->buf_clean,	&s->buf_backend, &s->db_bytes };

		for (int i = 0; i < 8; i++)
			*v[i] = atof(PQgetvalue(res, 0, i));
	}
	PQclear(res);
	if (!rc && (st->remote.created || pg_server_cpu(&st->server, &s->user_s, &s->sys_s)))
		s->user_s = s->sys_s = -1; /* not known */
	return rc;
}

static void figure(struct phase *p, const char *name, double value)
{
	if (p->nfigures < PHASE_MAX_FIGURES)
		p->figures[p->nfigures++] = (struct phase_figure){ name, value };
}

/* The server's view of phase p: what changed from a to b. */
static void server_figures(struct phase *p, const struct pg_snap *a, const struct pg_snap *b)
{
	figure(p, "wal_bytes", b->wal_bytes - a->wal_bytes);
	figure(p, "wal_records", b->wal_records - a->wal_records);
	figure(p, "checkpoints_timed", b->ckpt_timed - a->ckpt_timed);
	figure(p, "checkpoints_req", b->ckpt_req - a->ckpt_req);
	figure(p, "buffers_checkpoint", b->buf_ckpt - a->buf_ckpt);
	figure(p, "buffers_clean", b->buf_clean - a->buf_clean);
	figure(p, "buffers_backend", b->buf_backend - a->buf_backend);
	figure(p, "db_bytes_before", a->db_bytes);
	figure(p, "db_bytes_after", b->db_bytes);
	if (a->user_s >= 0 && b->user_s >= 0) {
		figure(p, "server_user_s", b->user_s - a->user_s);
		figure(p, "server_sys_s", b->sys_s - a->sys_s);
	}
}

static int pg_prepare(struct worker *w)
{
	const struct pg_conf *conf = w->job->wl_conf;
	struct pg_state *st = calloc(1, sizeof(*st));
	char *settings[PG_NSETTINGS];
	int rc;

	w->priv = st;
	if (!st)
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	st->server.clusterfd = -1;
	st->server.logfd = -1;
	w->db_engine = "postgres";
	for (size_t i = 0; i < PG_NSETTINGS; i++) {
		snprintf(st->settings[i], sizeof(st->settings[i]), "%s=%s", pg_setting_names[i],
			 conf->settings[i]);
		settings[i] = st->settings_of[i] = st->settings[i];
	}
	st->durable = durable_armed();
	if (st->durable && conf->pg_conninfo[0])
		return job_fail(
			w->job, "pg_conninfo", &w->err,
			"dbio crash runs dbio's own cluster on the power-cut layer, not a server of yours: drop pg_conninfo");
	if (conf->pg_conninfo[0]) {
		if ((rc = pg_remote_open(&st->remote, conf->pg_conninfo, w->dirfd, w->dir_path, &st->conn,
					 &w->err)))
			return rc;
	} else {
		struct pg_refusal refused = { PG_NSETTINGS, "" };

		if ((rc = st->durable ? pg_durable_claim(w, &st->server)
				      : pg_server_claim(&st->server, w->dirfd, w->dir_path, &w->err)) ||
		    (rc = pg_server_initdb(&st->server, &w->err)))
			return rc;
		rc = pg_server_start(&st->server, settings, PG_NSETTINGS, &refused, &w->err);
		if (rc == DBIO_EINPUT && refused.index < PG_NSETTINGS)
			return job_fail(w->job, setting_key(refused.index), &w->err,
					"PostgreSQL refused '%s': %s", conf->settings[refused.index],
					refused.msg);
		if (rc)
			return rc;
		if (!(st->conn = pg_server_connect(&st->server, &w->err)))
			return -EIO;
		if (st->durable && (rc = pg_durable_start(w, st->conn, st->settings_of, PG_NSETTINGS)))
			return rc;
	}
	for (int t = 0; t < OP_NTYPES; t++)
		op_stats_init(&w->stats[t]);
	rng_seed(&w->rng, w->job->randseed * 0x9e3779b97f4a7c15ull + 11);
	return 0;
}

static void begin_phase(struct worker *w, const char *name, struct usage *u0)
{
	w->phases[w->nphases].name = name;
	w->phases[w->nphases].start_ns = clock_now_ns();
	usage_thread(u0);
}

/* Close the current phase (ops of it), take the server's view after it
 * into *s, its difference from *prev into the phase, and make *s the
 * next phase's start. */
static int end_phase(struct worker *w, struct pg_state *st, const struct usage *u0, uint64_t ops,
		     struct pg_snap *prev)
{
	struct phase *p = &w->phases[w->nphases];
	struct usage u1;
	struct pg_snap now;
	int rc;

	p->end_ns = clock_now_ns();
	usage_thread(&u1);
	p->usage = usage_sub(&u1, u0);
	p->ops = ops;
	w->nphases++;
	if ((rc = snap(w, st, &now)))
		return rc;
	server_figures(p, prev, &now);
	*prev = now;
	return 0;
}

/* end_phase after a phase whose work returned rc: the first error wins. */
static int finish(struct worker *w, struct pg_state *st, const struct usage *u0, uint64_t ops,
		  struct pg_snap *prev, int rc)
{
	int e = end_phase(w, st, u0, rc ? 0 : ops, prev);

	return rc ? rc : e;
}

static int schema(struct worker *w, struct pg_state *st, uint64_t *tables)
{
	static const char *const pgbench[] = {
		"CREATE TABLE pgbench_history(tid int, bid int, aid int, delta int, mtime timestamp, filler char(22))",
		"CREATE TABLE pgbench_tellers(tid int NOT NULL, bid int, tbalance int, filler char(84)) WITH (fillfactor=100)",
		"CREATE TABLE pgbench_accounts(aid int NOT NULL, bid int, abalance int, filler char(84)) WITH (fillfactor=100)",
		"CREATE TABLE pgbench_branches(bid int NOT NULL, bbalance int, filler char(88)) WITH (fillfactor=100)",
	};
	const struct pg_conf *conf = w->job->wl_conf;
	int rc = pg_exec(
		w, st->conn,
		"CREATE TABLE records(id bigint NOT NULL, customer bigint NOT NULL, created bigint NOT NULL, amount double precision CHECK (amount >= 0), status text NOT NULL, name text NOT NULL, payload text)");

	*tables = 1;
	for (size_t i = 0; !rc && (conf->transactions || w->job->runtime_ns) && i < 4; i++, ++*tables)
		rc = pg_exec(w, st->conn, pgbench[i]);
	return rc;
}

static int build_indexes(struct worker *w, struct pg_state *st)
{
	static const char *const pgbench[] = {
		"ALTER TABLE pgbench_branches ADD PRIMARY KEY (bid)",
		"ALTER TABLE pgbench_tellers ADD PRIMARY KEY (tid)",
		"ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid)",
	};
	const struct pg_conf *conf = w->job->wl_conf;
	const bool txn = conf->transactions || w->job->runtime_ns;
	uint64_t now = clock_now_ns();
	char sql[256];
	int rc = 0;

	for (uint64_t i = 0; !rc && i < 1 + conf->indexes + (txn ? 3 : 0) && !workload_stopped(w); i++) {
		if (i == 0)
			snprintf(sql, sizeof(sql), "ALTER TABLE records ADD PRIMARY KEY (id)");
		else if (i <= conf->indexes)
			snprintf(sql, sizeof(sql), "CREATE INDEX records_%llu ON records(%s)",
				 (unsigned long long)i, index_columns[i - 1]);
		else
			snprintf(sql, sizeof(sql), "%s", pgbench[i - 1 - conf->indexes]);
		if ((rc = pg_exec(w, st->conn, sql)))
			break;
		uint64_t end = clock_now_ns();

		workload_record(w, OP_INDEX, 0, end - now, end);
		now = end;
	}
	return rc;
}

/* One phase of a single SQL command (ANALYZE, CHECKPOINT), timed as it. */
static int one_command(struct worker *w, struct pg_state *st, const char *name, const char *sql,
		       struct pg_snap *prev)
{
	struct usage u0;
	int rc;

	begin_phase(w, name, &u0);
	rc = pg_exec(w, st->conn, sql);
	return finish(w, st, &u0, 1, prev, rc);
}

static int load_and_index(struct worker *w, struct pg_state *st, struct pg_snap *prev)
{
	const struct pg_conf *conf = w->job->wl_conf;
	uint64_t n = 0, m = 0;
	struct usage u0;
	int rc;

	begin_phase(w, "schema", &u0);
	rc = schema(w, st, &n);
	if ((rc = finish(w, st, &u0, n, prev, rc)))
		return rc;
	begin_phase(w, "import", &u0);
	n = 0;
	rc = pg_load_records(w, st->conn, &n);
	if (!rc && (conf->transactions || w->job->runtime_ns))
		rc = pg_load_pgbench(w, st->conn, &m);
	if ((rc = finish(w, st, &u0, n + m, prev, rc)))
		return rc;
	figure(&w->phases[w->nphases - 1], "rows", query_num(st->conn, "SELECT count(*) FROM records"));
	if (workload_stopped(w))
		return 0;
	begin_phase(w, "index", &u0);
	rc = build_indexes(w, st);
	if ((rc = finish(w, st, &u0, w->stats[OP_INDEX].lat_ns.count, prev, rc)))
		return rc;
	figure(&w->phases[w->nphases - 1], "indexes",
	       query_num(st->conn, "SELECT count(*) FROM pg_indexes WHERE tablename = 'records'"));
	return 0;
}

static int pg_run(struct worker *w)
{
	struct pg_state *st = w->priv;
	const struct pg_conf *conf = w->job->wl_conf;
	struct usage all0, all1, u0;
	struct pg_snap prev;
	int rc;

	w->start_ns = clock_now_ns();
	usage_thread(&all0);
	series_start(&w->series, w->series.interval_ns ? w->origin_ns : w->start_ns);
	rc = snap(w, st, &prev);
	if (!rc && st->durable) {
		uint64_t done = 0;

		begin_phase(w, "inserts", &u0);
		rc = finish(w, st, &u0, done, &prev, pg_durable_run(w, st->conn, &done));
		w->phases[w->nphases - 1].ops = done;
	} else if (!rc)
		rc = load_and_index(w, st, &prev);
	if (!rc && !st->durable && !workload_stopped(w))
		rc = one_command(w, st, "analyze", "ANALYZE", &prev);
	if (!rc && !st->durable && !workload_stopped(w))
		rc = one_command(w, st, "checkpoint", "CHECKPOINT", &prev);
	if (!rc && !st->durable && !workload_stopped(w) && (conf->transactions || w->job->runtime_ns)) {
		struct usage clients = { 0 };
		uint64_t done = 0;

		begin_phase(w, "transactions", &u0);
		rc = pg_transactions(w, &st->server, &st->remote, &done, &clients);
		if (!(rc = finish(w, st, &u0, done, &prev, rc))) {
			struct phase *p = &w->phases[w->nphases - 1];

			usage_add(&p->usage, &clients);
			figure(p, "history_rows",
			       query_num(st->conn, "SELECT count(*) FROM pgbench_history"));
		}
		usage_add(&w->usage, &clients);
	}
	w->end_ns = clock_now_ns();
	if (series_on(&w->series) && !w->series.manual)
		series_finish(&w->series, w->end_ns);
	usage_thread(&all1);
	all1 = usage_sub(&all1, &all0);
	usage_add(&w->usage, &all1);
	w->disk_bytes = (uint64_t)(prev.db_bytes > 0 ? prev.db_bytes : 0);
	return rc;
}

static void pg_cleanup(struct worker *w)
{
	struct pg_state *st = w->priv;

	if (!st)
		return;
	PQfinish(st->conn);
	pg_remote_close(&st->remote);
	if (st->durable)
		pg_durable_finish(w, &st->server); /* the binds undone first */
	else
		pg_server_release(&st->server);
	free(st);
	w->priv = NULL;
}

static uint64_t pg_work_items(const struct job *job)
{
	const struct pg_conf *conf = job->wl_conf;

	return conf->rows + conf->transactions * conf->clients;
}

/* As pg_run() begins them. */
static const char *const postgres_phases[] = { "schema",     "import",	     "index", "analyze",
					       "checkpoint", "transactions", NULL };

const struct workload_ops workload_postgres = {
	.name = "postgres",
	.prepare = pg_prepare,
	.run = pg_run,
	.cleanup = pg_cleanup,
	.validate = pg_validate,
	.options = &pg_options,
	.work_items = pg_work_items,
	.caps = WORKLOAD_CAP_LIBRARY_IO, /* the server does the I/O, in its own processes */
	.phases = postgres_phases,
};
#endif
