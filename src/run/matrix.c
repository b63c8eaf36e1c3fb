/*
 * Fresh filesystems for `dbio matrix`; see matrix.h. Every resource is
 * written to the state file before (mount, image: the intent) or right
 * after (loop device: it detaches itself when dbio dies, LO_FLAGS_AUTOCLEAR)
 * it is made, and a line "-<record>" is appended when it is undone, so the
 * records still open in a state file are exactly what is left to undo.
 */
#include "run/matrix.h"

#include <blkid.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "run/run.h"

#define STATE_HEADER "dbio-matrix-state 2\n"
#define MARKER_VALUE "dbio matrix image"
/* The image's last 4 KiB, past the loop device's size limit so mkfs never
 * sees it, hold "dbio-matrix-image <token>": the token of the run that made
 * it, also in the state file, identifies the image beyond its path and
 * inode number (which a new file can reuse). */
#define TRAILER_BYTES 4096u
#define TRAILER_MAGIC "dbio-matrix-image "

static bool all_of(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return false;
	return true;
}

int matrix_check_sched(const char *name, struct dbio_err *err)
{
	if (!*name || !all_of(name, "-_") || strlen(name) >= 64)
		return dbio_err_set(
			err, DBIO_EINPUT,
			"--sched '%s': expected a list of I/O scheduler names, e.g. none,mq-deadline", name);
	return 0;
}

/* ---- small helpers ---- */

static int read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

/* The bracketed entry of a queue/scheduler file: "[mq-deadline] none". */
static int active_sched(const char *disk, char *name, size_t len)
{
	char path[256], text[512], *open_br, *close_br;
	int rc;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", disk);
	if ((rc = read_text(path, text, sizeof(text))))
		return rc;
	open_br = strchr(text, '[');
	close_br = open_br ? strchr(open_br, ']') : NULL;
	if (!close_br) { /* a device without schedulers says "none" */
		snprintf(name, len, "%s", text);
		return 0;
	}
	snprintf(name, len, "%.*s", (int)(close_br - open_br - 1), open_br + 1);
	return 0;
}

static int set_sched(const char *disk, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", disk);
	return write_text(path, name);
}

/* Whether dir is a mount point: it and its parent are on different devices. */
static bool is_mounted(const char *dir)
{
	char parent[MATRIX_PATH_MAX + 4];
	struct stat a, b;

	snprintf(parent, sizeof(parent), "%s/..", dir);
	return !stat(dir, &a) && !stat(parent, &b) && a.st_dev != b.st_dev;
}

/* Unmount dir, waiting up to a second while it is busy; then detach it
 * lazily (it goes when the last user lets go). 0 or -errno. */
static int unmount(const char *dir, bool *lazy)
{
	*lazy = false;
	for (int i = 0; i < 20; i++) {
		if (!umount2(dir, UMOUNT_NOFOLLOW))
			return 0;
		if (errno != EBUSY)
			return errno == EINVAL && !is_mounted(dir) ? 0 : -errno;
		usleep(50000);
	}
	*lazy = true;
	return umount2(dir, MNT_DETACH | UMOUNT_NOFOLLOW) ? -errno : 0;
}

/* A stat st_dev in the kernel's 32-bit encoding (loop_info64.lo_device). */
static uint64_t kernel_dev(dev_t dev)
{
	uint64_t ma = major(dev), mi = minor(dev);

	return (mi & 0xff) | (ma << 8) | ((mi & ~0xffull) << 12);
}

/* The token in the trailer of the open image fd into token[MATRIX_TOKEN_LEN
 * + 1]; -ENOENT when it has none. */
static int trailer_token(int fd, char *token)
{
	char buf[sizeof(TRAILER_MAGIC) + MATRIX_TOKEN_LEN];
	struct stat st;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < (off_t)TRAILER_BYTES ||
	    pread(fd, buf, sizeof(buf), st.st_size - TRAILER_BYTES) != (ssize_t)sizeof(buf) ||
	    memcmp(buf, TRAILER_MAGIC, strlen(TRAILER_MAGIC)))
		return -ENOENT;
	memcpy(token, buf + strlen(TRAILER_MAGIC), MATRIX_TOKEN_LEN);
	token[MATRIX_TOKEN_LEN] = '\0';
	return 0;
}

/* Whether path is the image with token (and, when idev is not 0, that
 * inode): a regular file whose trailer carries the token. */
static bool image_is(const char *path, const char *token, uint64_t idev, uint64_t iino)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	char found[MATRIX_TOKEN_LEN + 1];
	struct stat st;
	bool ours;

	if (fd < 0)
		return false;
	ours = !fstat(fd, &st) && (!idev || (kernel_dev(st.st_dev) == idev && st.st_ino == iino)) &&
	       !trailer_token(fd, found) && !strcmp(found, token);
	close(fd);
	return ours;
}

/* What loop device dev holds: 0 nothing, 1 the image (idev, iino) with
 * token, -1 anything else (or an image it cannot confirm). */
