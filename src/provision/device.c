/*
 * --device: a real block device that `dbio matrix` may format. It is
 * refused when it or a partition of it is mounted or held (holders, an
 * O_EXCL open), whatever the options; and when libblkid finds a
 * filesystem, RAID or partition table signature on it, unless --force.
 * Also: the disk whose queue (scheduler) serves the device.
 */
#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "provision/provision_int.h"
#include "sys/sysfs.h"

/* Whether major:minor is the source of a mount. */
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

/* The device's partitions (subdirectories of its sysfs directory sys that
 * have a partition file): mounted or held is the same as the disk. */
static int check_partitions(const char *dev, const char *sys, struct dbio_err *err)
{
	char path[600], text[64];
	struct dirent *de;
	DIR *d;

	if (!(d = opendir(sys)))
		return 0;
	while ((de = readdir(d))) {
		unsigned ma, mi;

		snprintf(path, sizeof(path), "%s/%s/partition", sys, de->d_name);
		if (de->d_name[0] == '.' || access(path, F_OK))
			continue;
		snprintf(path, sizeof(path), "%s/%s", sys, de->d_name);
		if (sysfs_block_dev(path, text, sizeof(text)) || sscanf(text, "%u:%u", &ma, &mi) != 2)
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
	return 0;
}

/* What libblkid finds on the open device fd: 1 and a description in what
 * (len bytes), 0 nothing, or -EIO. */
static int signatures(int fd, char *what, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	int rc;

	if (!pr || blkid_probe_set_device(pr, fd, 0, 0)) {
		if (pr)
			blkid_free_probe(pr);
		return -EIO;
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
		snprintf(what, len, "%s%s%s%s%s%s", type ? "a filesystem signature (" : "", type ? type : "",
			 type ? ")" : "",
			 pttype ? (type ? " and a partition table (" : "a partition table (") : "",
			 pttype ? pttype : "", pttype ? ")" : "");
		if (rc == -2)
			snprintf(what, len, "more than one signature");
		if (label) /* the probe owns it */
			snprintf(what + strlen(what), len - strlen(what), " (label '%.64s')", label);
		blkid_free_probe(pr);
		return 1;
	}
	blkid_free_probe(pr);
	return rc < 0 ? -EIO : 0;
}

int provision_check_device(const char *dev, bool force, struct dbio_err *err)
{
	char sys[256], path[600];
	struct stat st;
	int fd, rc;

	if (stat(dev, &st))
		return dbio_err_set(err, DBIO_EINPUT, "--device %s: %s", dev, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return dbio_err_set(err, DBIO_EINPUT, "--device %s: not a block device", dev);
	snprintf(sys, sizeof(sys), "%s/dev/block/%u:%u", SYSFS_ROOT, major(st.st_rdev), minor(st.st_rdev));
	if (dev_mounted(major(st.st_rdev), minor(st.st_rdev)))
		return dbio_err_set(err, DBIO_EUNSAFE, "--device %s: mounted: refusing to format it", dev);
	snprintf(path, sizeof(path), "%s/holders", sys);
	if (!dir_empty(path))
		return dbio_err_set(err, DBIO_EUNSAFE,
				    "--device %s: in use by another device (see %s): refusing to format it",
				    dev, path);
	if ((rc = check_partitions(dev, sys, err)))
		return rc;
	/* O_EXCL on a block device fails while anyone holds it: a mount, swap,
	 * device-mapper, md, another exclusive opener. */
	fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		return dbio_err_set(
			err, errno == EBUSY ? DBIO_EUNSAFE : -errno,
			"--device %s: cannot open it exclusively: %s%s", dev, strerror(errno),
			errno == EBUSY ? " (mounted, swap, or held by another device): refusing to format it"
				       : "");
	rc = signatures(fd, path, sizeof(path));
	close(fd);
	if (rc < 0)
		return dbio_err_set(err, -EIO, "--device %s: cannot probe it for signatures (libblkid)", dev);
	if (rc > 0 && !force)
		return dbio_err_set(err, DBIO_EUNSAFE,
				    "--device %s: carries %s: refusing to destroy it without --force as well",
				    dev, path);
	return 0;
}

int provision_disk_of(const char *dev, char *disk, size_t len, char *devno, size_t devno_len,
		      struct dbio_err *err)
{
	char path[300], real[PROVISION_PATH_MAX], *slash;
	struct stat st;

	if (stat(dev, &st) || !S_ISBLK(st.st_mode))
		return dbio_err_set(err, DBIO_EINPUT, "--device %s: not a block device", dev);
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u", SYSFS_ROOT, major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(path, real))
		return dbio_err_set(err, -errno, "--device %s: %s: %s", dev, path, strerror(errno));
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/partition", SYSFS_ROOT, major(st.st_rdev),
		 minor(st.st_rdev));
	if (!access(path, F_OK) && (slash = strrchr(real, '/')))
		*slash = '\0';
	slash = strrchr(real, '/');
	snprintf(disk, len, "%s", slash ? slash + 1 : real);
	if (sysfs_block_dir(path, sizeof(path), SYSFS_ROOT, disk) ||
	    sysfs_block_dev(path, devno, devno_len)) {
		snprintf(path, sizeof(path), "%s/block/%s/dev", SYSFS_ROOT, disk);
		return dbio_err_set(err, -EIO, "--device %s: cannot read %s", dev, path);
	}
	return 0;
}
