/* Filesystem and host description; see fsinfo.h. */
#include "sys/fsinfo.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] && s[3]) {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

int fsinfo_read(const char *path, const char *mountinfo_path, struct fsinfo *info)
{
	struct stat st;
	struct statvfs vfs;
	char *line = NULL;
	size_t cap = 0;
	FILE *fp;
	int found = 0;

	memset(info, 0, sizeof(*info));
	if (stat(path, &st) || statvfs(path, &vfs))
		return -errno;
	snprintf(info->device, sizeof(info->device), "%u:%u", major(st.st_dev), minor(st.st_dev));
	info->block_size = vfs.f_bsize;
	info->total_bytes = (uint64_t)vfs.f_blocks * vfs.f_frsize;
	info->free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;

	char *real = realpath(path, NULL);
	size_t best = 0;

	if (!(fp = fopen(mountinfo_path, "r"))) {
		free(real);
		return -errno;
	}
	/* id parent major:minor root mount-point options [optional...] - type source super-options */
	while (getline(&line, &cap, fp) > 0) {
		char devno[64], mnt[4096], opts[1024];
		char *dash = strstr(line, " - ");
		char type[64], source[1024], super[1024] = "";

		if (!dash || sscanf(line, "%*s %*s %63s %*s %4095s %1023s", devno, mnt, opts) != 3)
			continue;
		if (sscanf(dash + 3, "%63s %1023s %1023s", type, source, super) < 2)
			continue;
		unescape(mnt);
		unescape(source);
		/* Bind mounts share a device: prefer the longest mount point
		 * that contains the path; among equals, the last (on top).
		 * btrfs gives a subvolume a device number that mountinfo does
		 * not show: when no mount has the path's device number, the
		 * longest mount point that contains the path decides. */
		size_t len = strlen(mnt);
		bool contains = real && !strncmp(real, mnt, len) &&
				(real[len] == '/' || real[len] == '\0' || len == 1);
		int rank = !strcmp(devno, info->device) ? 2 : contains ? 1 : 0;

		if (!rank || rank < found || (rank == found && (!contains || len < best)))
			continue;
		best = contains ? len : 0;
		copy(info->mount_point, sizeof(info->mount_point), mnt);
		copy(info->mount_options, sizeof(info->mount_options), opts);
		copy(info->fs_type, sizeof(info->fs_type), type);
		copy(info->source, sizeof(info->source), source);
		copy(info->super_options, sizeof(info->super_options), super);
		found = rank;
	}
	free(line);
	free(real);
	fclose(fp);
	return found ? 0 : -ENOENT;
}

int hostinfo_read(struct hostinfo *info)
{
	struct utsname u;
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	memset(info, 0, sizeof(*info));
	if (uname(&u))
		return -errno;
	copy(info->hostname, sizeof(info->hostname), u.nodename);
	copy(info->kernel_release, sizeof(info->kernel_release), u.release);
	copy(info->kernel_version, sizeof(info->kernel_version), u.version);
	copy(info->machine, sizeof(info->machine), u.machine);
	info->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
	info->mem_total_bytes = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
	return 0;
}
