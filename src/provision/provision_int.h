/*
 * Private to provision/: how its files share one run's state. image.c,
 * loop.c, mkfs.c, mount.c and sched.c each make and undo one kind of
 * resource, recording it through state.c; provision.c puts the steps in
 * order. Nothing outside provision/ includes this (the unit tests do, to
 * check the state records and the image trailer without root).
 *
 * Errors as in provision.h: 0 or a negative code, detail in err; the undo
 * functions of --cleanup return -errno and say what they did in log.
 */
#ifndef DBIO_PROVISION_PROVISION_INT_H
#define DBIO_PROVISION_PROVISION_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "provision/provision.h"
#include "util/err.h"

/* The xattr, and its value, that mark an image file as made by dbio. */
#define PROVISION_MARKER_XATTR "trusted.dbio"
#define PROVISION_MARKER_VALUE "dbio matrix image"

/* The image's last 4 KiB, past the loop device's size limit so mkfs never
 * sees it, hold "dbio-matrix-image <token>\n": the token of the run that
 * made it, also in the state file, identifies the image beyond its path and
 * inode number (which a new file can reuse). */
#define PROVISION_TRAILER_BYTES 4096u
#define PROVISION_TRAILER_MAGIC "dbio-matrix-image "

/* ---- state.c: the state file ---- */

/* The records of a state file, one line each. */
enum provision_rec_kind {
	PROVISION_REC_UNKNOWN,	  /* malformed, or a newer dbio's: nothing to undo */
	PROVISION_REC_MNT,	  /* "mnt PATH": the private mount point */
	PROVISION_REC_IMAGE,	  /* "image TOKEN PATH": an image about to be made */
	PROVISION_REC_IMAGEID,	  /* "imageid DEV INO TOKEN PATH": the image made */
	PROVISION_REC_LOOP,	  /* "loop /dev/loopN DEV INO TOKEN": attached to it */
	PROVISION_REC_MOUNT,	  /* "mount PATH": about to be mounted */
	PROVISION_REC_SCHED_LOOP, /* "sched DISK OLD loop DEV INO TOKEN": a loop device's */
	PROVISION_REC_SCHED_DEV,  /* "sched DISK OLD dev MAJ:MIN": a real device's */
};

/* One record. DEV and INO are the image's, in the kernel's encoding. */
struct provision_rec {
	enum provision_rec_kind kind;
	/* mnt, mount, image, imageid: the path; sched dev: the device number
	 * "8:0". The rest of the line: not owned, it points into the line
	 * parsed or the env formatted. */
	const char *rest;
	char name[128];	 /* loop: the device "/dev/loop3"; sched: the disk "loop3" */
	char sched[128]; /* sched: the scheduler to restore */
	char token[PROVISION_TOKEN_LEN + 1];
	unsigned long long dev, ino;
};

/* The record of kind for what m holds now (the image, its loop device, the
 * saved scheduler, the mount point). */
void provision_rec_of(const struct provision_env *m, enum provision_rec_kind kind, struct provision_rec *r);

/* r as its line, without newline, into buf; returns what snprintf does (the
 * record fits when that is below len), or -EINVAL for PROVISION_REC_UNKNOWN. */
int provision_rec_format(const struct provision_rec *r, char *buf, size_t len);

/* The record on line (without its newline); r->kind PROVISION_REC_UNKNOWN
 * when it is none dbio knows. r->rest points into line. Returns r->kind. */
enum provision_rec_kind provision_rec_parse(const char *line, struct provision_rec *r);

/* Create PROVISION_STATE_DIR (root's alone) and the locked state file of
 * this process into m (state_fd, state_path). 0 or -errno, DBIO_EUNSAFE. */
int provision_state_open(struct provision_env *m, struct dbio_err *err);

/* Append the record of kind for what m holds ("-<record>" when undone) and
 * fdatasync it. 0 or -errno. */
int provision_state_rec(struct provision_env *m, enum provision_rec_kind kind, bool undone,
			struct dbio_err *err);

/* Close the state file, removing it first when remove (nothing is left to
 * undo). */
void provision_state_close(struct provision_env *m, bool remove);