static int loop_holds(const char *dev, uint64_t idev, uint64_t iino, const char *token)
{
	struct loop_info64 info;
	char path[300], backing[MATRIX_PATH_MAX];
	int fd = open(dev, O_RDONLY | O_CLOEXEC), rc;
	size_t n;

	if (fd < 0)
		return errno == ENOENT || errno == ENXIO ? 0 : -1;
	rc = ioctl(fd, LOOP_GET_STATUS64, &info);
	close(fd);
	if (rc)
		return errno == ENXIO ? 0 : -1;
	if (info.lo_device != idev || info.lo_inode != iino || strncmp(dev, "/dev/", 5))
		return -1;
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", dev + 5);
	if (read_text(path, backing, sizeof(backing)))
		return -1;
	n = strlen(backing);
	if (n > 10 && !strcmp(backing + n - 10, " (deleted)"))
		return -1; /* unlinked: nothing left to read the token from */
	return image_is(backing, token, idev, iino) ? 1 : -1;
}

/* ---- the state file ---- */

/* The records of the state file, one function each so that the line that
 * says a thing was made and the "-" line that says it was undone match. */
static void rec_image(const struct matrix_env *m, char *buf, size_t len)
{
	snprintf(buf, len, "image %s %s", m->token, m->image);
}

static void rec_imageid(const struct matrix_env *m, char *buf, size_t len)
{
	snprintf(buf, len, "imageid %llu %llu %s %s", (unsigned long long)m->image_dev,
		 (unsigned long long)m->image_ino, m->token, m->image);
}

static void rec_loop(const struct matrix_env *m, char *buf, size_t len)
{
	snprintf(buf, len, "loop %s %llu %llu %s", m->loop_dev, (unsigned long long)m->image_dev,
		 (unsigned long long)m->image_ino, m->token);
}

/* A loop device's scheduler is restored only while it is free or holds
 * dbio's image; a real device's while it is the same device. */
static void rec_sched(const struct matrix_env *m, char *buf, size_t len)
{
	if (m->loop_dev[0])
		snprintf(buf, len, "sched %s %s loop %llu %llu %s", m->disk, m->sched_saved,
			 (unsigned long long)m->image_dev, (unsigned long long)m->image_ino, m->token);
	else
		snprintf(buf, len, "sched %s %s dev %s", m->disk, m->sched_saved, m->disk_devno);
}

/* ---- the state file ---- */

static int state_add(struct matrix_env *m, struct dbio_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Record rec ("-" undone: "-<rec>"). */
static int state_rec(struct matrix_env *m, struct dbio_err *err, bool undone,
		     void (*rec)(const struct matrix_env *, char *, size_t))
{
	char line[MATRIX_PATH_MAX + 256];

	rec(m, line, sizeof(line));
	return state_add(m, err, "%s%s", undone ? "-" : "", line);
}

static int state_add(struct matrix_env *m, struct dbio_err *err, const char *fmt, ...)
{
	char line[MATRIX_PATH_MAX + 128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line) - 1)
		return dbio_err_set(err, -ENAMETOOLONG, "matrix: state record too long");
	line[n++] = '\n';
	if (write(m->state_fd, line, (size_t)n) != n || fdatasync(m->state_fd))
		return dbio_err_set(err, -errno ? -errno : -EIO, "matrix: %s: cannot write: %s",
				    m->state_path, strerror(errno ? errno : EIO));
	return 0;
}

int matrix_begin(struct matrix_env *m, const char *image, uint64_t size_bytes, const char *device,
		 bool loop_direct_io, struct dbio_err *err)
{
	char tmp[MATRIX_PATH_MAX];
	struct stat st;
	int rc;

	memset(m, 0, sizeof(*m));
	m->state_fd = -1;
	m->loop_fd = -1;
	snprintf(m->image, sizeof(m->image), "%s", image ? image : "");
	snprintf(m->device, sizeof(m->device), "%s", device ? device : "");
	m->image_size_bytes = size_bytes;
	m->loop_direct_io = loop_direct_io;
	if (mkdir(MATRIX_STATE_DIR, 0700) && errno != EEXIST)
		return dbio_err_set(err, -errno, "matrix: cannot create %s: %s", MATRIX_STATE_DIR,
				    strerror(errno));
	if (lstat(MATRIX_STATE_DIR, &st) || !S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022))
		return dbio_err_set(
			err, DBIO_EUNSAFE,
			"matrix: %s: not a directory that only root can write: refusing to use it",
			MATRIX_STATE_DIR);
	/* Made under a temporary name and locked before it can be seen, so a
	 * cleanup never takes a live run's file for a dead one's. */
	snprintf(tmp, sizeof(tmp), "%s/.new.XXXXXX", MATRIX_STATE_DIR);
	m->state_fd = mkostemp(tmp, O_CLOEXEC | O_APPEND);
	if (m->state_fd < 0)
		return dbio_err_set(err, -errno, "matrix: cannot create a state file in %s: %s",
				    MATRIX_STATE_DIR, strerror(errno));
	snprintf(m->state_path, sizeof(m->state_path), "%s/%d.state", MATRIX_STATE_DIR, (int)getpid());
	if (flock(m->state_fd, LOCK_EX | LOCK_NB) ||
	    write(m->state_fd, STATE_HEADER, strlen(STATE_HEADER)) != (ssize_t)strlen(STATE_HEADER) ||
	    fsync(m->state_fd) || link(tmp, m->state_path)) {
		rc = -errno;
		unlink(tmp);
		close(m->state_fd);
		m->state_fd = -1;
		m->state_path[0] = '\0';
		return dbio_err_set(err, rc, "matrix: cannot create the state file %s/%d.state: %s",
				    MATRIX_STATE_DIR, (int)getpid(), strerror(-rc));
	}
	unlink(tmp);
	snprintf(m->mnt, sizeof(m->mnt), "%s/mnt.%d.XXXXXX", MATRIX_STATE_DIR, (int)getpid());
	if (!mkdtemp(m->mnt)) {
		rc = -errno;
		m->mnt[0] = '\0';
		return dbio_err_set(err, rc, "matrix: cannot create a mount point in %s: %s",
				    MATRIX_STATE_DIR, strerror(-rc));
	}
	return state_add(m, err, "mnt %s", m->mnt);
}

