/*
 * workload=postgres: the private cluster's lifecycle, in the worker's
 * thread — claimed (a killed dbio's leftover removed first), initdb,
 * started with the job's settings, stopped and removed. PostgreSQL's
 * programs run as the postgres user when dbio is root (the server refuses
 * root), from an argv dbio builds (fork and exec, no shell), in a process
 * group of their own (a terminal's ^C reaches dbio, which stops the server
 * in order), with PR_SET_PDEATHSIG so that a SIGKILLed dbio takes its
 * server with it. See postgres_int.h and docs/postgres.md.
 */
#ifdef DBIO_HAVE_LIBPQ
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/mark.h"
#include "util/rmtree.h"
#include "util/sleep.h"
#include "util/syscalls.h"
#include "workload/postgres_int.h"

#define PG_PORT	   "5432"
#define PG_WAIT_MS 60000

/* Sleep ms milliseconds (no stop flag: the server's lifecycle finishes). */
static void nap_ms(unsigned ms)
{
	sleep_until_ns(clock_now_ns() + ms * 1000000ull, NULL, NULL);
}

/* The newest /usr/lib/postgresql/<version>/bin holding initdb. */
static int find_bindir(struct pg_server *s, struct dbio_err *err)
{
	glob_t g;

	if (glob("/usr/lib/postgresql/*/bin/initdb", 0, NULL, &g) || !g.gl_pathc) {
		globfree(&g);
		return dbio_err_set(
			err, DBIO_EINPUT,
			"workload=postgres: no /usr/lib/postgresql/*/bin/initdb: install postgresql-15 (Debian's package)");
	}
	/* glob sorts; the last is the newest (two-digit major versions). */
	snprintf(s->bindir, sizeof(s->bindir), "%s", g.gl_pathv[g.gl_pathc - 1]);
	*strrchr(s->bindir, '/') = '\0';
	globfree(&g);
	return 0;
}

static int find_user(struct pg_server *s, struct dbio_err *err)
{
	struct passwd pw, *found = NULL;
	char buf[2048];

	s->uid = geteuid();
	s->gid = getegid();
	s->drop = s->uid == 0;
	if (!s->drop)
		return 0;
	if (getpwnam_r("postgres", &pw, buf, sizeof(buf), &found) || !found)
		return dbio_err_set(
			err, DBIO_EINPUT,
			"workload=postgres: dbio runs as root and there is no user 'postgres' to run the server as (PostgreSQL refuses root): install postgresql-15, which makes it");
	if (!found->pw_uid)
		return dbio_err_set(err, DBIO_EINPUT, "workload=postgres: user 'postgres' is root: refusing");
	s->uid = found->pw_uid;
	s->gid = found->pw_gid;
	return 0;
}

