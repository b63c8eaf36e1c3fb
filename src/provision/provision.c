/*
 * The steps of one matrix run in their order; see provision.h. A run
 * begins (state file, mount point), then each configuration is set up
 * (image, loop device, mkfs, mount, scheduler) and torn down in reverse,
 * and the run ends (mount point and state file gone). Each step lives in
 * the file of its resource and records itself in the state file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "provision/provision_int.h"

int provision_begin(struct provision_env *m, const char *image, uint64_t size_bytes, const char *device,
		    bool loop_direct_io, struct provision_stop stop, struct dbio_err *err)
{
	int rc;

	memset(m, 0, sizeof(*m));
	m->state_fd = -1;
	m->loop_fd = -1;
	snprintf(m->image, sizeof(m->image), "%s", image ? image : "");
	snprintf(m->device, sizeof(m->device), "%s", device ? device : "");
	m->image_size_bytes = size_bytes;
	m->loop_direct_io = loop_direct_io;
	m->stop = stop;
	if ((rc = provision_state_open(m, err)))
		return rc;
	snprintf(m->mnt, sizeof(m->mnt), "%s/mnt.%d.XXXXXX", PROVISION_STATE_DIR, (int)getpid());
	if (!mkdtemp(m->mnt)) {
		rc = -errno;
		m->mnt[0] = '\0';
		return dbio_err_set(err, rc, "matrix: cannot create a mount point in %s: %s",
				    PROVISION_STATE_DIR, strerror(-rc));
	}
	return provision_state_rec(m, PROVISION_REC_MNT, false, err);
}

/* The device to format: a new image on a loop device, or --device (and
 * the disk whose scheduler serves it). */
static int make_device(struct provision_env *m, const char **dev, struct dbio_err *err)
{
	int rc, image_fd = -1;

	if (m->device[0]) {
		*dev = m->device;
		return provision_disk_of(m->device, m->disk, sizeof(m->disk), m->disk_devno,
					 sizeof(m->disk_devno), err);
	}
	rc = provision_image_make(m, &image_fd, err);
	if (!rc)
		rc = provision_loop_attach(m, image_fd, err);
	if (image_fd >= 0)
		close(image_fd); /* the loop device holds the file now */
	*dev = m->loop_dev;
	return rc;
}

int provision_setup(struct provision_env *m, const struct provision_fs *fs, const char *mkfs_path,
		    const char *mount_opts, const char *sched, struct provision_info *info,
		    struct dbio_err *err)
{
	char dir[PROVISION_PATH_MAX + 8];
	const char *dev;
	struct statfs sf;
	int rc;

	memset(info, 0, sizeof(*info));
	if ((rc = make_device(m, &dev, err)))
		return rc;
	snprintf(info->device, sizeof(info->device), "%s", dev);
	if (m->stop.flag && atomic_load(m->stop.flag))
		return dbio_err_set(err, DBIO_ESTOPPED, "matrix: stopped by a signal");
	if ((rc = provision_mkfs_run(m, fs, mkfs_path, dev, err)) ||
	    (rc = provision_mount(m, dev, fs->type, mount_opts, err)) ||
	    (rc = provision_sched_set(m, sched, err)))
		return rc;
	snprintf(dir, sizeof(dir), "%s/dbio", m->mnt);
	if (mkdir(dir, 0755))
		return dbio_err_set(err, -errno, "matrix: cannot create %s: %s", dir, strerror(errno));
	if (statfs(m->mnt, &sf))
		return dbio_err_set(err, -errno, "matrix: statfs %s: %s", m->mnt, strerror(errno));
	info->fs_block_size_bytes = (uint64_t)sf.f_bsize;
	if (provision_sched_active(m->disk, info->scheduler, sizeof(info->scheduler)))
		info->scheduler[0] = '\0';
	return 0;
}

int provision_teardown(struct provision_env *m, struct dbio_err *err)
{
	int rc = 0, r;

	/* Every step is tried; rc ends as what err holds, its first failure. */
	if ((r = provision_sched_restore(m, err)))
		rc = r;
	if ((r = provision_unmount(m, err)))
		rc = r;
	if ((r = provision_loop_detach(m, err)))
		rc = r;
	if ((r = provision_image_remove(m, err)))
		rc = r;
	return rc;
}

int provision_end(struct provision_env *m, struct dbio_err *err)
{
	int rc = provision_teardown(m, err);

	if (!rc && m->mnt[0] && !m->mounted) {
		if (rmdir(m->mnt) && errno != ENOENT)
			rc = dbio_err_set(err, -errno, "matrix: cannot remove %s: %s", m->mnt,
					  strerror(errno));
		else
			m->mnt[0] = '\0';
	}
	provision_state_close(m, !rc); /* else it stays for --cleanup */
	return rc;
}
