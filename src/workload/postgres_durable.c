/*
 * dbio crash --workload=postgres (issue 28): the server on the power-cut
 * layer, its commits the acknowledgements, and at each crash state a
 * second server started on the cut so that it replays its WAL, asked for
 * every acknowledged row.
 *
 * The user postgres cannot reach the layer's mount by its path (it is in
 * a 0700 directory of root's), and the layer has no Unix sockets. So the
 * cluster directory is made beside the layer, in the job's directory as
 * given (pg_server_claim: marked, the user postgres's, its socket and
 * server.log there), and its data/ is the layer's mount root, bound there
 * in dbio's own mount namespace (the layer's: no other process sees the
 * bind). A crash state is bound the same way on check/data, the pid file
 * of the server that made it removed (after a power cut that pid is no
 * process: the server would take it for one that still runs).
 */
#ifdef DBIO_HAVE_LIBPQ
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/checksum.h"
#include "util/clock.h"
#include "workload/durable.h"
#include "workload/postgres_int.h"
#include "workload/workload_int.h"

/* One job, one thread: a process checks one run at a time. */
static struct {
	struct durable_checker c;
	struct pg_server check; /* the server on a crash state, in check/ */
	char data[4200];	/* <cluster>/data: the layer's mount bound */
	char check_data[4200];	/* <cluster>/check/data: the crash state bound */
	char cut[4200];		/* the layer's cut, by its path (below) */
	bool data_bound;
	int outer_fd; /* the job's directory, opened in the layer's namespace */
	char *const *settings;
	size_t nsettings;
	uint64_t rows, acked_n, done;
	uint8_t *acked, *chosen;
} pd = { .c = { .lock = PTHREAD_MUTEX_INITIALIZER }, .outer_fd = -1 };

/* Bind from (a path of root's, in the layer's 0700 directory; fromfd
 * when NULL) onto the directory fd onto (by its fd: the
 * user postgres owns the directory it is in). */
static int bind_fd(const char *from, int fromfd, int onto)
{
	char src[64], dst[64];

	snprintf(src, sizeof(src), "/proc/self/fd/%d", fromfd);
	snprintf(dst, sizeof(dst), "/proc/self/fd/%d", onto);
	return mount(from ? from : src, dst, NULL, MS_BIND, NULL) < 0 ? -errno : 0;
}

