/* Environment capture from /proc and /sys (values read through sysfs.h); see
 * sysinfo.h. */
#include "sys/sysinfo.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sys/fsinfo.h"
#include "sys/sysfs.h"

const struct sys_paths sysinfo_default_paths = {
	.proc = "/proc",
	.sys = "/sys",
	.mountinfo = "/proc/self/mountinfo",
};

static const char *const vm_keys[] = {
	"dirty_ratio",
	"dirty_background_ratio",
	"dirty_bytes",
	"dirty_background_bytes",
	"dirty_expire_centisecs",
	"dirty_writeback_centisecs",
	"swappiness",
};

static int describe_fs(const struct sys_paths *p, const char *path, int depth, json_t *o);

/* Format a path; -ENAMETOOLONG rather than a truncated path. */
static int __attribute__((format(printf, 3, 4))) pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int parse_ll(const char *s, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno || end == s || *end ? -EINVAL : 0;
}

static void put_str(json_t *o, const char *key, const char *path)
{
	char buf[4096];

	if (!sysfs_read_value(path, buf, sizeof(buf)) && *buf)
		json_object_set_new(o, key, json_string(buf));
}

/* An integer file times scale (sectors -> bytes and the like). */
static void put_int(json_t *o, const char *key, const char *path, long long scale)
{
	char buf[64];
	long long v;

	if (!sysfs_read_value(path, buf, sizeof(buf)) && !parse_ll(buf, &v))
		json_object_set_new(o, key, json_integer(v * scale));
}

static void put_bool(json_t *o, const char *key, const char *path)
{
	char buf[64];
	long long v;

	if (!sysfs_read_value(path, buf, sizeof(buf)) && !parse_ll(buf, &v))
		json_object_set_new(o, key, json_boolean(v != 0));
}

static void put_bracketed(json_t *o, const char *key, const char *path)
{
	char val[256];

	if (!sysfs_read_choice(path, val, sizeof(val)))
		json_object_set_new(o, key, json_string(val));
}

/* Add sub to o under key unless it is empty. */
static void put_nonempty(json_t *o, const char *key, json_t *sub)
{
	if (json_object_size(sub))
		json_object_set(o, key, sub);
	json_decref(sub);
}

static void host_cpu(const struct sys_paths *p, json_t *o)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	long long cpus = 0;
	FILE *fp;

	if (pathf(path, sizeof(path), "%s/cpuinfo", p->proc) || !(fp = fopen(path, "re")))
		return;
	while (getline(&line, &cap, fp) > 0) {
		char *colon = strchr(line, ':');
		size_t klen;

		if (!colon)
			continue;
		klen = strcspn(line, " \t:");
		if (klen == 9 && !strncmp(line, "processor", 9)) {
			cpus++;
		} else if (!json_object_get(o, "cpu_model") && !strncmp(line, "model name", 10)) {
			char *v = colon + 1, *end;

			while (isspace((unsigned char)*v))
				v++;
			end = v + strlen(v);
			while (end > v && isspace((unsigned char)end[-1]))
				*--end = '\0';
			if (*v)
				json_object_set_new(o, "cpu_model", json_string(v));
		}
	}
	free(line);
	fclose(fp);
	if (cpus > 0)
		json_object_set_new(o, "cpus_online", json_integer(cpus));
}

static void host_mem(const struct sys_paths *p, json_t *o)
{
	static const struct {
		const char *name, *key;
	} fields[] = {
		{ "MemTotal", "mem_total_bytes" },
		{ "MemAvailable", "mem_available_bytes" },
		{ "SwapTotal", "swap_total_bytes" },
		{ "SwapFree", "swap_free_bytes" },
	};
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	FILE *fp;

	if (pathf(path, sizeof(path), "%s/meminfo", p->proc) || !(fp = fopen(path, "re")))
		return;
	/* "MemTotal:       24683620 kB" */
	while (getline(&line, &cap, fp) > 0) {
		char name[64], unit[8] = "";
		long long v;
		int n = sscanf(line, "%63[^:]: %lld %7s", name, &v, unit);

		if (n < 2)
			continue;
		for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			if (!strcmp(name, fields[i].name))
				json_object_set_new(o, fields[i].key,
						    json_integer(!strcmp(unit, "kB") ? v * 1024 : v));
	}
	free(line);
	fclose(fp);
}

