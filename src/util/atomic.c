/* Output files; see atomic.h for what dbio does at each kind of path. The
 * path is resolved once per write by util/safepath.h, and the write works
 * on the fds it holds. */
#include "util/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/safepath.h"

enum out_kind {
	OUT_CREATE,  /* nothing there: a new file, atomically */
	OUT_REPLACE, /* a regular file: replaced atomically */
	OUT_THROUGH, /* a FIFO, a character device or a followed symlink: written in place */
	OUT_STDOUT,  /* "-", or the file standard output goes to */
	OUT_STDERR,  /* the file standard error goes to */
};

/* Whether st is the file fd is open on (/dev/stdout, or the file it is
 * redirected to): then the data goes through fd, after what dbio printed. */
static bool is_fd(const struct stat *st, int fd)
{
	struct stat f;

	return !fstat(fd, &f) && f.st_dev == st->st_dev && f.st_ino == st->st_ino;
}

/* What to do at path, or why not (DBIO_EINPUT, DBIO_EUNSAFE, -errno),
 * with the path resolved into sp (util/safepath.h: no symlink of another
 * user anywhere in it) for the write to use. */
static int classify(const char *what, const char *path, struct safepath *sp, enum out_kind *kind,
		    struct dbio_err *err)
{
	const char *sep = *what ? " " : "";
	const struct stat *st = &sp->st;
	int rc;

	memset(sp, 0, sizeof(*sp));
	sp->dirfd = sp->fd = -1;
	if (!strcmp(path, "-")) {
		*kind = OUT_STDOUT;
		return 0;
	}
	if ((rc = safepath_resolve(what, path, sp, err)) == DBIO_EUNSAFE || rc == -ENOMEM)
		return rc == -ENOMEM ? dbio_err_set(err, rc, "out of memory") : rc;
	if (rc && !*what) /* atomic_write: the write's failure, as the kernel says it */
		return dbio_err_set(err, rc, "%s: cannot write: %s", path, strerror(-rc));
	if (rc)
		return dbio_err_set(err,
				    rc == -ENOENT || rc == -ENOTDIR || rc == -EACCES || rc == -ELOOP ||
						    rc == -ENAMETOOLONG
					    ? DBIO_EINPUT
					    : rc,
				    "%s%s%s: cannot write there: %s", what, sep, path, strerror(-rc));
	if (sp->fd < 0 && sp->via_link)
		return dbio_err_set(
			err, DBIO_EINPUT,
			"%s%s%s: a symlink to nothing (No such file or directory): give a file name", what,
			sep, path);
	if (sp->fd < 0) {
		*kind = OUT_CREATE;
		return 0;
	}
	if (is_fd(st, STDOUT_FILENO) || is_fd(st, STDERR_FILENO)) {
		*kind = is_fd(st, STDOUT_FILENO) ? OUT_STDOUT : OUT_STDERR;
		return 0;
	}
	if (S_ISREG(st->st_mode)) {
		/* a followed link's target, or a file /proc led to, is written in place */
		*kind = sp->via_link || sp->dirfd < 0 ? OUT_THROUGH : OUT_REPLACE;
		return 0;
	}
	if (S_ISFIFO(st->st_mode) || S_ISCHR(st->st_mode)) {
		*kind = OUT_THROUGH;
		return 0;
	}
	if (S_ISDIR(st->st_mode))
		return dbio_err_set(err, DBIO_EINPUT, "%s%s%s: is a directory: expected a file name", what,
				    sep, path);
	if (S_ISBLK(st->st_mode))
		return dbio_err_set(err, DBIO_EUNSAFE,
				    "%s%s%s: is a block device: refusing to write a file onto it", what, sep,
				    path);
	return dbio_err_set(err, DBIO_EINPUT, "%s%s%s: is a socket: expected a file name", what, sep, path);
}

bool atomic_write_replaces(const char *path)
{
	struct dbio_err err = { 0 };
	struct safepath sp;
	enum out_kind kind;
	bool replaces = !classify("", path, &sp, &kind, &err) && (kind == OUT_CREATE || kind == OUT_REPLACE);

	safepath_release(&sp);
	return replaces;
}

int atomic_write_check(const char *what, const char *path, struct dbio_err *err)
{
	struct safepath sp;
	enum out_kind kind;
	char self[64];
	int rc = classify(what, path, &sp, &kind, err);

	if (!rc && (kind == OUT_CREATE || kind == OUT_REPLACE)) {
		/* the directory the walk holds, not its name again */
		snprintf(self, sizeof(self), "/proc/self/fd/%d", sp.dirfd);
		if (access(self, W_OK))
			rc = dbio_err_set(err, DBIO_EINPUT, "%s%s%s: cannot write there: %s", what,
					  *what ? " " : "", path, strerror(errno));
	}
	safepath_release(&sp);
	return rc;
}

static int write_all(int fd, const char *data, size_t len)
{
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		off += (size_t)n;
	}
	return 0;
}

/* The FIFO sp holds, open for writing without waiting for a reader
 * (open(2) would block until one comes, forever if nobody ever does): one
 * already there, or one that comes within FIFO_WAIT_MS (a reader started
 * beside dbio, as `dbio … --output f & cat f`); its fd in blocking mode
 * again, or -ENXIO for none, or -errno. */
#define FIFO_WAIT_MS 1000