/* ---- one configuration ---- */

static int make_image(struct matrix_env *m, int *fd, struct dbio_err *err)
{
	unsigned char rnd[MATRIX_TOKEN_LEN / 2];
	char trailer[TRAILER_BYTES] = TRAILER_MAGIC;
	struct stat st;
	int rc;

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return dbio_err_set(err, -errno, "matrix: cannot draw a random token: %s", strerror(errno));
	for (size_t i = 0; i < sizeof(rnd); i++)
		snprintf(m->token + 2 * i, 3, "%02x", rnd[i]);
	memcpy(trailer + strlen(TRAILER_MAGIC), m->token, MATRIX_TOKEN_LEN);
	trailer[strlen(TRAILER_MAGIC) + MATRIX_TOKEN_LEN] = '\n';
	if ((rc = state_rec(m, err, false, rec_image)))
		return rc;
	*fd = open(m->image, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (*fd < 0) {
		rc = -errno;
		state_rec(m, err, true, rec_image);
		return dbio_err_set(err, rc, "matrix: image %s: cannot create: %s", m->image, strerror(-rc));
	}
	m->image_made = true;
	if (pwrite(*fd, trailer, sizeof(trailer), (off_t)m->image_size_bytes) != (ssize_t)sizeof(trailer) ||
	    fdatasync(*fd))
		return dbio_err_set(err, -errno, "matrix: image %s: cannot write its marker: %s", m->image,
				    strerror(errno));
	if (fsetxattr(*fd, MATRIX_MARKER_XATTR, MARKER_VALUE, strlen(MARKER_VALUE), 0) && errno != ENOTSUP)
		return dbio_err_set(err, -errno, "matrix: image %s: cannot mark it as dbio's: %s", m->image,
				    strerror(errno));
	if (fstat(*fd, &st))
		return dbio_err_set(err, -errno, "matrix: image %s: %s", m->image, strerror(errno));
	m->image_dev = kernel_dev(st.st_dev);
	m->image_ino = st.st_ino;
	return state_rec(m, err, false, rec_imageid);
}

static int attach_loop(struct matrix_env *m, int image_fd, struct dbio_err *err)
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC), rc = -EBUSY;

	if (ctl < 0)
		return dbio_err_set(err, -errno,
				    "matrix: /dev/loop-control: cannot open: %s (is the loop module loaded?)",
				    strerror(errno));
	for (int tries = 0; tries < 50 && rc == -EBUSY; tries++) {
		struct loop_config cfg;
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);

		if (n < 0) {
			rc = -errno;
			break;
		}
		snprintf(m->loop_dev, sizeof(m->loop_dev), "/dev/loop%d", n);
		m->loop_fd = open(m->loop_dev, O_RDWR | O_CLOEXEC);
		if (m->loop_fd < 0) {
			rc = errno == ENOENT ? -EBUSY : -errno; /* the node may still be coming */
			usleep(20000);
			continue;
		}
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (unsigned)image_fd;
		/* Autoclear: the device goes away by itself when dbio dies
		 * before it is mounted. */
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR | (m->loop_direct_io ? LO_FLAGS_DIRECT_IO : 0);
		cfg.info.lo_sizelimit = m->image_size_bytes; /* the marker stays out of reach */
		snprintf((char *)cfg.info.lo_file_name, sizeof(cfg.info.lo_file_name), "%s", m->image);
		if (!ioctl(m->loop_fd, LOOP_CONFIGURE, &cfg)) {
			rc = 0;
			break;
		}
		rc = -errno; /* EBUSY: another process took it first */
		close(m->loop_fd);
		m->loop_fd = -1;
	}
	close(ctl);
	if (rc) {
		m->loop_dev[0] = '\0';
		return dbio_err_set(err, rc, "matrix: cannot attach %s to a loop device: %s", m->image,
				    strerror(-rc));
	}
	snprintf(m->disk, sizeof(m->disk), "%s", m->loop_dev + 5);
	return state_rec(m, err, false, rec_loop);
}

/* Run argv (argv[0] a full path) with stdin from /dev/null and a fixed
 * environment; its output is kept and its last line goes into the error
 * when it fails. */
