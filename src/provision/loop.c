/*
 * Loop devices for `dbio matrix`: attaching the image to a free one with
 * ioctls (LOOP_CTL_GET_FREE, LOOP_CONFIGURE with autoclear, so a device
 * dbio dies holding before it mounts goes away by itself), detaching it,
 * and telling what a loop device holds (LOOP_GET_STATUS64 for the device
 * and inode, sysfs's loop/backing_file for the path whose trailer must
 * carry the run's token) before --cleanup touches it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "provision/provision_int.h"
#include "sys/sysfs.h"

int provision_loop_attach(struct provision_env *m, int image_fd, struct dbio_err *err)
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
	return provision_state_rec(m, PROVISION_REC_LOOP, false, err);
}

int provision_loop_detach(struct provision_env *m, struct dbio_err *err)
{
	int rc = 0;

	if (m->loop_fd < 0)
		return 0;
	if (!m->mounted) { /* never under a mounted filesystem */
		if (ioctl(m->loop_fd, LOOP_CLR_FD) && errno != ENXIO)
			rc = dbio_err_set(err, -errno, "matrix: cannot detach %s: %s", m->loop_dev,
					  strerror(errno));
	}
	close(m->loop_fd); /* autoclear detaches it on this last close too */
	m->loop_fd = -1;
	if (!m->mounted)
		provision_state_rec(m, PROVISION_REC_LOOP, true, err);
	return rc;
}

int provision_loop_holds(const char *dev, uint64_t idev, uint64_t iino, const char *token)
{
	struct loop_info64 info;
	char dir[300], backing[PROVISION_PATH_MAX];
	int fd = open(dev, O_RDONLY | O_CLOEXEC), rc;
	bool deleted;

	if (fd < 0)
		return errno == ENOENT || errno == ENXIO ? 0 : -1;
	rc = ioctl(fd, LOOP_GET_STATUS64, &info);
	close(fd);
	if (rc)
		return errno == ENXIO ? 0 : -1;
	if (info.lo_device != idev || info.lo_inode != iino || strncmp(dev, "/dev/", 5))
		return -1;
	if (sysfs_block_dir(dir, sizeof(dir), SYSFS_ROOT, dev + 5) ||
	    sysfs_loop_backing(dir, backing, sizeof(backing), &deleted))
		return -1;
	if (deleted)
		return -1; /* unlinked: nothing left to read the token from */
	return provision_image_is(backing, token, idev, iino) ? 1 : -1;
}

int provision_loop_holding(const char *real, char *name, size_t len)
{
	DIR *d = opendir(SYSFS_ROOT "/block");
	struct dirent *de;
	int found = 0;

	while (!found && d && (de = readdir(d))) {
		char file[320], backing[PROVISION_PATH_MAX];

		if (strncmp(de->d_name, "loop", 4))
			continue;
		/* Compared as the kernel prints it, " (deleted)" mark and
		 * all: an unlinked file of that name is not this one. */
		snprintf(file, sizeof(file), "%s/block/%s/loop/backing_file", SYSFS_ROOT, de->d_name);
		if (!sysfs_read_line(file, backing, sizeof(backing)) && !strcmp(backing, real)) {
			snprintf(name, len, "%s", de->d_name);
			found = 1;
		}
	}
	if (d)
		closedir(d);
	return found;
}

int provision_loop_undo(const struct provision_rec *r, char **log)
{
	int fd, rc = 0, holds = provision_loop_holds(r->name, r->dev, r->ino, r->token);

	if (holds < 0)
		provision_log_add(log, "left alone: %s (it holds another file now)", r->name);
	if (holds <= 0)
		return 0;
	if ((fd = open(r->name, O_RDWR | O_CLOEXEC)) < 0)
		return -errno;
	if (ioctl(fd, LOOP_CLR_FD) && errno != ENXIO)
		rc = -errno;
	close(fd);
	/* LOOP_CLR_FD on a device in use (a filesystem on it, even unmounted
	 * lazily) only sets autoclear and succeeds: the device is detached
	 * when its last user lets go, not now. Whether it still holds the
	 * image is what tells. */
	if (!rc && provision_loop_holds(r->name, r->dev, r->ino, r->token) > 0) {
		provision_log_add(
			log,
			"not detached: %s: still attached, in use (the kernel detaches it when its last user lets go)",
			r->name);
		rc = -EBUSY;
	}
	if (!rc)
		provision_log_add(log, "detached %s", r->name);
	return rc;
}
