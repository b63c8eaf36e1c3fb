/*
 * Private to workload=postgres (postgres.c, postgres_server.c,
 * postgres_leftover.c, postgres_remote.c,
 * postgres_load.c, postgres_txn.c): its keys, the private cluster's
 * lifecycle and the phases' shared helpers. See docs/postgres.md.
 *
 * The cluster: <target>/dbio.postgres-<pid>/ (marked trusted.dbio.kept =
 * "postgres", owned by the postgres user when dbio runs as root) holds
 * data/ (PGDATA, its WAL in data/pg_wal), the server's Unix socket and
 * server.log. No TCP port: listen_addresses=''.
 */
#ifndef DBIO_WORKLOAD_POSTGRES_INT_H
#define DBIO_WORKLOAD_POSTGRES_INT_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/err.h"
#include "workload/workload.h"

#define PG_MARK	       "postgres"
#define PG_NAME_PREFIX "dbio.postgres-"
#define PG_MAX_INDEXES 6
#define PG_NSETTINGS   9

/* workload=postgres's own keys (postgres.c's table). */
struct pg_conf {
	uint64_t rows;	       /* records imported */
	uint64_t indexes;      /* secondary indexes on records */
	uint64_t batch;	       /* rows per COPY (one transaction each) */
	uint64_t scale;	       /* pgbench's scale: 100000 accounts each */
	uint64_t clients;      /* connections of the transaction phase */
	uint64_t transactions; /* per client; 0: no transaction phase (unless runtime) */
	/* PostgreSQL's settings, passed as -c name=value; PG_NSETTINGS of them,
	 * in this order (pg_setting_names). */
	char settings[PG_NSETTINGS][32];
	char pg_conninfo[512]; /* a server the user has; "": dbio's own cluster */
};

extern const char *const pg_setting_names[PG_NSETTINGS];

/* The private cluster and its server. */
struct pg_server {
	int dirfd;	 /* the target directory (the worker's; not owned) */
	int clusterfd;	 /* <target>/dbio.postgres-<pid>, -1 until made */
	char name[64];	 /* dbio.postgres-<pid> */
	char path[4096]; /* its full path */
	char bindir[256];
	uid_t uid; /* the server's user */
	gid_t gid;
	bool drop; /* dbio runs as root: the programs run as uid/gid */
	int logfd; /* server.log, the programs' output */
	pid_t pid; /* the postmaster (dbio's child), 0 when not running */
};

/*
 * Make the cluster directory in dirfd (the target, dir_path for
 * messages): first remove a cluster a killed dbio left there (its mark
 * read, its dbio gone, its server stopped), refuse one a running dbio
 * uses; then find initdb and the postgres user, make the directory 0700
 * with O_NOFOLLOW semantics, mark it and give it to that user. 0,
 * DBIO_EINPUT (no PostgreSQL, no user), DBIO_EUNSAFE, or -errno.
 */
int pg_server_claim(struct pg_server *s, int dirfd, const char *dir_path, struct dbio_err *err);

/* Remove the clusters killed dbios left in s->dirfd (postgres_leftover.c):
 * a live dbio's is refused (DBIO_EINPUT), an unmarked one or a symlink
 * too; a marked one of a dbio gone has its server stopped when /proc
 * proves the pid its postmaster.pid names to be that data directory's
 * postmaster (else the pid is left alone, with a warning), and is removed
 * unless a process still works in its data directory (then kept, with a
 * warning). 0, DBIO_EINPUT, or -errno. */
int pg_leftovers_remove(struct pg_server *s, const char *dir_path, struct dbio_err *err);

/* A warning line on stderr, "dbio: warning: <msg>" (a worker has no
 * warning channel of the runner's). */
void pg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Is pid a running dbio (its /proc/<pid>/comm)? */
bool pg_is_dbio(pid_t pid);

/* initdb into <cluster>/data (superuser postgres, trust over the socket
 * only). 0 or -EIO with initdb's last lines in err. */
int pg_server_initdb(struct pg_server *s, struct dbio_err *err);

/* A setting the server refused at its start: which of the settings, and
 * PostgreSQL's own FATAL line (from its message on). */
struct pg_refusal {
	size_t index;
	char msg[512];
};

/* Start the postmaster with the settings (n "name=value" strings) and
 * wait until it accepts connections. 0; DBIO_EINPUT when the server
 * ended at its start with a FATAL line that names one of the settings
 * (or a HINT right after it that does): *refused filled, err untouched,
 * for the caller to name the job's key; -EIO with that FATAL line (or the
 * log's tail) in err otherwise. */
int pg_server_start(struct pg_server *s, char *const *settings, size_t n, struct pg_refusal *refused,
		    struct dbio_err *err);

/* Stop the server (fast shutdown, then immediate; immediate at once when
 * asked) and leave the cluster; stop it and remove the cluster; both
 * safe to call on a half-made one. */
void pg_server_stop(struct pg_server *s, bool immediate);
void pg_server_release(struct pg_server *s);

