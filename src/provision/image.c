/*
 * The image file of `dbio matrix`: where --image puts it, making it with
 * O_EXCL, its trailer (the run's random token, past the loop device's size
 * limit: trailer.c) and its trusted.dbio marker, and removing it — at the end of a
 * configuration, or in --cleanup only while its trailer still carries the
 * recorded token. The token is what tells dbio's image from a file someone
 * made since at the same path, even with the same inode number.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "provision/provision_int.h"
#include "util/safepath.h"

int provision_image_make(struct provision_env *m, int *fd, struct dbio_err *err)
{
	struct stat st;
	int rc;

	if ((rc = provision_token_new(m->token)))
		return dbio_err_set(err, rc, "matrix: cannot draw a random token: %s", strerror(-rc));
	if ((rc = provision_state_rec(m, PROVISION_REC_IMAGE, false, err)))
		return rc;
	*fd = open(m->image, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (*fd < 0) {
		rc = -errno;
		provision_state_rec(m, PROVISION_REC_IMAGE, true, err);
		return dbio_err_set(err, rc, "matrix: image %s: cannot create: %s", m->image, strerror(-rc));
	}
	m->image_made = true;
	if ((rc = provision_trailer_write(*fd, m->image_size_bytes, m->token)))
		return dbio_err_set(err, rc, "matrix: image %s: cannot write its marker: %s", m->image,
				    strerror(-rc));
	if (fsetxattr(*fd, PROVISION_MARKER_XATTR, PROVISION_MARKER_VALUE, strlen(PROVISION_MARKER_VALUE),
		      0) &&
	    errno != ENOTSUP)
		return dbio_err_set(err, -errno, "matrix: image %s: cannot mark it as dbio's: %s", m->image,
				    strerror(errno));
	if (fstat(*fd, &st))
		return dbio_err_set(err, -errno, "matrix: image %s: %s", m->image, strerror(errno));
	m->image_dev = provision_kernel_dev(st.st_dev);
	m->image_ino = st.st_ino;
	return provision_state_rec(m, PROVISION_REC_IMAGEID, false, err);
}

int provision_image_remove(struct provision_env *m, struct dbio_err *err)
{
	if (!m->image_made || m->mounted)
		return 0;
	if (unlink(m->image) && errno != ENOENT)
		return dbio_err_set(err, -errno, "matrix: cannot remove %s: %s", m->image, strerror(errno));
	provision_state_rec(m, PROVISION_REC_IMAGEID, true, err);
	provision_state_rec(m, PROVISION_REC_IMAGE, true, err);
	m->image_made = false;
	return 0;
}

int provision_image_undo(const char *path, const char *token, uint64_t idev, uint64_t iino, char **log)
{
	if (access(path, F_OK))
		return 0;
	if (!provision_image_is(path, token, idev, iino)) {
		provision_log_add(log,
				  "left alone: %s: not the image dbio made (no marker with this run's token)",
				  path);
		return 0;
	}
	/* a loop device still attached to it (in use) keeps its record, and
	 * the image its token for the next --cleanup to read */
	char real[PROVISION_PATH_MAX], loop[64];

	if (realpath(path, real) && provision_loop_holding(real, loop, sizeof(loop))) {
		provision_log_add(log, "not removed: %s: /dev/%s still holds it", path, loop);
		return -EBUSY;
	}
	if (unlink(path) && errno != ENOENT)
		return -errno;
	provision_log_add(log, "removed %s", path);
	return 0;
}

/* The path as given, or dbio-matrix.<pid>.img in the directory given. */
static int resolve(const char *given, char *path, size_t len, struct dbio_err *err)
{
	struct safepath sp;
	struct stat st;
	int rc;

	if (strchr(given, '\n'))
		return dbio_err_set(err, DBIO_EINPUT, "--image: a path with a newline is not accepted");
	/* Another user's symlink anywhere in the path could send the image
	 * (and mkfs) into a directory of root's: refused, as for every path
	 * dbio writes (docs/safety.md). */
	rc = safepath_resolve("--image", given, &sp, err);
	safepath_release(&sp);
	if (rc == DBIO_EUNSAFE)
		return rc;
	if (!stat(given, &st) && S_ISDIR(st.st_mode)) {
		if (snprintf(path, len, "%s/dbio-matrix.%d.img", given, (int)getpid()) >= (int)len)
			return dbio_err_set(err, DBIO_EINPUT, "--image %s: path too long", given);
	} else if (snprintf(path, len, "%s", given) >= (int)len) {
		return dbio_err_set(err, DBIO_EINPUT, "--image %s: path too long", given);
	}
	return 0;
}

/* A new image at path: its directory must let dbio create it. */
static int check_creatable(const char *path, struct dbio_err *err)
{
	char *copy = strdup(path), *slash;
	int rc = 0;

	if (!copy)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	slash = strrchr(copy, '/');
	if (slash)
		*slash = '\0';
	if (access(slash ? (copy[0] ? copy : "/") : ".", W_OK))
		rc = dbio_err_set(err, DBIO_EINPUT, "--image %s: cannot create it there: %s", path,
				  strerror(errno));
	free(copy);
	return rc;
}

int provision_image_path(const char *given, char *path, size_t len, struct dbio_err *err)
{
	char value[64], real[PROVISION_PATH_MAX], loop[256];
	struct stat st;
	ssize_t n;
	int rc;

	if ((rc = resolve(given, path, len, err)))
		return rc;
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return dbio_err_set(err, DBIO_EINPUT, "--image %s: %s", path, strerror(errno));
		return check_creatable(path, err);
	}
	n = lgetxattr(path, PROVISION_MARKER_XATTR, value, sizeof(value) - 1);
	if (!S_ISREG(st.st_mode) || n != (ssize_t)strlen(PROVISION_MARKER_VALUE) ||
	    memcmp(value, PROVISION_MARKER_VALUE, (size_t)n))
		return dbio_err_set(
			err, DBIO_EUNSAFE,
			"--image %s: exists and was not made by dbio: refusing to format it (give a new file name or a directory)",
			path);
	/* dbio's own leftover: gone unless a loop device still holds it. */
	if (realpath(path, real) && provision_loop_holding(real, loop, sizeof(loop)))
		return dbio_err_set(
			err, DBIO_EUNSAFE,
			"--image %s: an image dbio made, still attached to /dev/%s: run `dbio matrix --cleanup`, or detach it",
			path, loop);
	if (unlink(path))
		return dbio_err_set(err, -errno, "--image %s: cannot remove dbio's old image: %s", path,
				    strerror(errno));
	return 0;
}
