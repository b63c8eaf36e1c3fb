/*
 * File layout: the target directories and the files inside them. Only this
 * file (and kept.c, for the files kept between commands) creates and
 * removes files, and only names it made itself; the kept files carry dbio's
 * mark (util/mark.h) so that a later command uses and removes only those.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "run/run_int.h"
#include "util/mark.h"
#include "util/rmtree.h"
#include "util/rng.h"
#include "util/safepath.h"
#include "util/syscalls.h"
#include "util/units.h"
#include "workload/fileio/files.h"
#include "workload/fileio/fname.h"

static char *fmt_alloc(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *fmt_alloc(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

int layout_init(struct layout *l, const struct job *job, bool files, bool keep, struct dbio_err *err)
{
	char **names = NULL;
	int n = job_split_dirs(job->directory, &names);

	memset(l, 0, sizeof(*l));
	/* Drawn here, in dbio, before any mem_limit child: the child keeps
	 * it, so the database directories it makes carry dbio's own mark. */
	(void)mark_run_token();
	l->job = job;
	l->keep = keep;
	l->carry = fileio_files(job)->verify.files_for_later;
	if (n < 0)
		return dbio_err_set(err, n, "%s: out of memory", job->name);
	l->dirs = calloc((size_t)n, sizeof(*l->dirs));
	if (!l->dirs) {
		for (int i = 0; i < n; i++)
			free(names[i]);
		free(names);
		return dbio_err_set(err, -ENOMEM, "%s: out of memory", job->name);
	}
	l->ndirs = (size_t)n;
	for (int i = 0; i < n; i++) {
		l->dirs[i].path = names[i];
		l->dirs[i].fd = -1;
	}
	free(names);

	for (size_t i = 0; i < l->ndirs; i++) {
		struct layout_dir *d = &l->dirs[i];

		if (!strcmp(d->path, RUN_SCRATCH_DEFAULT) && mkdir(d->path, 0755) == 0)
			d->created = true;
		/* every component: no symlink of another user (util/safepath.h) */
		d->fd = safepath_open_dir("key 'directory':", d->path, err);
		if (d->fd < 0)
			return dbio_err_set(err, d->fd == -ENOENT || d->fd == -ENOTDIR ? DBIO_EINPUT : d->fd,
					    "%s: cannot open directory: %s", d->path, strerror(-d->fd));
		/* the scratch directory an earlier group of this run made and
		 * left for this one, with the files it carried */
		struct stat st;

		if (!d->created && fileio_files(job)->verify.files_from_earlier &&
		    !strcmp(d->path, RUN_SCRATCH_DEFAULT) && !fstat(d->fd, &st) && run_carried_has(&st))
			d->created = true;
	}

	if (!files)
		return 0;
	/* share_files and fio's filename: one set of files for all threads */
	const uint64_t threads =
		fileio_files(job)->layout.share_files || fileio_files(job)->layout.filename[0] ? 1
											       : job->numjobs;

	l->files = calloc(threads * fileio_files(job)->layout.nrfiles, sizeof(*l->files));
	if (!l->files)
		return dbio_err_set(err, -ENOMEM, "%s: out of memory for %llu files", job->name,
				    (unsigned long long)(threads * fileio_files(job)->layout.nrfiles));
	for (uint64_t t = 0; t < threads; t++) {
		for (uint64_t f = 0; f < fileio_files(job)->layout.nrfiles; f++) {
			struct layout_file *lf = &l->files[l->nfiles];
			size_t global = l->nfiles;

			lf->dir = global % l->ndirs;
			char named[4096];

			if (fileio_files(job)->layout.filename[0])
				lf->name = strdup(job_filename_at(job, f, named, sizeof(named)));
			else if (fname_at(job, t, f, named, sizeof(named)))
				lf->name = strdup(named); /* fio's filename_format, per thread */
			else if (fileio_files(job)->layout.share_files)
				lf->name = fmt_alloc("dbio.%s.shared.%llu", job->name, (unsigned long long)f);
			else
				lf->name = fmt_alloc("dbio.%s.%llu.%llu", job->name, (unsigned long long)t,
						     (unsigned long long)f);
			lf->path = lf->name ? fmt_alloc("%s/%s", l->dirs[lf->dir].path, lf->name) : NULL;
			/* the threads of a set of files all start inside it */
			lf->size = job_file_bytes(job, fileio_files(job)->layout.share_files ? 0
						       : threads > 1			     ? t
								     : job->numjobs - 1);
			l->nfiles++;
			if (!lf->path)
				return dbio_err_set(err, -ENOMEM, "%s: out of memory", job->name);
		}
	}
	return 0;
}

