/*
 * What the tests of run/ and of the workloads share (test_runner.c,
 * test_fileio.c, test_kv.c): a fresh target directory under /tmp, jobs
 * built from job-file text and validated as `dbio run` does, one
 * run_group over them, and a dbio_sys table (util/syscalls.h) that wraps
 * libc's and injects faults: a call failing with an errno (after some
 * calls, for some calls), transfers cut short, EINTR before each
 * transfer, end of file. The runner makes threads, so the counters are
 * atomic. Everything here is static inline so that each test uses what
 * it needs; included after cmocka.h.
 *
 * Files are told apart by how they were opened: a file opened without
 * O_CREAT is a worker's (fileio's open; the fadvise of cache=fadvise
 * opens one for a moment too, without reading or writing), one opened
 * with O_CREAT is made by the layout or a workload (kv's database).
 */
#ifndef DBIO_TESTS_UNIT_RUN_FIXTURE_H
#define DBIO_TESTS_UNIT_RUN_FIXTURE_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/job.h"
#include "plan/plan.h"
#include "run/run.h"
#include "util/syscalls.h"

enum fx_call {
	FX_OPENAT,
	FX_PREAD,
	FX_PWRITE,
	FX_READ,
	FX_WRITE,
	FX_LSEEK,
	FX_FSYNC,
	FX_FDATASYNC,
	FX_FALLOCATE,
	FX_POSIX_FALLOCATE,
	FX_FTRUNCATE,
	FX_UNLINKAT,
	FX_NCALLS
};

#define FX_EOF	  (-1) /* fx_fault.err: a read or write returns 0 bytes */
#define FX_MAX_FD 1024

/* A fault of one call. The data calls (pread ... fdatasync) match the
 * workers' files, or with layout the files opened with O_CREAT; the
 * others match every call, openat and unlinkat only of name when set. */
struct fx_fault {
	int err;	  /* errno the call fails with, FX_EOF, or 0: none (count only) */
	unsigned after;	  /* matching calls let through before the first failure */
	unsigned times;	  /* failures, then the calls pass again; 0: every call after */
	bool layout;	  /* data calls: the created files instead of the workers' */
	bool no_create;	  /* openat: only opens without O_CREAT */
	const char *name; /* openat, unlinkat: only this name (as passed) */
};

static struct fx_state {
	struct fx_fault fault[FX_NCALLS];
	size_t short_max;	 /* workers' transfers move at most this many bytes a call; 0: all */
	bool intr;		 /* every other transfer of a worker fails with EINTR */
	size_t layout_short_max; /* the same for the layout's (created files') transfers */
	bool layout_intr;
	atomic_uint layout_calls;	/* the layout's transfers, for layout_intr */
	atomic_uint calls[FX_NCALLS];	/* matching calls, failed ones too */
	atomic_uint fails[FX_NCALLS];	/* failures injected */
	atomic_ullong bytes[FX_NCALLS]; /* bytes the matching real transfers moved */
	atomic_bool worker_fd[FX_MAX_FD];
} fx;

static inline bool fx_is_worker(int fd)
{
	return fd >= 0 && fd < FX_MAX_FD && atomic_load(&fx.worker_fd[fd]);
}

/* Whether call c on fd matches its fault. */
static inline bool fx_matches(enum fx_call c, int fd)
{
	return fx.fault[c].layout ? fd >= 0 && !fx_is_worker(fd) : fx_is_worker(fd);
}

/* Count a matching call (the how-manyth into *nth, from 0); -1 with errno
 * set (or 0 for FX_EOF) when it is to fail, 1 to go on. */
static inline int fx_inject_nth(enum fx_call c, unsigned *nth)
{
	const struct fx_fault *f = &fx.fault[c];
	unsigned n = atomic_fetch_add(&fx.calls[c], 1);

	*nth = n;

	if (!f->err || n < f->after || (f->times && n >= f->after + f->times))
		return 1;
	atomic_fetch_add(&fx.fails[c], 1);
	if (f->err == FX_EOF)
		return 0;
	errno = f->err;
	return -1;
}

static inline int fx_inject(enum fx_call c)
{
	unsigned n;

	return fx_inject_nth(c, &n);
}

/* A worker's read or write: the fault, then EINTR every other call (the
 * first of each pair), then the length cut to short_max. */