json_t *sysinfo_host(const struct sys_paths *p)
{
	json_t *o = json_object(), *vm, *thp;
	char path[PATH_MAX];
	struct utsname u;

	if (!p)
		p = &sysinfo_default_paths;
	if (!o)
		return NULL;
	if (!pathf(path, sizeof(path), "%s/sys/kernel/hostname", p->proc))
		put_str(o, "hostname", path);
	if (!pathf(path, sizeof(path), "%s/sys/kernel/osrelease", p->proc))
		put_str(o, "kernel_release", path);
	if (!pathf(path, sizeof(path), "%s/sys/kernel/version", p->proc))
		put_str(o, "kernel_version", path);
	if (!pathf(path, sizeof(path), "%s/sys/kernel/arch", p->proc))
		put_str(o, "machine", path);
	if (!json_object_get(o, "machine") && !uname(&u))
		json_object_set_new(o, "machine", json_string(u.machine));
	host_cpu(p, o);
	host_mem(p, o);

	vm = json_object();
	for (size_t i = 0; i < sizeof(vm_keys) / sizeof(vm_keys[0]); i++)
		if (!pathf(path, sizeof(path), "%s/sys/vm/%s", p->proc, vm_keys[i]))
			put_int(vm, vm_keys[i], path, 1);
	put_nonempty(o, "vm", vm);

	thp = json_object();
	if (!pathf(path, sizeof(path), "%s/kernel/mm/transparent_hugepage/enabled", p->sys))
		put_bracketed(thp, "enabled", path);
	if (!pathf(path, sizeof(path), "%s/kernel/mm/transparent_hugepage/defrag", p->sys))
		put_bracketed(thp, "defrag", path);
	put_nonempty(o, "transparent_hugepage", thp);
	return o;
}