static int preallocate(const struct layout *l, const struct layout_file *f, int fd)
{
	const off_t size = (off_t)f->size;
	int rc;

	/* fill_device: the writes take the space until none is left (fio) */
	switch (fileio_files(l->job)->verify.fill_device ? FALLOC_NONE
							 : fileio_files(l->job)->layout.fallocate) {
	case FALLOC_NATIVE:
		if (dbio_sys->fallocate(fd, 0, 0, size) == 0)
			return 0;
		if (errno != EOPNOTSUPP)
			return -errno;
		break; /* as fio: fall back to a plain size change */
	case FALLOC_POSIX:
		rc = dbio_sys->posix_fallocate(fd, 0, size);
		return -rc;
	case FALLOC_KEEP:
		if (dbio_sys->fallocate(fd, 1 /* FALLOC_FL_KEEP_SIZE */, 0, size) == 0)
			return 0;
		return errno == EOPNOTSUPP ? 0 : -errno;
	case FALLOC_NONE:
		break;
	}
	return dbio_sys->ftruncate(fd, size) == 0 ? 0 : -errno;
}

int layout_fill(const struct layout_file *f, int fd, uint64_t from, char *buf, uint64_t chunk)
{
	for (uint64_t off = from; off < f->size;) {
		uint64_t n = f->size - off < chunk ? f->size - off : chunk;
		ssize_t w;

		if (atomic_load(&run_stop_signal))
			return DBIO_ESTOPPED;
		w = dbio_sys->pwrite(fd, buf, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		off += (uint64_t)w;
	}
	return dbio_sys->fsync(fd) == 0 ? 0 : -errno;
}

static bool needs_fill(const struct job *job)
{
	if (fileio_files(job)->layout.prefill == PREFILL_AUTO)
		return job_reads(job);
	return fileio_files(job)->layout.prefill == PREFILL_ON;
}

/* The file of l named as f (in a directory of the same path), or NULL. */
static struct layout_file *same_file(struct layout *l, const struct layout *of, const struct layout_file *f)
{
	for (size_t i = 0; i < l->nfiles; i++)
		if (!l->files[i].borrowed && !strcmp(l->files[i].name, f->name) &&
		    !strcmp(l->dirs[l->files[i].dir].path, of->dirs[f->dir].path))
			return &l->files[i];
	return NULL;
}

void layout_share(struct layout *l, size_t n)
{
	struct layout_file *lender;

	for (size_t j = 1; j < n; j++)
		for (size_t i = 0; fileio_files(l[j].job)->layout.filename[0] && i < l[j].nfiles; i++)
			for (size_t k = 0; k < j; k++)
				if (fileio_files(l[k].job)->layout.filename[0] &&
				    (lender = same_file(&l[k], &l[j], &l[j].files[i]))) {
					l[j].files[i].borrowed = true;
					l[k].fill |= needs_fill(l[j].job);
					/* as fio, each job extends the file to its
					 * offset + size (t0002: offset=4G of a 1 GiB job's file) */
					if (lender->size < l[j].files[i].size)
						lender->size = l[j].files[i].size;
					break;
				}
}

/* What reads back a kept file, for messages. */
static const char *kept_reader(const struct job *job)
{
	if (fileio_files(job)->verify.verify_only)
		return "verify_only";
	return fileio_files(job)->verify.verify_state_load ? "verify_state_load"
							   : "a job that only reads with verify=";
}

/* Open f again, as an earlier group of the run left it (files_from_earlier)
 * or, for verify_only, verify_state_load and a job that only reads with
 * verify=, as an earlier run kept it: a regular file of dbio's user with
 * one link (no symlink, no hard link to a file elsewhere), grown to
 * f->size if it is shorter and an earlier group's (a kept file is read as
 * it is). Removed at the end only when this run made it. 0 or an error in
 * err. */
static int reopen(struct layout *l, struct layout_file *f, struct dbio_err *err)
{
	int fd = dbio_sys->openat(l->dirs[f->dir].fd, f->name, O_RDWR | O_NOFOLLOW | O_CLOEXEC), rc = 0;
	struct stat st;

	if (fd < 0)
		return dbio_err_set(
			err, errno == ENOENT ? DBIO_EINPUT : -errno,
			fileio_files(l->job)->verify.files_from_earlier
				? "%s: cannot open the file an earlier job wrote: %s"
				: "%s: cannot open: %s: %s reads back what a run with --keep wrote before",
			f->path, strerror(errno), kept_reader(l->job));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1 || st.st_uid != geteuid())
		rc = dbio_err_set(err, DBIO_EUNSAFE,
				  "%s: not a regular file of dbio's user with one link: not opened again",
				  f->path);
	else if (fileio_files(l->job)->verify.files_from_earlier && !run_carried_has(&st))
		rc = dbio_err_set(
			err, DBIO_EUNSAFE,
			"%s: not the file the earlier job created (replaced since): not opened again",
			f->path);
	else if (!fileio_files(l->job)->verify.files_from_earlier && mark_check(fd, RUN_MARK_KEPT) &&
		 mark_check(fd, RUN_MARK_LIVE))
		rc = dbio_err_set(
			err, DBIO_EUNSAFE,
			"%s: not a file dbio kept: it lacks the mark trusted.dbio.kept that --keep leaves (%s reads back only such a file, and needs root and extended attributes to tell it): not opened",
			f->path, kept_reader(l->job));
	else if ((uint64_t)st.st_size < f->size && fileio_files(l->job)->verify.files_from_earlier &&
		 !job_reads_kept(l->job) && (rc = preallocate(l, f, fd)))
		dbio_err_set(err, rc, "%s: cannot grow: %s", f->path, strerror(-rc));
	/* removed at the end only when it is the earlier job's file */
	f->created = fileio_files(l->job)->verify.files_from_earlier && rc != DBIO_EUNSAFE;
	dbio_sys->close(fd);
	return rc;
}

