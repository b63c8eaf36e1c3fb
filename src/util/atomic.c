/* Output files; see atomic.h for what dbio does at each kind of path. */
#include "util/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* What to do at path, or why not (DBIO_EINPUT, DBIO_EUNSAFE, -errno). */
static int classify(const char *what, const char *path, enum out_kind *kind, struct dbio_err *err)
{
	const char *sep = *what ? " " : "";
	bool link = false;
	struct stat st;

	if (!strcmp(path, "-")) {
		*kind = OUT_STDOUT;
		return 0;
	}
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return dbio_err_set(err, -errno, "%s%s%s: %s", what, sep, path, strerror(errno));
		*kind = OUT_CREATE;
		return 0;
	}
	if (S_ISLNK(st.st_mode)) {
		/* Another user's symlink could point anywhere root can write. */
		if (st.st_uid != 0 && st.st_uid != geteuid())
			return dbio_err_set(
				err, DBIO_EUNSAFE,
				"%s%s%s: a symlink that belongs to user %u: refusing to follow it (give the path it points to)",
				what, sep, path, (unsigned)st.st_uid);
		if (stat(path, &st))
			return dbio_err_set(err, errno == ENOENT ? DBIO_EINPUT : -errno,
					    "%s%s%s: a symlink to nothing (%s): give a file name", what, sep,
					    path, strerror(errno));
		link = true;
	}
	if (is_fd(&st, STDOUT_FILENO) || is_fd(&st, STDERR_FILENO)) {
		*kind = is_fd(&st, STDOUT_FILENO) ? OUT_STDOUT : OUT_STDERR;
		return 0;
	}
	if (S_ISREG(st.st_mode)) {
		*kind = link ? OUT_THROUGH : OUT_REPLACE;
		return 0;
	}
	if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
		*kind = OUT_THROUGH;
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return dbio_err_set(err, DBIO_EINPUT, "%s%s%s: is a directory: expected a file name", what,
				    sep, path);
	if (S_ISBLK(st.st_mode))
		return dbio_err_set(err, DBIO_EUNSAFE,
				    "%s%s%s: is a block device: refusing to write a file onto it", what, sep,
				    path);
	return dbio_err_set(err, DBIO_EINPUT, "%s%s%s: is a socket: expected a file name", what, sep, path);
}

bool atomic_write_replaces(const char *path)
{
	struct dbio_err err = { 0 };
	enum out_kind kind;

	return !classify("", path, &kind, &err) && (kind == OUT_CREATE || kind == OUT_REPLACE);
}

int atomic_write_check(const char *what, const char *path, struct dbio_err *err)
{
	enum out_kind kind;
	char *copy, *dir;
	int rc = classify(what, path, &kind, err);

	if (rc || (kind != OUT_CREATE && kind != OUT_REPLACE))
		return rc;
	if (!(copy = strdup(path)))
		return dbio_err_set(err, -ENOMEM, "out of memory");
	dir = dirname(copy);
	if (access(dir, W_OK))
		rc = dbio_err_set(err, DBIO_EINPUT, "%s%s%s: cannot write there: %s", what, *what ? " " : "",
				  path, strerror(errno));
	free(copy);
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

/* Into what is at path (FIFO, character device, a symlink's target), in
 * place: opened without O_CREAT, and written only if it still is what
 * classify saw a kind of. */
static int write_through(const char *path, const char *data, size_t len, struct dbio_err *err)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC), rc;
	struct stat st;

	if (fd < 0)
		return dbio_err_set(err, -errno, "%s: cannot write: %s", path, strerror(errno));
	if (fstat(fd, &st) || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
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

/* A temporary file beside path, then a rename onto it; for OUT_CREATE the
 * rename does not replace whatever appeared at path meanwhile. */
static int write_replace(const char *path, bool create, const char *data, size_t len, struct dbio_err *err)
{
	char *dcopy = strdup(path), *tmp = NULL;
	int fd = -1, rc;

	if (!dcopy || asprintf(&tmp, "%s/.dbio-tmp.XXXXXX", dirname(dcopy)) < 0) {
		free(dcopy);
		return dbio_err_set(err, -ENOMEM, "%s: cannot write: out of memory", path);
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	mode_t mask = umask(0); /* only the main thread writes outputs */

	umask(mask);
	fchmod(fd, 0644 & ~mask);
	if ((rc = write_all(fd, data, len)) || (fsync(fd) && (rc = -errno)))
		goto out_unlink;
	rc = close(fd) ? -errno : 0;
	fd = -1;
	if (rc)
		goto out_unlink;
	if (create ? renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) : rename(tmp, path)) {
		rc = -errno;
		goto out_unlink;
	}
	goto out;
out_unlink:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out:
	free(tmp);
	free(dcopy);
	if (rc == -EEXIST)
		return dbio_err_set(err, DBIO_EUNSAFE, "%s: appeared while dbio was writing it: not replaced",
				    path);
	return rc ? dbio_err_set(err, rc, "%s: cannot write: %s", path, strerror(-rc)) : 0;
}

int atomic_write(const char *path, const char *data, size_t len, struct dbio_err *err)
{
	enum out_kind kind;
	int rc = classify("", path, &kind, err);

	if (rc)
		return rc;
	switch (kind) {
	case OUT_STDOUT:
	case OUT_STDERR:
		fflush(kind == OUT_STDOUT ? stdout : stderr);
		rc = write_all(kind == OUT_STDOUT ? STDOUT_FILENO : STDERR_FILENO, data, len);
		return rc ? dbio_err_set(err, rc, "%s: cannot write: %s", path, strerror(-rc)) : 0;
	case OUT_THROUGH:
		return write_through(path, data, len, err);
	case OUT_CREATE:
	case OUT_REPLACE:
		break;
	}
	return write_replace(path, kind == OUT_CREATE, data, len, err);
}