/* A directory name in parent, 0700, the server's user's: its fd. */
static int own_dir(const struct pg_server *s, int parent, const char *name)
{
	int fd;

	if (mkdirat(parent, name, 0700) < 0)
		return -errno;
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (s->drop && fchown(fd, s->uid, s->gid) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

/* check/ for the server on a crash state: its own socket, log, data/. */
static int make_check(struct worker *w, const struct pg_server *s)
{
	int fd, dfd;

	pd.check = *s;
	pd.check.pid = 0;
	snprintf(pd.check.path, sizeof(pd.check.path), "%s/check", s->path);
	snprintf(pd.check_data, sizeof(pd.check_data), "%s/data", pd.check.path);
	if ((fd = own_dir(s, s->clusterfd, "check")) < 0 || (dfd = own_dir(s, fd, "data")) < 0)
		return dbio_err_set(&w->err, fd < 0 ? fd : dfd, "%s: cannot make it: %s", pd.check_data,
				    strerror(-(fd < 0 ? fd : dfd)));
	close(dfd);
	pd.check.clusterfd = fd;
	pd.check.logfd = openat(fd, "server.log",
				O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_APPEND | O_CLOEXEC, 0600);
	if (pd.check.logfd < 0 || (s->drop && fchown(pd.check.logfd, s->uid, s->gid) < 0))
		return dbio_err_set(&w->err, -errno, "%s/server.log: cannot create: %s", pd.check.path,
				    strerror(errno));
	return 0;
}

int pg_durable_claim(struct worker *w, struct pg_server *s)
{
	const struct durable_probe *p = durable_probe();
	char self[64], outer[4096];
	struct stat now, then;
	ssize_t n;
	int rc, dfd;

	pd.check.clusterfd = pd.check.logfd = pd.check.pid = -1;
	pd.check.pid = 0;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", p->outer_fd);
	if ((n = readlink(self, outer, sizeof(outer) - 1)) < 0)
		return dbio_err_set(&w->err, -errno, "crash: the layer's directory: %s", strerror(errno));
	outer[n] = '\0';
	/* The job's directory again, by its path in this mount namespace
	 * (the layer's): a mount onto a directory reached from an fd opened
	 * before the namespace was made is refused (EINVAL). The same
	 * directory, or nothing. */
	pd.outer_fd = open(outer, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pd.outer_fd < 0 || fstat(pd.outer_fd, &now) < 0 || fstat(p->outer_fd, &then) < 0 ||
	    now.st_dev != then.st_dev || now.st_ino != then.st_ino)
		return dbio_err_set(&w->err, DBIO_EUNSAFE, "crash: %s: replaced while dbio ran: refusing it",
				    outer);
	if ((rc = pg_server_claim(s, pd.outer_fd, outer, &w->err)))
		return rc;
	/* The cut beside the mount, in the layer's 0700 directory of root's,
	 * bound by its path: its fd was opened from one of the namespace
	 * before. */
	n = (ssize_t)strlen(p->root);
	if (n < 4 || strcmp(p->root + n - 4, "/mnt"))
		return dbio_err_set(&w->err, -EINVAL, "crash: %s: not the layer's mount", p->root);
	snprintf(pd.cut, sizeof(pd.cut), "%.*s/cut", (int)(n - 4), p->root);
	snprintf(pd.data, sizeof(pd.data), "%s/data", s->path);
	/* The mount's root the server's, then bound on data/: the only
	 * path to the layer the user postgres has. */
	if ((dfd = own_dir(s, s->clusterfd, "data")) < 0)
		return dbio_err_set(&w->err, dfd, "%s: cannot make it: %s", pd.data, strerror(-dfd));
	rc = s->drop && fchown(w->dirfd, s->uid, s->gid) < 0 ? -errno : bind_fd(p->root, -1, dfd);
	close(dfd);
	if (rc)
		return dbio_err_set(&w->err, rc,
				    "crash: cannot give the layer's mount to the server at %s: %s", pd.data,
				    strerror(-rc));
	pd.data_bound = true;
	return make_check(w, s);
}

/* The value of row k: its key and a checksum of it, so that a row found
 * with another value is told from a lost one. */
static void value_of(uint64_t k, char *buf, size_t len)
{
	char key[32];
	int n = snprintf(key, sizeof(key), "%" PRIu64, k);

	snprintf(buf, len, "dbio-%" PRIu64 "-%08x", k, csum_crc32c(0, key, (size_t)n));
}

static void note_lost(uint64_t k, const char *cut, const char *why)
{
	durable_tally_first(&pd.c.t, k, k + 1, cut, why);
}

/* Everything acknowledged lost: the state did not open (why). */
static uint64_t lost_all(const char *cut, const char *why)
{
	pd.c.t.not_opened++;
	for (uint64_t k = 0; k < pd.rows; k++)
		if (pd.acked[k]) {
			note_lost(k, cut, why);
			break;
		}
	return pd.acked_n;
}

/* The rows of the server on the state: the acknowledged ones missing or
 * with another value. */
static uint64_t judge(PGconn *conn, const char *cut)
{
	PGresult *res = PQexec(conn, "SELECT k, v FROM acks");
	uint8_t *found = calloc(pd.rows ? pd.rows : 1, 1);
	char want[64], why[160];
	uint64_t lost = 0;

	if (!found || PQresultStatus(res) != PGRES_TUPLES_OK) {
		snprintf(why, sizeof(why), "reading the table: %s",
			 found ? PQerrorMessage(conn) : "out of memory");
		PQclear(res);
		free(found);
		return lost_all(cut, why);
	}
	for (int i = 0; i < PQntuples(res); i++) {
		uint64_t k = strtoull(PQgetvalue(res, i, 0), NULL, 10);

		if (k >= pd.rows)
			continue;
		value_of(k, want, sizeof(want));
		if (!strcmp(PQgetvalue(res, i, 1), want))
			found[k] = 1;
		else
			pd.c.t.torn++;
	}
	PQclear(res);
	for (uint64_t k = 0; k < pd.rows; k++)
		if (pd.acked[k] && !found[k]) {
			lost++;
			note_lost(k, cut, "missing");
		}
	free(found);
	return lost;
}

/* The server started on the crash state bound on check/data; its rows
 * judged; stopped at once (what it writes is the cut's, removed next). */
static uint64_t open_judge(const char *cut)
{
	struct pg_refusal refused = { pd.nsettings, "" };
	struct dbio_err err = { 0 };
	PGconn *conn;
	uint64_t lost;

	if (pg_server_start(&pd.check, pd.settings, pd.nsettings, &refused, &err))
		lost = lost_all(cut, err.msg[0] ? err.msg : refused.msg);
	else if (!(conn = pg_server_connect(&pd.check, &err)))
		lost = lost_all(cut, err.msg);
	else {
		lost = judge(conn, cut);
		PQfinish(conn);
	}
	pg_server_stop(&pd.check, true);
	return lost;
}

/* One crash state: cut, bind, start, judge. Under pd.c.lock. */
static void check(const char *cut)
{
	const struct durable_probe *p = pd.c.probe;
	int cutfd, dfd, rc = p->cut(p->arg, &cutfd);
	uint64_t lost;

	if (rc < 0) {
		snprintf(pd.c.t.first_why, sizeof(pd.c.t.first_why), "the cut failed: %s", strerror(-rc));
		return;
	}
	if (unlinkat(cutfd, "postmaster.pid", 0) < 0 && errno != ENOENT)
		rc = -errno;
	dfd = openat(pd.check.clusterfd, "data", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rc == 0)
		rc = dfd < 0 ? -errno : bind_fd(pd.cut, cutfd, dfd);
	if (dfd >= 0)
		close(dfd);
	if (rc < 0) {
		snprintf(pd.c.t.first_why, sizeof(pd.c.t.first_why), "the crash state for its server: %s",
			 strerror(-rc));
		close(cutfd);
		return;
	}
	lost = open_judge(cut);
	umount2(pd.check_data, MNT_DETACH | UMOUNT_NOFOLLOW);
	close(cutfd);
	durable_checker_fault(&pd.c, lost);
	durable_tally_state(&pd.c.t, lost);
}

static void pd_point(unsigned long n)
{
	durable_checker_point(&pd.c, n);
}

/* "postgres fsync=on synchronous_commit=on ..." of the settings that
 * decide what a commit makes durable. */
static void setting_of(char *const *settings, size_t n, char *buf, size_t len)
{
	static const char *const which[] = { "fsync=", "synchronous_commit=", "wal_sync_method=",
					     "full_page_writes=" };
	size_t at = (size_t)snprintf(buf, len, "postgres");

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < sizeof(which) / sizeof(which[0]); j++)
			if (!strncmp(settings[i], which[j], strlen(which[j])) && at < len)
				at += (size_t)snprintf(buf + at, len - at, " %s", settings[i]);
}

int pg_durable_start(struct worker *w, PGconn *conn, char *const *settings, size_t n)
{
	const struct pg_conf *conf = w->job->wl_conf;
	const struct durable_probe *p = durable_probe();
	int rc;

	PGresult *res = PQexec(conn, "CREATE TABLE acks(k bigint PRIMARY KEY, v text NOT NULL)");

	rc = PQresultStatus(res) == PGRES_COMMAND_OK
		     ? 0
		     : dbio_err_set(&w->err, -EIO, "crash: postgres: making the table acks: %s",
				    PQerrorMessage(conn));
	PQclear(res);
	if (rc)
		return rc;
	pthread_mutex_lock(&pd.c.lock);
	memset(&pd.c.t, 0, sizeof(pd.c.t));
	pd.c.probe = p;
	pd.c.check = check;
	pd.settings = settings;
	pd.nsettings = n;
	pd.rows = conf->rows;
	pd.acked_n = pd.done = 0;
	pd.acked = calloc(pd.rows, 1);
	pd.chosen = durable_choose(pd.rows, p->acks, p->seed);
	pd.c.t.on = true;
	snprintf(pd.c.t.model, sizeof(pd.c.t.model), "%s", p->model ? p->model : "lose");
	snprintf(pd.c.t.fault, sizeof(pd.c.t.fault), "%s", p->fault ? p->fault : "");
	setting_of(settings, n, pd.c.t.setting, sizeof(pd.c.t.setting));
	pthread_mutex_unlock(&pd.c.lock);
	if (!pd.acked || !pd.chosen)
		return dbio_err_set(&w->err, -ENOMEM,
				    "crash: out of memory for the table of acknowledged rows");
	/* The cluster as initdb and the server's start left it: where every
	 * state starts from. */
	if ((rc = p->settle(p->arg)))
		return dbio_err_set(&w->err, rc, "crash: cannot make the cluster durable: %s", strerror(-rc));
	pthread_mutex_lock(&pd.c.lock);
	pd.c.started = true;
	pthread_mutex_unlock(&pd.c.lock);
	durable_listen(pd_point);
	return 0;
}

/* A commit that failed: what it said, and the state it leaves checked;
 * the run ends there (the server may have stopped: PostgreSQL PANICs on
 * a failed fsync of its WAL). */
static void failed(const char *why)
{
	pthread_mutex_lock(&pd.c.lock);
	snprintf(pd.c.t.fault_error, sizeof(pd.c.t.fault_error), "%s", why);
	pd.c.t.fault_seen = pd.c.probe->fault_hit && pd.c.probe->fault_hit(pd.c.probe->arg, pd.c.t.fault_what,
									   sizeof(pd.c.t.fault_what));
	check("after the error");
	pthread_mutex_unlock(&pd.c.lock);
}

static void acknowledged(uint64_t k)
{
	char cut[32];

	pthread_mutex_lock(&pd.c.lock);
	pd.acked[k] = 1;
	pd.acked_n++;
	if (pd.chosen[k]) {
		snprintf(cut, sizeof(cut), "ack %" PRIu64, k + 1);
		pd.c.t.acks++;
		check(cut);
	}
	pthread_mutex_unlock(&pd.c.lock);
}

int pg_durable_run(struct worker *w, PGconn *conn, uint64_t *done)
{
	char key[32], value[64], why[160];
	const char *params[2] = { key, value };

	for (uint64_t k = 0; k < pd.rows && !workload_stopped(w); k++) {
		uint64_t t0 = clock_now_ns(), t1;
		PGresult *res;
		bool ok;

		snprintf(key, sizeof(key), "%" PRIu64, k);
		value_of(k, value, sizeof(value));
		res = PQexecParams(conn, "INSERT INTO acks VALUES ($1, $2)", 2, NULL, params, NULL, NULL, 0);
		ok = PQresultStatus(res) == PGRES_COMMAND_OK;
		if (!ok)
			snprintf(why, sizeof(why), "%.*s", (int)strcspn(PQerrorMessage(conn), "\n"),
				 PQerrorMessage(conn));
		PQclear(res);
		if (!ok) {
			failed(why);
			break;
		}
		t1 = clock_now_ns();
		workload_record(w, OP_INSERT, strlen(value), t1 - t0, t1);
		acknowledged(k);
		++*done;
	}
	pthread_mutex_lock(&pd.c.lock);
	if (pd.c.started) {
		pd.c.t.acked = pd.acked_n;
		w->durable = pd.c.t;
	}
	pd.c.started = false;
	pthread_mutex_unlock(&pd.c.lock);
	return 0;
}

void pg_durable_finish(struct worker *w, struct pg_server *s)
{
	(void)w;
	pthread_mutex_lock(&pd.c.lock);
	pd.c.started = false;
	pd.c.probe = NULL;
	free(pd.acked);
	free(pd.chosen);
	pd.acked = pd.chosen = NULL;
	pthread_mutex_unlock(&pd.c.lock);
	/* The servers stopped before their data directories are unbound,
	 * and these before the cluster is removed. */
	pg_server_stop(&pd.check, true);
	pg_server_stop(s, false);
	if (pd.check.clusterfd >= 0) {
		umount2(pd.check_data, MNT_DETACH | UMOUNT_NOFOLLOW);
		close(pd.check.clusterfd);
	}
	if (pd.check.logfd >= 0)
		close(pd.check.logfd);
	pd.check.clusterfd = pd.check.logfd = -1;
	if (pd.data_bound)
		umount2(pd.data, MNT_DETACH | UMOUNT_NOFOLLOW);
	pd.data_bound = false;
	pg_server_release(s);
	if (pd.outer_fd >= 0)
		close(pd.outer_fd);
	pd.outer_fd = -1;
}
#endif
