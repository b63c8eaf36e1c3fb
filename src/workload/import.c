/*
 * import: a bulk import into SQLite with an index rebuild — scenario S0's
 * "rebuild a B-tree index over a 350,000-record table" and S1's "schema
 * load plus data import". Three phases, timed apart: schema (the table and
 * its indexes), load (rows in transactions of batch rows, each row timed
 * as an insert, each commit as a commit), index (every index dropped and
 * built again, each CREATE INDEX timed as an index operation). page_size,
 * journal_mode and synchronous are SQLite's own settings.
 *
 * The table (docs/workloads.md):
 *   records(id INTEGER PRIMARY KEY, customer INTEGER, created INTEGER,
 *           amount REAL, status TEXT, name TEXT, payload BLOB)
 * and indexes=K of, in this order: customer, created, amount, status,
 * name, (customer, created).
 */
#ifdef DBIO_HAVE_SQLITE3 /* left out of a build without the library: util/built.h */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/syscalls.h"
#include "workload/workload.h"
#include "workload/workload_int.h"

#define IMPORT_MAX_INDEXES 6

static const char *const index_columns[IMPORT_MAX_INDEXES] = {
	"customer", "created", "amount", "status", "name", "customer, created",
};

static const char *const statuses[] = { "new", "paid", "shipped", "returned", "cancelled" };

/* import's own keys. */
struct import_conf {
	uint64_t rows;	  /* to load, per thread */
	uint64_t indexes; /* on the table */
	uint64_t batch;	  /* rows per transaction */
	struct opt_range value_size;
	uint64_t page_size; /* SQLite's, bytes */
	int journal_mode;   /* enum journal_mode */
	int synchronous;    /* enum synchronous */
};

enum journal_mode {
	JOURNAL_DELETE,
	JOURNAL_TRUNCATE,
	JOURNAL_PERSIST,
	JOURNAL_MEMORY,
	JOURNAL_WAL,
	JOURNAL_OFF
};
enum synchronous { SYNCHRONOUS_OFF, SYNCHRONOUS_NORMAL, SYNCHRONOUS_FULL, SYNCHRONOUS_EXTRA };

static const struct opt_enum journal_values[] = {
	{ "delete", JOURNAL_DELETE, "rollback journal, deleted at each commit" },
	{ "truncate", JOURNAL_TRUNCATE, "rollback journal, truncated at each commit" },
	{ "persist", JOURNAL_PERSIST, "rollback journal, its header zeroed at each commit" },
	{ "memory", JOURNAL_MEMORY, "rollback journal in memory" },
	{ "wal", JOURNAL_WAL, "write-ahead log" },
	{ "off", JOURNAL_OFF, "no journal" },
	{ NULL, 0, NULL },
};

static const struct opt_enum synchronous_values[] = {
	{ "off", SYNCHRONOUS_OFF, "no syncs: the kernel writes back when it likes" },
	{ "normal", SYNCHRONOUS_NORMAL, "syncs at the critical moments (fewer with WAL)" },
	{ "full", SYNCHRONOUS_FULL, "syncs so that every commit is durable" },
	{ "extra", SYNCHRONOUS_EXTRA, "full, and the journal's directory too" },
	{ NULL, 0, NULL },
};

#define F(field) offsetof(struct import_conf, field)

