/*
 * The power-cut layer's FUSE filesystem (libfuse3's high-level API), served
 * by a child process of dbio's (serve() says why): every call passes through to live/ with the
 * *at calls; every change of a file's data or size is logged (log.c), and
 * fsync, fsyncdir and O_SYNC/O_DSYNC writes hand the file or directory to
 * the durable store (store.c). The fault of the run's conf is injected
 * here. Without libfuse3 the layer is left out and powercut_fs_start says
 * so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "powercut/powercut_int.h"

#ifdef DBIO_HAVE_FUSE3
#define FUSE_USE_VERSION 31
#include <dirent.h>
#include <fcntl.h>
#include <fuse.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

static struct powercut *fs_pc(void)
{
	return fuse_get_context()->private_data;
}

/* "/a/b" as a path relative to live/ ("." for the root). */
static const char *rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

#define LIVE	    (fs_pc()->livefd)
#define CHECK(call) ((call) < 0 ? -errno : 0)

static void *fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	cfg->use_ino = 1;
	/* Not direct_io: this libfuse (3.14) cannot let a direct_io file be
	 * mapped, and LMDB and gdbm map theirs. Without writeback_cache the
	 * kernel's page cache writes through: every write() still reaches the
	 * layer before it returns; only a store to a shared map waits for
	 * writeback (an msync is not yet a durability point). */
	cfg->direct_io = 0;
	cfg->kernel_cache = 0; /* the cache dropped at each open */
	cfg->attr_timeout = 0; /* sizes come from live/, never a cache */
	cfg->entry_timeout = 0;
	cfg->negative_timeout = 0;
	return fuse_get_context()->private_data;
}

static int fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	if (fi)
		return CHECK(fstat((int)fi->fh, st));
	return CHECK(fstatat(LIVE, rel(path), st, AT_SYMLINK_NOFOLLOW));
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	int fd = openat(LIVE, rel(path), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct dirent *e;
	DIR *d;

	if (fd < 0 || !(d = fdopendir(fd)))
		return fd >= 0 ? (close(fd), -errno) : -errno;
	while ((e = readdir(d))) {
		struct stat st = { .st_ino = e->d_ino, .st_mode = (mode_t)DTTOIF(e->d_type) };

		if (fill(buf, e->d_name, &st, 0, 0))
			break;
	}
	closedir(d);
	return 0;
}

static int open_flags(int flags)
{
	return (flags & ~(O_SYNC | O_DSYNC)) | O_NOFOLLOW | O_CLOEXEC;
}

/* fd opened as fi->fh; an O_TRUNC logged as a new size 0 (atomic_o_trunc:
 * the kernel passes it to open, not as a truncate). */
static int opened(int fd, struct fuse_file_info *fi)
{
	int ret;

	if (fd < 0)
		return -errno;
	if ((fi->flags & O_TRUNC) && (ret = powercut_log_size(fs_pc(), fd, 0)) < 0) {
		close(fd);
		return ret;
	}
	fi->fh = (uint64_t)fd;
	return 0;
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
	return opened(openat(LIVE, rel(path), open_flags(fi->flags)), fi);
}

/* A new file starts empty: no log of an inode number used before, and a
 * size 0 over a durable copy it may have left. */
/* What the server (root) makes is the caller's, as a kernel's filesystem
 * would make it: the mount allows other users (allow_other) and the
 * kernel checks their access by these owners (default_permissions). */
static int own_fd(int fd)
{
	const struct fuse_context *c = fuse_get_context();

	return fchown(fd, c->uid, c->gid) < 0 ? -errno : 0;
}

static int fs_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	int flags = open_flags(fi->flags) & ~O_EXCL, fd, ret;

	fd = openat(LIVE, rel(path), flags | O_CREAT | O_EXCL, mode);
	if (fd < 0 && errno == EEXIST && !(fi->flags & O_EXCL))
		return opened(openat(LIVE, rel(path), flags & ~O_CREAT), fi);
	if (fd < 0)
		return -errno;
	if ((ret = own_fd(fd)) < 0 || (ret = powercut_log_drop(fs_pc(), fd)) < 0 ||
	    (ret = powercut_log_size(fs_pc(), fd, 0)) < 0) {
		close(fd);
		return ret;
	}
	fi->fh = (uint64_t)fd;
	return 0;
}

static int fs_read(const char *path, char *buf, size_t n, off_t off, struct fuse_file_info *fi)
{
	ssize_t r = pread((int)fi->fh, buf, n, off);

	return r < 0 ? -errno : (int)r;
}

