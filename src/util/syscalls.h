/*
 * The seam between dbio and the kernel for file I/O. Engines and the file
 * layout call through dbio_sys, never the libc functions directly, so unit
 * tests can swap in a table that injects EIO, ENOSPC or short transfers
 * (SQLite's syscall table is the model). Entries have libc's signatures and
 * errno conventions; new entries are appended.
 */
#ifndef DBIO_UTIL_SYSCALLS_H
#define DBIO_UTIL_SYSCALLS_H

#include <sys/types.h>
#include <sys/uio.h>

struct dbio_syscalls {
	int (*openat)(int dirfd, const char *path, int flags, ...);
	int (*close)(int fd);
	ssize_t (*pread)(int fd, void *buf, size_t len, off_t off);
	ssize_t (*pwrite)(int fd, const void *buf, size_t len, off_t off);
	ssize_t (*read)(int fd, void *buf, size_t len);
	ssize_t (*write)(int fd, const void *buf, size_t len);
	off_t (*lseek)(int fd, off_t off, int whence);
	int (*fsync)(int fd);
	int (*fdatasync)(int fd);
	int (*fallocate)(int fd, int mode, off_t off, off_t len);
	int (*posix_fallocate)(int fd, off_t off, off_t len); /* returns errno, as libc */
	int (*ftruncate)(int fd, off_t len);
	int (*unlinkat)(int dirfd, const char *path, int flags);
	int (*posix_fadvise)(int fd, off_t off, off_t len, int advice); /* returns errno */
	int (*sync_file_range)(int fd, off_t off, off_t len, unsigned int flags);
	ssize_t (*preadv2)(int fd, const struct iovec *iov, int iovcnt, off_t off, int flags);
	ssize_t (*pwritev2)(int fd, const struct iovec *iov, int iovcnt, off_t off, int flags);
};

/* The table in force; points at the libc table unless a test replaced it. */
extern const struct dbio_syscalls *dbio_sys;

/* The table of real libc calls, for tests that wrap only some entries. */
extern const struct dbio_syscalls dbio_sys_libc;

#endif
