/* DBIO_FAULT's faulting syscall table; see fault.h. */
#include "util/fault.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/syscalls.h"

enum fault_kind { FAULT_EIO, FAULT_ENOSPC, FAULT_EINTR, FAULT_SHORT, FAULT_SLOW };

struct fault_rule {
	bool on;
	enum fault_kind kind;
	uint64_t after, times; /* times 0: no end */
};

static const char *const kind_names[] = { "eio", "enospc", "eintr", "short", "slow" };

/* How long a slow call stalls before it is done: a device that hangs. */
#define FAULT_SLOW_NS 200000000L
static const char *const op_names[FAULT_NOPS] = { "read", "write", "fsync", "open", "fallocate" };

static struct fault_rule rules[FAULT_NOPS];
static _Atomic uint64_t calls[FAULT_NOPS];
static char spec_copy[512];

#define ACCEPTED                                                                                             \
	"expected KIND:OP[:after=N][:times=N], several separated by ',', with KIND eio, enospc, "            \
	"eintr, short or slow and OP read, write, fsync, open or fallocate"

/* The fault for this call of op: 0 to do the call, -1 for a short
 * transfer, else the errno to fail with. */
static int fault_hit(enum fault_op op)
{
	const struct fault_rule *r = &rules[op];
	uint64_t n = atomic_fetch_add_explicit(&calls[op], 1, memory_order_relaxed) + 1;

	if (!r->on || n <= r->after || (r->times && n > r->after + r->times))
		return 0;
	switch (r->kind) {
	case FAULT_EIO:
		return EIO;
	case FAULT_ENOSPC:
		return ENOSPC;
	case FAULT_EINTR:
		return EINTR;
	case FAULT_SHORT:
		return -1;
	case FAULT_SLOW: {
		struct timespec ts = { 0, FAULT_SLOW_NS };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		return 0;
	}
	}
	return 0;
}

/* A short transfer moves half of what was asked (one byte is all or
 * nothing: it passes). */
static size_t shorten(size_t len)
{
	return len > 1 ? len / 2 : len;
}

static ssize_t f_pread(int fd, void *buf, size_t len, off_t off)
{
	int e = fault_hit(FAULT_OP_READ);

	if (e > 0)
		return errno = e, -1;
	return pread(fd, buf, e ? shorten(len) : len, off);
}

static ssize_t f_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	int e = fault_hit(FAULT_OP_WRITE);

	if (e > 0)
		return errno = e, -1;
	return pwrite(fd, buf, e ? shorten(len) : len, off);
}

static ssize_t f_read(int fd, void *buf, size_t len)
{
	int e = fault_hit(FAULT_OP_READ);

	if (e > 0)
		return errno = e, -1;
	return read(fd, buf, e ? shorten(len) : len);
}

static ssize_t f_write(int fd, const void *buf, size_t len)
{
	int e = fault_hit(FAULT_OP_WRITE);

	if (e > 0)
		return errno = e, -1;
	return write(fd, buf, e ? shorten(len) : len);
}

/* A vector call, shortened: half of its first buffer only. */
static ssize_t f_vector(ssize_t (*call)(int, const struct iovec *, int, off_t, int), enum fault_op op, int fd,
			const struct iovec *iov, int iovcnt, off_t off, int flags)
{
	int e = fault_hit(op);
	struct iovec half;

	if (e > 0)
		return errno = e, -1;
	if (!e || iovcnt < 1)
		return call(fd, iov, iovcnt, off, flags);
	half.iov_base = iov[0].iov_base;
	half.iov_len = shorten(iov[0].iov_len);
	return call(fd, &half, 1, off, flags);
}

static ssize_t f_preadv2(int fd, const struct iovec *iov, int iovcnt, off_t off, int flags)
{
	return f_vector(preadv2, FAULT_OP_READ, fd, iov, iovcnt, off, flags);
}

static ssize_t f_pwritev2(int fd, const struct iovec *iov, int iovcnt, off_t off, int flags)
{
	return f_vector(pwritev2, FAULT_OP_WRITE, fd, iov, iovcnt, off, flags);
}

static int f_fsync(int fd)
{
	int e = fault_hit(FAULT_OP_FSYNC);

	return e > 0 ? (errno = e, -1) : fsync(fd);
}

static int f_fdatasync(int fd)
{
	int e = fault_hit(FAULT_OP_FSYNC);

	return e > 0 ? (errno = e, -1) : fdatasync(fd);
}