/* The run's fault, if this call (the n-th of its kind) is where it hits:
 * told to the driver, then the error. */
static bool fault_here(struct powercut *pc, enum powercut_fault kind, unsigned long n, const char *path)
{
	char what[128];

	if (pc->conf.fault != kind || n != pc->conf.fault_at)
		return false;
	snprintf(what, sizeof(what), "%s %lu of %s: %s", kind == POWERCUT_EIO_FSYNC ? "fsync" : "write", n,
		 rel(path), kind == POWERCUT_EIO_FSYNC ? "EIO" : "ENOSPC");
	powercut_fs_fault(pc, what);
	return true;
}

static int fs_write(const char *path, const char *buf, size_t n, off_t off, struct fuse_file_info *fi)
{
	struct powercut *pc = fs_pc();
	ssize_t w;
	int ret;

	if (fault_here(pc, POWERCUT_ENOSPC_WRITE, ++pc->writes, path))
		return -ENOSPC; /* nothing written */
	w = (fi->flags & O_APPEND) ? write((int)fi->fh, buf, n) : pwrite((int)fi->fh, buf, n, off);
	if (w < 0)
		return -errno;
	if ((fi->flags & O_APPEND) && (off = lseek((int)fi->fh, 0, SEEK_CUR) - w) < 0)
		return -errno;
	if ((ret = powercut_log_write(pc, (int)fi->fh, off, buf, (size_t)w)) < 0)
		return ret;
	if (fi->flags & (O_SYNC | O_DSYNC)) {
		ret = powercut_store_file(pc, (int)fi->fh, false);
		if (ret < 0)
			return ret;
		powercut_point(pc);
	}
	return (int)w;
}

/* The backing file is synced too, so that a workload's ops/s on the layer
 * still pay the device's sync (the store itself need not be: a cut is
 * logical, the host keeps its power). */
static int fs_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	struct powercut *pc = fs_pc();
	int ret;

	/* Linux's way with a failed writeback: the dirty pages marked clean,
	 * their data never on the device, the next fsync succeeding. */
	if (fault_here(pc, POWERCUT_EIO_FSYNC, ++pc->fsyncs, path)) {
		powercut_log_drop(pc, (int)fi->fh);
		return -EIO;
	}
	ret = powercut_store_file(pc, (int)fi->fh, false);
	if (ret == 0)
		ret = CHECK(datasync ? fdatasync((int)fi->fh) : fsync((int)fi->fh));
	if (ret == 0)
		powercut_point(pc);
	return ret;
}