int pg_server_claim(struct pg_server *s, int dirfd, const char *dir_path, struct dbio_err *err)
{
	struct sockaddr_un sun;
	struct stat st;
	int rc;

	s->dirfd = dirfd;
	s->clusterfd = -1;
	s->logfd = -1;
	snprintf(s->name, sizeof(s->name), PG_NAME_PREFIX "%d", (int)getpid());
	snprintf(s->path, sizeof(s->path), "%s/%s", dir_path, s->name);
	if ((rc = find_bindir(s, err)) || (rc = find_user(s, err)))
		return rc;
	if (strlen(s->path) + strlen("/.s.PGSQL." PG_PORT) >= sizeof(sun.sun_path))
		return dbio_err_set(
			err, DBIO_EINPUT,
			"%s: too long for the server's Unix socket in it (at most %zu bytes with /.s.PGSQL." PG_PORT
			"): choose a shorter directory",
			s->path, sizeof(sun.sun_path) - 1);
	if ((rc = pg_leftovers_remove(s, dir_path, err)))
		return rc;
	if (mkdirat(dirfd, s->name, 0700))
		return dbio_err_set(err, errno == EEXIST ? DBIO_EINPUT : -errno, "%s: cannot create: %s",
				    s->path, strerror(errno));
	s->clusterfd = openat(dirfd, s->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* Only someone who can write the target could swap it meanwhile. */
	if (s->clusterfd < 0 || fstat(s->clusterfd, &st) || st.st_uid != geteuid() || (st.st_mode & 077))
		return dbio_err_set(err, DBIO_EUNSAFE, "%s: replaced while dbio made it: refusing to use it",
				    s->path);
	rc = mark_set(s->clusterfd, PG_MARK);
	if (rc && rc != -EOPNOTSUPP && rc != -EPERM)
		return dbio_err_set(err, rc, "%s: cannot mark it as dbio's: %s", s->path, strerror(-rc));
	s->logfd = dbio_sys->openat(s->clusterfd, "server.log",
				    O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_APPEND | O_CLOEXEC, 0600);
	if (s->logfd < 0)
		return dbio_err_set(err, -errno, "%s/server.log: cannot create: %s", s->path,
				    strerror(errno));
	if (s->drop && (fchown(s->clusterfd, s->uid, s->gid) || fchown(s->logfd, s->uid, s->gid)))
		return dbio_err_set(err, -errno, "%s: cannot give it to user postgres: %s", s->path,
				    strerror(errno));
	return 0;
}

/* Run argv (argv[0] a program of bindir) as the server's user, its output
 * into server.log; the child's pid into *pid. */
static int spawn(struct pg_server *s, char *const *argv, pid_t *pid, struct dbio_err *err)
{
	const pid_t parent = getpid();
	char prog[512];
	sigset_t none;
	pid_t child;

	snprintf(prog, sizeof(prog), "%s/%s", s->bindir, argv[0]);
	sigemptyset(&none);
	child = fork();
	if (child < 0)
		return dbio_err_set(err, -errno, "%s: cannot start: %s", prog, strerror(errno));
	if (child == 0) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (null < 0 || dup2(null, 0) < 0 || dup2(s->logfd, 1) < 0 || dup2(s->logfd, 2) < 0 ||
		    setpgid(0, 0) || fchdir(s->clusterfd))
			_exit(126);
		if (s->drop && (setgroups(0, NULL) || setgid(s->gid) || setuid(s->uid)))
			_exit(126);
		/* After the change of user, which clears it; a dbio gone
		 * meanwhile has already missed the signal. */
		if (prctl(PR_SET_PDEATHSIG, SIGQUIT) || getppid() != parent)
			_exit(126);
		for (int sig = 1; sig < 32; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				signal(sig, SIG_DFL);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execv(prog, argv);
		_exit(127);
	}
	*pid = child;
	return 0;
}

/* The last lines of server.log (at most len bytes), newlines as ';' when
 * join (for a one-line message). */
static void log_tail(const struct pg_server *s, char *buf, size_t len, bool join)
{
	int fd = openat(s->clusterfd, "server.log", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	off_t size = fd >= 0 ? lseek(fd, 0, SEEK_END) : 0;
	off_t from = size > (off_t)len - 1 ? size - (off_t)len + 1 : 0;
	ssize_t n = fd >= 0 ? pread(fd, buf, len - 1, from) : 0;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	for (char *p = buf; join && *p; p++)
		if (*p == '\n')
			*p = ';';
}

/* Is name in text as a word of its own (no letter, digit or '_' beside)? */
static bool names_word(const char *text, const char *name)
{
	const size_t len = strlen(name);

	for (const char *p = text; (p = strstr(p, name)); p += len) {
		bool before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
		bool after = isalnum((unsigned char)p[len]) || p[len] == '_';

		if (!before && !after)
			return true;
	}
	return false;
}

const char *pg_refused_setting(char *log, const char *const *names, size_t n, size_t *which)
{
	for (char *line = log; line && *line;) {
		char *next = strchr(line, '\n'), *fatal, hint[512] = "";
		char quoted[64];

		if (next)
			*next++ = '\0';
		if (!(fatal = strstr(line, "FATAL:"))) {
			line = next;
			continue;
		}
		fatal += strlen("FATAL:");
		fatal += strspn(fatal, " ");
		/* The HINT line PostgreSQL writes right after (its advice may
		 * name the setting: "reducing shared_buffers"). */
		if (next && strstr(next, "HINT:") && strstr(next, "HINT:") < next + strcspn(next, "\n"))
			snprintf(hint, sizeof(hint), "%.*s", (int)strcspn(next, "\n"), next);
		*which = n; /* a FATAL line that names none of them */
		for (size_t i = 0; i < n && *which == n; i++) {
			snprintf(quoted, sizeof(quoted), "\"%s\"", names[i]);
			if (strstr(fatal, quoted))
				*which = i;
		}
		for (size_t i = 0; i < n && *which == n; i++)
			if (names_word(hint, names[i]))
				*which = i;
		return fatal;
	}
	return NULL;
}

int pg_server_initdb(struct pg_server *s, struct dbio_err *err)
{
	char *const argv[] = { "initdb",	  "--pgdata=data", "--username=postgres", "--auth=trust",
			       "--encoding=UTF8", "--locale=C",	   "--no-instructions",	  NULL };
	char tail[600];
	pid_t pid;
	int status, rc = spawn(s, argv, &pid, err);

	if (rc)
		return rc;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	log_tail(s, tail, sizeof(tail), true);
	return dbio_err_set(
		err, -EIO, "%s: initdb failed%s: %s", s->path,
		strstr(tail, "Permission denied")
			? " (the user postgres must be able to reach the target: every directory above it needs x for others)"
			: "",
		tail);
}

PGconn *pg_server_connect(const struct pg_server *s, struct dbio_err *err)
{
	const char *const keys[] = { "host", "port", "user", "dbname", "application_name", NULL };
	const char *const values[] = { s->path, PG_PORT, "postgres", "postgres", "dbio", NULL };
	PGconn *conn = PQconnectdbParams(keys, values, 0);

	if (conn && PQstatus(conn) == CONNECTION_OK)
		return conn;
	dbio_err_set(err, -EIO, "%s: cannot connect to the server: %s", s->path,
		     conn ? PQerrorMessage(conn) : "out of memory");
	PQfinish(conn);
	return NULL;
}

/* The server ended before accepting connections: the FATAL line of its
 * log that says why; a setting it names is the job's bad input. */
static int start_failed(struct pg_server *s, char *const *settings, size_t n, struct pg_refusal *refused,
			struct dbio_err *err)
{
	char tail[4096], names[PG_NSETTINGS + 1][32];
	const char *name_of[PG_NSETTINGS + 1];
	const char *msg;
	size_t which = n;

	for (size_t i = 0; i < n && i < PG_NSETTINGS; i++) {
		snprintf(names[i], sizeof(names[i]), "%.*s", (int)strcspn(settings[i], "="), settings[i]);
		name_of[i] = names[i];
	}
	log_tail(s, tail, sizeof(tail), false);
	msg = pg_refused_setting(tail, name_of, n, &which);
	if (msg && which < n) {
		refused->index = which;
		snprintf(refused->msg, sizeof(refused->msg), "%s", msg);
		return DBIO_EINPUT;
	}
	if (msg)
		return dbio_err_set(err, -EIO, "%s: the server did not start: %s", s->path, msg);
	log_tail(s, tail, sizeof(tail), true);
	return dbio_err_set(err, -EIO, "%s: the server did not start: %s", s->path,
			    tail + (strlen(tail) > 600 ? strlen(tail) - 600 : 0));
}

int pg_server_start(struct pg_server *s, char *const *settings, size_t n, struct pg_refusal *refused,
		    struct dbio_err *err)
{
	char *argv[10 + 2 * PG_NSETTINGS + 2];
	char sock[4200];
	const char *const keys[] = { "host", "port", "dbname", NULL };
	const char *const values[] = { s->path, PG_PORT, "postgres", NULL };
	size_t a = 0;
	int rc;

	snprintf(sock, sizeof(sock), "unix_socket_directories=%s", s->path);
	argv[a++] = "postgres";
	argv[a++] = "-D";
	argv[a++] = "data";
	argv[a++] = "-c";
	argv[a++] = "listen_addresses=";
	argv[a++] = "-c";
	argv[a++] = sock;
	argv[a++] = "-p";
	argv[a++] = PG_PORT;
	for (size_t i = 0; i < n && i < PG_NSETTINGS; i++) {
		argv[a++] = "-c";
		argv[a++] = settings[i];
		/* wal_level=minimal allows no WAL senders, and PostgreSQL's
		 * default is 10: without this minimal could never start. */
		if (!strcmp(settings[i], "wal_level=minimal")) {
			argv[a++] = "-c";
			argv[a++] = "max_wal_senders=0";
		}
	}
	argv[a] = NULL;
	if ((rc = spawn(s, argv, &s->pid, err)))
		return rc;
	for (int i = 0; i < PG_WAIT_MS / 20; i++) {
		int status;

		if (PQpingParams(keys, values, 0) == PQPING_OK)
			return 0;
		if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
			s->pid = 0;
			return start_failed(s, settings, n, refused, err);
		}
		nap_ms(20);
	}
	return dbio_err_set(err, -ETIMEDOUT, "%s: the server did not accept connections within %d s", s->path,
			    PG_WAIT_MS / 1000);
}

/* Wait up to ms for the postmaster; true when it ended. */
static bool reap(pid_t pid, int ms)
{
	for (int i = 0; i <= ms / 10; i++) {
		int status;
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid || (r < 0 && errno == ECHILD))
			return true;
		nap_ms(10);
	}
	return false;
}

