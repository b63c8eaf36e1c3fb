/* Paths resolved component by component, refusing another user's
 * symlinks anywhere; see safepath.h for the rule and what callers get. */
#include "util/safepath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif

/* The directories walked, innermost last, each held open, and how the walk
 * names them in a message. */
struct walk {
	int *fds;
	size_t *shown_at; /* strlen(shown) while fds[i] is the current directory */
	size_t n, cap;
	bool abs;		  /* shown is absolute */
	char shown[2 * PATH_MAX]; /* the current directory as walked ("u/sub", "/tmp") */
};

static void walk_release(struct walk *w)
{
	while (w->n)
		close(w->fds[--w->n]);
	free(w->fds);
	free(w->shown_at);
	w->fds = NULL;
	w->shown_at = NULL;
	w->cap = 0;
}

/* Make fd (owned) the current directory, named shown now. */
static int walk_push(struct walk *w, int fd)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 16;
		int *fds = realloc(w->fds, cap * sizeof(*fds));
		size_t *at = fds ? realloc(w->shown_at, cap * sizeof(*at)) : NULL;

		if (fds)
			w->fds = fds;
		if (!at) {
			close(fd);
			return -ENOMEM;
		}
		w->shown_at = at;
		w->cap = cap;
	}
	w->fds[w->n] = fd;
	w->shown_at[w->n++] = strlen(w->shown);
	return 0;
}