/* Connect to the private server's database postgres; NULL on failure with
 * libpq's message in err. */
PGconn *pg_server_connect(const struct pg_server *s, struct dbio_err *err);

/* CPU the server used so far (the postmaster, the children it reaped and
 * the live ones), seconds. 0 or -errno. */
int pg_server_cpu(const struct pg_server *s, double *user_s, double *sys_s);

/* dbio crash (postgres_durable.c): the cluster made beside the layer
 * (in the job's directory as given, where the server's socket can be),
 * its data directory the layer's mount bound into it, a second cluster
 * directory check/ for a server on each crash state; the table the run
 * fills, the layer settled; the run: rows inserts, each its own
 * transaction, each commit that returned an acknowledgement, each crash
 * state checked by a server started on it; the findings into the
 * worker's result, the binds undone and the cluster released. 0 or the
 * error in w->err. */
int pg_durable_claim(struct worker *w, struct pg_server *s);
int pg_durable_start(struct worker *w, PGconn *conn, char *const *settings, size_t n);
int pg_durable_run(struct worker *w, PGconn *conn, uint64_t *done);
void pg_durable_finish(struct worker *w, struct pg_server *s);

/* Pure helpers of postgres_server.c, for its unit test. */

/* postgres_proc.c: what the server's lifecycle and the leftovers' cleanup
 * share. Remove everything in the cluster directory fd (16 levels at most)
 * through fd, following no symlink, and name in parentfd only while it
 * still is fd's directory (path names it in messages). 0, or DBIO_EUNSAFE
 * (name is something else now: left alone) or -errno with err set. */
int pg_remove_tree(int parentfd, const char *name, int fd, const char *path, struct dbio_err *err);

/* In log (server.log's last lines), the first FATAL line's message, past
 * log_line_prefix and the severity ("invalid value for parameter ..."),
 * cut at its end in place; NULL when there is none. *which: the index of
 * the first of the n setting names it quotes ("max_wal_size"), else of
 * one the HINT line right after it names as a word ("reducing
 * shared_buffers"), else n. */
const char *pg_refused_setting(char *log, const char *const *names, size_t n, size_t *which);

/* postgres_proc.c: the text of /proc/<pid>/stat into buf (len bytes, NUL-terminated). 0 or
 * -errno. */
int pg_proc_stat_read(pid_t pid, char *buf, size_t len);

/* ppid and utime, stime, cutime, cstime (clock ticks) from the text of a
 * /proc/<pid>/stat. 0 or -EINVAL. */
int pg_proc_stat_parse(const char *buf, unsigned long long t[4], int *ppid);

/* pg_conninfo=: dbio's own database on the user's server
 * (postgres_remote.c). */
struct pg_remote {
	const char *conninfo; /* the job's */
	PGconn *admin;	      /* to the conninfo's own database */
	char dbname[64];      /* dbio_<pid>_<hex>: the one database dbio made */
	bool created;
	int dirfd;	      /* the target (not owned), where the record is */
	const char *dir_path; /* its path, for messages */
	char record[64];      /* dbio.pgdb-<pid>: the record of dbname; "" when none */
};

/* Connect; drop the databases killed dbios recorded in the target (dirfd,
 * dir_path) and name in a warning the others named like dbio's whose dbio
 * is not running; record, create and comment dbio's database and connect
 * *conn to it. 0, -EIO (libpq's or PostgreSQL's message in err), or the
 * record's -errno / DBIO_EUNSAFE. */
int pg_remote_open(struct pg_remote *r, const char *conninfo, int dirfd, const char *dir_path, PGconn **conn,
		   struct dbio_err *err);

/* Drop dbio's database (only it, only when dbio made it), then its record,
 * and disconnect. */
void pg_remote_close(struct pg_remote *r);

/* A new connection to the database the phases use: dbio's on the user's
 * server when r->created, else the private server's. */
PGconn *pg_connect(const struct pg_server *s, const struct pg_remote *r, struct dbio_err *err);

/* The phases' helpers (postgres.c). */
struct pg_state;

/* Run one SQL command on conn; 0 or -EIO with PostgreSQL's message. */
int pg_exec(struct worker *w, PGconn *conn, const char *sql);

/* The import phase's COPY of the records table and, for the transaction
 * phase, pgbench's tables (postgres_load.c); *rows: rows copied. */
int pg_load_records(struct worker *w, PGconn *conn, uint64_t *rows);
int pg_load_pgbench(struct worker *w, PGconn *conn, uint64_t *rows);

/* The TPC-B-like transactions of pgbench's default script from clients
 * connections, one thread each (postgres_txn.c): each transaction timed
 * into w->stats[OP_TXN], its COMMIT into OP_COMMIT; *done: committed,
 * *clients: the client threads' resource use. */
int pg_transactions(struct worker *w, const struct pg_server *s, const struct pg_remote *r, uint64_t *done,
		    struct usage *clients);

#endif
