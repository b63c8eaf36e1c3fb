/*
 * dbio's mark on a file it made to keep between two commands (`dbio
 * sysbench fileio prepare` makes test_file.N, `run` uses them, `cleanup`
 * removes them): the extended attribute trusted.dbio.kept, whose value
 * names the command that made the file. Only root can set a trusted.*
 * attribute, so a file another user made cannot carry it, and a file is
 * only ever used or removed through an open descriptor whose mark was read.
 */
#ifndef DBIO_UTIL_MARK_H
#define DBIO_UTIL_MARK_H

#define MARK_XATTR "trusted.dbio.kept"

/* Mark the open file fd as made by maker ("sysbench"). 0 or -errno
 * (-EPERM when not root, -EOPNOTSUPP where the filesystem has no
 * extended attributes). */
int mark_set(int fd, const char *maker);

/* Take any mark off the open file fd. 0 (also when it had none) or
 * -errno. */
int mark_clear(int fd);

/* 0 when fd carries the mark of maker; -ENODATA when it carries none or
 * another's; else -errno. */
int mark_check(int fd, const char *maker);

/* This process's mark for the directories a run's threads make (a
 * database's): "db <pid> <random>", drawn once per process and kept by its
 * children (the mem_limit child makes them, dbio removes them). A
 * directory that carries it is this run's; one another user swapped in
 * cannot (only root sets trusted.*), nor can one an earlier run kept. The
 * one global of util/ besides the syscall table. */
const char *mark_run_token(void);

#endif
