/*
 * workload=postgres with pg_conninfo=: a server the user already has
 * instead of a private cluster. dbio connects with the user's connection
 * string (to its database, the maintenance one), creates a database of
 * its own with a name no one else has (dbio_<pid>_<random>, CREATE
 * DATABASE fails rather than reuse one), runs every phase in it, and
 * drops it at the end, also after an error or a signal; it never drops
 * or writes any other database. Its server's settings are the server's:
 * the setting keys are refused with pg_conninfo (postgres.c).
 *
 * A SIGKILLed dbio cannot drop its database, so each one is recorded
 * before it is made: a file <target>/dbio.pgdb-<pid> (O_EXCL, 0600,
 * marked trusted.dbio.kept = postgres-db, which only root can set)
 * holding the database's name and a random token, which also goes into
 * the database's comment (COMMENT ON DATABASE, "dbio <token>"). A later
 * run in the same target drops a database named like dbio's only when
 * its dbio is gone and the marked record there names it with the token
 * its comment holds; every other database named like dbio's whose pid is
 * not a running dbio (another directory's, another machine's, one made
 * by hand) is left alone and named in a warning with the command that
 * drops it.
 */
#ifdef DBIO_HAVE_LIBPQ
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/mark.h"
#include "workload/postgres_int.h"

#define PG_DB_RECORD "dbio.pgdb-"
#define PG_DB_MARK   "postgres-db"

/* Connect with conninfo, its database replaced by dbname when not NULL. */
static PGconn *connect_to(const char *conninfo, const char *dbname, struct dbio_err *err)
{
	const char *const keys[] = { "dbname", "dbname", "application_name", NULL };
	const char *const values[] = { conninfo, dbname, "dbio", NULL };
	PGconn *conn = PQconnectdbParams(keys, values, 1);

	if (conn && PQstatus(conn) == CONNECTION_OK)
		return conn;
	dbio_err_set(err, -EIO, "pg_conninfo: cannot connect%s%s: %s", dbname ? " to " : "",
		     dbname ? dbname : "", conn ? PQerrorMessage(conn) : "out of memory");
	PQfinish(conn);
	return NULL;
}

/* Is name dbio_<digits>_<hex>, a name dbio gives (and so a safe
 * identifier)? */
static bool dbio_named(const char *name)
{
	const char *p = name + strlen("dbio_");
	size_t digits = strspn(p, "0123456789");

	return !strncmp(name, "dbio_", 5) && digits && p[digits] == '_' && p[digits + 1] &&
	       strspn(p + digits + 1, "0123456789abcdef") == strlen(p + digits + 1) && strlen(name) < 64;
}

/* The record named name in dirfd: a regular file with one link carrying
 * dbio's mark, "<dbname> <token>". 0 or -errno / -ENODATA. */
static int record_read(int dirfd, const char *name, char dbname[64], char token[40])
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	char buf[128];
	struct stat st;
	ssize_t n;
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1 || mark_check(fd, PG_DB_MARK))
		rc = -ENODATA;
	n = rc ? 0 : read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	if (!rc && sscanf(buf, "%63s %39s", dbname, token) != 2)
		rc = -ENODATA;
	return rc;
}

/* One database named like dbio's on the server, its comment: dropped when
 * provably a killed dbio's from this target, else named in a warning
 * (nothing when its dbio runs). */
static void leftover_db(struct pg_remote *r, const char *name, const char *comment)
{
	const long pid = atol(name + strlen("dbio_"));
	char record[64], dbname[64], token[40], sql[128];
	PGresult *res;

	if (pid > 0 && pid <= 0x7fffffff && (!kill((pid_t)pid, 0) || errno == EPERM) &&
	    pg_is_dbio((pid_t)pid))
		return;
	snprintf(record, sizeof(record), PG_DB_RECORD "%ld", pid);
	if (record_read(r->dirfd, record, dbname, token) || strcmp(dbname, name) ||
	    strncmp(comment, "dbio ", 5) || strcmp(comment + 5, token)) {
		pg_warn("pg_conninfo: database %s: named like dbio's but not provably a killed dbio's (no record in %s with the token of its comment): left alone; if its dbio is gone, drop it with: DROP DATABASE %s WITH (FORCE)",
			name, r->dir_path, name);
		return;
	}
	snprintf(sql, sizeof(sql), "DROP DATABASE %s WITH (FORCE)", name);
	res = PQexec(r->admin, sql);
	if (PQresultStatus(res) == PGRES_COMMAND_OK) {
		unlinkat(r->dirfd, record, 0);
		pg_warn("pg_conninfo: database %s: dropped, the database of a killed dbio (pid %ld) recorded in %s/%s",
			name, pid, r->dir_path, record);
	} else {
		pg_warn("pg_conninfo: database %s: cannot drop the database of a killed dbio: %.*s", name,
			(int)strcspn(PQerrorMessage(r->admin), "\n"), PQerrorMessage(r->admin));
	}
	PQclear(res);
}