static int fs_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi)
{
	int fd = openat(LIVE, rel(path), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = powercut_store_dir(fs_pc(), fd);
	close(fd);
	if (ret == 0)
		powercut_point(fs_pc());
	return ret;
}

static int fs_release(const char *path, struct fuse_file_info *fi)
{
	close((int)fi->fh);
	return 0;
}

static int fs_unlink(const char *path)
{
	return CHECK(unlinkat(LIVE, rel(path), 0));
}

/* An unlink meanwhile (only through the mount) leaves the directory
 * root's: no one else's access widened. */
static int fs_mkdir(const char *path, mode_t mode)
{
	int fd, ret;

	if (mkdirat(LIVE, rel(path), mode) < 0)
		return -errno;
	fd = openat(LIVE, rel(path), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = own_fd(fd);
	close(fd);
	return ret;
}

static int fs_rmdir(const char *path)
{
	return CHECK(unlinkat(LIVE, rel(path), AT_REMOVEDIR));
}

static int fs_rename(const char *from, const char *to, unsigned int flags)
{
	if (flags)
		return -EINVAL; /* RENAME_EXCHANGE, RENAME_NOREPLACE: not yet */
	return CHECK(renameat(LIVE, rel(from), LIVE, rel(to)));
}

static int fs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	int fd, ret;

	if (fi)
		return ftruncate((int)fi->fh, size) < 0 ? -errno
							: powercut_log_size(fs_pc(), (int)fi->fh, size);
	fd = openat(LIVE, rel(path), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = ftruncate(fd, size) < 0 ? -errno : powercut_log_size(fs_pc(), fd, size);
	close(fd);
	return ret;
}

/* Never through a symbolic link (a chmod that does not follow one reaches
 * the server as a chmod of the link): by its own descriptor, opened
 * O_PATH without following. */
static int fs_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	char self[64];
	struct stat st;
	int fd, ret;

	(void)fi; /* as fs_chown */
	fd = openat(LIVE, rel(path), O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	if (fstat(fd, &st) < 0)
		ret = -errno;
	else
		ret = S_ISLNK(st.st_mode) ? -EOPNOTSUPP : CHECK(chmod(self, mode));
	close(fd);
	return ret;
}

/* The kernel has checked the caller may (default_permissions); -1 leaves
 * that one as it is. By the path, never fi: an fchown of a directory
 * comes with the fh of its opendir, which the layer does not set. */
static int fs_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi)
{
	(void)fi;
	return CHECK(fchownat(LIVE, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW));
}

static int fs_utimens(const char *path, const struct timespec ts[2], struct fuse_file_info *fi)
{
	return CHECK(utimensat(LIVE, rel(path), ts, AT_SYMLINK_NOFOLLOW));
}

static int fs_statfs(const char *path, struct statvfs *sv)
{
	return CHECK(fstatvfs(LIVE, sv));
}

/* A plain allocation is a new size when it extends the file; one that
 * keeps the size changes nothing a read sees; a hole punched or a range
 * zeroed is a change the log cannot replay (the next fsync copies all). */
static int fs_fallocate(const char *path, int mode, off_t off, off_t len, struct fuse_file_info *fi)
{
	int fd = (int)fi->fh;
	struct stat st;

	if (fstat(fd, &st) < 0 || fallocate(fd, mode, off, len) < 0)
		return -errno;
	if (mode == 0 && off + len > st.st_size)
		return powercut_log_size(fs_pc(), fd, off + len);
	return mode == FALLOC_FL_KEEP_SIZE ? 0 : powercut_log_unknown(fs_pc(), fd);
}

static const struct fuse_operations fs_ops = {
	.init = fs_init,
	.getattr = fs_getattr,
	.readdir = fs_readdir,
	.open = fs_open,
	.create = fs_create,
	.read = fs_read,
	.write = fs_write,
	.fsync = fs_fsync,
	.fsyncdir = fs_fsyncdir,
	.release = fs_release,
	.unlink = fs_unlink,
	.mkdir = fs_mkdir,
	.rmdir = fs_rmdir,
	.rename = fs_rename,
	.truncate = fs_truncate,
	.chmod = fs_chmod,
	.chown = fs_chown,
	.utimens = fs_utimens,
	.statfs = fs_statfs,
	.fallocate = fs_fallocate,
};

/* The server, in a child process of its own: serving from a thread of
 * dbio's would deadlock a SIGKILL of dbio while a workload thread waits in
 * a request (the wait is not killable once the request is read, and the
 * fuse device, which would abort it, is closed only when every thread of
 * the process is gone). The child dies with dbio (PR_SET_PDEATHSIG), its
 * device closes, the kernel aborts the connection, the request fails.
 * Never returns. */
static void serve(struct powercut *pc, int chan, pid_t parent)
{
	/* Other users (the PostgreSQL server's) reach the mount only where
	 * dbio gives them a path to it: the mount point is in a directory of
	 * mode 0700. The kernel checks their access (the server is root). */
	char *argv[] = { "dbio-powercut", "-o", "allow_other,default_permissions", NULL };
	struct fuse_args args = FUSE_ARGS_INIT(3, argv);
	const int stops[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	char msg[256] = "R";

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		signal(stops[i], SIG_IGN); /* a terminal's ^C is the driver's to handle */
	pc->chan = chan;
	pc->fuse = fuse_new(&args, &fs_ops, sizeof(fs_ops), pc);
	fuse_opt_free_args(&args); /* fuse_new may add to args (its copy is then allocated) */
	if (!pc->fuse)
		snprintf(msg, sizeof(msg), "Efuse_new failed");
	else if (fuse_mount(pc->fuse, pc->mnt) != 0)
		snprintf(msg, sizeof(msg), "Ecannot mount the layer on %s (is /dev/fuse there?)", pc->mnt);
	if (write(chan, msg, strlen(msg)) < 0 || msg[0] != 'R')
		_exit(1);
	fuse_loop(pc->fuse); /* until the driver kills it */
	_exit(0);
}

/* In the child, right after a durability point: tell the driver (its
 * listener calls the hook) and wait for its answer, so that a cut there
 * sees the workload still waiting in that call. */
/* What the server tells the driver: durability point n, or (what set)
 * that the fault hit. */
struct point_msg {
	unsigned long n;
	char what[128];
};

static void tell(struct powercut *pc, const struct point_msg *m)
{
	char ok;

	if (pc->chan >= 0 && write(pc->chan, m, sizeof(*m)) == (ssize_t)sizeof(*m))
		(void)!read(pc->chan, &ok, 1); /* 0 when the driver is gone: go on */
}

void powercut_fs_point(struct powercut *pc, unsigned long n)
{
	struct point_msg m = { .n = n };

	tell(pc, &m);
}

void powercut_fs_fault(struct powercut *pc, const char *what)
{
	struct point_msg m = { .n = pc->points };

	snprintf(m.what, sizeof(m.what), "%s", what);
	tell(pc, &m);
}

void powercut_point(struct powercut *pc)
{
	powercut_fs_point(pc, ++pc->points);
}

/* The driver's thread that answers the child's durability points. */
static void *listen_points(void *arg)
{
	struct powercut *pc = arg;
	struct point_msg m;

	while (read(pc->chan, &m, sizeof(m)) == (ssize_t)sizeof(m)) {
		if (m.what[0]) {
			pthread_mutex_lock(&pc->lock);
			pc->fault_fired = true;
			pc->fault_points = m.n;
			memcpy(pc->fault_what, m.what, sizeof(pc->fault_what));
			pthread_mutex_unlock(&pc->lock);
		} else {
			pc->points = m.n;
			if (pc->on_durable)
				pc->on_durable(pc->on_arg, m.n);
		}
		if (write(pc->chan, "", 1) < 0)
			break;
	}
	return NULL;
}

int powercut_fs_start(struct powercut *pc, char *err, size_t len)
{
	sigset_t stops, old;
	char msg[256];
	int sv[2], ret;
	ssize_t n;
	pid_t parent = getpid();

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(err, len, "cannot make a socket pair: %s", strerror(errno));
		return -errno;
	}
	fflush(NULL); /* nothing of the driver's buffers printed twice */
	pc->child = fork();
	if (pc->child == 0) {
		close(sv[0]);
		serve(pc, sv[1], parent);
	}
	close(sv[1]);
	pc->chan = sv[0];
	if (pc->child < 0) {
		snprintf(err, len, "cannot start its server: %s", strerror(errno));
		return -errno;
	}
	n = read(pc->chan, msg, sizeof(msg) - 1);
	msg[n > 0 ? n : 0] = 0;
	if (n <= 0 || msg[0] != 'R') {
		snprintf(err, len, "%s", n > 0 ? msg + 1 : "its server failed to start");
		return -EIO;
	}
	pc->mounted = true;
	/* The listener inherits a mask with the stop signals blocked: they
	 * reach the driver's thread, whose read they interrupt. */
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stops, &old);
	ret = pthread_create(&pc->thread, NULL, listen_points, pc);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret != 0) {
		snprintf(err, len, "cannot start its listener: %s", strerror(ret));
		return -ret;
	}
	pc->serving = true;
	return 0;
}

