/*
 * The power-cut layer (issue 28): a FUSE filesystem dbio mounts privately
 * over a directory it made, passing I/O through to a backing directory it
 * made, and keeping apart what POSIX says is durable. A cut writes the
 * durable state, and what the crash model keeps of each file's unsynced
 * writes (none by default), into a fresh directory, where a check reads
 * what a workload saw acknowledged. A fault can be injected at the N-th
 * fsync (EIO, its unsynced writes dropped as Linux does) or write (ENOSPC).
 *
 * What is durable: a file's data and size as of its last fsync or
 * fdatasync (or an O_SYNC/O_DSYNC write); a directory's names as of its
 * last fsync. Everything else is lost at a cut. Like a loop image of
 * provision/, the layer makes its target and undoes it: <dir>/.dbio-powercut.<pid>
 * (mode 0700, with a marker naming dbio and the pid) holds the mount point,
 * the backing directory, the durable store and the cuts, and is removed on
 * every exit path; a SIGKILLed run's is removed by powercut_cleanup.
 *
 * Test hooks (docs/errors.md): DBIO_POWERCUT_KEEP=all makes a cut keep
 * everything (the bookkeeping off), DBIO_POWERCUT_KEEP=none nothing, so
 * that a test shows its check can fail either way.
 */
#ifndef DBIO_POWERCUT_POWERCUT_H
#define DBIO_POWERCUT_POWERCUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct powercut;

/* What a cut keeps of the writes since a file's last durability point
 * (its unsynced writes, logged in order: a write's range and bytes, a
 * truncate's size). */
enum powercut_model {
	POWERCUT_LOSE,	  /* nothing */
	POWERCUT_REORDER, /* each one or not, at random: a later may survive an earlier */
	POWERCUT_TORN512, /* in order up to one at random, of which a prefix of its 512 B sectors */
	POWERCUT_TORN4K,  /* the same with 4 KiB sectors */
};

enum powercut_fault {
	POWERCUT_NO_FAULT,
	POWERCUT_EIO_FSYNC,    /* the N-th fsync/fdatasync of a file fails, its unsynced writes dropped */
	POWERCUT_ENOSPC_WRITE, /* the N-th write fails with ENOSPC, nothing written */
};

struct powercut_conf {
	enum powercut_model model;
	uint64_t seed; /* the models' choices: cut c of file ino from (seed, c, ino) */
	enum powercut_fault fault;
	unsigned long fault_at; /* N, from 1 */
};

/* "lose", "reorder", "torn512", "torn4k": 0, or -EINVAL. */
int powercut_parse_model(const char *s, enum powercut_model *m);
const char *powercut_model_name(enum powercut_model m);
/* "none", "eio-fsync@N", "enospc-write@N" into c: 0, or -EINVAL. */
int powercut_parse_fault(const char *s, struct powercut_conf *c);
/* The fault as parsed ("eio-fsync@3"), "" when none. */
void powercut_fault_name(const struct powercut_conf *c, char *buf, size_t len);

/* Whether this build has the layer (libfuse3). */
bool powercut_built(void);

/* Make <dir>/.dbio-powercut.<pid> under the open directory dirfd, move the
 * process into a mount namespace of its own (call it while the process has
 * one thread), mount the filesystem there and serve it from a child
 * process, with the crash model and fault of conf (NULL: lose, no fault).
 * 0 and *out, or -errno with a reason in err. */
int powercut_open(int dirfd, const struct powercut_conf *conf, struct powercut **out, char *err, size_t len);

/* Whether the fault has fired; if so, what it hit ("fsync 3 of log: EIO")
 * in what and, in *points, the durability points before it. */
bool powercut_fault_fired(struct powercut *pc, char *what, size_t len, unsigned long *points);

/* The mount point: the directory a workload runs in. */
const char *powercut_mount_path(const struct powercut *pc);

/* Write the durable state into a fresh directory "cut" of the layer's own
 * directory (replacing the last cut); its fd in *cutfd (the caller closes
 * it). 0 or -errno. */
int powercut_cut(struct powercut *pc, int *cutfd);

/* 1 when the file path (relative, no "..") in the directory cutfd has a
 * line equal to record, 0 when not (or the file is missing), -errno. A
 * NUL byte ends a line too: a hole where a write was lost is zeros. */
int powercut_has_line(int cutfd, const char *path, const char *record);

/* 1 when the file path in cutfd ends in a partial line (bytes after its
 * last newline: a record torn), 0 when not or missing, -errno. */
int powercut_torn_tail(int cutfd, const char *path);

/* fn(arg, n) is called on the layer's thread right after each durability
 * point returns to the workload (n from 1): an fsync or fdatasync of a file
 * or a directory, a write to a file opened O_SYNC or O_DSYNC. */
void powercut_on_durable(struct powercut *pc, void (*fn)(void *arg, unsigned long n), void *arg);

/* Make everything in the layer durable now, as a sync(2) would: every
 * file's data, every directory's names (where a workload's run starts
 * from). 0 or -errno. */
int powercut_settle(struct powercut *pc);

/* Unmount, stop the thread, remove the layer's directory; accepts NULL. */
void powercut_close(struct powercut *pc);

/* Remove every .dbio-powercut.<pid> in dirfd whose dbio is gone (marker
 * checked, mount detached first): the count removed, or -errno. */
int powercut_cleanup(int dirfd);

#endif