static inline ssize_t fx_transfer(enum fx_call c, int fd, size_t *len)
{
	unsigned n;
	int rc;

	if (fd >= 0 && !fx_is_worker(fd) && (fx.layout_intr || fx.layout_short_max)) {
		if (fx.layout_intr && atomic_fetch_add(&fx.layout_calls, 1) % 2 == 0) {
			errno = EINTR;
			return -1;
		}
		if (fx.layout_short_max && *len > fx.layout_short_max)
			*len = fx.layout_short_max;
	}
	if (!fx_matches(c, fd))
		return 1;
	if ((rc = fx_inject_nth(c, &n)) <= 0)
		return rc;
	if (!fx.fault[c].layout && fx.intr && n % 2 == 0) {
		errno = EINTR;
		return -1;
	}
	if (!fx.fault[c].layout && fx.short_max && *len > fx.short_max)
		*len = fx.short_max;
	return 1;
}

static inline void fx_moved(enum fx_call c, int fd, ssize_t n)
{
	if (n > 0 && fx_matches(c, fd))
		atomic_fetch_add(&fx.bytes[c], (unsigned long long)n);
}

static inline bool fx_name_matches(enum fx_call c, const char *path)
{
	return !fx.fault[c].name || !strcmp(fx.fault[c].name, path);
}

static int fx_openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	int fd;

	if (flags & (O_CREAT | __O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (fx_name_matches(FX_OPENAT, path) && (!fx.fault[FX_OPENAT].no_create || !(flags & O_CREAT)) &&
	    fx_inject(FX_OPENAT) <= 0)
		return -1;
	fd = openat(dirfd, path, flags, mode);
	if (fd >= 0 && fd < FX_MAX_FD)
		atomic_store(&fx.worker_fd[fd], !(flags & O_CREAT));
	return fd;
}

static int fx_close(int fd)
{
	if (fd >= 0 && fd < FX_MAX_FD)
		atomic_store(&fx.worker_fd[fd], false);
	return close(fd);
}

static ssize_t fx_pread(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = fx_transfer(FX_PREAD, fd, &len);

	if (n <= 0)
		return n;
	n = pread(fd, buf, len, off);
	fx_moved(FX_PREAD, fd, n);
	return n;
}

static ssize_t fx_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	ssize_t n = fx_transfer(FX_PWRITE, fd, &len);

	if (n <= 0)
		return n;
	n = pwrite(fd, buf, len, off);
	fx_moved(FX_PWRITE, fd, n);
	return n;
}

static ssize_t fx_read(int fd, void *buf, size_t len)
{
	ssize_t n = fx_transfer(FX_READ, fd, &len);

	if (n <= 0)
		return n;
	n = read(fd, buf, len);
	fx_moved(FX_READ, fd, n);
	return n;
}

static ssize_t fx_write(int fd, const void *buf, size_t len)
{
	ssize_t n = fx_transfer(FX_WRITE, fd, &len);

	if (n <= 0)
		return n;
	n = write(fd, buf, len);
	fx_moved(FX_WRITE, fd, n);
	return n;
}

static off_t fx_lseek(int fd, off_t off, int whence)
{
	if (fx_matches(FX_LSEEK, fd) && fx_inject(FX_LSEEK) <= 0)
		return -1;
	return lseek(fd, off, whence);
}

static int fx_fsync(int fd)
{
	if (fx_matches(FX_FSYNC, fd) && fx_inject(FX_FSYNC) <= 0)
		return -1;
	return fsync(fd);
}

static int fx_fdatasync(int fd)
{
	if (fx_matches(FX_FDATASYNC, fd) && fx_inject(FX_FDATASYNC) <= 0)
		return -1;
	return fdatasync(fd);
}

static int fx_fallocate(int fd, int mode, off_t off, off_t len)
{
	if (fx_inject(FX_FALLOCATE) <= 0)
		return -1;
	return fallocate(fd, mode, off, len);
}

/* posix_fallocate returns the error instead of setting errno. */
static int fx_posix_fallocate(int fd, off_t off, off_t len)
{
	if (fx_inject(FX_POSIX_FALLOCATE) <= 0)
		return errno;
	return posix_fallocate(fd, off, len);
}

static int fx_ftruncate(int fd, off_t len)
{
	if (fx_inject(FX_FTRUNCATE) <= 0)
		return -1;
	return ftruncate(fd, len);
}

static int fx_unlinkat(int dirfd, const char *path, int flags)
{
	if (fx_name_matches(FX_UNLINKAT, path) && fx_inject(FX_UNLINKAT) <= 0)
		return -1;
	return unlinkat(dirfd, path, flags);
}

static struct dbio_syscalls fx_sys;

/* Forget every fault and count, and put the faulty table in force. */
static inline void fx_install(void)
{
	memset(&fx, 0, sizeof(fx));
	fx_sys = dbio_sys_libc;
	fx_sys.openat = fx_openat;
	fx_sys.close = fx_close;
	fx_sys.pread = fx_pread;
	fx_sys.pwrite = fx_pwrite;
	fx_sys.read = fx_read;
	fx_sys.write = fx_write;
	fx_sys.lseek = fx_lseek;
	fx_sys.fsync = fx_fsync;
	fx_sys.fdatasync = fx_fdatasync;
	fx_sys.fallocate = fx_fallocate;
	fx_sys.posix_fallocate = fx_posix_fallocate;
	fx_sys.ftruncate = fx_ftruncate;
	fx_sys.unlinkat = fx_unlinkat;
	dbio_sys = &fx_sys;
}