static int no_dots(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static json_t *describe_sysdir(const struct sys_paths *p, const char *dir, int depth);

/* Every device in disk/slaves (dm, md), described in name order. */
static void describe_slaves(const struct sys_paths *p, const char *disk, json_t *o, int depth)
{
	char path[PATH_MAX];
	struct dirent **names;
	json_t *slaves;
	int n;

	if (pathf(path, sizeof(path), "%s/slaves", disk) ||
	    (n = scandir(path, &names, no_dots, alphasort)) < 0)
		return;
	slaves = json_array();
	for (int i = 0; i < n; i++) {
		char link[PATH_MAX], *real;

		if (!pathf(link, sizeof(link), "%s/%s", path, names[i]->d_name) &&
		    (real = realpath(link, NULL))) {
			json_array_append_new(slaves, describe_sysdir(p, real, depth + 1));
			free(real);
		}
		free(names[i]);
	}
	free(names);
	if (json_array_size(slaves))
		json_object_set(o, "slaves", slaves);
	json_decref(slaves);
}

/* disk/loop/: the backing file and the filesystem holding it. */
static void describe_loop(const struct sys_paths *p, const char *disk, json_t *o, int depth)
{
	char path[PATH_MAX], file[PATH_MAX];
	json_t *loop;
	bool gone;

	if (sysfs_loop_backing(disk, file, sizeof(file), &gone))
		return;
	loop = json_object();
	json_object_set_new(loop, "backing_file", json_string(file));
	json_object_set_new(loop, "backing_file_deleted", json_boolean(gone));
	if (!pathf(path, sizeof(path), "%s/loop/offset", disk))
		put_int(loop, "offset_bytes", path, 1);
	if (!pathf(path, sizeof(path), "%s/loop/sizelimit", disk))
		put_int(loop, "sizelimit_bytes", path, 1);
	if (!pathf(path, sizeof(path), "%s/loop/dio", disk))
		put_bool(loop, "direct_io", path);
	if (!gone) {
		json_t *backing = json_object();

		if (backing && !describe_fs(p, file, depth + 1, backing))
			json_object_set(loop, "backing", backing);
		json_decref(backing);
	}
	json_object_set_new(o, "loop", loop);
}

/* dir is the resolved sysfs directory of a disk or partition. */
static json_t *describe_sysdir(const struct sys_paths *p, const char *dir, int depth)
{
	static const struct {
		const char *file, *key;
	} queue_ints[] = {
		{ "logical_block_size", "logical_block_size_bytes" },
		{ "physical_block_size", "physical_block_size_bytes" },
	};
	char disk[PATH_MAX], path[PATH_MAX], link[PATH_MAX], *slash;
	json_t *o = json_object();
	ssize_t n;

	if (!o)
		return NULL;
	snprintf(disk, sizeof(disk), "%s", dir);
	if (!pathf(path, sizeof(path), "%s/partition", dir) && access(path, F_OK) == 0 &&
	    (slash = strrchr(disk, '/')) && slash != disk) {
		/* A partition's directory sits inside its disk's. */
		*slash = '\0';
	}
	json_object_set_new(o, "name", json_string(strrchr(disk, '/') ? strrchr(disk, '/') + 1 : disk));
	if (strcmp(disk, dir)) {
		json_object_set_new(o, "partition", json_string(strrchr(dir, '/') + 1));
		if (!pathf(path, sizeof(path), "%s/size", dir))
			put_int(o, "partition_size_bytes", path, 512);
	}
	if (!pathf(path, sizeof(path), "%s/dm/name", disk))
		put_str(o, "dm_name", path);
	if (!pathf(path, sizeof(path), "%s/device/model", disk))
		put_str(o, "model", path);
	if (!pathf(path, sizeof(path), "%s/device/driver", disk) &&
	    (n = readlink(path, link, sizeof(link) - 1)) > 0) {
		link[n] = '\0';
		json_object_set_new(o, "driver",
				    json_string(strrchr(link, '/') ? strrchr(link, '/') + 1 : link));
	}
	if (!pathf(path, sizeof(path), "%s/queue/rotational", disk))
		put_bool(o, "rotational", path);
	for (size_t i = 0; i < sizeof(queue_ints) / sizeof(queue_ints[0]); i++)
		if (!pathf(path, sizeof(path), "%s/queue/%s", disk, queue_ints[i].file))
			put_int(o, queue_ints[i].key, path, 1);
	if (!pathf(path, sizeof(path), "%s/queue/scheduler", disk))
		put_bracketed(o, "scheduler", path);
	if (!pathf(path, sizeof(path), "%s/queue/nr_requests", disk))
		put_int(o, "nr_requests", path, 1);
	if (!pathf(path, sizeof(path), "%s/queue/read_ahead_kb", disk))
		put_int(o, "read_ahead_kb", path, 1);
	if (!pathf(path, sizeof(path), "%s/queue/write_cache", disk))
		put_str(o, "write_cache", path);
	/* size is in 512-byte sectors whatever the device's block size. */
	if (!pathf(path, sizeof(path), "%s/size", disk))
		put_int(o, "size_bytes", path, 512);
	if (depth >= SYSINFO_MAX_DEPTH) {
		json_object_set_new(o, "chain_truncated", json_true());
		return o;
	}
	describe_slaves(p, disk, o, depth);
	describe_loop(p, disk, o, depth);
	return o;
}

static json_t *block_device_at(const struct sys_paths *p, unsigned major, unsigned minor, int depth)
{
	char path[PATH_MAX], *real;
	json_t *o;

	if (pathf(path, sizeof(path), "%s/dev/block/%u:%u", p->sys, major, minor) ||
	    !(real = realpath(path, NULL)))
		return NULL;
	o = describe_sysdir(p, real, depth);
	free(real);
	return o;
}

json_t *sysinfo_block_device(const struct sys_paths *p, unsigned major, unsigned minor)
{
	return block_device_at(p ? p : &sysinfo_default_paths, major, minor, 0);
}

/* Add the filesystem holding path and its device stack to o; 0, or -errno
 * (-ENOENT also when mountinfo has no line for it) with o untouched. */
static int describe_fs(const struct sys_paths *p, const char *path, int depth, json_t *o)
{
	struct fsinfo fs;
	unsigned major, minor;
	struct stat st;
	int rc = fsinfo_read(path, p->mountinfo, &fs);

	if (rc)
		return rc;
	json_object_set_new(o, "fs_type", json_string(fs.fs_type));
	json_object_set_new(o, "mount_point", json_string(fs.mount_point));
	json_object_set_new(o, "mount_options", json_string(fs.mount_options));
	if (fs.super_options[0])
		json_object_set_new(o, "super_options", json_string(fs.super_options));
	json_object_set_new(o, "source", json_string(fs.source));
	json_object_set_new(o, "device", json_string(fs.device));
	json_object_set_new(o, "fs_block_size_bytes", json_integer((json_int_t)fs.block_size));
	json_object_set_new(o, "fs_total_bytes", json_integer((json_int_t)fs.total_bytes));
	json_object_set_new(o, "fs_free_bytes", json_integer((json_int_t)fs.free_bytes));
	if (sscanf(fs.device, "%u:%u", &major, &minor) != 2)
		return 0;
	/* btrfs and the like report an anonymous st_dev; their source names
	 * the block device. */
	if (major == 0 && fs.source[0] == '/' && !stat(fs.source, &st) && S_ISBLK(st.st_mode)) {
		major = major(st.st_rdev);
		minor = minor(st.st_rdev);
	}
	if (major != 0) {
		json_t *bdev = block_device_at(p, major, minor, depth);

		if (bdev)
			json_object_set_new(o, "block_device", bdev);
	}
	return 0;
}

json_t *sysinfo_target(const struct sys_paths *p, const char *dir)
{
	char *path = strdup(dir);
	json_t *o = json_object();
	struct stat st;
	int rc = 0;

	if (!p)
		p = &sysinfo_default_paths;
	if (!o || !path) {
		json_decref(o);
		free(path);
		return NULL;
	}
	json_object_set_new(o, "directory", json_string(dir));
	/* A directory dbio will create lives on its nearest existing ancestor's
	 * filesystem. */
	while (stat(path, &st) && (rc = -errno) == -ENOENT && strcmp(path, "/") && strcmp(path, ".")) {
		char *up = strdup(dirname(path));

		free(path);
		if (!(path = up)) {
			json_decref(o);
			return NULL;
		}
		rc = 0;
	}
	if (rc == 0 && strcmp(path, dir))
		json_object_set_new(o, "described_path", json_string(path));
	if (rc == 0)
		rc = describe_fs(p, path, 0, o);
	if (rc)
		json_object_set_new(o, "error", json_string(strerror(-rc)));
	free(path);
	return o;
}