/* Append a line to *log (NULL: nothing); out of memory drops it. */
void provision_log_add(char **log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- image.c: the image file ---- */

/* A stat st_dev in the kernel's 32-bit encoding (loop_info64.lo_device). */
uint64_t provision_kernel_dev(dev_t dev);

/* A new random token, PROVISION_TOKEN_LEN hex digits, into token. 0 or
 * -errno. */
int provision_token_new(char *token);

/* Write the trailer with token at offset (the image's size without it) of
 * fd and fdatasync it. 0 or -errno. */
int provision_trailer_write(int fd, uint64_t offset, const char *token);

/* The token in the trailer of the open image fd into token
 * [PROVISION_TOKEN_LEN + 1]; -ENOENT when it has none. */
int provision_trailer_token(int fd, char *token);

/* Whether path is the image with token (and, when idev is not 0, that
 * inode): a regular file whose trailer carries the token. */
bool provision_image_is(const char *path, const char *token, uint64_t idev, uint64_t iino);

/* Create m->image with O_EXCL, its trailer (a new token) and marker, each
 * step recorded; *fd is the open image (-1 until created). */
int provision_image_make(struct provision_env *m, int *fd, struct dbio_err *err);

/* Remove the image m made, unless it is still mounted. */
int provision_image_remove(struct provision_env *m, struct dbio_err *err);

/* --cleanup: remove the image at path when it is the one with token (and
 * inode, when idev is not 0); another file at that path is left alone and
 * said so. 0 when nothing of dbio's is left there, or -errno. */
int provision_image_undo(const char *path, const char *token, uint64_t idev, uint64_t iino, char **log);

/* ---- loop.c: loop devices ---- */

/* Attach image_fd to a free loop device (autoclear, the trailer out of
 * reach, direct I/O as m asks) and record it; m->loop_dev, m->disk. */
int provision_loop_attach(struct provision_env *m, int image_fd, struct dbio_err *err);

/* Detach and close m's loop device, unless it is still mounted. */
int provision_loop_detach(struct provision_env *m, struct dbio_err *err);

/* What loop device dev holds: 0 nothing, 1 the image (idev, iino) with
 * token, -1 anything else (or an image it cannot confirm). */
int provision_loop_holds(const char *dev, uint64_t idev, uint64_t iino, const char *token);

/* The loop device ("loop3") whose backing file is the existing file real
 * (a resolved path) into name: 1, or 0 when none holds it. */
int provision_loop_holding(const char *real, char *name, size_t len);

/* --cleanup of a loop record: detach it when it still holds the image. */
int provision_loop_undo(const struct provision_rec *r, char **log);

/* ---- mkfs.c ---- */

/* Run mkfs_path [force flag on a device] fs->words -- dev, stopped with
 * the caller's stop flag. */
int provision_mkfs_run(const struct provision_env *m, const struct provision_fs *fs, const char *mkfs_path,
		       const char *dev, struct dbio_err *err);

/* ---- mount.c ---- */

/* Mount dev (type) at m->mnt with opts, recorded. */
int provision_mount(struct provision_env *m, const char *dev, const char *type, const char *opts,
		    struct dbio_err *err);

/* Unmount m->mnt when m mounted it. */
int provision_unmount(struct provision_env *m, struct dbio_err *err);

/* Whether dir is a mount point. */
bool provision_is_mounted(const char *dir);

/* --cleanup of a mount record: unmount it; when it stays busy for a
 * second, -EBUSY, logged with the process that holds it when one is found
 * (the record stays: a lazy unmount would leave its loop device attached). */
int provision_mount_undo(const char *dir, char **log);

/* --cleanup of a mnt record: remove the mount point when it is one of
 * PROVISION_STATE_DIR's and nothing is mounted on it. */
int provision_mnt_undo(const char *dir);

/* ---- sched.c: I/O schedulers ---- */

/* The active scheduler of /sys/block/<disk> into name. 0 or -errno. */
int provision_sched_active(const char *disk, char *name, size_t len);

/* Set m->disk's scheduler to sched (NULL or "": kept), the old one saved
 * and recorded first. */
int provision_sched_set(struct provision_env *m, const char *sched, struct dbio_err *err);

/* Put back the scheduler provision_sched_set replaced. */
int provision_sched_restore(struct provision_env *m, struct dbio_err *err);

/* --cleanup of a sched record: restore it while the disk is still the one
 * recorded (the device number, or the loop device holding dbio's image). */
int provision_sched_undo(const struct provision_rec *r, char **log);

/* ---- device.c: --device ---- */

/* The /sys/block name whose queue serves the block device dev (the disk of
 * a partition) into disk, its major:minor into devno. */
int provision_disk_of(const char *dev, char *disk, size_t len, char *devno, size_t devno_len,
		      struct dbio_err *err);

#endif