void pg_server_stop(struct pg_server *s, bool immediate)
{
	if (s->pid > 0) {
		/* Fast shutdown; immediate; then no more asking. */
		if (immediate || kill(s->pid, SIGINT) || !reap(s->pid, PG_WAIT_MS))
			if (kill(s->pid, SIGQUIT) || !reap(s->pid, 5000)) {
				kill(s->pid, SIGKILL);
				reap(s->pid, 5000);
			}
		s->pid = 0;
	}
}

void pg_server_release(struct pg_server *s)
{
	pg_server_stop(s, false);
	if (s->logfd >= 0)
		close(s->logfd);
	s->logfd = -1;
	if (s->clusterfd >= 0) {
		struct dbio_err err = { 0 };

		if (pg_remove_tree(s->dirfd, s->name, s->clusterfd, s->path, &err))
			pg_warn("%s", err.msg);
		close(s->clusterfd);
		s->clusterfd = -1;
	}
}

int pg_proc_stat_parse(const char *buf, unsigned long long t[4], int *ppid)
{
	const char *p = strrchr(buf, ')');

	/* After the command's closing parenthesis (the command may hold any
	 * byte, ')' too): state, ppid ... utime is field 14. */
	if (!p || sscanf(p + 1, " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu", ppid,
			 &t[0], &t[1], &t[2], &t[3]) != 5)
		return -EINVAL;
	return 0;
}

