/*
 * Environment capture: the machine, kernel settings and storage stack a
 * result was measured on, as jansson objects that go into the result's
 * `system` object and each job's `targets` (and `dbio sysinfo`). Every figure
 * is read from /proc and /sys, never invented: a file that is missing or
 * unreadable leaves its field out. Units are in the field names (_bytes,
 * _kb, _centisecs).
 *
 * The roots of /proc, /sys and the mountinfo file are passed in a struct
 * sys_paths so unit tests can point them at a fixture tree. The only things
 * not read through it are the syscalls on the directory being described
 * (stat, statvfs) and on loop backing files, and uname() for `machine` when
 * proc/sys/kernel/arch is missing.
 */
#ifndef DBIO_SYS_SYSINFO_H
#define DBIO_SYS_SYSINFO_H

#include <jansson.h>

struct sys_paths {
	const char *proc;      /* "/proc" */
	const char *sys;       /* "/sys" */
	const char *mountinfo; /* "/proc/self/mountinfo" */
};

/* The live system's paths. */
extern const struct sys_paths sysinfo_default_paths;

/* How deep the storage stack is followed (dm on partitions on loop on a file
 * on dm ...); a device at this depth is described without its slaves or loop
 * backing and carries "chain_truncated": true. */
#define SYSINFO_MAX_DEPTH 8

/*
 * The host: a new object
 *   { hostname, kernel_release, kernel_version, machine, cpu_model,
 *     cpus_online, mem_total_bytes, mem_available_bytes, swap_total_bytes,
 *     swap_free_bytes,
 *     vm: { dirty_ratio, dirty_background_ratio, dirty_bytes,
 *           dirty_background_bytes, dirty_expire_centisecs,
 *           dirty_writeback_centisecs, swappiness },
 *     transparent_hugepage: { enabled, defrag } }
 * from proc/sys/kernel/{hostname,osrelease,version,arch}, proc/cpuinfo
 * ("model name" of the first CPU, number of "processor" entries, i.e. the
 * online CPUs), proc/meminfo (kB converted to bytes), proc/sys/vm/ and
 * sys/kernel/mm/transparent_hugepage/ (the bracketed, active value).
 * `machine` falls back to uname() when arch is missing. Missing files leave
 * their fields out; vm and transparent_hugepage are left out when empty.
 * p NULL means sysinfo_default_paths. Returns NULL only when out of memory;
 * the caller owns the reference.
 */
json_t *sysinfo_host(const struct sys_paths *p);

/*
 * The block device major:minor, resolved through sys/dev/block: a new object
 *   { name, partition, partition_size_bytes, dm_name, model, driver,
 *     rotational, logical_block_size_bytes, physical_block_size_bytes,
 *     scheduler, nr_requests, read_ahead_kb, write_cache, size_bytes,
 *     slaves: [ <same object>... ],
 *     loop: { backing_file, backing_file_deleted, offset_bytes,
 *             sizelimit_bytes, direct_io, backing: <filesystem object> },
 *     chain_truncated }
 * A partition is described by its whole disk (name, queue settings,
 * size_bytes are the disk's) with `partition` naming it and
 * partition_size_bytes its size. `slaves` lists the devices under a
 * device-mapper or md device, each resolved the same way (sorted by name).
 * `loop` names a loop device's backing file and describes the filesystem
 * holding it (as in sysinfo_target, without `directory`); `backing` is left
 * out when the file is deleted or cannot be stat'ed (it may live in another
 * mount namespace). `scheduler` is the bracketed (active) entry of
 * queue/scheduler; write_cache is the text of queue/write_cache ("write
 * back", "write through"). p NULL means sysinfo_default_paths.
 * Returns NULL when sys has no such block device (or out of memory).
 */
json_t *sysinfo_block_device(const struct sys_paths *p, unsigned major, unsigned minor);

/*
 * The filesystem and storage stack holding dir: a new object
 *   { directory, fs_type, mount_point, mount_options, super_options,
 *     source, device, fs_block_size_bytes, fs_total_bytes, fs_free_bytes,
 *     block_device }
 * `directory` is dir as given; when it does not exist yet its nearest
 * existing ancestor is described and named in `described_path`. device is
 * "major:minor" of st_dev. mount_options are the mount's own (the fourth
 * mountinfo field: "rw,relatime"), super_options the filesystem's (after
 * the source: "rw,discard,data=ordered"). block_device is sysinfo_block_device() of that
 * device, or, for filesystems whose st_dev is anonymous (major 0, e.g.
 * btrfs), of the mount source when that is a block device node; it is left
 * out for virtual filesystems (tmpfs, overlay, proc ...). fs_free_bytes is
 * what an unprivileged user may still allocate (f_bavail). When nothing can
 * be described the object holds `directory` (and `described_path`) and
 * `error` (strerror text; "No such file or directory" also when mountinfo
 * has no line for the filesystem).
 * p NULL means sysinfo_default_paths. Returns NULL only when out of memory.
 */
json_t *sysinfo_target(const struct sys_paths *p, const char *dir);

#endif
