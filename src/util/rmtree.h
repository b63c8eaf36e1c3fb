/*
 * Removing a directory dbio made, through the descriptor it opened when it
 * made it: never by its name in a directory others can rename in, where
 * the name may by then be someone else's directory.
 */
#ifndef DBIO_UTIL_RMTREE_H
#define DBIO_UTIL_RMTREE_H

#include <stdbool.h>
#include <sys/stat.h>

/* Remove everything in the open directory fd, down to depth levels of
 * directories below it: each entry by unlinkat relative to the directory
 * that holds it, each directory opened O_NOFOLLOW relative to its parent's
 * descriptor, a symlink removed itself, never followed. 0, or the first
 * -errno. */
int rmtree_contents(int fd, int depth);

/* Empty fd (rmtree_contents) and remove name in parent only while name
 * still is that directory (same st_dev and st_ino; AT_SYMLINK_NOFOLLOW).
 * 0 when removed; 1 when name is something else or nothing (*found is what
 * it is, st_mode 0 for nothing; the directory is emptied, name left
 * alone); else -errno. fd stays open. */
int rmtree_held(int parent, const char *name, int fd, int depth, struct stat *found);

/* What st (from rmtree_held) is, for a message: "nothing", "a directory of
 * uid 0 mode 0700", "a symlink", ... into buf. */
const char *rmtree_describe(const struct stat *st, char *buf, unsigned len);

#endif
