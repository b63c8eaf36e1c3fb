/*
 * The block devices under a filesystem's device, as the environment
 * capture walks them (sysinfo.c): the device itself, a partition's whole
 * disk, the slaves of a device-mapper or md device, and the device
 * holding a loop device's backing file — each once, depth first. The
 * sampler (run/sampler.c) reads /proc/diskstats for every one of them, so
 * a result shows the I/O at each level of the stack (a loop device and
 * the disk under its file).
 *
 * For other code that wants the counters of the device under a
 * directory (write amplification of a database): devstack_walk on the
 * st_dev of the directory, then procstat_disk (sys/procstat.h) for each
 * entry; entry 0 is the filesystem's own device.
 */
#ifndef DBIO_SYS_DEVSTACK_H
#define DBIO_SYS_DEVSTACK_H

#include <stddef.h>

enum devstack_role {
	DEVSTACK_TARGET,      /* the filesystem's device */
	DEVSTACK_DISK,	      /* the whole disk of a partition above */
	DEVSTACK_SLAVE,	      /* under a dm or md device above */
	DEVSTACK_LOOP_BACKING /* holds the backing file of a loop device above */
};

struct devstack_dev {
	unsigned major, minor;
	char name[32]; /* the kernel's name ("loop3", "sda1", "dm-0"); "" when sysfs has none */
	enum devstack_role role;
};

/* "target", "disk", "slave", "loop backing". */
const char *devstack_role_name(enum devstack_role r);

/* The devices under major:minor (itself first), at most max, looked up in
 * the sysfs at root (SYSFS_ROOT on the live system; the loop backing
 * file is stat'ed where the kernel names it). A device sysfs does not
 * know is listed alone. Returns how many were filled (0 when major is 0:
 * a virtual filesystem). */
size_t devstack_walk(const char *root, unsigned major, unsigned minor, struct devstack_dev *out, size_t max);

#endif
