/*
 * The durable store of the power-cut layer, and the tree copies a cut
 * makes. At an fsync of a file its writes since the last one (log.c) are
 * applied to store/f<ino> (the whole live file copied when the log cannot
 * replay a change, and at a settle); at an fsync of a directory its names are written to
 * store/d<ino> as records "F|D <ino> <mode> <uid> <gid> <name>\0" (the
 * owner and mode as of that fsync: a cut's copy has them, for a server
 * that checks who owns its files). A cut rebuilds the tree
 * from the root's record down: a name reaches the cut only if its
 * directory was synced after it was made, and its data only as synced.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "powercut/powercut_int.h"

#define COPY_CHUNK (64 * 1024)
#define MAX_DEPTH  64

int powercut_copy_file(int from, int dirfd, const char *name)
{
	char *buf = malloc(COPY_CHUNK);
	int to, ret = 0;
	off_t off = 0;

	if (!buf)
		return -ENOMEM;
	to = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (to < 0) {
		ret = -errno;
		goto out_free;
	}
	for (;;) {
		ssize_t n = pread(from, buf, COPY_CHUNK, off), w = 0;

		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		while (w < n) {
			ssize_t k = write(to, buf + w, (size_t)(n - w));

			if (k < 0) {
				ret = -errno;
				goto out_close;
			}
			w += k;
		}
		off += n;
	}
out_close:
	close(to);
out_free:
	free(buf);
	return ret;
}

/* The store's temporary name of this process: the server stores at an
 * fsync, the driver at a settle. */
static const char *tmp_name(char *buf, size_t len)
{
	snprintf(buf, len, "tmp.%ld", (long)getpid());
	return buf;
}

/* Write tmp in the store, then rename it over name: a cut never sees half. */
static int store_commit(struct powercut *pc, const char *tmp, const char *name)
{
	return renameat(pc->storefd, tmp, pc->storefd, name) < 0 ? -errno : 0;
}

/* The live file fd's whole content copied to store/<name>, replacing it
 * only when whole: a cut never sees half. */
static int store_copy(struct powercut *pc, int fd, const char *name)
{
	char self[64], tmp[32];
	int rfd, ret;

	/* The workload's file may be open write-only: read it through its own. */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	rfd = open(self, O_RDONLY | O_CLOEXEC);
	if (rfd < 0)
		return -errno;
	ret = powercut_copy_file(rfd, pc->storefd, tmp_name(tmp, sizeof(tmp)));
	if (ret == 0)
		ret = store_commit(pc, tmp, name);
	close(rfd);
	return ret;
}

