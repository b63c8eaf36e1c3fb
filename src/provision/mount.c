/*
 * Mounting the filesystem under test: which --mount-opts are accepted (none
 * that names another device), which become mount(2) flags and which go to
 * the filesystem, mounting at the run's private mount point, unmounting
 * (lazily when it stays busy at the end of a run), and --cleanup of mounts
 * and mount points (a busy mount there stays, named with its holder).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "provision/provision_int.h"

/*
 * Mount options that name another device or file: an external journal or
 * log, a second device. Mounting with one would let the kernel write to
 * storage dbio did not make.
 */
static const char *const mount_refused[] = {
	"journal_dev",	/* ext3/4: external journal by device number */
	"journal_path", /* ext3/4: external journal by path */
	"logdev",	/* xfs: external log */
	"rtdev",	/* xfs: realtime device */
	"device",	/* btrfs: another member device */
};

int provision_check_mount_opts(const char *opts, struct dbio_err *err)
{
	for (const char *p = opts; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_=,.:", *p))
			return dbio_err_set(
				err, DBIO_EINPUT,
				"--mount-opts '%s': expected a comma-separated list of options (letters, digits and - _ = , . :), e.g. noatime,data=writeback",
				opts);
	for (const char *p = opts; *p;) {
		size_t len = strcspn(p, ","), key = strcspn(p, ",=");

		if (key > len)
			key = len;
		for (size_t i = 0; i < sizeof(mount_refused) / sizeof(mount_refused[0]); i++)
			if (strlen(mount_refused[i]) == key && !strncmp(p, mount_refused[i], key))
				return dbio_err_set(
					err, DBIO_EINPUT,
					"--mount-opts '%s': option '%s' names another device: not accepted (the device is dbio's)",
					opts, mount_refused[i]);
		p += len + (p[len] == ',');
	}
	return 0;
}

/* The generic options, which are mount(2) flags; the rest is the
 * filesystem's. */
static const struct {
	const char *name;
	unsigned long set, clear;
} mount_flags[] = {
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

/* Split opts into mount(2) flags and the filesystem's data (len bytes). */
static unsigned long split_opts(const char *opts, char *data, size_t len)
{
	char copy[1024], *save = NULL;
	unsigned long mflags = 0;

	data[0] = '\0';
	snprintf(copy, sizeof(copy), "%s", opts ? opts : "");
	for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(mount_flags) / sizeof(mount_flags[0]); i++)
			if (!strcmp(o, mount_flags[i].name)) {
				mflags = (mflags | mount_flags[i].set) & ~mount_flags[i].clear;
				break;
			}
		if (i == sizeof(mount_flags) / sizeof(mount_flags[0]))
			snprintf(data + strlen(data), len - strlen(data), "%s%s", data[0] ? "," : "", o);
	}
	return mflags;
}

int provision_mount(struct provision_env *m, const char *dev, const char *type, const char *opts,
		    struct dbio_err *err)
{
	char data[1024];
	unsigned long mflags = split_opts(opts, data, sizeof(data));
	int rc;

	if ((rc = provision_state_rec(m, PROVISION_REC_MOUNT, false, err)))
		return rc;
	m->mounted = true;
	if (mount(dev, m->mnt, type, mflags, data[0] ? data : NULL)) {
		rc = -errno;
		m->mounted = false;
		provision_state_rec(m, PROVISION_REC_MOUNT, true, err);
		if (rc == -EINVAL && opts && *opts)
			return dbio_err_set(err, DBIO_EINPUT,
					    "--mount-opts '%s': %s refused them for %s: %s (see dmesg)", opts,
					    type, dev, strerror(-rc));
		return dbio_err_set(err, rc, "matrix: cannot mount %s (%s) on %s: %s", dev, type, m->mnt,
				    strerror(-rc));
	}
	return 0;
}

/* Whether dir is a mount point: it and its parent are on different devices. */
bool provision_is_mounted(const char *dir)
{
	char parent[PROVISION_PATH_MAX + 4];
	struct stat a, b;

	snprintf(parent, sizeof(parent), "%s/..", dir);
	return !stat(dir, &a) && !stat(parent, &b) && a.st_dev != b.st_dev;
}

