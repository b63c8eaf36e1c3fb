/*
 * The small text files of sysfs (and procfs): one value per file, printed
 * by the kernel with a newline. One reader for the environment capture
 * (sysinfo.c) and the matrix's fixtures (provision/), so that a scheduler,
 * a loop device's backing file or a device number reads the same wherever
 * dbio looks at it. Paths are given whole (or built from a root), so unit
 * tests point them at the fixture trees under tests/fixtures/.
 *
 * Errors follow util/err.h: 0 or -errno.
 */
#ifndef DBIO_SYS_SYSFS_H
#define DBIO_SYS_SYSFS_H

#include <stdbool.h>
#include <stddef.h>

/* The live system's sysfs. */
#define SYSFS_ROOT "/sys"

/*
 * The first line of the file at path, without its newline and otherwise
 * byte for byte (a loop device's backing file may end in spaces), into
 * buf; a line longer than len - 1 bytes is cut there. 0 or -errno.
 */
int sysfs_read_line(const char *path, char *buf, size_t len);

/* sysfs_read_line without trailing white space: a value, such as a SCSI
 * model padded with spaces ("Fixture HDD 1TB ") or a choice list with a
 * space after its last entry. */
int sysfs_read_value(const char *path, char *buf, size_t len);

/* Write text to the existing file at path (one write, as echo does). 0 or
 * -errno: the kernel's answer to a value it refuses (EINVAL). */
int sysfs_write(const char *path, const char *text);

/*
 * The active entry of a sysfs choice list, "a [b] c" -> "b", into out; a
 * single word without brackets (queue/scheduler of a device without an
 * elevator on older kernels: "none") is that word. -EINVAL for anything
 * else, or an entry that does not fit in len.
 */
int sysfs_active_choice(const char *text, char *out, size_t len);

/* sysfs_read_value of path, then sysfs_active_choice: transparent_hugepage
 * settings, queue/scheduler. */
int sysfs_read_choice(const char *path, char *out, size_t len);

/* "<root>/block/<name>", the sysfs directory of a disk (root SYSFS_ROOT on
 * the live system); -ENAMETOOLONG when it does not fit in len. */
int sysfs_block_dir(char *buf, size_t len, const char *root, const char *name);

/*
 * The block device whose sysfs directory is dir (<root>/block/<name>, or
 * that link resolved): its number "major:minor" from dir/dev, and its
 * active I/O scheduler from dir/queue/scheduler. 0 or -errno.
 */
int sysfs_block_dev(const char *dir, char *devno, size_t len);

int sysfs_block_scheduler(const char *dir, char *name, size_t len);

/* Make name the I/O scheduler of the disk at dir (dir/queue/scheduler); 0
 * or -errno (EINVAL: the queue does not offer it). */
int sysfs_block_set_scheduler(const char *dir, const char *name);

/*
 * The backing file of the loop device at dir (dir/loop/backing_file): the
 * path the kernel prints for it, into path, with *deleted telling whether
 * it carried the kernel's " (deleted)" mark of an unlinked file (taken
 * off). -ENOENT when the loop device holds no file.
 */
int sysfs_loop_backing(const char *dir, char *path, size_t len, bool *deleted);

#endif
