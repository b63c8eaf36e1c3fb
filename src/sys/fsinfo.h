/*
 * Where a path lives: filesystem type, mount point, mount options, the
 * device behind it and the filesystem's block size, read from statfs and
 * /proc/self/mountinfo. The fuller environment capture grows here.
 */
#ifndef DBIO_SYS_FSINFO_H
#define DBIO_SYS_FSINFO_H

#include <stdint.h>

struct fsinfo {
	char fs_type[64];
	char mount_point[4096];
	char mount_options[1024];
	char super_options[1024]; /* the filesystem's own options, after the source in mountinfo */
	char source[1024];	  /* "/dev/vda", "tmpfs", ... as mountinfo names it */
	char device[64];	  /* "major:minor" of st_dev */
	uint64_t block_size;	  /* statfs f_bsize, bytes */
	uint64_t total_bytes;
	uint64_t free_bytes; /* available to unprivileged users */
};

/* Describe the filesystem holding path; 0 or -errno. mountinfo_path is
 * normally "/proc/self/mountinfo" (tests pass a fixture). */
int fsinfo_read(const char *path, const char *mountinfo_path, struct fsinfo *info);

struct hostinfo {
	char hostname[256];
	char kernel_release[256];
	char kernel_version[256];
	char machine[64];
	long cpus_online;
	uint64_t mem_total_bytes;
};

int hostinfo_read(struct hostinfo *info);

#endif
