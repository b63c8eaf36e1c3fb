/*
 * Provisioning: the storage under test of `dbio matrix`. For each
 * configuration a fresh filesystem on a loop image that dbio creates (or,
 * with explicit consent, on a real block device), mounted at a private
 * mount point with the I/O scheduler set, and everything undone afterwards.
 * The runner then works in that filesystem like in any other directory;
 * this module knows nothing of jobs or results (cmd/matrix.c joins them).
 *
 * Safety rules this module keeps (docs/safety.md, section 4):
 *   - Only files dbio creates (O_EXCL) are formatted; an existing file is
 *     reused only when it carries dbio's marker (the trusted.dbio xattr,
 *     which only root can set) and no loop device holds it.
 *   - A block device needs the caller's consent (--destroy-data); it is
 *     refused when mounted or in use, and when libblkid finds a filesystem,
 *     RAID or partition table signature unless forced.
 *   - mkfs runs through fork + execve with an argument vector and a fixed
 *     environment, never a shell; every option word is checked against a
 *     table of that mkfs's options (mkfs.c) and the device comes after
 *     "--", so no option can name or displace it.
 *     Loop devices are attached with ioctls, mounts made with mount(2).
 *   - Every mount, loop device, scheduler change, image and mount point is
 *     recorded in a state file (PROVISION_STATE_DIR/<pid>.state) before the
 *     next step, and the state file is locked for the run's lifetime, so
 *     provision_cleanup_stale() can undo what a killed run left behind.
 *
 * It uses sys/ (sysfs) and util/ only: the stop flag of the caller's signal
 * handlers comes in as a struct provision_stop.
 *
 * Errors follow util/err.h: 0 or a negative code, detail in err.
 */
#ifndef DBIO_PROVISION_PROVISION_H
#define DBIO_PROVISION_PROVISION_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* Where state files and private mount points live (root only). */
#define PROVISION_STATE_DIR "/run/dbio-matrix"

#define PROVISION_PATH_MAX 4096

/* Hex digits of the random token that marks a run's image (its trailer and
 * the state file's records). */
#define PROVISION_TOKEN_LEN 32

/* One --fs: a filesystem type and its mkfs options, split into words. */
struct provision_fs {
	char type[32];	   /* "ext2", "xfs" … */
	char options[512]; /* as given: "-b 1024" ("" for none) */
	char *words[64];   /* options split on spaces (owned), NULL-terminated */
	size_t nwords;
};

/*
 * Parse "TYPE" or "TYPE:OPTIONS" (--fs ext4, --fs 'ext2:-b 1024') for the
 * filesystems dbio makes (ext2, ext3, ext4, xfs, btrfs). OPTIONS only
 * [-A-Za-z0-9_=,.:^ ] (no shell metacharacters, no '/'), split on spaces
 * and parsed as that mkfs's getopt would, against dbio's table of its
 * options (mkfs.c): every word must be a known option or its value, and
 * options that read or write other files or devices are refused. fs->words
 * holds them normalised ("-qb1024" becomes -q -b 1024). DBIO_EINPUT with a
 * message naming spec. fs is to be released with provision_fs_release
 * either way.
 */
int provision_fs_parse(const char *spec, struct provision_fs *fs, struct dbio_err *err);

void provision_fs_release(struct provision_fs *fs);

/* The block size the options ask for (ext*'s -b), or 0. */
uint64_t provision_fs_block_size(const struct provision_fs *fs);

/* mkfs's flag that overwrites an existing filesystem (-F, -f) for a type
 * provision_fs_parse accepted; NULL for any other. */
const char *provision_mkfs_force_flag(const char *type);

/* Check a --mount-opts value: [-A-Za-z0-9_=,.:] only, and none of the
 * options that name another device (journal_dev, journal_path, logdev,
 * rtdev, device). DBIO_EINPUT. */
int provision_check_mount_opts(const char *opts, struct dbio_err *err);

/* Check a scheduler name: [-a-z0-9_]. DBIO_EINPUT. */
int provision_check_sched(const char *name, struct dbio_err *err);

/* Find mkfs.<type> in /usr/sbin, /sbin, /usr/bin or /bin (never in $PATH:
 * dbio runs it as root); into path. DBIO_EINPUT when missing, with the
 * Debian package that provides it. */
int provision_find_mkfs(const char *type, char *path, size_t len, struct dbio_err *err);

/*
 * Check that dev is a block device dbio may format: a block device, not
 * mounted (nor any of its partitions), not held (holders, O_EXCL open) —
 * always refused — and without a filesystem, RAID or partition-table
 * signature (libblkid) unless force. DBIO_EUNSAFE or DBIO_EINPUT.
 */
