/*
 * workload=postgres with pg_conninfo=: a server the user already has
 * instead of a private cluster. dbio connects with the user's connection
 * string (to its database, the maintenance one), creates a database of
 * its own with a name no one else has (dbio_<pid>_<random>, CREATE
 * DATABASE fails rather than reuse one), runs every phase in it, and
 * drops it at the end, also after an error or a signal; it never drops
 * or writes any other database. Its server's settings are the server's:
 * the setting keys are refused with pg_conninfo (postgres.c).
 */
#ifdef DBIO_HAVE_LIBPQ
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "workload/postgres_int.h"

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

int pg_remote_open(struct pg_remote *r, const char *conninfo, PGconn **conn, struct dbio_err *err)
{
	char sql[128];
	PGresult *res;

	r->conninfo = conninfo;
	if (!(r->admin = connect_to(conninfo, NULL, err)))
		return -EIO;
	snprintf(r->dbname, sizeof(r->dbname), "dbio_%d_%llx", (int)getpid(),
		 (unsigned long long)(clock_now_ns() & 0xffffffffffull));
	snprintf(sql, sizeof(sql), "CREATE DATABASE %s", r->dbname);
	res = PQexec(r->admin, sql);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		dbio_err_set(err, -EIO, "pg_conninfo: %s: %s", sql, PQerrorMessage(r->admin));
		r->dbname[0] = '\0'; /* not ours: never dropped */
		PQclear(res);
		return -EIO;
	}
	PQclear(res);
	r->created = true;
	if (!(*conn = connect_to(conninfo, r->dbname, err)))
		return -EIO;
	return 0;
}

void pg_remote_close(struct pg_remote *r)
{
	char sql[128];

	if (r->admin && r->created) {
		snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s WITH (FORCE)", r->dbname);
		PQclear(PQexec(r->admin, sql));
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