static int run_tool(char *const argv[], struct dbio_err *err)
{
	char out[8192], *last, *end;
	size_t used = 0;
	int pipefd[2], status = 0;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return dbio_err_set(err, -errno, "matrix: %s: %s", argv[0], strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return dbio_err_set(err, -errno, "matrix: %s: cannot start: %s", argv[0], strerror(errno));
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (null < 0 || dup2(null, 0) < 0 || dup2(pipefd[1], 1) < 0 || dup2(pipefd[1], 2) < 0)
			_exit(126);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* A known environment: nothing of the caller's (MKE2FS_CONFIG
		 * names a file mke2fs reads) reaches the tool. */
		execve(argv[0], argv, (char *[]){ "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL });
		_exit(127);
	}
	close(pipefd[1]);
	for (;;) {
		ssize_t n;

		if (used == sizeof(out) - 1) { /* keep the end */
			memmove(out, out + sizeof(out) / 2, sizeof(out) / 2 - 1);
			used = sizeof(out) / 2 - 1;
		}
		n = read(pipefd[0], out + used, sizeof(out) - 1 - used);
		if (n > 0) {
			used += (size_t)n;
		} else if (n == 0 || errno != EINTR) {
			break;
		} else if (atomic_load(&run_stop_signal)) {
			kill(pid, SIGTERM);
		}
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	out[used] = '\0';
	if (atomic_load(&run_stop_signal))
		return dbio_err_set(err, DBIO_ESTOPPED, "matrix: %s: stopped by %s", argv[0],
				    run_signal_name(atomic_load(&run_stop_signal)));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	end = out + used;
	while (end > out && isspace((unsigned char)end[-1]))
		*--end = '\0';
	/* The last line says why, unless a usage text follows the reason. */
	if ((last = strstr(out, "\nUsage:")) || (last = strstr(out, "\nusage:"))) {
		*last = '\0';
		last = strrchr(out, '\n');
	} else {
		last = strrchr(out, '\n');
	}
	last = last ? last + 1 : out;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return dbio_err_set(err, -ENOENT, "matrix: %s: cannot run it", argv[0]);
	if (WIFEXITED(status))
		return dbio_err_set(err, -EIO, "matrix: %s failed (exit %d)%s%s", argv[0],
				    WEXITSTATUS(status), *last ? ": " : "", last);
	return dbio_err_set(err, -EIO, "matrix: %s killed by signal %d", argv[0], WTERMSIG(status));
}

/* mkfs.<type> [force] OPTIONS -- DEVICE: after "--" no option can take the
 * device for its value (mkfs.c checked every option word). */
static int make_fs(struct matrix_env *m, const struct matrix_fs *fs, const char *mkfs_path, const char *dev,
		   struct dbio_err *err)
{
	char *argv[sizeof(fs->words) / sizeof(fs->words[0]) + 5];
	size_t n = 0;

	argv[n++] = (char *)mkfs_path;
	/* On a device the previous configuration's filesystem is there:
	 * consent was given with --destroy-data. */
	if (m->device[0])
		argv[n++] = (char *)matrix_mkfs_force_flag(fs->type);
	for (size_t i = 0; i < fs->nwords; i++)
		argv[n++] = fs->words[i];
	argv[n++] = "--";
	argv[n++] = (char *)dev;
	argv[n] = NULL;
	return run_tool(argv, err);
}

/* mount(2) flags of the generic options; the rest is the filesystem's. */
static int mount_fs(struct matrix_env *m, const char *dev, const char *type, const char *opts,
		    struct dbio_err *err)
{
	static const struct {
		const char *name;
		unsigned long set, clear;
	} flags[] = {
		{ "defaults", 0, 0 },
		{ "rw", 0, MS_RDONLY },
		{ "ro", MS_RDONLY, 0 },
		{ "noatime", MS_NOATIME, 0 },
		{ "atime", 0, MS_NOATIME },
		{ "nodiratime", MS_NODIRATIME, 0 },
		{ "diratime", 0, MS_NODIRATIME },
		{ "relatime", MS_RELATIME, 0 },
		{ "norelatime", 0, MS_RELATIME },
		{ "strictatime", MS_STRICTATIME, 0 },
		{ "lazytime", MS_LAZYTIME, 0 },
		{ "nolazytime", 0, MS_LAZYTIME },
		{ "sync", MS_SYNCHRONOUS, 0 },
		{ "async", 0, MS_SYNCHRONOUS },
		{ "dirsync", MS_DIRSYNC, 0 },
		{ "nosuid", MS_NOSUID, 0 },
		{ "nodev", MS_NODEV, 0 },
		{ "noexec", MS_NOEXEC, 0 },
	};
	char copy[1024], data[1024] = "", *save = NULL;
	unsigned long mflags = 0;
	int rc;

	snprintf(copy, sizeof(copy), "%s", opts ? opts : "");
	for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
			if (!strcmp(o, flags[i].name)) {
				mflags = (mflags | flags[i].set) & ~flags[i].clear;
				break;
			}
		if (i == sizeof(flags) / sizeof(flags[0]))
			snprintf(data + strlen(data), sizeof(data) - strlen(data), "%s%s", data[0] ? "," : "",
				 o);
	}
	if ((rc = state_add(m, err, "mount %s", m->mnt)))
		return rc;
	m->mounted = true;
	if (mount(dev, m->mnt, type, mflags, data[0] ? data : NULL)) {
		rc = -errno;
		m->mounted = false;
		state_add(m, err, "-mount %s", m->mnt);
		if (rc == -EINVAL && opts && *opts)
			return dbio_err_set(err, DBIO_EINPUT,
					    "--mount-opts '%s': %s refused them for %s: %s (see dmesg)", opts,
					    type, dev, strerror(-rc));
		return dbio_err_set(err, rc, "matrix: cannot mount %s (%s) on %s: %s", dev, type, m->mnt,
				    strerror(-rc));
	}
	return 0;
}

/* The /sys/block name whose queue serves dev: the disk of a partition. */
static int disk_of(const char *dev, char *disk, size_t len, char *devno, size_t devno_len,
		   struct dbio_err *err)
{
	char path[300], real[MATRIX_PATH_MAX], *slash;
	struct stat st;

	if (stat(dev, &st) || !S_ISBLK(st.st_mode))
		return dbio_err_set(err, DBIO_EINPUT, "--device %s: not a block device", dev);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(path, real))
		return dbio_err_set(err, -errno, "--device %s: %s: %s", dev, path, strerror(errno));
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", major(st.st_rdev), minor(st.st_rdev));
	if (!access(path, F_OK) && (slash = strrchr(real, '/')))
		*slash = '\0';
	slash = strrchr(real, '/');
	snprintf(disk, len, "%s", slash ? slash + 1 : real);
	snprintf(path, sizeof(path), "/sys/block/%s/dev", disk);
	if (read_text(path, devno, devno_len))
		return dbio_err_set(err, -EIO, "--device %s: cannot read %s", dev, path);
	return 0;
}