static int f_openat(int dirfd, const char *path, int flags, ...)
{
	int e = fault_hit(FAULT_OP_OPEN);
	mode_t mode = 0;
	va_list ap;

	if (e > 0)
		return errno = e, -1;
	if (flags & (O_CREAT | __O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return openat(dirfd, path, flags, mode);
}

static int f_fallocate(int fd, int mode, off_t off, off_t len)
{
	int e = fault_hit(FAULT_OP_FALLOCATE);

	return e > 0 ? (errno = e, -1) : fallocate(fd, mode, off, len);
}

static int f_posix_fallocate(int fd, off_t off, off_t len)
{
	int e = fault_hit(FAULT_OP_FALLOCATE);

	return e > 0 ? e : posix_fallocate(fd, off, len); /* returns the errno, as libc */
}

static struct dbio_syscalls fault_table;

/* The index of name (len bytes) in names[n], or -1. */
static int find_name(const char *const *names, int n, const char *name, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return i;
	return -1;
}

/* "after=N" or "times=N" of one fault into r. */
static int parse_count(const char *field, size_t len, struct fault_rule *r, const char *spec,
		       struct dbio_err *err)
{
	char buf[64], *end;
	unsigned long long v;
	uint64_t *to;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, field, len);
	buf[len] = '\0';
	if (!strncmp(buf, "after=", 6))
		to = &r->after;
	else if (!strncmp(buf, "times=", 6))
		to = &r->times;
	else
		return dbio_err_set(err, DBIO_EINPUT, "%s=%s: '%s': not after=N or times=N: %s", FAULT_ENV,
				    spec, buf, ACCEPTED);
	errno = 0;
	v = strtoull(buf + 6, &end, 10);
	if (errno || end == buf + 6 || *end || buf[6] == '-')
		return dbio_err_set(err, DBIO_EINPUT, "%s=%s: '%s': not a whole number of calls: %s",
				    FAULT_ENV, spec, buf, ACCEPTED);
	*to = v;
	return 0;
}

/* One KIND:OP[:after=N][:times=M] of len bytes at f into rules. */
static int parse_fault(const char *f, size_t len, const char *spec, struct dbio_err *err)
{
	const char *end = f + len, *p = f, *colon;
	struct fault_rule r = { .on = true };
	int kind, op;

	colon = memchr(p, ':', (size_t)(end - p));
	if (!colon)
		return dbio_err_set(err, DBIO_EINPUT, "%s=%s: '%.*s': no operation: %s", FAULT_ENV, spec,
				    (int)len, f, ACCEPTED);
	if ((kind = find_name(kind_names, 5, p, (size_t)(colon - p))) < 0)
		return dbio_err_set(err, DBIO_EINPUT, "%s=%s: '%.*s': unknown fault: %s", FAULT_ENV, spec,
				    (int)(colon - p), p, ACCEPTED);
	p = colon + 1;
	if (!(colon = memchr(p, ':', (size_t)(end - p))))
		colon = end;
	if ((op = find_name(op_names, FAULT_NOPS, p, (size_t)(colon - p))) < 0)
		return dbio_err_set(err, DBIO_EINPUT, "%s=%s: '%.*s': unknown operation: %s", FAULT_ENV, spec,
				    (int)(colon - p), p, ACCEPTED);
	r.kind = (enum fault_kind)kind;
	if (r.kind == FAULT_SHORT && op != FAULT_OP_READ && op != FAULT_OP_WRITE)
		return dbio_err_set(err, DBIO_EINPUT, "%s=%s: short:%s: only a read or a write can be short",
				    FAULT_ENV, spec, op_names[op]);
	r.times = r.kind == FAULT_EINTR || r.kind == FAULT_SHORT || r.kind == FAULT_SLOW;
	while (colon < end) {
		const char *field = colon + 1;

		if (!(colon = memchr(field, ':', (size_t)(end - field))))
			colon = end;
		if (parse_count(field, (size_t)(colon - field), &r, spec, err))
			return err->code;
	}
	if (rules[op].on)
		return dbio_err_set(err, DBIO_EINPUT, "%s=%s: two faults for %s: give one per operation",
				    FAULT_ENV, spec, op_names[op]);
	rules[op] = r;
	return 0;
}

int fault_install(const char *spec, struct dbio_err *err)
{
	const char *p = spec;

	fault_remove();
	if (strlen(spec) >= sizeof(spec_copy))
		return dbio_err_set(err, DBIO_EINPUT, "%s: longer than %zu bytes", FAULT_ENV,
				    sizeof(spec_copy) - 1);
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (parse_fault(p, len, spec, err)) {
			fault_remove();
			return err->code;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	strcpy(spec_copy, spec);
	fault_table = dbio_sys_libc;
	fault_table.pread = f_pread;
	fault_table.pwrite = f_pwrite;
	fault_table.read = f_read;
	fault_table.write = f_write;
	fault_table.preadv2 = f_preadv2;
	fault_table.pwritev2 = f_pwritev2;
	fault_table.fsync = f_fsync;
	fault_table.fdatasync = f_fdatasync;
	fault_table.openat = f_openat;
	fault_table.fallocate = f_fallocate;
	fault_table.posix_fallocate = f_posix_fallocate;
	dbio_sys = &fault_table;
	return 0;
}

void fault_remove(void)
{
	memset(rules, 0, sizeof(rules));
	for (int i = 0; i < FAULT_NOPS; i++)
		atomic_store(&calls[i], 0);
	spec_copy[0] = '\0';
	dbio_sys = &dbio_sys_libc;
}

int fault_on(enum fault_op op)
{
	return rules[op].on;
}

const char *fault_spec(void)
{
	return spec_copy[0] ? spec_copy : NULL;
}

uint64_t fault_calls(enum fault_op op)
{
	return atomic_load(&calls[op]);
}