int powercut_store_file(struct powercut *pc, int fd, bool whole)
{
	struct stat st;
	char name[64];
	int sfd, ret = 0;

	if (fstat(fd, &st) < 0)
		return -errno;
	snprintf(name, sizeof(name), "f%llu", (unsigned long long)st.st_ino);
	pthread_mutex_lock(&pc->lock);
	/* The writes since the last durability point applied to the durable
	 * copy (a file with none yet starts empty, as the layer made it),
	 * unless one of them is a change the log cannot replay. */
	if (!whole) {
		sfd = openat(pc->storefd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		ret = sfd < 0 ? -errno : powercut_log_apply(pc, (unsigned long long)st.st_ino, sfd, &whole);
		if (sfd >= 0)
			close(sfd);
	}
	if (ret == 0 && whole)
		ret = store_copy(pc, fd, name);
	if (ret == 0)
		powercut_log_remove(pc, (unsigned long long)st.st_ino);
	pthread_mutex_unlock(&pc->lock);
	return ret;
}

static int write_names(FILE *f, int fd)
{
	int dfd = dup(fd);
	DIR *d;
	struct dirent *e;

	if (dfd < 0)
		return -errno;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -errno;
	}
	rewinddir(d);
	while ((e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue; /* gone since readdir */
		if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
			continue;
		fprintf(f, "%c %llu %o %u %u %s%c", S_ISDIR(st.st_mode) ? 'D' : 'F',
			(unsigned long long)st.st_ino, (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid,
			(unsigned)st.st_gid, e->d_name, 0);
	}
	closedir(d);
	return 0;
}

int powercut_store_dir(struct powercut *pc, int fd)
{
	struct stat st;
	char name[64], tmp[32];
	FILE *f;
	int tfd, ret;

	if (fstat(fd, &st) < 0)
		return -errno;
	snprintf(name, sizeof(name), "d%llu", (unsigned long long)st.st_ino);
	pthread_mutex_lock(&pc->lock);
	tfd = openat(pc->storefd, tmp_name(tmp, sizeof(tmp)), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	f = tfd < 0 ? NULL : fdopen(tfd, "w");
	if (!f) {
		ret = -errno;
		if (tfd >= 0)
			close(tfd);
		goto out_unlock;
	}
	ret = write_names(f, fd);
	if (fclose(f) != 0 && ret == 0)
		ret = -errno;
	if (ret == 0)
		ret = store_commit(pc, tmp, name);
out_unlock:
	pthread_mutex_unlock(&pc->lock);
	return ret;
}

int powercut_own(int fd, const struct powercut_owner *o)
{
	if (fchown(fd, o->uid, o->gid) < 0 || fchmod(fd, o->mode & 07777) < 0)
		return -errno;
	return 0;
}

/* One durable entry: its name's file data (or an empty file when the name
 * is durable and the data never was), or its directory, recursively;
 * with its owner and mode (o), set once it is filled: the copy is
 * root's 0700 until then. */
static int build_entry(struct powercut *pc, char kind, unsigned long long ino, const struct powercut_owner *o,
		       const char *name, int dest, int depth)
{
	char sname[64];
	int fd, ret;

	if (kind == 'D') {
		if (mkdirat(dest, name, 0700) < 0)
			return -errno;
		fd = openat(dest, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		ret = powercut_build_durable(pc, (ino_t)ino, fd, depth + 1);
		if (ret == 0)
			ret = powercut_own(fd, o);
		close(fd);
		return ret;
	}
	snprintf(sname, sizeof(sname), "f%llu", ino);
	fd = openat(pc->storefd, sname, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fd = openat(dest, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		ret = fd < 0 ? -errno : 0;
	} else {
		ret = powercut_copy_file(fd, dest, name);
		close(fd);
		fd = ret ? -1 : openat(dest, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		ret = ret ? ret : fd < 0 ? -errno : 0;
	}
	/* On its durable content, what the crash model keeps of the rest. */
	if (ret == 0)
		ret = powercut_log_model(pc, ino, name, fd);
	if (ret == 0)
		ret = powercut_own(fd, o);
	if (fd >= 0)
		close(fd);
	return ret;
}

int powercut_build_durable(struct powercut *pc, ino_t ino, int dest, int depth)
{
	char sname[64], kind, *buf = NULL, *p, *end;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;
	FILE *f;

	if (depth > MAX_DEPTH)
		return -ELOOP;
	snprintf(sname, sizeof(sname), "d%llu", (unsigned long long)ino);
	int fd = openat(pc->storefd, sname, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno; /* never synced: no names */
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -errno;
	}
	while (ret == 0 && (n = getdelim(&buf, &cap, 0, f)) > 0) {
		struct powercut_owner o;
		unsigned long long child;
		int at = 0;

		end = buf + n;
		if (sscanf(buf, "%c %llu %o %u %u%n", &kind, &child, &o.mode, &o.uid, &o.gid, &at) != 5 ||
		    buf[at] != ' ' || (p = buf + at + 1) >= end - 1)
			return fclose(f), free(buf), -EIO;
		ret = build_entry(pc, kind, child, &o, p, dest, depth);
	}
	free(buf);
	fclose(f);
	return ret;
}

/* The next name of d (a stream on dir) that is a regular file or a
 * directory, its stat in *st; NULL at the end. */
static const char *next_entry(DIR *d, int dir, struct stat *st)
{
	struct dirent *e;

	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    !fstatat(dir, e->d_name, st, AT_SYMLINK_NOFOLLOW) &&
		    (S_ISREG(st->st_mode) || S_ISDIR(st->st_mode)))
			return e->d_name;
	return NULL;
}

/* A stream on a dup of dir, from its start, in *d; 0 or -errno (-ELOOP
 * past MAX_DEPTH). */
static int walk_open(int dir, int depth, DIR **d)
{
	int dfd;

	if (depth > MAX_DEPTH)
		return -ELOOP;
	if ((dfd = dup(dir)) < 0 || !(*d = fdopendir(dfd)))
		return dfd >= 0 ? (close(dfd), -errno) : -errno;
	rewinddir(*d);
	return 0;
}

int powercut_copy_tree(int src, int dest, int depth)
{
	const char *name;
	struct stat st;
	DIR *d;
	int ret = walk_open(src, depth, &d);

	if (ret < 0)
		return ret;
	while (ret == 0 && (name = next_entry(d, src, &st))) {
		int from = openat(src, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), to;

		if (from < 0)
			continue;
		struct powercut_owner o = { st.st_mode, st.st_uid, st.st_gid };

		if (S_ISREG(st.st_mode)) {
			ret = powercut_copy_file(from, dest, name);
			to = ret ? -1 : openat(dest, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
			if (to >= 0) {
				ret = powercut_own(to, &o);
				close(to);
			}
		} else if (S_ISDIR(st.st_mode) && mkdirat(dest, name, 0700) == 0 &&
			   (to = openat(dest, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
			ret = powercut_copy_tree(from, to, depth + 1);
			if (ret == 0)
				ret = powercut_own(to, &o);
			close(to);
		}
		close(from);
	}
	closedir(d);
	return ret;
}

static int remove_at(int parent, const char *name, dev_t dev, int depth)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int fd, ret = 0;

	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(parent, name, 0) < 0 ? -errno : 0;
	if (st.st_dev != dev || depth > MAX_DEPTH)
		return -EXDEV; /* a mount still there, or a loop: leave it */
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !(d = fdopendir(fd)))
		return fd >= 0 ? (close(fd), -errno) : -errno;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			int r = remove_at(dirfd(d), e->d_name, dev, depth + 1);

			if (r < 0 && ret == 0)
				ret = r;
		}
	}
	closedir(d);
	if (ret == 0 && unlinkat(parent, name, AT_REMOVEDIR) < 0)
		ret = -errno;
	return ret;
}

int powercut_remove_tree(int parent, const char *name)
{
	struct stat st;

	if (fstat(parent, &st) < 0)
		return -errno;
	return remove_at(parent, name, st.st_dev, 0);
}

int powercut_store_tree(struct powercut *pc, int dir, int depth)
{
	const char *name;
	struct stat st;
	DIR *d;
	int ret = walk_open(dir, depth, &d);

	if (ret < 0)
		return ret;
	/* Its names first: store_dir reads the directory through a dup of
	 * dir, which shares the offset this walk then rewinds. */
	ret = powercut_store_dir(pc, dir);
	rewinddir(d);
	while (ret == 0 && (name = next_entry(d, dir, &st))) {
		int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

		if (fd < 0)
			continue; /* gone since readdir */
		ret = S_ISDIR(st.st_mode) ? powercut_store_tree(pc, fd, depth + 1)
					  : powercut_store_file(pc, fd, true);
		close(fd);
	}
	closedir(d);
	return ret;
}