/* clang-format off */
static const struct option_def import_defs[] = {
	{ .name = "rows", .type = OPT_UINT, .offset = F(rows), .def = "100000", .min = 1, .max = 1000000000, .dbio_own = 1, .brief = 1,
	  .help = "rows each thread loads into its table." },
	{ .name = "indexes", .type = OPT_UINT, .offset = F(indexes), .def = "3", .min = 0, .max = 6, .dbio_own = 1, .brief = 1,
	  .help = "indexes on the table (on customer, created, amount, status, name, (customer, created), in that order); kept during the load, then dropped and built again in the index phase." },
	{ .name = "batch", .type = OPT_UINT, .offset = F(batch), .def = "1000", .min = 1, .max = 100000000, .dbio_own = 1, .brief = 1,
	  .help = "Rows per transaction of the load phase. The time series has one point per batch unless log_interval says otherwise." },
	{ .name = "value_size", .type = OPT_RANGE, .offset = F(value_size), .def = "100-400", .dbio_own = 1,
	  .help = "Bytes of the payload column of a row, one size or a range lo-hi drawn uniformly (from randseed, so runs repeat)." },
	{ .name = "page_size", .type = OPT_SIZE, .offset = F(page_size), .def = "4096", .min = 512, .max = 65536, .dbio_own = 1, .brief = 1,
	  .help = "SQLite's page size in bytes, a power of two (S0's block-size question at the engine level)." },
	{ .name = "journal_mode", .type = OPT_ENUM, .offset = F(journal_mode), .def = "delete", .values = journal_values, .dbio_own = 1, .brief = 1,
	  .help = "SQLite's journal_mode." },
	{ .name = "synchronous", .type = OPT_ENUM, .offset = F(synchronous), .def = "full", .values = synchronous_values, .dbio_own = 1, .brief = 1,
	  .help = "SQLite's synchronous setting." },
};
/* clang-format on */

static const struct option_table import_options = OPTION_TABLE(import_defs, struct import_conf);

struct import_state {
	sqlite3 *db;
	sqlite3_stmt *insert;
	char path[4096];
	char *payload;
	char msg[512];
};

static int import_validate(struct job *job, struct dbio_err *err)
{
	struct import_conf *conf = (struct import_conf *)job->wl_conf;

	if (conf->indexes > IMPORT_MAX_INDEXES)
		return job_fail(job, "indexes", err,
				"%llu: at most %d indexes are defined (see docs/workloads.md)",
				(unsigned long long)conf->indexes, IMPORT_MAX_INDEXES);
	if (conf->page_size < 512 || conf->page_size > 65536 || (conf->page_size & (conf->page_size - 1)))
		return job_fail(job, "page_size", err, "%llu: expected a power of two from 512 to 65536",
				(unsigned long long)conf->page_size);
	if (conf->batch > conf->rows)
		conf->batch = conf->rows;
	if (job->time_based)
		return job_fail(job, "time_based", err, "not for workload=import: an import runs its rows");
	return 0;
}

static int sql_fail(struct worker *w, struct import_state *st, const char *what)
{
	atomic_store(w->job_stop, 1);
	return dbio_err_set(&w->err, -EIO, "%s: sqlite %s: %s", st->path, what,
			    st->db ? sqlite3_errmsg(st->db) : "cannot open");
}

