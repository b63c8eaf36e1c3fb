/*
 * workload=postgres: what a killed dbio left in the target — a cluster
 * <target>/dbio.postgres-<pid> whose dbio is gone — stopped and removed
 * before a new one is made (pg_server_claim, postgres_server.c), without
 * harming any server dbio did not start there.
 *
 * data/postmaster.pid is only a claim: after a crash its pid may belong
 * to anyone, another cluster's postmaster too, and whoever could write the
 * leftover could write any pid, start time or directory into it. So the
 * pid is signalled only when /proc, which the process cannot fake, shows
 * it to be the postmaster of that very data directory: a postgres program
 * of the server's user whose working directory is the leftover's data
 * directory (same st_dev and st_ino, the directory opened without
 * following a symlink), whose parent is not a process of that directory
 * (it heads the tree) and which has children there (its backends), and
 * which started no later than the pid file was last written. Anything
 * else is left alone with a warning. The leftover is removed only when no
 * process at all has its working directory in it afterwards; else it is
 * kept, with a warning. The signal goes through a pidfd opened before the
 * checks, so a pid reused meanwhile is not the one signalled.
 *
 * A worker has no warning channel of the runner's (run_opts.warn is the
 * runner thread's), so pg_warn prints the line itself, in the format of
 * the runner's warnings.
 */
#ifdef DBIO_HAVE_LIBPQ
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/mark.h"
#include "workload/postgres_int.h"

#define PG_STOP_MS 60000

void pg_warn(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "dbio: warning: %s\n", line);
}

bool pg_is_dbio(pid_t pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (!(f = fopen(path, "re")))
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return !strncmp(comm, "dbio", 4);
}

/* Does /proc/<pid>/cwd lead to the directory dir? */
static bool cwd_is(pid_t pid, const struct stat *dir)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/cwd", (int)pid);
	return !stat(path, &st) && st.st_dev == dir->st_dev && st.st_ino == dir->st_ino;
}

/* ppid and start time (clock ticks after boot) of /proc/<pid>/stat. */
static int proc_start(pid_t pid, int *ppid, unsigned long long *start)
{
	char buf[1024];
	const char *p;
	int rc = pg_proc_stat_read(pid, buf, sizeof(buf));

	if (rc)
		return rc;
	/* Past the command (any byte, ')' too): state, ppid ... starttime is field 22. */
	if (!(p = strrchr(buf, ')')) ||
	    sscanf(p + 1, " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
		   ppid, start) != 2)
		return -EINVAL;
	return 0;
}

/* The boot time, seconds since the epoch (/proc/stat's btime). */
static long long boot_time(void)
{
	char line[256];
	long long btime = -1;
	FILE *f = fopen("/proc/stat", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "btime %lld", &btime) == 1)
			break;
	if (f)
		fclose(f);
	return btime;
}

/* The processes whose working directory is dir: how many, and how many
 * of them are children of pid. */
static void in_dir(const struct stat *dir, pid_t pid, unsigned *all, unsigned *children, pid_t *one)
{
	DIR *d = opendir("/proc");

	*all = *children = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		pid_t p = (pid_t)atoi(e->d_name);
		unsigned long long start;
		int ppid;

		if (p <= 0 || p == getpid() || !cwd_is(p, dir))
			continue;
		++*all;
		*one = p;
		if (pid > 0 && !proc_start(p, &ppid, &start) && ppid == pid)
			++*children;
	}
	if (d)
		closedir(d);
}

/* Is pid the postmaster of the data directory data (st), its pid file
 * written at mtime? NULL when it is, else why not. */
static const char *not_postmaster(const struct pg_server *s, pid_t pid, const struct stat *data, time_t mtime)
{
	char path[64], exe[512];
	unsigned long long start;
	unsigned all, children;
	struct stat st;
	pid_t one = 0;
	long long btime = boot_time();
	const long tick = sysconf(_SC_CLK_TCK);
	int ppid;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	if (stat(path, &st) || st.st_uid != s->uid)
		return "not a process of the server's user";
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	if (n <= 0 || !strrchr(exe, '/') || strcmp(strrchr(exe, '/'), "/postgres"))
		return "not a postgres program";
	if (!cwd_is(pid, data))
		return "its working directory is not the cluster's data directory: another cluster's server";
	if (proc_start(pid, &ppid, &start))
		return "its /proc/<pid>/stat cannot be read";
	if (cwd_is(ppid, data))
		return "its parent works in the same data directory: not the postmaster";
	in_dir(data, pid, &all, &children, &one);
	if (!children)
		return "it has no server processes as children: not the postmaster";
	if (btime < 0 || tick <= 0 ||
	    btime + (long long)(start / (unsigned long long)tick) > (long long)mtime + 1)
		return "it started after data/postmaster.pid was written";
	return NULL;
}