int layout_adopt_check(int dirfd, const char *name, const char *path, uint64_t size, const char *maker,
		       struct dbio_err *err)
{
	int fd = dbio_sys->openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	char sz[32];
	int rc = 0;

	if (fd < 0)
		return dbio_err_set(
			err, errno == ENOENT ? DBIO_EINPUT : DBIO_EUNSAFE,
			errno == ENOENT
				? "%s: does not exist: make it first (dbio %s ... prepare)"
				: "%s: not a file dbio prepared: refusing to use it; remove it by hand",
			path, maker);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || mark_check(fd, maker))
		rc = dbio_err_set(err, DBIO_EUNSAFE,
				  "%s: not a file dbio prepared: refusing to use it; remove it by hand",
				  path);
	else if ((uint64_t)st.st_size < size)
		rc = dbio_err_set(err, DBIO_EINPUT,
				  "%s: holds %llu bytes, %s expected: prepare it with the same options", path,
				  (unsigned long long)st.st_size, units_fmt_bytes(sz, sizeof(sz), size));
	dbio_sys->close(fd);
	return rc;
}

int layout_create(struct layout *l, struct dbio_err *err)
{
	const bool fill_files = (needs_fill(l->job) || l->fill) && !l->adopt;
	char *buf = NULL;
	int rc = 0;

	if (l->job->eng && (l->job->eng->caps & ENGINE_CAP_DISKLESS))
		return 0; /* null: no file, as fio's null engine makes none */
	if (fill_files) {
		struct rng r;

		buf = malloc(LAYOUT_CHUNK);
		if (!buf)
			return dbio_err_set(err, -ENOMEM, "%s: out of memory", l->job->name);
		rng_seed(&r, l->job->randseed ^ 0x1a7011ull);
		for (size_t i = 0; i + 8 <= LAYOUT_CHUNK; i += 8) {
			uint64_t x = rng_next(&r);
			memcpy(buf + i, &x, 8);
		}
	}
	for (size_t i = 0; i < l->nfiles && !rc; i++) {
		struct layout_file *f = &l->files[i];
		struct stat st;
		int fd;

		if (atomic_load(&run_stop_signal)) {
			rc = DBIO_ESTOPPED;
			break;
		}
		if (f->borrowed)
			continue;
		if (l->adopt) {
			rc = layout_adopt_check(l->dirs[f->dir].fd, f->name, f->path,
						l->adopt_any ? 0 : f->size, l->adopt, err);
			continue;
		}
		/* a job that only reads with verify= reads back a kept file
		 * of its name (reopen checks the mark), lays out the others */
		if (fileio_files(l->job)->verify.files_from_earlier || job_reads_kept(l->job) ||
		    (job_verifies_reads(l->job) &&
		     !fstatat(l->dirs[f->dir].fd, f->name, &st, AT_SYMLINK_NOFOLLOW))) {
			rc = reopen(l, f, err);
			continue;
		}
		fd = dbio_sys->openat(l->dirs[f->dir].fd, f->name,
				      O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0644);
		if (fd < 0) {
			if (errno == EEXIST)
				rc = dbio_err_set(
					err, DBIO_EUNSAFE,
					fileio_files(l->job)->layout.filename[0]
						? "%s: exists, and dbio measures only files it creates (and removes): remove it or name another file"
						: "%s: already exists: left by an earlier run? remove it and run again",
					f->path);
			else
				rc = dbio_err_set(err, -errno, "%s: cannot create: %s", f->path,
						  strerror(errno));
			break;
		}
		f->created = true;
		/* best effort: without it (not root, no xattrs) a leftover is
		 * refused instead of removed by the next run */
		(void)mark_set(fd, RUN_MARK_LIVE);
		if (l->carry && (fstat(fd, &st) || (rc = run_carried_add(&st)))) {
			rc = dbio_err_set(err, rc ? rc : -errno, "%s: cannot record it for the later job: %s",
					  f->path, strerror(rc ? -rc : errno));
			dbio_sys->close(fd);
			break;
		}
		rc = preallocate(l, f, fd);
		if (rc) {
			char sz[32];

			dbio_err_set(err, rc, "%s: cannot preallocate %s: %s", f->path,
				     units_fmt_bytes(sz, sizeof(sz), f->size), strerror(-rc));
		} else if (fill_files && (rc = layout_fill(f, fd, 0, buf, LAYOUT_CHUNK)) != 0 &&
			   rc != DBIO_ESTOPPED) {
			dbio_err_set(err, rc, "%s: cannot lay out file: %s", f->path, strerror(-rc));
		}
		dbio_sys->close(fd);
	}
	free(buf);
	return rc;
}