static int open_fifo(const struct safepath *sp)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	int fd, flags;

	for (int ms = 0;
	     (fd = safepath_reopen(sp, O_WRONLY | O_NOCTTY | O_NONBLOCK)) == -ENXIO && ms < FIFO_WAIT_MS;
	     ms += 10)
		nanosleep(&tick, NULL);
	if (fd < 0)
		return fd;
	if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		flags = -errno;
		close(fd);
		return flags;
	}
	return fd;
}

/* Into what classify found at path (FIFO, character device, a symlink's
 * target), in place: that very inode reopened through sp->fd, without
 * O_CREAT, and written only while it is what classify saw. */
static int write_through(const char *path, const struct safepath *sp, const char *data, size_t len,
			 struct dbio_err *err)
{
	int fd = S_ISFIFO(sp->st.st_mode) ? open_fifo(sp) : safepath_reopen(sp, O_WRONLY | O_NOCTTY), rc;
	struct stat st;

	if (fd == -ENXIO)
		return dbio_err_set(
			err, fd,
			"%s: a FIFO that no process reads: refusing to wait for one (start its reader first)",
			path);
	if (fd < 0)
		return dbio_err_set(err, fd, "%s: cannot write: %s", path, strerror(-fd));
	if (fstat(fd, &st) || st.st_dev != sp->st.st_dev || st.st_ino != sp->st.st_ino ||
	    (st.st_mode & S_IFMT) != (sp->st.st_mode & S_IFMT)) {
		close(fd);
		return dbio_err_set(err, DBIO_EUNSAFE, "%s: changed while dbio was writing it: not written",
				    path);
	}
	if (S_ISREG(st.st_mode) && ftruncate(fd, 0))
		rc = -errno;
	else
		rc = write_all(fd, data, len);
	if (!rc && S_ISREG(st.st_mode) && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	return rc ? dbio_err_set(err, rc, "%s: cannot write: %s", path, strerror(-rc)) : 0;
}

/* A new file of a random name .dbio-tmp.XXXXXX in dirfd, made with O_EXCL
 * (nothing there is ever opened); its fd, or -errno. */
static int make_temp(int dirfd, char *name, size_t len)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

	for (int tries = 0; tries < 100; tries++) {
		unsigned char r[6];
		int fd;

		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return -errno;
		snprintf(name, len, ".dbio-tmp.%c%c%c%c%c%c", chars[r[0] % 62], chars[r[1] % 62],
			 chars[r[2] % 62], chars[r[3] % 62], chars[r[4] % 62], chars[r[5] % 62]);
		fd = openat(dirfd, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

/* A temporary file beside the leaf, in the directory the walk holds, then
 * a rename onto it there; for OUT_CREATE the rename does not replace
 * whatever appeared at path meanwhile. */
static int write_replace(const char *path, const struct safepath *sp, bool create, const char *data,
			 size_t len, struct dbio_err *err)
{
	char tmp[32];
	int fd = make_temp(sp->dirfd, tmp, sizeof(tmp)), rc;

	if (fd < 0) {
		rc = fd == -EEXIST ? -EIO : fd;
		goto out;
	}
	if ((rc = write_all(fd, data, len)) || (fsync(fd) && (rc = -errno)))
		goto out_unlink;
	rc = close(fd) ? -errno : 0;
	fd = -1;
	if (rc)
		goto out_unlink;
	if (renameat2(sp->dirfd, tmp, sp->dirfd, sp->leaf, create ? RENAME_NOREPLACE : 0)) {
		rc = -errno;
		goto out_unlink;
	}
	goto out;
out_unlink:
	if (fd >= 0)
		close(fd);
	unlinkat(sp->dirfd, tmp, 0);
out:
	if (rc == -EEXIST)
		return dbio_err_set(err, DBIO_EUNSAFE, "%s: appeared while dbio was writing it: not replaced",
				    path);
	return rc ? dbio_err_set(err, rc, "%s: cannot write: %s", path, strerror(-rc)) : 0;
}

/* atomic_write, or for own (atomic_write_own) a FIFO or a character
 * device at path, or as a followed symlink's target, refused. */
static int write_at(const char *path, const char *data, size_t len, bool own, struct dbio_err *err)
{
	struct safepath sp;
	enum out_kind kind;
	int rc = classify("", path, &sp, &kind, err);

	if (rc)
		goto out;
	if (own && sp.fd >= 0 && (S_ISFIFO(sp.st.st_mode) || S_ISCHR(sp.st.st_mode))) {
		rc = dbio_err_set(
			err, DBIO_EUNSAFE,
			"%s: a %s that dbio did not make: refusing to write dbio's file through it (remove it)",
			path, S_ISFIFO(sp.st.st_mode) ? "FIFO" : "character device");
		goto out;
	}
	switch (kind) {
	case OUT_STDOUT:
	case OUT_STDERR:
		fflush(kind == OUT_STDOUT ? stdout : stderr);
		rc = write_all(kind == OUT_STDOUT ? STDOUT_FILENO : STDERR_FILENO, data, len);
		if (rc)
			dbio_err_set(err, rc, "%s: cannot write: %s", path, strerror(-rc));
		break;
	case OUT_THROUGH:
		rc = write_through(path, &sp, data, len, err);
		break;
	case OUT_CREATE:
	case OUT_REPLACE:
		rc = write_replace(path, &sp, kind == OUT_CREATE, data, len, err);
		break;
	}
out:
	safepath_release(&sp);
	return rc;
}

int atomic_write(const char *path, const char *data, size_t len, struct dbio_err *err)
{
	return write_at(path, data, len, false, err);
}

int atomic_write_own(const char *path, const char *data, size_t len, struct dbio_err *err)
{
	return write_at(path, data, len, true, err);
}