/* Wait for the process behind pidfd to end; true when it did. */
static bool wait_gone(int pidfd, int ms)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };
	int r;

	while ((r = poll(&p, 1, ms)) < 0 && errno == EINTR)
		;
	return r == 1;
}

/* Stop the server of the leftover (fd, path for messages) when its
 * postmaster is proven; false when a process still works in its data
 * directory, so that it must not be removed. */
static bool stop_leftover(const struct pg_server *s, int fd, const char *path)
{
	int datafd = openat(fd, "data", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int pfd = datafd >= 0 ? openat(datafd, "postmaster.pid", O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
	struct stat data, pst;
	char buf[32] = "";
	unsigned all = 0, children = 0;
	pid_t pid = 0, one = 0;
	ssize_t n;
	int pidfd;

	if (datafd < 0 || fstat(datafd, &data)) {
		if (datafd >= 0)
			close(datafd);
		return true; /* no data directory: no server can be working in it */
	}
	close(datafd);
	if (pfd >= 0 && !fstat(pfd, &pst) && (n = read(pfd, buf, sizeof(buf) - 1)) > 0)
		pid = (pid_t)atoi(buf);
	if (pfd >= 0)
		close(pfd);
	if (pid > 1 && (pidfd = pidfd_open(pid, 0)) >= 0) {
		const char *why = not_postmaster(s, pid, &data, pst.st_mtime);

		if (why)
			pg_warn("%s: pid %d of its data/postmaster.pid is not its server (%s): not signalled",
				path, (int)pid, why);
		else if (!pidfd_send_signal(pidfd, SIGQUIT, NULL, 0) && !wait_gone(pidfd, PG_STOP_MS))
			pg_warn("%s: its server (pid %d) did not stop within %d s of SIGQUIT", path, (int)pid,
				PG_STOP_MS / 1000);
		close(pidfd);
	}
	in_dir(&data, 0, &all, &children, &one);
	if (all)
		pg_warn("%s: a server still works in its data directory (pid %d, one of %u processes): not removed; stop it and remove the directory by hand",
			path, (int)one, all);
	return !all;
}

/* One entry dbio.postgres-<pid> of the target: a live dbio's is refused,
 * a dead one's removed when it carries dbio's mark. */
static int leftover(struct pg_server *s, const char *dir_path, const char *name, struct dbio_err *err)
{
	const char *digits = name + strlen(PG_NAME_PREFIX);
	char path[4200];
	char *end;
	long pid = strtol(digits, &end, 10);
	int fd, rc;
	bool removable;

	if (!*digits || *end || pid <= 0)
		return 0; /* not a name dbio gives */
	if (pid != getpid() && (!kill((pid_t)pid, 0) || errno == EPERM) && pg_is_dbio((pid_t)pid))
		return dbio_err_set(
			err, DBIO_EINPUT,
			"%s/%s: the cluster of a dbio still running (pid %ld): refusing to run a second server in the same directory",
			dir_path, name, pid);
	fd = openat(s->dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || mark_check(fd, PG_MARK)) {
		if (fd >= 0)
			close(fd);
		return dbio_err_set(
			err, DBIO_EINPUT,
			"%s/%s: named like dbio's cluster but not one dbio made (no mark, or not a directory): refusing to touch it; remove it by hand",
			dir_path, name);
	}
	snprintf(path, sizeof(path), "%s/%s", dir_path, name);
	removable = stop_leftover(s, fd, path);
	rc = removable ? pg_remove_tree(s->dirfd, name, fd, path, err) : 0;
	close(fd);
	return rc;
}

int pg_leftovers_remove(struct pg_server *s, const char *dir_path, struct dbio_err *err)
{
	int fd = openat(s->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	int rc = 0;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return dbio_err_set(err, -errno, "%s: cannot read: %s", dir_path, strerror(errno));
	}
	for (struct dirent *e; !rc && (e = readdir(d));)
		if (!strncmp(e->d_name, PG_NAME_PREFIX, strlen(PG_NAME_PREFIX)))
			rc = leftover(s, dir_path, e->d_name, err);
	closedir(d);
	return rc;
}
#endif
