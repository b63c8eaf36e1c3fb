/*
 * Files kept between commands (`dbio sysbench fileio prepare`, run,
 * cleanup): made, grown, emptied, measured and removed only when they carry
 * the maker's mark (util/mark.h), so that a later command touches nothing
 * else of the user's directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/run_int.h"
#include "util/mark.h"
#include "util/rng.h"
#include "util/syscalls.h"

/* A regular file, not a symlink, that carries maker's mark: its open fd
 * (O_WRONLY when write) and size, or -1 with the reason in err
 * (DBIO_EUNSAFE; -ENOENT when missing). */
static int open_ours(int dirfd, const char *dir, const char *name, const char *maker, bool write,
		     uint64_t *size, int *rc, struct dbio_err *err)
{
	int fd = dbio_sys->openat(dirfd, name, (write ? O_WRONLY : O_RDONLY) | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd < 0 && errno == ENOENT) {
		*rc = -ENOENT;
		return -1;
	}
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || mark_check(fd, maker)) {
		if (fd >= 0)
			dbio_sys->close(fd);
		*rc = dbio_err_set(
			err, DBIO_EUNSAFE,
			"%s/%s: exists and is not a file dbio prepared: refusing to touch it; remove it by hand or work in another directory",
			dir, name);
		return -1;
	}
	*size = (uint64_t)st.st_size;
	return fd;
}

/* One name of k: made, grown, emptied or taken; written counts. */
static int make_one(const struct run_kept *k, int dirfd, size_t i, char *buf, uint64_t chunk,
		    uint64_t *written, struct dbio_err *err)
{
	const char *name = k->names[i];
	const struct layout_file f = { .size = k->anew ? 0 : k->bytes };
	uint64_t have = 0;
	enum run_kept_how how = RUN_KEPT_MADE;
	int rc = 0,
	    fd = dbio_sys->openat(dirfd, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0600);

	if (fd < 0 && errno != EEXIST)
		return dbio_err_set(err, -errno, "%s/%s: cannot create: %s", k->dir, name, strerror(errno));
	if (fd < 0) {
		if ((fd = open_ours(dirfd, k->dir, name, k->maker, true, &have, &rc, err)) < 0)
			return rc == -ENOENT ? dbio_err_set(err, rc, "%s/%s: removed meanwhile", k->dir, name)
					     : rc;
		how = k->anew || have < f.size ? RUN_KEPT_EXTENDED : RUN_KEPT_REUSED;
		if (k->anew && dbio_sys->ftruncate(fd, 0))
			rc = dbio_err_set(err, -errno, "%s/%s: cannot empty: %s", k->dir, name,
					  strerror(errno));
		have = k->anew ? 0 : have;
	} else if ((rc = mark_set(fd, k->maker))) { /* marked first: a file cut short is still dbio's */
		dbio_err_set(err, rc, "%s/%s: cannot mark as dbio's (%s): %s", k->dir, name, MARK_XATTR,
			     strerror(-rc));
	}
	if (k->each && !rc)
		k->each(k->ctx, i, how);
	/* anew: empty, as a file just made, not fsynced (sysbench's unlink and create) */
	if (!rc && how != RUN_KEPT_REUSED && !k->anew && (rc = layout_fill(&f, fd, have, buf, chunk)) &&
	    rc != DBIO_ESTOPPED)
		dbio_err_set(err, rc, "%s/%s: cannot write: %s", k->dir, name, strerror(-rc));
	else if (!rc && how != RUN_KEPT_REUSED)
		*written += f.size - have;
	dbio_sys->close(fd);
	if (how == RUN_KEPT_MADE && (rc == -EPERM || rc == -EOPNOTSUPP))
		dbio_sys->unlinkat(dirfd, name, 0); /* unmarked: not left behind */
	return rc;
}

int run_kept_make(const struct run_kept *k, uint64_t *written, struct dbio_err *err)
{
	int dirfd = open(k->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *buf = malloc(LAYOUT_CHUNK);
	const uint64_t chunk = k->chunk && k->chunk < LAYOUT_CHUNK ? k->chunk : LAYOUT_CHUNK;
	struct rng r;
	int rc = 0;

	*written = 0;
	if (dirfd < 0 || !buf) {
		rc = dbio_err_set(err, buf ? -errno : -ENOMEM, "%s: cannot open directory: %s", k->dir,
				  strerror(buf ? errno : ENOMEM));
		goto out;
	}
	rng_seed(&r, 0x5b5eed11ull);
	for (size_t i = 0; i + 8 <= LAYOUT_CHUNK; i += 8) {
		uint64_t x = rng_next(&r);
		memcpy(buf + i, &x, 8);
	}
	for (size_t i = 0; i < k->n && !rc; i++)
		rc = make_one(k, dirfd, i, buf, chunk, written, err);
out:
	if (dirfd >= 0)
		close(dirfd);
	free(buf);
	return rc;
}

int run_kept_sizes(const char *dir, char *const *names, size_t n, const char *maker, uint64_t *sizes,
		   size_t *first, struct dbio_err *err)
{
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = 0;

	if (dirfd < 0)
		return dbio_err_set(err, -errno, "%s: cannot open directory: %s", dir, strerror(errno));
	for (size_t i = 0; i < n && !rc; i++) {
		int fd = open_ours(dirfd, dir, names[i], maker, false, &sizes[i], &rc, err);

		if (fd >= 0)
			dbio_sys->close(fd);
		*first = i;
	}
	close(dirfd);
	return rc;
}

int run_kept_remove(const char *dir, char *const *names, size_t n, const char *maker, size_t *removed,
		    struct dbio_err *err)
{
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = 0;

	*removed = 0;
	if (dirfd < 0)
		return dbio_err_set(err, -errno, "%s: cannot open directory: %s", dir, strerror(errno));
	for (size_t i = 0; i < n; i++) {
		int fd = dbio_sys->openat(dirfd, names[i], O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		bool ours;

		if (fd < 0 && errno == ENOENT)
			continue;
		ours = fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) && !mark_check(fd, maker);
		if (fd >= 0)
			dbio_sys->close(fd);
		if (!ours) {
			if (!rc)
				rc = dbio_err_set(err, DBIO_EUNSAFE,
						  "%s/%s: not a file dbio prepared: left in place", dir,
						  names[i]);
			continue;
		}
		if (dbio_sys->unlinkat(dirfd, names[i], 0) && errno != ENOENT) {
			if (!rc)
				rc = dbio_err_set(err, -errno, "%s/%s: cannot remove: %s", dir, names[i],
						  strerror(errno));
			continue;
		}
		++*removed;
	}
	close(dirfd);
	return rc;
}