int layout_invalidate(struct layout *l, struct dbio_err *err)
{
	if (l->job->eng && (l->job->eng->caps & ENGINE_CAP_DISKLESS))
		return 0; /* no file was made */
	for (size_t i = 0; i < l->nfiles; i++) {
		struct layout_file *f = &l->files[i];
		int fd = dbio_sys->openat(l->dirs[f->dir].fd, f->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		int rc;

		if (fd < 0)
			return dbio_err_set(err, -errno, "%s: cannot open: %s", f->path, strerror(errno));
		rc = dbio_sys->posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		dbio_sys->close(fd);
		if (rc)
			return dbio_err_set(err, -rc, "%s: cannot drop cached pages: %s", f->path,
					    strerror(rc));
	}
	return 0;
}

/* Whether name, in directory i, is dbio.<job>.<t>.<something> of a thread t
 * of the job that works there; *n is the length of that prefix. */
static bool thread_entry(const struct layout *l, size_t i, const char *name, size_t *n)
{
	char prefix[192];

	for (uint64_t t = i; t < l->job->numjobs; t += l->ndirs) {
		*n = (size_t)snprintf(prefix, sizeof(prefix), "dbio.%s.%llu.", l->job->name,
				      (unsigned long long)t);
		if (!strncmp(name, prefix, *n) && name[*n])
			return true;
	}
	return false;
}

/* Whether name in directory i is a file of the layout (layout_release
 * removes those). */
static bool laid_out(const struct layout *l, size_t i, const char *name)
{
	for (size_t f = 0; f < l->nfiles; f++)
		if (l->files[f].dir == i && !strcmp(l->files[f].name, name))
			return true;
	return false;
}

/* The database directory name in dir, made by a thread of this run whose
 * descriptor dbio does not hold (the mem_limit child's): removed through
 * an fd of it, and only when it carries this run's mark (mark_run_token),
 * which nothing another user put there can. */
static void remove_marked_db(const struct layout_dir *dir, const char *name, const struct run_opts *opts)
{
	int fd = openat(dir->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), rc;
	char found[128];
	struct stat st;

	if (fd < 0)
		return;
	if (mark_check(fd, mark_run_token())) {
		close(fd);
		return; /* not this run's: left as it is */
	}
	rc = rmtree_held(dir->fd, name, fd, 2, &st);
	if (rc == 1)
		run_warn(opts, "%s/%s: not removed: the name is now %s: look at it and remove it by hand",
			 dir->path, name, rmtree_describe(&st, found, sizeof(found)));
	else if (rc)
		run_warn(opts, "%s/%s: cannot remove: %s: remove it by hand", dir->path, name, strerror(-rc));
	close(fd);
}

void layout_remove_thread_files(struct layout *l, const struct run_opts *opts)
{
	if (l->keep)
		return;
	for (size_t i = 0; i < l->ndirs; i++) {
		/* A new open of the directory: a dup would share its position. */
		int fd = openat(l->dirs[i].fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
		struct dirent *e;

		if (!d) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		while ((e = readdir(d))) {
			char what[PATH_MAX];
			size_t n;
			int rc = 0;

			if (!thread_entry(l, i, e->d_name, &n) || laid_out(l, i, e->d_name))
				continue;
			/* workload_db_dir: removed through its descriptor
			 * (workload_db_dir_remove). One still there was made in
			 * the mem_limit child, or is not it: removed only when it
			 * carries this run's mark. */
			if (!strcmp(e->d_name + n, "db")) {
				if (l->job->mem_limit) /* the threads ran in the child */
					remove_marked_db(&l->dirs[i], e->d_name, opts);
				continue;
			}
			if (dbio_sys->unlinkat(l->dirs[i].fd, e->d_name, 0) && errno != ENOENT)
				rc = errno, snprintf(what, sizeof(what), "%s", e->d_name);
			if (rc)
				run_warn(opts, "%s/%s: cannot remove: %s: remove it by hand", l->dirs[i].path,
					 what, strerror(rc));
		}
		closedir(d);
	}
}

/* A file kept with --keep is the user's now: its mark says so
 * (RUN_MARK_KEPT), so the next run refuses it (already exists) instead of
 * removing it as a leftover, and verify_only may read it back. */
static void unmark_kept(const struct layout *l, const struct layout_file *f)
{
	int fd =
		dbio_sys->openat(l->dirs[f->dir].fd, f->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0) {
		(void)mark_set(fd, RUN_MARK_KEPT);
		dbio_sys->close(fd);
	}
}

void layout_release(struct layout *l, const struct run_opts *opts)
{
	/* A file left behind makes the next run refuse the directory, and a
	 * silent one costs the user the space: say which and why. ENOENT is
	 * someone else having removed it already. */
	for (size_t i = 0; i < l->nfiles; i++) {
		struct layout_file *f = &l->files[i];

		if (f->created && !l->keep && !l->carry &&
		    dbio_sys->unlinkat(l->dirs[f->dir].fd, f->name, 0) && errno != ENOENT)
			run_warn(opts, "%s: cannot remove: %s: remove it by hand", f->path, strerror(errno));
		else if (f->created && l->keep)
			unmark_kept(l, f);
		free(f->name);
		free(f->path);
	}
	free(l->files);
	for (size_t i = 0; i < l->ndirs; i++) {
		struct layout_dir *d = &l->dirs[i];

		struct stat st;

		/* Left for the later group with the files carried to it, which
		 * then removes it (layout_init); recorded as they are. */
		if (d->created && l->carry && !l->keep && d->fd >= 0 && !fstat(d->fd, &st) &&
		    !run_carried_add(&st))
			d->created = false;
		if (d->fd >= 0)
			close(d->fd);
		/* Only if empty: never more than what dbio made. */
		if (d->created && !l->keep && rmdir(d->path) && errno != ENOENT)
			run_warn(opts, "%s: cannot remove the directory dbio made: %s: remove it by hand",
				 d->path, strerror(errno));
		free(d->path);
	}
	free(l->dirs);
	memset(l, 0, sizeof(*l));
}
