/*
 * fio's file form of buffer_pattern and verify_pattern: a name in single
 * quotes ('t0027.pattern') whose bytes are the pattern (fio's lib/pattern.c
 * reads the whole file). dbio runs as root and reads the file at
 * validation, before anything is written: the path is walked with
 * util/safepath.h (no symlink of another user), only a regular file is
 * opened (a device or FIFO is refused before its open could act), it must
 * hold 1 byte to the room of the pattern, and it is checked again on what
 * was opened. See files.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/safepath.h"
#include "workload/fileio/files.h"

/* What a file of mode is, for the refusal. */
static const char *kind_of(mode_t mode)
{
	return S_ISDIR(mode)	? "a directory"
	       : S_ISCHR(mode)	? "a character device"
	       : S_ISBLK(mode)	? "a block device"
	       : S_ISFIFO(mode) ? "a FIFO"
	       : S_ISSOCK(mode) ? "a socket"
				: "not a regular file";
}

/* Read fd's size bytes into out; 0 or -errno (-EIO: it changed size). */
static int read_all(int fd, uint8_t *out, size_t size)
{
	size_t got = 0;
	char more;

	while (got < size) {
		ssize_t n = read(fd, out + got, size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		got += (size_t)n;
	}
	return read(fd, &more, 1) == 0 ? 0 : -EIO;
}

int job_pattern_file(const struct job *job, const char *key, const char *value, uint8_t *out, size_t room,
		     size_t *n, struct dbio_err *err)
{
	const size_t len = strlen(value);
	char path[PATH_MAX];
	struct safepath sp;
	struct stat st;
	int rc, fd;

	if (len < 3 || value[len - 1] != '\'' || memchr(value + 1, '\'', len - 2))
		return job_fail(
			job, key, err,
			"bad value '%s': fio's file form is a file's name in single quotes, alone ('pattern.bin')",
			value);
	snprintf(path, sizeof(path), "%.*s", (int)(len - 2), value + 1);
	rc = safepath_resolve("", path, &sp, err);
	if (rc == DBIO_EUNSAFE) { /* the walk's words, after the key's */
		char why[sizeof(err->msg)];

		safepath_release(&sp);
		snprintf(why, sizeof(why), "%s", err->msg);
		*err = (struct dbio_err){ 0 };
		return job_fail(job, key, err, "pattern file %s", why);
	}
	if (rc || sp.fd < 0) {
		safepath_release(&sp);
		return job_fail(job, key, err, "pattern file %s: %s", path, strerror(rc ? -rc : ENOENT));
	}
	if (!S_ISREG(sp.st.st_mode)) {
		safepath_release(&sp);
		return job_fail(job, key, err, "pattern file %s: %s: the pattern is a regular file's bytes",
				path, kind_of(sp.st.st_mode));
	}
	if (sp.st.st_size <= 0 || (uint64_t)sp.st.st_size > room) {
		rc = job_fail(job, key, err, "pattern file %s: %lld bytes: expected 1 to %zu", path,
			      (long long)sp.st.st_size, room);
		safepath_release(&sp);
		return rc;
	}
	fd = safepath_reopen(&sp, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	safepath_release(&sp);
	if (fd < 0)
		return job_fail(job, key, err, "pattern file %s: %s", path, strerror(-fd));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 || (uint64_t)st.st_size > room ||
	    (rc = read_all(fd, out, (size_t)st.st_size))) {
		close(fd);
		return job_fail(job, key, err, "pattern file %s: %s", path,
				rc ? strerror(-rc) : "it changed while it was read");
	}
	close(fd);
	*n = (size_t)st.st_size;
	return 0;
}
