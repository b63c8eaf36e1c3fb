/*
 * The power-cut layer's target: the directory <dir>/.dbio-powercut.<pid>
 * dbio makes (0700, never over anything it did not make), the private mount
 * namespace, the cut, the check of one acknowledged record, and the
 * cleanup of a SIGKILLed run's directory. See powercut.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "powercut/powercut_int.h"

#define MAX_CHECKED_BYTES (256L * 1024 * 1024)

/* Its own mount namespace, propagation private: the mount is dbio's only,
 * and it goes with the last process in the namespace, SIGKILL included. */
static int private_namespace(char *err, size_t len)
{
	if (unshare(CLONE_NEWNS) < 0) {
		snprintf(err, len, "cannot make a mount namespace of its own: %s", strerror(errno));
		return -errno;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		snprintf(err, len, "cannot make its mounts private: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

static int make_sub(struct powercut *pc, const char *name, int *fd, char *err, size_t len)
{
	if (mkdirat(pc->ownfd, name, 0700) < 0 ||
	    (fd && (*fd = openat(pc->ownfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)) {
		snprintf(err, len, "cannot make %s/%s: %s", pc->name, name, strerror(errno));
		return -errno;
	}
	return 0;
}

static int write_marker(struct powercut *pc, char *err, size_t len)
{
	int fd = openat(pc->ownfd, "marker", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	char text[64];
	int n = snprintf(text, sizeof(text), "%s %ld\n", POWERCUT_MARKER, (long)getpid());

	if (fd < 0 || write(fd, text, (size_t)n) != n) {
		snprintf(err, len, "cannot write %s/marker: %s", pc->name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -EIO;
	}
	close(fd);
	return 0;
}

static int make_dirs(struct powercut *pc, int dirfd, char *err, size_t len)
{
	char here[4096];
	struct stat st;
	int ret;

	snprintf(pc->name, sizeof(pc->name), POWERCUT_PREFIX "%ld", (long)getpid());
	if (mkdirat(dirfd, pc->name, 0700) < 0) {
		snprintf(err, len, "cannot make %s: %s", pc->name, strerror(errno));
		return -errno;
	}
	pc->ownfd = openat(dirfd, pc->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pc->ownfd < 0) {
		snprintf(err, len, "cannot open %s: %s", pc->name, strerror(errno));
		return -errno;
	}
	if ((ret = write_marker(pc, err, len)) < 0 ||
	    (ret = make_sub(pc, "live", &pc->livefd, err, len)) < 0 ||
	    (ret = make_sub(pc, "store", &pc->storefd, err, len)) < 0 ||
	    (ret = make_sub(pc, "mnt", NULL, err, len)) < 0)
		return ret;
	snprintf(here, sizeof(here), "/proc/self/fd/%d", pc->ownfd);
	ssize_t n = readlink(here, pc->mnt, sizeof(pc->mnt) - 5);
	if (n < 0) {
		snprintf(err, len, "cannot read the path of %s: %s", pc->name, strerror(errno));
		return -errno;
	}
	memcpy(pc->mnt + n, "/mnt", 5);
	if (fstat(pc->livefd, &st) < 0)
		return -errno;
	pc->root_ino = st.st_ino;
	return 0;
}

int powercut_open(int dirfd, const struct powercut_conf *conf, struct powercut **out, char *err, size_t len)
{
	struct powercut *pc = calloc(1, sizeof(*pc));
	const char *keep = getenv("DBIO_POWERCUT_KEEP");
	int ret;

	if (!pc)
		return -ENOMEM;
	pc->dirfd = dirfd;
	pc->ownfd = pc->livefd = pc->storefd = pc->chan = -1;
	pc->keep_all = keep && !strcmp(keep, "all");
	pc->keep_none = keep && !strcmp(keep, "none");
	if (conf)
		pc->conf = *conf;
	pthread_mutex_init(&pc->lock, NULL);
	if (!powercut_built()) {
		ret = powercut_fs_start(pc, err, len); /* says it is left out */
		free(pc);
		return ret;
	}
	ret = private_namespace(err, len);
	if (ret == 0)
		ret = make_dirs(pc, dirfd, err, len);
	if (ret == 0)
		ret = powercut_fs_start(pc, err, len);
	if (ret < 0) {
		powercut_close(pc);
		return ret;
	}
	*out = pc;
	return 0;
}

const char *powercut_mount_path(const struct powercut *pc)
{
	return pc->mnt;
}

int powercut_cut(struct powercut *pc, int *cutfd)
{
	struct stat st;
	int ret = powercut_remove_tree(pc->ownfd, "cut"), fd;

	if (ret < 0)
		return ret;
	if (mkdirat(pc->ownfd, "cut", 0700) < 0)
		return -errno;
	fd = openat(pc->ownfd, "cut", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	pthread_mutex_lock(&pc->lock);
	pc->cuts++;
	if (pc->keep_all)
		ret = powercut_copy_tree(pc->livefd, fd, 0);
	else if (!pc->keep_none)
		ret = powercut_build_durable(pc, pc->root_ino, fd, 0);
	pthread_mutex_unlock(&pc->lock);
	/* The root's owner and mode as live/'s now (the mount's root has no
	 * directory above it to sync): a server given the mount's root owns
	 * the cut's too. */
	if (ret == 0 && fstat(pc->livefd, &st) == 0)
		ret = powercut_own(fd, &(struct powercut_owner){ st.st_mode, st.st_uid, st.st_gid });
	if (ret < 0) {
		close(fd);
		return ret;
	}
	*cutfd = fd;
	return 0;
}

static bool path_beneath(const char *path)
{
	const char *p = path;

	if (!*path || *path == '/')
		return false;
	while (p) {
		if (!strncmp(p, "..", 2) && (p[2] == '/' || !p[2]))
			return false;
		p = strchr(p, '/');
		p = p ? p + 1 : NULL;
	}
	return true;
}

int powercut_has_line(int cutfd, const char *path, const char *record)
{
	size_t rlen = strlen(record), cap = 0;
	char *line = NULL;
	ssize_t n;
	int fd, found = 0;
	FILE *f;

	if (!path_beneath(path))
		return -EINVAL;
	fd = openat(cutfd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -errno;
	}
	while (!found && ftell(f) < MAX_CHECKED_BYTES && (n = getline(&line, &cap, f)) > 0) {
		const char *p = line, *end;

		if (line[n - 1] == '\n')
			n--;
		/* Split at NULs too: a lost write before a kept one is a hole. */
		for (end = line + n; !found && p <= end; p += strlen(p) + 1) {
			const char *nul = memchr(p, 0, (size_t)(end - p));
			size_t l = nul ? (size_t)(nul - p) : (size_t)(end - p);

			found = l == rlen && !memcmp(p, record, rlen);
			if (!nul)
				break;
		}
	}
	free(line);
	fclose(f);
	return found;
}

int powercut_torn_tail(int cutfd, const char *path)
{
	struct stat st;
	char last;
	int fd, ret;

	if (!path_beneath(path))
		return -EINVAL;
	fd = openat(cutfd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &st) < 0)
		ret = -errno;
	else if (st.st_size == 0)
		ret = 0;
	else
		ret = pread(fd, &last, 1, st.st_size - 1) == 1 ? last != '\n' : -EIO;
	close(fd);
	return ret;
}

bool powercut_fault_fired(struct powercut *pc, char *what, size_t len, unsigned long *points)
{
	bool fired;

	pthread_mutex_lock(&pc->lock);
	fired = pc->fault_fired;
	if (fired) {
		snprintf(what, len, "%s", pc->fault_what);
		*points = pc->fault_points;
	}
	pthread_mutex_unlock(&pc->lock);
	return fired;
}

static const char *const model_names[] = { "lose", "reorder", "torn512", "torn4k" };

int powercut_parse_model(const char *s, enum powercut_model *m)
{
	for (size_t i = 0; i < sizeof(model_names) / sizeof(model_names[0]); i++)
		if (!strcmp(s, model_names[i])) {
			*m = (enum powercut_model)i;
			return 0;
		}
	return -EINVAL;
}

const char *powercut_model_name(enum powercut_model m)
{
	return (size_t)m < sizeof(model_names) / sizeof(model_names[0]) ? model_names[m] : "?";
}

int powercut_parse_fault(const char *s, struct powercut_conf *c)
{
	const char *at = strchr(s, '@');
	size_t kl = at ? (size_t)(at - s) : strlen(s);
	unsigned long n;
	char *end;

	if (!strcmp(s, "none")) {
		c->fault = POWERCUT_NO_FAULT;
		c->fault_at = 0;
		return 0;
	}
	if (!at || !at[1] || at[1] == '-' || at[1] == '+')
		return -EINVAL;
	errno = 0;
	n = strtoul(at + 1, &end, 10);
	if (*end || errno || n == 0 || n > 1000000000UL)
		return -EINVAL;
	if (kl == 9 && !strncmp(s, "eio-fsync", kl))
		c->fault = POWERCUT_EIO_FSYNC;
	else if (kl == 12 && !strncmp(s, "enospc-write", kl))
		c->fault = POWERCUT_ENOSPC_WRITE;
	else
		return -EINVAL;
	c->fault_at = n;
	return 0;
}

void powercut_fault_name(const struct powercut_conf *c, char *buf, size_t len)
{
	if (c->fault == POWERCUT_NO_FAULT)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%s@%lu", c->fault == POWERCUT_EIO_FSYNC ? "eio-fsync" : "enospc-write",
			 c->fault_at);
}

void powercut_close(struct powercut *pc)
{
	if (!pc)
		return;
	powercut_fs_stop(pc);
	if (pc->storefd >= 0)
		close(pc->storefd);
	if (pc->livefd >= 0)
		close(pc->livefd);
	if (pc->ownfd >= 0) {
		close(pc->ownfd);
		powercut_remove_tree(pc->dirfd, pc->name);
	}
	pthread_mutex_destroy(&pc->lock);
	free(pc);
}

/* The pid of a layer directory whose marker says dbio made it, else 0:
 * the directory and its marker must be what dbio makes, its user's and
 * nobody else's (a directory 0700, a marker 0600 with one link), since
 * anyone who can write DIR could make a look-alike with the same text. */
static long marked_pid(int dirfd, const char *name)
{
	char text[64], want[64];
	long pid = strtol(name + strlen(POWERCUT_PREFIX), NULL, 10);
	int lfd, fd = -1;
	struct stat st;
	ssize_t n = -1;

	if (pid <= 0)
		return 0;
	lfd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (lfd < 0)
		return 0;
	if (!fstat(lfd, &st) && st.st_uid == geteuid() && !(st.st_mode & 077))
		fd = openat(lfd, "marker", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	close(lfd);
	if (fd < 0)
		return 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 077) &&
	    st.st_nlink == 1)
		n = read(fd, text, sizeof(text) - 1);
	close(fd);
	snprintf(want, sizeof(want), "%s %ld\n", POWERCUT_MARKER, pid);
	return n > 0 && (size_t)n == strlen(want) && !memcmp(text, want, (size_t)n) ? pid : 0;
}

int powercut_cleanup(int dirfd)
{
	int dfd = dup(dirfd), count = 0, ret = 0;
	struct dirent *e;
	DIR *d;

	if (dfd < 0 || !(d = fdopendir(dfd)))
		return dfd >= 0 ? (close(dfd), -errno) : -errno;
	while ((e = readdir(d))) {
		char mnt[128];
		long pid;

		if (strncmp(e->d_name, POWERCUT_PREFIX, strlen(POWERCUT_PREFIX)))
			continue;
		pid = marked_pid(dirfd, e->d_name);
		if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* not dbio's, or its dbio still runs */
		snprintf(mnt, sizeof(mnt), "%s/mnt", e->d_name);
		int mfd = openat(dirfd, mnt, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (mfd >= 0) {
			char proc[64];

			snprintf(proc, sizeof(proc), "/proc/self/fd/%d", mfd);
			umount2(proc, MNT_DETACH); /* none in another namespace: EINVAL */
			close(mfd);
		}
		if ((ret = powercut_remove_tree(dirfd, e->d_name)) < 0)
			break;
		count++;
	}
	closedir(d);
	return ret < 0 ? ret : count;
}

void powercut_on_durable(struct powercut *pc, void (*fn)(void *arg, unsigned long n), void *arg)
{
	pc->on_durable = fn;
	pc->on_arg = arg;
}

int powercut_settle(struct powercut *pc)
{
	return powercut_store_tree(pc, pc->livefd, 0);
}