/* utime, stime, cutime, cstime (clock ticks) and ppid of /proc/<pid>/stat. */
static int proc_times(pid_t pid, unsigned long long t[4], int *ppid)
{
	char buf[1024];
	int rc = pg_proc_stat_read(pid, buf, sizeof(buf));

	return rc ? rc : pg_proc_stat_parse(buf, t, ppid);
}

int pg_server_cpu(const struct pg_server *s, double *user_s, double *sys_s)
{
	const double tick = (double)sysconf(_SC_CLK_TCK);
	unsigned long long t[4], sum_u, sum_s;
	DIR *d;
	int ppid, rc;

	if (s->pid <= 0)
		return -ESRCH;
	if ((rc = proc_times(s->pid, t, &ppid)))
		return rc;
	sum_u = t[0] + t[2];
	sum_s = t[1] + t[3];
	if (!(d = opendir("/proc")))
		return -errno;
	for (struct dirent *e; (e = readdir(d));) {
		pid_t pid = (pid_t)atoi(e->d_name);

		if (pid > 0 && !proc_times(pid, t, &ppid) && ppid == s->pid) {
			sum_u += t[0];
			sum_s += t[1];
		}
	}
	closedir(d);
	*user_s = (double)sum_u / tick;
	*sys_s = (double)sum_s / tick;
	return 0;
}
#endif