static int set_scheduler(struct matrix_env *m, const char *sched, struct dbio_err *err)
{
	char path[256], avail[512], now[64];
	int rc;

	if (!sched || !*sched)
		return 0;
	snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", m->disk);
	if ((rc = active_sched(m->disk, now, sizeof(now))))
		return dbio_err_set(err, rc, "matrix: %s: cannot read: %s", path, strerror(-rc));
	if (!strcmp(now, sched))
		return 0;
	snprintf(m->sched_saved, sizeof(m->sched_saved), "%s", now);
	if ((rc = state_rec(m, err, false, rec_sched))) {
		m->sched_saved[0] = '\0';
		return rc;
	}
	rc = set_sched(m->disk, sched);
	if (!rc && !active_sched(m->disk, now, sizeof(now)) && strcmp(now, sched))
		rc = -EINVAL;
	if (rc) {
		read_text(path, avail, sizeof(avail));
		return dbio_err_set(err, DBIO_EINPUT, "--sched %s: %s cannot use it: %s (available: %s)",
				    sched, m->disk, strerror(-rc), avail);
	}
	return 0;
}

int matrix_setup(struct matrix_env *m, const struct matrix_fs *fs, const char *mkfs_path,
		 const char *mount_opts, const char *sched, struct matrix_info *info, struct dbio_err *err)
{
	char dir[MATRIX_PATH_MAX + 8];
	const char *dev = m->device;
	struct statfs sf;
	int rc = 0, image_fd = -1;

	memset(info, 0, sizeof(*info));
	if (!m->device[0]) {
		rc = make_image(m, &image_fd, err);
		if (!rc)
			rc = attach_loop(m, image_fd, err);
		if (image_fd >= 0)
			close(image_fd); /* the loop device holds the file now */
		if (rc)
			return rc;
		dev = m->loop_dev;
	} else if ((rc = disk_of(m->device, m->disk, sizeof(m->disk), m->disk_devno, sizeof(m->disk_devno),
				 err))) {
		return rc;
	}
	snprintf(info->device, sizeof(info->device), "%s", dev);
	if (atomic_load(&run_stop_signal))
		return dbio_err_set(err, DBIO_ESTOPPED, "matrix: stopped by a signal");
	if ((rc = make_fs(m, fs, mkfs_path, dev, err)) ||
	    (rc = mount_fs(m, dev, fs->type, mount_opts, err)) || (rc = set_scheduler(m, sched, err)))
		return rc;
	snprintf(dir, sizeof(dir), "%s/dbio", m->mnt);
	if (mkdir(dir, 0755))
		return dbio_err_set(err, -errno, "matrix: cannot create %s: %s", dir, strerror(errno));
	if (statfs(m->mnt, &sf))
		return dbio_err_set(err, -errno, "matrix: statfs %s: %s", m->mnt, strerror(errno));
	info->fs_block_size_bytes = (uint64_t)sf.f_bsize;
	if (active_sched(m->disk, info->scheduler, sizeof(info->scheduler)))
		info->scheduler[0] = '\0';
	return 0;
}

