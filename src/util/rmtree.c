/* Removing a directory through the descriptor dbio holds; see rmtree.h. */
#include "util/rmtree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/syscalls.h"

int rmtree_contents(int fd, int depth)
{
	/* A new open: fdopendir takes the descriptor, and a dup would share
	 * the caller's position. */
	int own = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = own >= 0 ? fdopendir(own) : NULL;
	int rc = 0;

	if (!d) {
		rc = -errno;
		if (own >= 0)
			close(own);
		return rc;
	}
	for (struct dirent *e; (e = readdir(d));) {
		struct stat st;
		int r = 0;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			r = errno == ENOENT ? 0 : -errno;
		} else if (S_ISDIR(st.st_mode) && depth > 0) {
			int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			struct stat now;

			if (sub < 0) {
				r = -errno;
			} else {
				/* Swapped between the two looks: leave it. */
				if (fstat(sub, &now) || now.st_dev != st.st_dev || now.st_ino != st.st_ino)
					r = -ESTALE;
				else if (!(r = rmtree_contents(sub, depth - 1)) &&
					 dbio_sys->unlinkat(fd, e->d_name, AT_REMOVEDIR) && errno != ENOENT)
					r = -errno;
				close(sub);
			}
		} else if (dbio_sys->unlinkat(fd, e->d_name, 0) && errno != ENOENT) {
			r = -errno;
		}
		rc = rc ? rc : r;
	}
	closedir(d);
	return rc;
}

int rmtree_held(int parent, const char *name, int fd, int depth, struct stat *found)
{
	struct stat mine;
	int rc = rmtree_contents(fd, depth);

	if (fstat(fd, &mine))
		return rc ? rc : -errno;
	if (fstatat(parent, name, found, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			return rc ? rc : -errno;
		memset(found, 0, sizeof(*found));
		return 1;
	}
	if (found->st_dev != mine.st_dev || found->st_ino != mine.st_ino)
		return 1;
	if (rc)
		return rc;
	return dbio_sys->unlinkat(parent, name, AT_REMOVEDIR) && errno != ENOENT ? -errno : 0;
}

const char *rmtree_describe(const struct stat *st, char *buf, unsigned len)
{
	const char *kind = S_ISDIR(st->st_mode)	  ? "a directory"
			   : S_ISLNK(st->st_mode) ? "a symlink"
			   : S_ISREG(st->st_mode) ? "a file"
						  : "something";

	if (!st->st_mode)
		snprintf(buf, len, "nothing");
	else
		snprintf(buf, len, "%s of uid %u mode %04o, not the one dbio made", kind,
			 (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777));
	return buf;
}
