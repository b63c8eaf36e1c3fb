/*
 * A path a user names, resolved as root may use it: component by
 * component, from / or the current directory, with openat(O_PATH |
 * O_NOFOLLOW), so that no component is a symlink someone else planted and
 * nothing can be swapped between the check and the use.
 *
 * The rule, for every component of the path (the last one too): a symlink
 * is followed only when it belongs to root or to the user running dbio
 * (its effective uid); its target is resolved by the same walk (an
 * absolute target from /, a relative one from the link's directory), at
 * most SAFEPATH_MAX_LINKS links per path. A symlink of another user
 * anywhere is refused: it could point anywhere root can write. A symlink
 * of /proc (/proc/self/fd/1, which /dev/stdout leads to) is a link the
 * kernel resolves itself: followed by the kernel under the same owner rule.
 *
 * Every directory walked is held open, so an owner of a directory in the
 * path who renames or replaces its entries after the walk reaches nothing:
 * the caller works relative to the fds handed back (openat, mkdirat,
 * renameat, unlinkat on dirfd; what is at the path through fd). ".." goes
 * back to the directory the walk held before (the kernel's ".." of it),
 * "." and empty components ("a//b") are skipped, a path of PATH_MAX bytes
 * or more is refused (ENAMETOOLONG).
 */
#ifndef DBIO_UTIL_SAFEPATH_H
#define DBIO_UTIL_SAFEPATH_H

#include <stdbool.h>
#include <sys/stat.h>

#include "util/err.h"

#define SAFEPATH_MAX_LINKS 40 /* the kernel's MAXSYMLINKS */

/* What a path resolved to. */
struct safepath {
	int dirfd;	/* O_PATH fd of the directory holding leaf; -1 when the path ends at a
			 * directory named by "/", "." or "..", or at a link of /proc */
	char *leaf;	/* the last name, in dirfd (owned); NULL when dirfd is -1 */
	int fd;		/* O_PATH | O_NOFOLLOW fd of what is at the path now; -1 when nothing is */
	struct stat st; /* fd's, when fd >= 0 */
	bool via_link;	/* the path's last component was a symlink, followed */
};

/* Resolve path as the rule above says, into sp (released with
 * safepath_release, whatever the return). 0 when every directory of the
 * path exists and the last component either exists (sp->fd) or does not
 * (sp->fd -1, sp->dirfd and sp->leaf where it would be made). A symlink of
 * another user: DBIO_EUNSAFE, with "<what> <path>: component '<c>' is a
 * symlink that belongs to user <uid>: refusing to follow it (give the path
 * it points to)" in err (or "<what> <path>: a symlink that belongs to …"
 * when it is path's own last component); what may be "". Any other failure
 * (a missing or non-directory middle component, EACCES, ELOOP past
 * SAFEPATH_MAX_LINKS, ENAMETOOLONG, an empty path: ENOENT): -errno, err
 * untouched, so that the caller says what it was doing. */
int safepath_resolve(const char *what, const char *path, struct safepath *sp, struct dbio_err *err);

/* Open what sp->fd is (the very inode the walk found, through
 * /proc/self/fd) with flags (O_NOFOLLOW is not needed: sp->fd is never a
 * symlink). An fd, or -errno; EBADF when nothing was there. */
int safepath_reopen(const struct safepath *sp, int flags);

/* The directory at path, resolved as above and opened O_RDONLY |
 * O_DIRECTORY: an fd, DBIO_EUNSAFE (err as safepath_resolve), -ENOTDIR
 * when something else is there, or -errno (ENOENT when nothing is; err
 * untouched). */
int safepath_open_dir(const char *what, const char *path, struct dbio_err *err);

/* Close sp's fds and free its leaf; sp may be released twice. */
void safepath_release(struct safepath *sp);

#endif
