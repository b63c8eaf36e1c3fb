/*
 * The power-cut layer (issue 28): a FUSE filesystem dbio mounts privately
 * over a directory it made, passing I/O through to a backing directory it
 * made, and keeping apart what POSIX says is durable. A cut writes the
 * durable state only (the crash model "lose everything unsynced") into a
 * fresh directory, where a check reads what a workload saw acknowledged.
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

struct powercut;

/* Whether this build has the layer (libfuse3). */
bool powercut_built(void);

/* Make <dir>/.dbio-powercut.<pid> under the open directory dirfd, move the
 * process into a mount namespace of its own (call it while the process has
 * one thread), mount the filesystem there and serve it from a thread of its
 * own. 0 and *out, or -errno with a reason in err. */
int powercut_open(int dirfd, struct powercut **out, char *err, size_t len);

/* The mount point: the directory a workload runs in. */
const char *powercut_mount_path(const struct powercut *pc);

/* Write the durable state into a fresh directory "cut" of the layer's own
 * directory (replacing the last cut); its fd in *cutfd (the caller closes
 * it). 0 or -errno. */
int powercut_cut(struct powercut *pc, int *cutfd);

/* 1 when the file path (relative, no "..") in the directory cutfd has a
 * line equal to record, 0 when not (or the file is missing), -errno. */
int powercut_has_line(int cutfd, const char *path, const char *record);

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