int matrix_teardown(struct matrix_env *m, struct dbio_err *err)
{
	int rc = 0, r;

	if (m->sched_saved[0]) {
		if ((r = set_sched(m->disk, m->sched_saved)) && r != -ENOENT)
			rc = dbio_err_set(err, r, "matrix: cannot restore the scheduler of %s to %s: %s",
					  m->disk, m->sched_saved, strerror(-r));
		else
			state_rec(m, err, true, rec_sched);
		m->sched_saved[0] = '\0';
	}
	if (m->mounted) {
		bool lazy;

		if ((r = unmount(m->mnt, &lazy))) {
			rc = dbio_err_set(err, r, "matrix: cannot unmount %s: %s", m->mnt, strerror(-r));
		} else {
			state_add(m, err, "-mount %s", m->mnt);
			m->mounted = false;
		}
	}
	if (m->loop_fd >= 0) {
		if (!m->mounted) { /* never under a mounted filesystem */
			if (ioctl(m->loop_fd, LOOP_CLR_FD) && errno != ENXIO)
				rc = dbio_err_set(err, -errno, "matrix: cannot detach %s: %s", m->loop_dev,
						  strerror(errno));
		}
		close(m->loop_fd); /* autoclear detaches it on this last close too */
		m->loop_fd = -1;
		if (!m->mounted)
			state_rec(m, err, true, rec_loop);
	}
	if (m->image_made && !m->mounted) {
		if (unlink(m->image) && errno != ENOENT) {
			rc = dbio_err_set(err, -errno, "matrix: cannot remove %s: %s", m->image,
					  strerror(errno));
		} else {
			state_rec(m, err, true, rec_imageid);
			state_rec(m, err, true, rec_image);
			m->image_made = false;
		}
	}
	return rc;
}

int matrix_end(struct matrix_env *m, struct dbio_err *err)
{
	int rc = matrix_teardown(m, err);

	if (!rc && m->mnt[0] && !m->mounted) {
		if (rmdir(m->mnt) && errno != ENOENT)
			rc = dbio_err_set(err, -errno, "matrix: cannot remove %s: %s", m->mnt,
					  strerror(errno));
		else
			m->mnt[0] = '\0';
	}
	if (m->state_fd >= 0) {
		if (!rc && m->state_path[0])
			unlink(m->state_path); /* else it stays for --cleanup */
		close(m->state_fd);
		m->state_fd = -1;
	}
	return rc;
}

/* ---- leftovers of runs that are gone ---- */

__attribute__((format(printf, 2, 3))) static void log_add(char **log, const char *fmt, ...)
{
	char *line = NULL, *joined = NULL;
	va_list ap;
	int n;

	if (!log)
		return;
	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (asprintf(&joined, "%s%s\n", *log ? *log : "", line) >= 0) {
		free(*log);
		*log = joined;
	}
	free(line);
}

/* Remove the image at path when it is the one with token (and inode, when
 * idev is not 0); a file that is not, made since by someone else at the
 * same path (maybe with the same inode number), is left alone. 0 when
 * nothing of dbio's is left there. */
static int image_undo(const char *path, const char *token, uint64_t idev, uint64_t iino, char **log)
{
	if (access(path, F_OK))
		return 0;
	if (!image_is(path, token, idev, iino)) {
		log_add(log, "left alone: %s: not the image dbio made (no marker with this run's token)",
			path);
		return 0;
	}
	if (unlink(path) && errno != ENOENT)
		return -errno;
	log_add(log, "removed %s", path);
	return 0;
}

/* Undo one record of a state file ("mount /run/…"); 0 when nothing of
 * dbio's is left of it, also when what is there now is someone else's. */
static int undo_record(const char *rec, char **log)
{
	unsigned long long d = 0, i = 0;
	char a[64], b[128], kind[8], token[MATRIX_TOKEN_LEN + 1];
	int off = 0, rc = 0;

	if (sscanf(rec, "sched %63s %127s %7s %n", a, b, kind, &off) == 3 && off) {
		char dev[160], now[32];
		int holds;

		if (!strcmp(kind, "dev")) {
			snprintf(dev, sizeof(dev), "/sys/block/%s/dev", a);
			if (read_text(dev, now, sizeof(now)) || strcmp(now, rec + off)) {
				log_add(log, "left alone: the scheduler of %s (no longer the device %s)", a,
					rec + off);
				return 0;
			}
		} else if (sscanf(rec + off, "%llu %llu %32s", &d, &i, token) == 3) {
			snprintf(dev, sizeof(dev), "/dev/%s", a);
			if ((holds = loop_holds(dev, d, i, token)) < 0) {
				log_add(log, "left alone: the scheduler of %s (it holds another file now)",
					a);
				return 0;
			}
		} else {
			return 0;
		}
		rc = set_sched(a, b);
		if (!rc)
			log_add(log, "scheduler of %s back to %s", a, b);
		return rc == -ENOENT ? 0 : rc;
	}
	if (!strncmp(rec, "mount ", 6)) {
		bool lazy = false;

		if (!is_mounted(rec + 6))
			return 0;
		if (!(rc = unmount(rec + 6, &lazy)))
			log_add(log, "unmounted %s%s", rec + 6, lazy ? " (lazily: it was busy)" : "");
		return rc;
	}
	if (sscanf(rec, "loop %127s %llu %llu %32s", b, &d, &i, token) == 4) {
		int fd, holds = loop_holds(b, d, i, token);

		if (holds < 0)
			log_add(log, "left alone: %s (it holds another file now)", b);
		if (holds <= 0)
			return 0;
		if ((fd = open(b, O_RDWR | O_CLOEXEC)) < 0)
			return -errno;
		if (ioctl(fd, LOOP_CLR_FD) && errno != ENXIO)
			rc = -errno;
		close(fd);
		if (!rc)
			log_add(log, "detached %s", b);
		return rc;
	}
	if (sscanf(rec, "imageid %llu %llu %32s %n", &d, &i, token, &off) == 3 && off)
		return image_undo(rec + off, token, d, i, log);
	if (sscanf(rec, "image %32s %n", token, &off) == 1 && off) /* inode not yet recorded */
		return image_undo(rec + off, token, 0, 0, log);
	if (!strncmp(rec, "mnt ", 4)) {
		if (strncmp(rec + 4, MATRIX_STATE_DIR "/", strlen(MATRIX_STATE_DIR) + 1))
			return 0;
		if (is_mounted(rec + 4))
			return -EBUSY;
		if (rmdir(rec + 4) && errno != ENOENT)
			return -errno;
		return 0;
	}
	return 0; /* unknown: a newer dbio's; nothing to do */
}