/* Start again from / (abs) or the current directory. */
static int walk_base(struct walk *w, bool abs)
{
	int fd = open(abs ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (w->n)
		close(w->fds[--w->n]);
	w->abs = abs;
	w->shown[0] = '\0';
	return walk_push(w, fd);
}

static int walk_cur(const struct walk *w)
{
	return w->fds[w->n - 1];
}

/* name as a component of the current directory, for a message. */
static void walk_show(const struct walk *w, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", w->shown, w->shown[0] || w->abs ? "/" : "", name);
}

/* "..": back to the directory held before; above the walk's base, the
 * kernel's ".." of it (above / is /). */
static int walk_up(struct walk *w)
{
	size_t len = strlen(w->shown);
	int fd;

	if (w->n > 1) {
		close(w->fds[--w->n]);
		w->shown[w->shown_at[w->n - 1]] = '\0';
		return 0;
	}
	if (w->abs)
		return 0;
	if ((fd = openat(walk_cur(w), "..", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	close(w->fds[0]);
	w->fds[0] = fd;
	snprintf(w->shown + len, sizeof(w->shown) - len, "%s..", len ? "/" : "");
	w->shown_at[0] = strlen(w->shown);
	return 0;
}

/* The next component of *p into name (empty ones and "." skipped); false
 * at the end. *last: no component follows; *slash: a '/' follows it. */
static bool next_name(const char **p, char *name, bool *last, bool *slash, int *rc)
{
	for (;;) {
		const char *s = *p, *e;

		while (*s == '/')
			s++;
		if (!*s)
			return false;
		e = strchrnul(s, '/');
		if ((size_t)(e - s) > NAME_MAX) {
			*rc = -ENAMETOOLONG;
			return false;
		}
		memcpy(name, s, (size_t)(e - s));
		name[e - s] = '\0';
		*slash = *e == '/';
		while (*e == '/')
			e++;
		*p = e;
		*last = !*e;
		if (strcmp(name, ".") || *last)
			return true;
	}
}

/* A symlink at name in the current directory (fd, owned, its stat st):
 * refused unless root's or the euid's; a link of /proc followed by the
 * kernel (*kfd, when the path goes on or ends there); any other has its
 * target put in front of what is left of the path (rest). */
static int follow(struct walk *w, const char *what, const char *path, const char *name, int fd,
		  const struct stat *st, bool own_last, char *rest, const char **p, int *kfd,
		  struct dbio_err *err)
{
	const char *sep = *what ? " " : "";
	char shown[2 * PATH_MAX + NAME_MAX + 2], target[PATH_MAX];
	struct statfs fs;
	ssize_t n;
	int rc = 0;

	if (st->st_uid != 0 && st->st_uid != geteuid()) {
		walk_show(w, name, shown, sizeof(shown));
		close(fd);
		if (own_last)
			return dbio_err_set(
				err, DBIO_EUNSAFE,
				"%s%s%s: a symlink that belongs to user %u: refusing to follow it (give the path it points to)",
				what, sep, path, (unsigned)st->st_uid);
		return dbio_err_set(
			err, DBIO_EUNSAFE,
			"%s%s%s: component '%s' is a symlink that belongs to user %u: refusing to follow it (give the path it points to)",
			what, sep, path, shown, (unsigned)st->st_uid);
	}
	if (!fstatfs(fd, &fs) && fs.f_type == PROC_SUPER_MAGIC) {
		close(fd);
		*kfd = openat(walk_cur(w), name, O_PATH | O_CLOEXEC);
		return *kfd < 0 ? -errno : 0;
	}
	n = readlinkat(fd, "", target, sizeof(target));
	close(fd);
	if (n < 0)
		return -errno;
	if ((size_t)n >= sizeof(target) || (size_t)n + 1 + strlen(*p) >= PATH_MAX)
		return -ENAMETOOLONG;
	target[n] = '\0';
	if (target[0] == '/' && (rc = walk_base(w, true)))
		return rc;
	/* *p points into rest: what is left goes behind the target */
	if (**p) {
		memmove(rest + n + 1, *p, strlen(*p) + 1);
		rest[n] = '/';
	} else {
		rest[n] = '\0';
	}
	memcpy(rest, target, (size_t)n);
	*p = rest;
	return 0;
}

/* sp from the walk's end: what is at name in the current directory (fd,
 * or -1 for nothing). */
static int finish(struct walk *w, struct safepath *sp, const char *name, int fd)
{
	if (name && !(sp->leaf = strdup(name))) {
		if (fd >= 0)
			close(fd);
		return -ENOMEM;
	}
	if (name)
		sp->dirfd = w->fds[--w->n]; /* handed over, not closed */
	sp->fd = fd;
	if (fd >= 0 && fstat(fd, &sp->st))
		return -errno;
	return 0;
}

/* One component, name, of the current directory: a directory the walk
 * goes into, a link it follows, or the end (*done). */
static int step(struct walk *w, struct safepath *sp, const char *what, const char *path, const char *name,
		bool last, bool slash, bool expanded, char *rest, const char **p, int *links, bool *done,
		struct dbio_err *err)
{
	int fd = openat(walk_cur(w), name, O_PATH | O_NOFOLLOW | O_CLOEXEC), kfd = -1, rc;
	struct stat st;

	if (fd < 0) {
		if (errno != ENOENT || !last || slash)
			return -errno;
		*done = true;
		return finish(w, sp, name, -1);
	}
	if (fstat(fd, &st)) {
		rc = -errno;
		close(fd);
		return rc;
	}
	if (S_ISLNK(st.st_mode)) {
		if (++*links > SAFEPATH_MAX_LINKS) {
			close(fd);
			return -ELOOP;
		}
		if (last)
			sp->via_link = true;
		rc = follow(w, what, path, name, fd, &st, last && !expanded, rest, p, &kfd, err);
		if (rc || kfd < 0)
			return rc;
		if (fstat(kfd, &st)) {
			rc = -errno;
			close(kfd);
			return rc;
		}
		if (!S_ISDIR(st.st_mode) && !last) {
			close(kfd);
			return -ENOTDIR;
		}
		if (!S_ISDIR(st.st_mode)) {
			*done = true;
			return finish(w, sp, NULL, kfd);
		}
		fd = kfd; /* a directory of /proc: walked into */
	} else if (!S_ISDIR(st.st_mode) || (last && !slash)) {
		if (!S_ISDIR(st.st_mode) && !last) {
			close(fd);
			return -ENOTDIR;
		}
		*done = true;
		return finish(w, sp, name, fd);
	}
	char shown[sizeof(w->shown)];

	walk_show(w, name, shown, sizeof(shown));
	memcpy(w->shown, shown, sizeof(shown));
	return walk_push(w, fd);
}

int safepath_resolve(const char *what, const char *path, struct safepath *sp, struct dbio_err *err)
{
	struct walk w = { 0 };
	char *rest = NULL, name[NAME_MAX + 1];
	const char *p;
	bool last = false, slash = false, done = false, expanded = false;
	int links = 0, rc;

	memset(sp, 0, sizeof(*sp));
	sp->dirfd = sp->fd = -1;
	if (!*path)
		return -ENOENT;
	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	if (!(rest = malloc(2 * PATH_MAX)))
		return -ENOMEM;
	strcpy(rest, path);
	p = rest;
	if ((rc = walk_base(&w, path[0] == '/')))
		goto out;
	while (!done && next_name(&p, name, &last, &slash, &rc)) {
		int before = links;

		if (!strcmp(name, "."))
			break; /* the last component: the current directory */
		if (!strcmp(name, "..")) {
			if ((rc = walk_up(&w)))
				goto out;
			if (last)
				break;
			continue;
		}
		rc = step(&w, sp, what, path, name, last, slash, expanded, rest, &p, &links, &done, err);
		if (rc)
			goto out;
		expanded |= links != before;
	}
	if (!rc && !done) {
		/* the path ends at a directory: ".", "..", "/" or a /proc link's */
		int fd = dup(walk_cur(&w));

		rc = fd < 0 ? -errno : finish(&w, sp, NULL, fd);
	}
out:
	walk_release(&w);
	free(rest);
	return rc;
}

int safepath_reopen(const struct safepath *sp, int flags)
{
	char self[64];
	int fd;

	if (sp->fd < 0)
		return -EBADF;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", sp->fd);
	fd = open(self, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int safepath_open_dir(const char *what, const char *path, struct dbio_err *err)
{
	struct safepath sp;
	int rc = safepath_resolve(what, path, &sp, err);

	if (!rc && sp.fd < 0)
		rc = -ENOENT;
	else if (!rc && !S_ISDIR(sp.st.st_mode))
		rc = -ENOTDIR;
	else if (!rc)
		rc = safepath_reopen(&sp, O_RDONLY | O_DIRECTORY);
	safepath_release(&sp);
	return rc;
}

void safepath_release(struct safepath *sp)
{
	if (sp->dirfd >= 0)
		close(sp->dirfd);
	if (sp->fd >= 0)
		close(sp->fd);
	free(sp->leaf);
	sp->dirfd = sp->fd = -1;
	sp->leaf = NULL;
}
