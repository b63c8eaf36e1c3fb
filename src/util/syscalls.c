/* The libc syscall table; see syscalls.h. */
#include "util/syscalls.h"

#include <fcntl.h>
#include <unistd.h>

const struct dbio_syscalls dbio_sys_libc = {
	.openat = openat,
	.close = close,
	.pread = pread,
	.pwrite = pwrite,
	.read = read,
	.write = write,
	.lseek = lseek,
	.fsync = fsync,
	.fdatasync = fdatasync,
	.fallocate = fallocate,
	.posix_fallocate = posix_fallocate,
	.ftruncate = ftruncate,
	.unlinkat = unlinkat,
	.posix_fadvise = posix_fadvise,
	.sync_file_range = sync_file_range,
	.preadv2 = preadv2,
	.pwritev2 = pwritev2,
};

const struct dbio_syscalls *dbio_sys = &dbio_sys_libc;