/* Undo the open records of one state file (fd locked); 0 when all went. */
static int cleanup_state(const char *path, int fd, char **log, struct dbio_err *err)
{
	char **recs = NULL, *line = NULL;
	size_t n = 0, cap = 0, lcap = 0;
	FILE *fp = fdopen(dup(fd), "r");
	int rc = 0;

	if (!fp)
		return -errno;
	while (getline(&line, &lcap, fp) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '-') { /* undone: drop the latest equal record */
			for (size_t k = n; k-- > 0;)
				if (recs[k] && !strcmp(recs[k], line + 1)) {
					free(recs[k]);
					recs[k] = NULL;
					break;
				}
			continue;
		}
		if (!strncmp(line, "dbio-matrix-state", 17))
			continue;
		if (n == cap) {
			char **grown = realloc(recs, (cap = cap ? cap * 2 : 16) * sizeof(*recs));

			if (!grown) {
				rc = -ENOMEM;
				break;
			}
			recs = grown;
		}
		if (!(recs[n++] = strdup(line))) {
			rc = -ENOMEM;
			break;
		}
	}
	free(line);
	fclose(fp);
	for (size_t k = n; k-- > 0;) {
		int r;

		if (!recs[k] || rc == -ENOMEM)
			continue;
		r = undo_record(recs[k], log);
		if (r && !rc)
			rc = dbio_err_set(
				err, r, "cleanup: %s: cannot undo '%s': %s: undo it by hand, then remove %s",
				path, recs[k], dbio_strerror(r), path);
	}
	for (size_t k = 0; k < n; k++)
		free(recs[k]);
	free(recs);
	return rc;
}

int matrix_cleanup_stale(size_t *cleaned, char **log, struct dbio_err *err)
{
	DIR *d = opendir(MATRIX_STATE_DIR);
	struct dirent *de;
	int rc = 0;

	*cleaned = 0;
	if (!d)
		return errno == ENOENT ? 0
				       : dbio_err_set(err, -errno, "cleanup: %s: %s", MATRIX_STATE_DIR,
						      strerror(errno));
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		bool state = len > 6 && !strcmp(de->d_name + len - 6, ".state");
		bool fresh = !strncmp(de->d_name, ".new.", 5);
		char path[MATRIX_PATH_MAX];
		struct stat a, b;
		int fd, r;

		if (!state && !fresh)
			continue;
		snprintf(path, sizeof(path), "%s/%s", MATRIX_STATE_DIR, de->d_name);
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* Locked: its run is alive. Replaced meanwhile: another
		 * cleanup did it. */
		if (flock(fd, LOCK_EX | LOCK_NB) || fstat(fd, &a) || lstat(path, &b) ||
		    a.st_ino != b.st_ino) {
			if (state && errno == EWOULDBLOCK)
				log_add(log, "left alone: %s (its run is still going)", path);
			close(fd);
			continue;
		}
		if (fresh) { /* never published: holds nothing */
			unlink(path);
			close(fd);
			continue;
		}
		r = cleanup_state(path, fd, log, err);
		if (!r) {
			unlink(path);
			(*cleaned)++;
		} else if (!rc) {
			rc = r;
		}
		close(fd);
	}
	closedir(d);
	return rc;
}

/* ---- what may be formatted ---- */

int matrix_image_path(const char *given, char *path, size_t len, struct dbio_err *err)
{
	char value[64];
	struct stat st;
	ssize_t n;

	if (strchr(given, '\n'))
		return dbio_err_set(err, DBIO_EINPUT, "--image: a path with a newline is not accepted");
	if (!stat(given, &st) && S_ISDIR(st.st_mode)) {
		if (snprintf(path, len, "%s/dbio-matrix.%d.img", given, (int)getpid()) >= (int)len)
			return dbio_err_set(err, DBIO_EINPUT, "--image %s: path too long", given);
	} else if (snprintf(path, len, "%s", given) >= (int)len) {
		return dbio_err_set(err, DBIO_EINPUT, "--image %s: path too long", given);
	}
	if (lstat(path, &st)) {
		char *copy = strdup(path), *slash;
		int rc = 0;

		if (errno != ENOENT) {
			free(copy);
			return dbio_err_set(err, DBIO_EINPUT, "--image %s: %s", path, strerror(errno));
		}
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
	n = lgetxattr(path, MATRIX_MARKER_XATTR, value, sizeof(value) - 1);
	if (!S_ISREG(st.st_mode) || n != (ssize_t)strlen(MARKER_VALUE) ||
	    memcmp(value, MARKER_VALUE, (size_t)n))
		return dbio_err_set(
			err, DBIO_EUNSAFE,
			"--image %s: exists and was not made by dbio: refusing to format it (give a new file name or a directory)",
			path);
	/* dbio's own leftover: gone unless a loop device still holds it. */
	DIR *d = opendir("/sys/block");
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char bf[300], backing[MATRIX_PATH_MAX], real[MATRIX_PATH_MAX];

		if (strncmp(de->d_name, "loop", 4))
			continue;
		snprintf(bf, sizeof(bf), "/sys/block/%s/loop/backing_file", de->d_name);
		if (read_text(bf, backing, sizeof(backing)) || !realpath(path, real) || strcmp(backing, real))
			continue;
		closedir(d);
		return dbio_err_set(
			err, DBIO_EUNSAFE,
			"--image %s: an image dbio made, still attached to /dev/%s: run `dbio matrix --cleanup`, or detach it",
			path, de->d_name);
	}
	if (d)
		closedir(d);
	if (unlink(path))
		return dbio_err_set(err, -errno, "--image %s: cannot remove dbio's old image: %s", path,
				    strerror(errno));
	return 0;
}