static void leftover_dbs(struct pg_remote *r)
{
	PGresult *res = PQexec(
		r->admin,
		"SELECT d.datname, coalesce(shobj_description(d.oid, 'pg_database'), '') FROM pg_database d WHERE d.datname ~ '^dbio_[0-9]+_[0-9a-f]+$' ORDER BY 1");

	for (int i = 0; PQresultStatus(res) == PGRES_TUPLES_OK && i < PQntuples(res); i++)
		if (dbio_named(PQgetvalue(res, i, 0)))
			leftover_db(r, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1));
	PQclear(res);
}

/* Record dbname and token in <target>/dbio.pgdb-<pid> before the database
 * is made; a marked record of an earlier process of this pid (gone, as
 * this pid is ours) is replaced. */
static int record_write(struct pg_remote *r, const char *token, struct dbio_err *err)
{
	const int flags = O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC;
	char line[128], dbname[64], old[40];
	int fd, e, rc, len = snprintf(line, sizeof(line), "%s %s\n", r->dbname, token);

	snprintf(r->record, sizeof(r->record), PG_DB_RECORD "%d", (int)getpid());
	fd = openat(r->dirfd, r->record, flags, 0600);
	e = errno;
	if (fd < 0 && e == EEXIST && !record_read(r->dirfd, r->record, dbname, old) &&
	    !unlinkat(r->dirfd, r->record, 0)) {
		fd = openat(r->dirfd, r->record, flags, 0600);
		e = errno;
	}
	if (fd < 0) {
		rc = dbio_err_set(err, e == EEXIST ? DBIO_EUNSAFE : -e,
				  "%s/%s: cannot record dbio's database: %s", r->dir_path, r->record,
				  e == EEXIST ? "a file that is not dbio's record is there: remove it by hand"
					      : strerror(e));
		r->record[0] = '\0';
		return rc;
	}
	rc = mark_set(fd, PG_DB_MARK);
	if (rc == -EOPNOTSUPP || rc == -EPERM)
		rc = 0; /* unmarked: a later run only names the database */
	if (!rc && write(fd, line, (size_t)len) != len)
		rc = -EIO;
	close(fd);
	if (rc) {
		unlinkat(r->dirfd, r->record, 0);
		dbio_err_set(err, rc, "%s/%s: cannot record dbio's database: %s", r->dir_path, r->record,
			     strerror(-rc));
		r->record[0] = '\0';
	}
	return rc;
}

/* Run sql on r->admin; 0 or -EIO with PostgreSQL's message. */
static int admin_exec(struct pg_remote *r, const char *sql, struct dbio_err *err)
{
	PGresult *res = PQexec(r->admin, sql);
	int rc = PQresultStatus(res) == PGRES_COMMAND_OK
			 ? 0
			 : dbio_err_set(err, -EIO, "pg_conninfo: %s: %s", sql, PQerrorMessage(r->admin));

	PQclear(res);
	return rc;
}

int pg_remote_open(struct pg_remote *r, const char *conninfo, int dirfd, const char *dir_path, PGconn **conn,
		   struct dbio_err *err)
{
	unsigned char raw[16];
	char token[40], sql[160];
	int rc;

	r->conninfo = conninfo;
	r->dirfd = dirfd;
	r->dir_path = dir_path;
	if (!(r->admin = connect_to(conninfo, NULL, err)))
		return -EIO;
	leftover_dbs(r);
	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
		return dbio_err_set(err, -errno, "pg_conninfo: no random token: %s", strerror(errno));
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(token + 2 * i, 3, "%02x", raw[i]);
	snprintf(r->dbname, sizeof(r->dbname), "dbio_%d_%.10s", (int)getpid(), token + 22);
	if ((rc = record_write(r, token, err)))
		return rc;
	snprintf(sql, sizeof(sql), "CREATE DATABASE %s", r->dbname);
	if ((rc = admin_exec(r, sql, err))) {
		r->dbname[0] = '\0'; /* not ours: never dropped */
		unlinkat(r->dirfd, r->record, 0);
		r->record[0] = '\0';
		return rc;
	}
	r->created = true;
	snprintf(sql, sizeof(sql), "COMMENT ON DATABASE %s IS 'dbio %s'", r->dbname, token);
	if ((rc = admin_exec(r, sql, err)))
		return rc;
	if (!(*conn = connect_to(conninfo, r->dbname, err)))
		return -EIO;
	return 0;
}

void pg_remote_close(struct pg_remote *r)
{
	char sql[128];

	if (r->admin && r->created) {
		PGresult *res;

		snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s WITH (FORCE)", r->dbname);
		res = PQexec(r->admin, sql);
		/* Dropped: its record goes; else the record stays for a
		 * later run to drop it. */
		if (PQresultStatus(res) == PGRES_COMMAND_OK && r->record[0])
			unlinkat(r->dirfd, r->record, 0);
		PQclear(res);
		r->created = false;
	}
	PQfinish(r->admin);
	r->admin = NULL;
}

PGconn *pg_connect(const struct pg_server *s, const struct pg_remote *r, struct dbio_err *err)
{
	return r->created ? connect_to(r->conninfo, r->dbname, err) : pg_server_connect(s, err);
}
#endif