static inline void fx_uninstall(void)
{
	dbio_sys = &dbio_sys_libc;
}

#define FX_MAX_JOBS 4

/* One test's run: its directory, jobs, what run_group returned and
 * measured, and the warnings it gave. */
struct fx_run {
	char dir[64];
	const char *param; /* the test's prestate: an engine's or a database's name */
	struct jobset set;
	struct run_stats stats[FX_MAX_JOBS];
	bool ran; /* stats to release */
	struct dbio_err err;
	char warnings[4096]; /* one line each */
	int rc;
};

static void fx_warn(void *ctx, const char *msg)
{
	struct fx_run *r = ctx;
	size_t used = strlen(r->warnings);

	snprintf(r->warnings + used, sizeof(r->warnings) - used, "%s\n", msg);
}

/* cmocka setup: a new empty directory and the faulty table; the prestate
 * (a name, or NULL) becomes r->param. */
static inline int fx_setup(void **state)
{
	struct fx_run *r = calloc(1, sizeof(*r));

	if (!r)
		return -1;
	r->param = *state;
	snprintf(r->dir, sizeof(r->dir), "/tmp/dbio-unit-XXXXXX");
	if (!mkdtemp(r->dir)) {
		free(r);
		return -1;
	}
	fx_install();
	*state = r;
	return 0;
}

static int fx_rm(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* cmocka teardown, also after a failed test: the libc table back, the
 * directory removed with whatever a failure left in it. */
static inline int fx_teardown(void **state)
{
	struct fx_run *r = *state;

	fx_uninstall();
	if (r->ran)
		for (size_t j = 0; j < r->set.njobs && j < FX_MAX_JOBS; j++)
			run_stats_release(&r->stats[j]);
	jobset_release(&r->set);
	nftw(r->dir, fx_rm, 16, FTW_DEPTH | FTW_PHYS);
	free(r);
	return 0;
}

/* The names in dir (not . and ..), sorted, separated by spaces, into buf:
 * "" for an empty directory. */
static inline const char *fx_listing(const char *dir, char *buf, size_t len)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		const char *s = names[i]->d_name;

		if (strcmp(s, ".") && strcmp(s, ".."))
			used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
						 used ? " " : "", s);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	else
		snprintf(buf, len, "(cannot read %s: %s)", dir, strerror(errno));
	return buf;
}

/* Parse text as the job file "t.fio" with directory= r->dir in a [global]
 * before it, and validate every job as `dbio run` does. */
static inline void fx_jobs(struct fx_run *r, const char *text)
{
	char *full = NULL;
	struct dbio_err err = { 0 };

	assert_true(asprintf(&full, "[global]\ndirectory=%s\n%s", r->dir, text) > 0);
	if (plan_jobfile_parse_string(&r->set, full, "t.fio", &err))
		fail_msg("t.fio: %s", err.msg);
	free(full);
	assert_true(r->set.njobs >= 1 && r->set.njobs <= FX_MAX_JOBS);
	for (size_t j = 0; j < r->set.njobs; j++)
		if (plan_validate(&r->set.jobs[j], &err))
			fail_msg("job %s: %s", r->set.jobs[j].name, err.msg);
	if (plan_check_shared(&r->set, &err))
		fail_msg("%s", err.msg);
}

/* Check the targets, then run every job of r->set as one group, as `dbio
 * run` does; r->rc is what run_group (or the check) returned. */
static inline int fx_run_jobs(struct fx_run *r, bool keep)
{
	const struct run_opts opts = { .keep = keep, .warn = fx_warn, .warn_ctx = r };

	r->rc = run_check_targets(&r->set, &opts, &r->err);
	if (r->rc)
		return r->rc;
	r->ran = true;
	r->rc = run_group(r->set.jobs, r->set.njobs, &opts, r->stats, &r->err);
	return r->rc;
}

/* r->dir + "/" + name into buf, for the messages that name a file. */
static inline const char *fx_path(const struct fx_run *r, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", r->dir, name);
	return buf;
}

/* The operations of type t job j did, and their bytes. */
static inline uint64_t fx_ops(const struct fx_run *r, size_t j, enum op_type t)
{
	return r->stats[j].ops[t].lat_ns.count;
}

static inline uint64_t fx_bytes(const struct fx_run *r, size_t j, enum op_type t)
{
	return r->stats[j].ops[t].bytes;
}

#endif