/* ---- block devices ---- */

/* Whether major:minor (or, with any, any device) is the source of a mount. */
static bool dev_mounted(unsigned ma, unsigned mi)
{
	FILE *fp = fopen("/proc/self/mountinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	bool hit = false;

	while (fp && !hit && getline(&line, &cap, fp) > 0) {
		unsigned a, b;

		hit = sscanf(line, "%*s %*s %u:%u", &a, &b) == 2 && a == ma && b == mi;
	}
	free(line);
	if (fp)
		fclose(fp);
	return hit;
}

static bool dir_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	bool empty = true;

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			empty = false;
	if (d)
		closedir(d);
	return empty;
}

int matrix_check_device(const char *dev, bool force, struct dbio_err *err)
{
	char sys[256], path[600], text[64];
	struct stat st;
	blkid_probe pr;
	DIR *d;
	struct dirent *de;
	int fd, rc;

	if (stat(dev, &st))
		return dbio_err_set(err, DBIO_EINPUT, "--device %s: %s", dev, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return dbio_err_set(err, DBIO_EINPUT, "--device %s: not a block device", dev);
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (dev_mounted(major(st.st_rdev), minor(st.st_rdev)))
		return dbio_err_set(err, DBIO_EUNSAFE, "--device %s: mounted: refusing to format it", dev);
	snprintf(path, sizeof(path), "%s/holders", sys);
	if (!dir_empty(path))
		return dbio_err_set(err, DBIO_EUNSAFE,
				    "--device %s: in use by another device (see %s): refusing to format it",
				    dev, path);
	/* Its partitions: mounted or held is the same as the disk. */
	if ((d = opendir(sys))) {
		while ((de = readdir(d))) {
			unsigned ma, mi;

			snprintf(path, sizeof(path), "%s/%s/partition", sys, de->d_name);
			if (de->d_name[0] == '.' || access(path, F_OK))
				continue;
			snprintf(path, sizeof(path), "%s/%s/dev", sys, de->d_name);
			if (read_text(path, text, sizeof(text)) || sscanf(text, "%u:%u", &ma, &mi) != 2)
				continue;
			snprintf(path, sizeof(path), "%s/%s/holders", sys, de->d_name);
			if (dev_mounted(ma, mi) || !dir_empty(path)) {
				closedir(d);
				return dbio_err_set(
					err, DBIO_EUNSAFE,
					"--device %s: its partition %s is mounted or in use: refusing to format it",
					dev, de->d_name);
			}
		}
		closedir(d);
	}
	/* O_EXCL on a block device fails while anyone holds it: a mount, swap,
	 * device-mapper, md, another exclusive opener. */
	fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		return dbio_err_set(
			err, errno == EBUSY ? DBIO_EUNSAFE : -errno,
			"--device %s: cannot open it exclusively: %s%s", dev, strerror(errno),
			errno == EBUSY ? " (mounted, swap, or held by another device): refusing to format it"
				       : "");
	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, 0)) {
		if (pr)
			blkid_free_probe(pr);
		close(fd);
		return dbio_err_set(err, -EIO, "--device %s: cannot probe it for signatures (libblkid)", dev);
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0 || rc == -2) {
		const char *type = NULL, *pttype = NULL, *label = NULL;

		blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
		blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL);
		blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
		snprintf(path, sizeof(path), "%s%s%s%s%s%s", type ? "a filesystem signature (" : "",
			 type ? type : "", type ? ")" : "",
			 pttype ? (type ? " and a partition table (" : "a partition table (") : "",
			 pttype ? pttype : "", pttype ? ")" : "");
		if (rc == -2)
			snprintf(path, sizeof(path), "more than one signature");
		if (label) /* the probe owns it */
			snprintf(path + strlen(path), sizeof(path) - strlen(path), " (label '%.64s')", label);
		blkid_free_probe(pr);
		close(fd);
		if (!force)
			return dbio_err_set(
				err, DBIO_EUNSAFE,
				"--device %s: carries %s: refusing to destroy it without --force as well",
				dev, path);
		return 0;
	}
	blkid_free_probe(pr);
	close(fd);
	if (rc < 0)
		return dbio_err_set(err, -EIO, "--device %s: cannot probe it for signatures (libblkid)", dev);
	return 0;
}