/* Unmount dir, waiting up to a second while it is busy; then, with lazy,
 * detach it lazily (it goes when the last user lets go; *lazy says so).
 * 0 or -errno (-EBUSY: still busy, without lazy). */
static int unmount_dir(const char *dir, bool lazy_ok, bool *lazy)
{
	*lazy = false;
	for (int i = 0; i < 20; i++) {
		if (!umount2(dir, UMOUNT_NOFOLLOW))
			return 0;
		if (errno != EBUSY)
			return errno == EINVAL && !provision_is_mounted(dir) ? 0 : -errno;
		usleep(50000);
	}
	if (!lazy_ok)
		return -EBUSY;
	*lazy = true;
	return umount2(dir, MNT_DETACH | UMOUNT_NOFOLLOW) ? -errno : 0;
}

/* Whether the link /proc/<pid>/<name> points at dir or below it. */
static bool link_under(const char *pid, const char *name, const char *dir)
{
	char link[300], to[PROVISION_PATH_MAX];
	const size_t n = strlen(dir);
	ssize_t got;

	snprintf(link, sizeof(link), "/proc/%s/%s", pid, name);
	if ((got = readlink(link, to, sizeof(to) - 1)) < 0)
		return false;
	to[got] = '\0';
	return !strncmp(to, dir, n) && (to[n] == '\0' || to[n] == '/');
}

/* What keeps dir busy, as "pid N (comm), its working directory", into
 * out; "" when no process shows one (a mount below it, a kernel user). */
static void find_holder(const char *dir, char *out, size_t len)
{
	DIR *proc = opendir("/proc");
	struct dirent *de;

	out[0] = '\0';
	while (proc && !out[0] && (de = readdir(proc))) {
		char comm[64] = "?", path[300], fds[300];
		const char *what = NULL;
		FILE *fp;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (link_under(de->d_name, "cwd", dir))
			what = "its working directory";
		else if (link_under(de->d_name, "root", dir))
			what = "its root directory";
		snprintf(fds, sizeof(fds), "/proc/%s/fd", de->d_name);
		DIR *fd = what ? NULL : opendir(fds);

		for (struct dirent *f; fd && !what && (f = readdir(fd));) {
			snprintf(path, sizeof(path), "fd/%s", f->d_name);
			if (f->d_name[0] != '.' && link_under(de->d_name, path, dir))
				what = "a file it has open";
		}
		if (fd)
			closedir(fd);
		if (!what)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if ((fp = fopen(path, "re"))) {
			if (fgets(comm, sizeof(comm), fp))
				comm[strcspn(comm, "\n")] = '\0';
			fclose(fp);
		}
		snprintf(out, len, "pid %s (%s), %s", de->d_name, comm, what);
	}
	if (proc)
		closedir(proc);
}

int provision_unmount(struct provision_env *m, struct dbio_err *err)
{
	bool lazy;
	int rc;

	if (!m->mounted)
		return 0;
	if ((rc = unmount_dir(m->mnt, true, &lazy)))
		return dbio_err_set(err, rc, "matrix: cannot unmount %s: %s", m->mnt, strerror(-rc));
	provision_state_rec(m, PROVISION_REC_MOUNT, true, err);
	m->mounted = false;
	return 0;
}

int provision_mount_undo(const char *dir, char **log)
{
	char holder[128];
	bool lazy;
	int rc;

	if (!provision_is_mounted(dir))
		return 0;
	/* never lazily here: a lazy unmount leaves the filesystem, and the
	 * loop device under it, alive for as long as its holder lives */
	if (!(rc = unmount_dir(dir, false, &lazy))) {
		provision_log_add(log, "unmounted %s", dir);
		return 0;
	}
	if (rc == -EBUSY) {
		find_holder(dir, holder, sizeof(holder));
		provision_log_add(log, "not unmounted: %s: busy%s%s", dir, holder[0] ? ": held by " : "",
				  holder);
	}
	return rc;
}

int provision_mnt_undo(const char *dir)
{
	if (strncmp(dir, PROVISION_STATE_DIR "/", strlen(PROVISION_STATE_DIR) + 1))
		return 0;
	if (provision_is_mounted(dir))
		return -EBUSY;
	if (rmdir(dir) && errno != ENOENT)
		return -errno;
	return 0;
}