int provision_check_device(const char *dev, bool force, struct dbio_err *err);

/*
 * Resolve --image: a directory gets a new file dbio-matrix.<pid>.img in it;
 * a file path must not exist, or be an image dbio made (marker) that no
 * loop device holds — that one is removed. Writes nothing else. The
 * image's path into path. DBIO_EINPUT or DBIO_EUNSAFE.
 */
int provision_image_path(const char *given, char *path, size_t len, struct dbio_err *err);

/*
 * How the caller tells provisioning to stop: *flag becomes non-zero, the
 * number of the signal that asked (the runner's run_stop_signal), and
 * name(sig) says it in messages ("SIGTERM"). Passed in rather than read
 * from run/ so that provisioning depends on nothing above it. A NULL flag
 * never stops.
 */
struct provision_stop {
	const atomic_int *flag;
	const char *(*name)(int sig);
};

/* One matrix run: its state file, mount point and the storage of the
 * configuration being set up. Fields are the module's; callers read. */
struct provision_env {
	int state_fd; /* locked for the run's lifetime; -1 when closed */
	char state_path[PROVISION_PATH_MAX];
	char mnt[PROVISION_PATH_MAX]; /* the private mount point */
	char image[PROVISION_PATH_MAX];
	uint64_t image_size_bytes;
	char device[PROVISION_PATH_MAX]; /* --device, "" for images */
	bool loop_direct_io;
	struct provision_stop stop;
	/* the configuration in place */
	bool image_made;
	uint64_t image_dev, image_ino;	     /* in the kernel's encoding (loop_info64) */
	char token[PROVISION_TOKEN_LEN + 1]; /* in the image's trailer and the records */
	int loop_fd;			     /* -1 when none */
	char loop_dev[64];
	char disk[64];	     /* /sys/block/<disk>: the loop device or the device's disk */
	char disk_devno[32]; /* --device: the disk's major:minor, "" for loop devices */
	bool mounted;
	char sched_saved[64]; /* the scheduler to restore, "" when unchanged */
};

/* What is in force on the mounted filesystem. */
struct provision_info {
	char device[PROVISION_PATH_MAX]; /* /dev/loop3 or --device */
	uint64_t fs_block_size_bytes;	 /* statfs f_bsize */
	char scheduler[64];		 /* the active one, "" when the device has none */
};

/*
 * Start a run: create PROVISION_STATE_DIR, the locked state file and the
 * private mount point. image (with size_bytes) or device names the storage
 * (exactly one, already checked); stop is kept for provision_setup. 0 or
 * -errno.
 */
int provision_begin(struct provision_env *m, const char *image, uint64_t size_bytes, const char *device,
		    bool loop_direct_io, struct provision_stop stop, struct dbio_err *err);

/*
 * Make one configuration: create the sparse image (O_EXCL, marker), attach
 * a free loop device (LOOP_CONFIGURE, autoclear), run mkfs.<type> (with its
 * force flag on a device, whose old filesystem is the previous
 * configuration's), mount it at m->mnt with mount_opts, set the scheduler
 * (NULL or "" keeps it), and make the job directory m->mnt/dbio. Each step
 * is in the state file before the next. info says what is in force. On
 * failure what was made stays for provision_teardown. 0, DBIO_EINPUT (bad
 * scheduler or mount option), DBIO_ESTOPPED (the stop flag was raised: a
 * running mkfs is stopped too) or -errno.
 */
int provision_setup(struct provision_env *m, const struct provision_fs *fs, const char *mkfs_path,
		    const char *mount_opts, const char *sched, struct provision_info *info,
		    struct dbio_err *err);

/* Undo provision_setup as far as it got, in reverse: restore the
 * scheduler, unmount, detach the loop device, remove the image. Every step
 * is tried; the first failure is returned. */
int provision_teardown(struct provision_env *m, struct dbio_err *err);

/* provision_teardown, then remove the mount point and the state file (which
 * stays, for --cleanup, when something could not be undone). */
int provision_end(struct provision_env *m, struct dbio_err *err);

/*
 * Undo what runs that are gone (their state file is not locked) left: for
 * each such state file restore schedulers, unmount, detach loop devices
 * whose backing file is the recorded image (same device and inode), remove
 * images that still are the recorded file, remove mount points, then the
 * state file. *cleaned counts the state files undone; a line per thing
 * undone is appended to log (may be NULL), as "unmounted /run/…". 0 or the
 * first failure (what it could not undo stays recorded).
 */
int provision_cleanup_stale(size_t *cleaned, char **log, struct dbio_err *err);

#endif