/* The server killed: its device closed, the kernel aborts the connection
 * (nothing can wait on it any more, and a lookup cannot hang on it), then
 * the mount point is detached.
 * The listener's read ends when the child's end of the pair closes. */
void powercut_fs_stop(struct powercut *pc)
{
	if (pc->child > 0) {
		kill(pc->child, SIGKILL);
		waitpid(pc->child, NULL, 0);
		pc->child = 0;
	}
	if (pc->mounted) {
		/* By the layer's path as it is now (readlink of its own
		 * descriptor), not pc->mnt: a rename of the target meanwhile
		 * must not leave the mount there (B3). The server is dead, so
		 * the lookup asks it nothing. */
		char self[64], now[4096];
		ssize_t n;

		snprintf(self, sizeof(self), "/proc/self/fd/%d", pc->ownfd);
		n = readlink(self, now, sizeof(now) - 5);
		if (n > 0) {
			memcpy(now + n, "/mnt", 5);
			if (umount2(now, MNT_DETACH) == 0)
				n = 0;
		}
		if (n != 0)
			umount2(pc->mnt, MNT_DETACH);
		pc->mounted = false;
	}
	if (pc->serving) {
		pthread_join(pc->thread, NULL);
		pc->serving = false;
	}
	if (pc->chan >= 0) {
		close(pc->chan);
		pc->chan = -1;
	}
}

bool powercut_built(void)
{
	return true;
}
#else
int powercut_fs_start(struct powercut *pc, char *err, size_t len)
{
	snprintf(err, len,
		 "the power-cut layer is left out of this build: install libfuse3-dev and build again");
	return -ENOTSUP;
}

void powercut_fs_stop(struct powercut *pc)
{
}

void powercut_fs_point(struct powercut *pc, unsigned long n)
{
}

void powercut_fs_fault(struct powercut *pc, const char *what)
{
}

bool powercut_built(void)
{
	return false;
}
#endif
