/* Atomic file writes; see atomic.h. */
#include "util/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int atomic_write(const char *path, const char *data, size_t len, struct dbio_err *err)
{
	char *dcopy = strdup(path), *tmp = NULL;
	int fd = -1, rc = 0;

	if (!dcopy || asprintf(&tmp, "%s/.dbio-tmp.%d.%s", dirname(dcopy), getpid(), "part") < 0) {
		tmp = NULL;
		rc = dbio_err_set(err, -ENOMEM, "%s: cannot write: out of memory", path);
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = dbio_err_set(err, -errno, "%s: cannot write: %s", path, strerror(errno));
		goto out;
	}
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			rc = dbio_err_set(err, -e, "%s: cannot write: %s", path, strerror(e));
			goto out_unlink;
		}
		off += (size_t)n;
	}
	if (fsync(fd)) {
		rc = dbio_err_set(err, -errno, "%s: cannot write: %s", path, strerror(errno));
		goto out_unlink;
	}
	int crc = close(fd);

	fd = -1;
	if (crc) {
		rc = dbio_err_set(err, -errno, "%s: cannot write: %s", path, strerror(errno));
		goto out_unlink;
	}
	if (rename(tmp, path)) {
		rc = dbio_err_set(err, -errno, "%s: cannot write: %s", path, strerror(errno));
		goto out_unlink;
	}
	goto out;
out_unlink:
	if (fd >= 0)
		close(fd);
	fd = -1;
	unlink(tmp);
out:
	free(tmp);
	free(dcopy);
	return rc;
}