static int exec(struct import_state *st, const char *sql)
{
	return sqlite3_exec(st->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -EIO;
}

static int import_prepare(struct worker *w)
{
	const struct import_conf *conf = w->job->wl_conf;
	struct import_state *st = calloc(1, sizeof(*st));
	char pragmas[256], lib_path[64];
	struct rng fill;
	int fd, rc;

	w->priv = st;
	if (!st)
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	w->db_engine = "sqlite";
	if ((rc = workload_db_dir(w)))
		return rc;
	snprintf(st->path, sizeof(st->path), "%s/import.sqlite", w->db_dir);
	/* SQLite's journal, WAL and shm go beside it, in the private directory. */
	fd = dbio_sys->openat(w->db_dirfd, "import.sqlite",
			      O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return dbio_err_set(&w->err, errno == EEXIST ? DBIO_EUNSAFE : -errno, "%s: cannot create: %s",
				    st->path, strerror(errno));
	dbio_sys->close(fd);
	snprintf(lib_path, sizeof(lib_path), "%s/import.sqlite", w->db_lib_dir);
	snprintf(pragmas, sizeof(pragmas),
		 "PRAGMA page_size=%llu; PRAGMA journal_mode=%s; PRAGMA synchronous=%s;",
		 (unsigned long long)conf->page_size, option_enum_name(journal_values, conf->journal_mode),
		 option_enum_name(synchronous_values, conf->synchronous));
	if (workload_sqlite_vfs())
		return dbio_err_set(&w->err, -ENOSYS, "%s: sqlite: cannot register dbio's VFS", st->path);
	if (sqlite3_open_v2(lib_path, &st->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW,
			    WORKLOAD_SQLITE_VFS) != SQLITE_OK ||
	    exec(st, pragmas))
		return sql_fail(w, st, "open");
	st->payload = malloc(conf->value_size.hi);
	if (!st->payload)
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	rng_seed(&fill, worker_seed(w));
	for (uint64_t i = 0; i < conf->value_size.hi; i++)
		st->payload[i] = (char)rng_next(&fill);
	rng_seed(&w->rng, worker_seed(w) * 0x9e3779b97f4a7c15ull + 11);
	for (int t = 0; t < OP_NTYPES; t++)
		op_stats_init(&w->stats[t]);
	return 0;
}

static void begin_phase(struct worker *w, const char *name, uint64_t now, struct usage *u0)
{
	w->phases[w->nphases].name = name;
	w->phases[w->nphases].start_ns = now;
	usage_thread(u0);
}

static void end_phase(struct worker *w, uint64_t now, const struct usage *u0, uint64_t ops)
{
	struct usage u1;

	usage_thread(&u1);
	w->phases[w->nphases].end_ns = now;
	w->phases[w->nphases].usage = usage_sub(&u1, u0);
	w->phases[w->nphases].ops = ops;
	w->nphases++;
}

static int create_indexes(struct worker *w, struct import_state *st, bool timed, uint64_t *now)
{
	const struct import_conf *conf = w->job->wl_conf;
	char sql[256];

	for (uint64_t i = 0; i < conf->indexes; i++) {
		snprintf(sql, sizeof(sql), "CREATE INDEX records_%llu ON records(%s)", (unsigned long long)i,
			 index_columns[i]);
		if (exec(st, sql))
			return sql_fail(w, st, "CREATE INDEX");
		uint64_t end = clock_now_ns();

		if (timed)
			workload_record(w, OP_INDEX, 0, end - *now, end);
		*now = end;
	}
	return 0;
}

/* Insert one generated row; the row's bytes go into *bytes. */
static int insert_row(struct worker *w, struct import_state *st, uint64_t id, uint64_t *bytes)
{
	const struct import_conf *conf = w->job->wl_conf;
	char name[32];
	size_t namelen = 8 + (size_t)rng_below(&w->rng, 17);
	size_t plen = conf->value_size.lo +
		      (size_t)rng_below(&w->rng, conf->value_size.hi - conf->value_size.lo + 1);
	const char *status = statuses[rng_below(&w->rng, 5)];
	sqlite3_stmt *ins = st->insert;

	for (size_t i = 0; i < namelen; i++)
		name[i] = (char)('a' + rng_below(&w->rng, 26));
	memcpy(st->payload, &id, sizeof(id) < plen ? sizeof(id) : plen);
	sqlite3_bind_int64(ins, 1, (sqlite3_int64)id);
	sqlite3_bind_int64(ins, 2, (sqlite3_int64)rng_below(&w->rng, conf->rows / 10 + 1));
	sqlite3_bind_int64(ins, 3, (sqlite3_int64)(1700000000 + rng_below(&w->rng, 100000000)));
	sqlite3_bind_double(ins, 4, (double)rng_below(&w->rng, 10000000) / 100.0);
	sqlite3_bind_text(ins, 5, status, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins, 6, name, (int)namelen, SQLITE_STATIC);
	sqlite3_bind_blob(ins, 7, st->payload, (int)plen, SQLITE_STATIC);
	int rc = sqlite3_step(ins);

	sqlite3_reset(ins);
	*bytes += 8 + 8 + 8 + 8 + strlen(status) + namelen + plen;
	return rc == SQLITE_DONE ? 0 : -EIO;
}

static int import_run(struct worker *w)
{
	struct import_state *st = w->priv;
	const struct import_conf *conf = w->job->wl_conf;
	uint64_t now = clock_now_ns();
	struct usage u0, all0, all1;
	int rc = 0;

	w->start_ns = now;
	usage_thread(&all0);
	series_start(&w->series, w->series.interval_ns ? w->origin_ns : now);

	begin_phase(w, "schema", now, &u0);
	if (exec(st,
		 "CREATE TABLE records(id INTEGER PRIMARY KEY, customer INTEGER, created INTEGER, amount REAL, status TEXT, name TEXT, payload BLOB)") ||
	    sqlite3_prepare_v2(st->db, "INSERT INTO records VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1,
			       &st->insert, NULL) != SQLITE_OK)
		rc = sql_fail(w, st, "CREATE TABLE");
	if (!rc)
		rc = create_indexes(w, st, false, &now);
	now = clock_now_ns();
	end_phase(w, now, &u0, rc ? 0 : 1 + conf->indexes);

	begin_phase(w, "load", now, &u0);
	for (uint64_t done = 0; !rc && done < conf->rows && !workload_stopped(w);) {
		uint64_t n = conf->rows - done < conf->batch ? conf->rows - done : conf->batch, bytes = 0;
		const uint64_t batch_start = now;

		if (exec(st, "BEGIN")) {
			rc = sql_fail(w, st, "BEGIN");
			break;
		}
		for (uint64_t i = 0; i < n && !rc; i++) {
			uint64_t before = bytes;

			if (insert_row(w, st, done + i + 1, &bytes)) {
				rc = sql_fail(w, st, "INSERT");
				break;
			}
			uint64_t end = clock_now_ns();

			workload_record(w, OP_INSERT, bytes - before, end - now, end);
			now = end;
		}
		if (rc || exec(st, "COMMIT")) {
			rc = rc ? rc : sql_fail(w, st, "COMMIT");
			break;
		}
		uint64_t end = clock_now_ns();

		workload_record(w, OP_COMMIT, 0, end - now, end);
		workload_record(w, OP_BATCH, bytes, end - batch_start, end);
		if (w->series.manual)
			series_close(&w->series, end, end - batch_start);
		now = end;
		done += n;
		atomic_store_explicit(&w->progress_ops, done, memory_order_relaxed);
	}
	end_phase(w, now, &u0, w->stats[OP_INSERT].lat_ns.count);

	if (!rc && conf->indexes && !workload_stopped(w)) {
		char sql[64];

		begin_phase(w, "index", now, &u0);
		for (uint64_t i = 0; i < conf->indexes && !rc; i++) {
			snprintf(sql, sizeof(sql), "DROP INDEX records_%llu", (unsigned long long)i);
			if (exec(st, sql))
				rc = sql_fail(w, st, "DROP INDEX");
		}
		now = clock_now_ns();
		if (!rc)
			rc = create_indexes(w, st, true, &now);
		end_phase(w, now, &u0, w->stats[OP_INDEX].lat_ns.count);
	}
	if (series_on(&w->series) && !w->series.manual)
		series_finish(&w->series, now);
	w->end_ns = now;
	usage_thread(&all1);
	w->usage = usage_sub(&all1, &all0);
	sqlite3_finalize(st->insert);
	st->insert = NULL;
	sqlite3_close(st->db);
	st->db = NULL;
	w->disk_bytes = workload_disk_bytes(w);
	return rc;
}

static void import_cleanup(struct worker *w)
{
	struct import_state *st = w->priv;

	if (!st)
		return;
	sqlite3_finalize(st->insert);
	sqlite3_close(st->db);
	free(st->payload);
	free(st);
	w->priv = NULL;
	workload_db_dir_close(w);
}

static uint64_t import_work_items(const struct job *job)
{
	return ((const struct import_conf *)job->wl_conf)->rows;
}

static uint64_t import_series_points(const struct job *job)
{
	const struct import_conf *conf = job->wl_conf;

	return conf->rows / conf->batch;
}

/* As import_run() begins them. */
static const char *const import_phases[] = { "schema", "load", "index", NULL };

const struct workload_ops workload_import = {
	.name = "import",
	.caps = WORKLOAD_CAP_LIBRARY_IO,
	.prepare = import_prepare,
	.run = import_run,
	.cleanup = import_cleanup,
	.validate = import_validate,
	.options = &import_options,
	.work_items = import_work_items,
	.series_points = import_series_points,
	.phases = import_phases,
};
#endif
