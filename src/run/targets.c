/*
 * The runner's checks of the target directories before anything is
 * written (they exist, hold only dbio's files, and can be used as the jobs
 * ask), and dropping the page cache; see run.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "run/logs.h"
#include "run/memlimit.h"
#include "engine/engine.h"
#include "run/run_int.h"
#include "run/tracer.h"
#include "util/safepath.h"
#include "util/syscalls.h"
#include "workload/fileio/files.h"

/* direct=1 where the files live in RAM: tmpfs accepts O_DIRECT (since
 * Linux 6.6) but has no device to bypass the cache for, so the job would
 * measure memory copies while the result says direct I/O. Worth a warning,
 * not a refusal: it can be what the user wants to compare against. ramfs
 * refuses O_DIRECT, which the open then says. statfs_path is where the
 * directory is or will be made. */
static void warn_ram(const struct job *job, const char *path, const char *statfs_path,
		     const struct run_opts *opts)
{
	struct statfs fs;
	const char *type;

	if (!fileio_files(job)->layout.direct || statfs(statfs_path, &fs))
		return;
	if (fs.f_type == TMPFS_MAGIC)
		type = "tmpfs";
	else if (fs.f_type == RAMFS_MAGIC)
		type = "ramfs";
	else
		return;
	run_warn(
		opts,
		"%s: direct=1 on %s, which keeps its files in RAM: the job measures memory, not storage (job '%s')",
		path, type, job->name);
}

/* A job that only reads with verify= reads back the files an earlier run
 * kept under the names it gives (fio's filename=): such a name carrying
 * the mark --keep left is dbio's, not a foreign file (the layout checks it
 * again as it opens it). verify_only's kept files still need --force. */
static bool kept_named(const struct job *job, int dirfd, const char *name)
{
	bool named = false;

	if (!job_verifies_reads(job) || !fileio_files(job)->layout.filename[0])
		return false;
	for (size_t i = 0; i < fileio_files(job)->layout.nrfiles && !named; i++) {
		char n[4096];

		named = !strcmp(job_filename_at(job, i, n, sizeof(n)), name);
	}
	return named && run_kept_ours(dirfd, name);
}

static int check_dir(const struct job *job, const char *path, bool warn, const struct run_opts *opts,
		     struct dbio_err *err)
{
	char where[4200];
	const char *foreign = NULL, *leftover = NULL;
	DIR *d;
	int fd, rc = 0;

	job_where(job_origin_of(job, "directory"), where, sizeof(where));
	strncat(where, ": key 'directory':", sizeof(where) - strlen(where) - 1);
	/* every component of path: no symlink of another user (util/safepath.h) */
	if ((fd = safepath_open_dir(where, path, err)) == DBIO_EUNSAFE)
		return fd;
	where[strlen(where) - strlen(": key 'directory':")] = '\0';
	if (fd == -ENOENT && !strcmp(path, RUN_SCRATCH_DEFAULT)) {
		if (warn)
			warn_ram(job, path, ".", opts);
		return 0;
	}
	if (fd == -ENOTDIR)
		return dbio_err_set(err, DBIO_EINPUT, "%s: key 'directory': %s: not a directory (job '%s')",
				    where, path, job->name);
	if (fd < 0)
		return dbio_err_set(err, DBIO_EINPUT, "%s: key 'directory': %s: %s (job '%s')", where, path,
				    strerror(-fd), job->name);
	if (!(d = fdopendir(fd))) {
		rc = -errno;
		close(fd);
		return dbio_err_set(err, rc, "%s: cannot read directory: %s", path, strerror(-rc));
	}
	for (struct dirent *e; (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (strncmp(e->d_name, "dbio.", 5)) {
			if (!foreign && !kept_named(job, dirfd(d), e->d_name) &&
			    !(foreign = strdup(e->d_name)))
				foreign = "?";
		} else if (!leftover && !job_reads_kept(job) && run_is_job_file(job, e->d_name) &&
			   !run_leftover_ours(dirfd(d), e->d_name) &&
			   !(job_verifies_reads(job) && run_kept_ours(dirfd(d), e->d_name))) {
			/* one with dbio's live mark is removed before the layout;
			 * verify_only, verify_state_load and a job that only
			 * reads with verify= read back the files --keep marked
			 * kept, and the layout checks each (reopen) */
			if (!(leftover = strdup(e->d_name)))
				leftover = "?";
		}
	}
	closedir(d);
	if (foreign && !opts->force)
		rc = dbio_err_set(
			err, DBIO_EUNSAFE,
			"%s: holds files that are not dbio's (such as '%s'): refusing to work there; choose an empty directory or pass --force",
			path, foreign);
	else if (leftover)
		rc = dbio_err_set(err, DBIO_EUNSAFE,
				  "%s/%s: already exists: left by an earlier run? remove it and run again",
				  path, leftover);
	if (!rc && warn)
		warn_ram(job, path, path, opts);
	if (foreign && strcmp(foreign, "?"))
		free((char *)foreign);
	if (leftover && strcmp(leftover, "?"))
		free((char *)leftover);
	return rc;
}

/* fio's filename: a name that exists is not dbio's to measure (nor to
 * remove afterwards), but for verify_only, which reads back the files an
 * earlier run kept and leaves them. Name i is in directory i % ndirs, as
 * the layout puts it. */
static int check_named_files(const struct job *job, char **dirs, size_t ndirs, const struct run_opts *opts,
			     struct dbio_err *err)
{
	if (job->eng && (job->eng->caps & ENGINE_CAP_DISKLESS))
		return 0; /* null: the named file is never touched, as in fio */
	for (size_t i = 0; fileio_files(job)->layout.filename[0] && !job_reads_kept(job) &&
			   i < fileio_files(job)->layout.nrfiles;
	     i++) {
		char name[4096], path[8200];
		struct stat st;

		job_filename_at(job, i, name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s", dirs[i % ndirs], name);
		if (opts->adopt) {
			/* a kept file: the layout checks its size again */
			int rc = layout_adopt_check(AT_FDCWD, path, path, 0, opts->adopt, err);

			if (rc)
				return rc;
			continue;
		}
		if ((!lstat(path, &st) || errno != ENOENT) && job_is_set(job, "read_iolog"))
			return dbio_err_set(
				err, DBIO_EUNSAFE,
				"%s: a file the replayed log names exists, and dbio replays only onto files it creates (and removes): remove it (key 'read_iolog', job '%s')",
				path, job->name);
		if (job_verifies_reads(job) && run_kept_ours(AT_FDCWD, path))
			continue; /* read back, as the layout opens it again (reopen) */
		if (!lstat(path, &st) || errno != ENOENT)
			return dbio_err_set(
				err, DBIO_EUNSAFE,
				"%s: exists, and dbio measures only files it creates (and removes): remove it or name another file (key 'filename', job '%s')",
				path, job->name);
	}
	return 0;
}

int run_drop_caches(struct dbio_err *err)
{
	int fd;

	sync();
	fd = open(RUN_DROP_CACHES, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3", 1) != 1) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return dbio_err_set(err, -e, "cache=drop: cannot write %s: %s", RUN_DROP_CACHES, strerror(e));
	}
	close(fd);
	return 0;
}

/* Every directory of a job gets some of its I/O (scenario S3: a row
 * labelled with four disks must have used four). The runner puts file i
 * of a job in directory i % ndirs (fio spreads files over directories the
 * same way), and a workload that makes its own files puts thread t in
 * directory t % ndirs: fewer files (or threads) than directories leave the
 * last directories idle. Refused, naming them. */
static int check_spread(const struct job *job, char **dirs, size_t ndirs, struct dbio_err *err)
{
	const bool files = job->wl->caps & WORKLOAD_CAP_FILES;
	const uint64_t sets = fileio_files(job)->layout.share_files || fileio_files(job)->layout.filename[0]
				      ? 1
				      : job->numjobs;
	const uint64_t units = files ? sets * fileio_files(job)->layout.nrfiles : job->numjobs;
	char where[4200], idle[1024] = "", what[160];

	if (units >= ndirs)
		return 0;
	for (size_t d = units; d < ndirs; d++) {
		size_t used = strlen(idle);

		snprintf(idle + used, sizeof(idle) - used, "%s%s",
			 d == units	  ? ""
			 : d + 1 == ndirs ? " and "
					  : ", ",
			 dirs[d]);
	}
	if (!files)
		snprintf(what, sizeof(what), "threads (numjobs=%llu; thread t works in directory t mod %zu)",
			 (unsigned long long)job->numjobs, ndirs);
	else if (sets == 1)
		snprintf(what, sizeof(what),
			 "files (nrfiles=%llu, shared by its threads; file i goes to directory i mod %zu)",
			 (unsigned long long)fileio_files(job)->layout.nrfiles, ndirs);
	else
		snprintf(what, sizeof(what),
			 "files (numjobs=%llu x nrfiles=%llu; file i goes to directory i mod %zu)",
			 (unsigned long long)job->numjobs,
			 (unsigned long long)fileio_files(job)->layout.nrfiles, ndirs);
	job_where(job_origin_of(job, "directory"), where, sizeof(where));
	return dbio_err_set(
		err, DBIO_EINPUT,
		"%s: key 'directory': %zu directories but only %llu %s: %s would get no I/O; give at least %zu %s, or fewer directories (job '%s')",
		where, ndirs, (unsigned long long)units, what, idle, ndirs,
		!files	    ? "threads (numjobs)"
		: sets == 1 ? "files (nrfiles)"
			    : "files (numjobs or nrfiles)",
		job->name);
}

int run_check_targets(const struct jobset *set, const struct run_opts *opts, struct dbio_err *err)
{
	if (run_logs_check(set, err))
		return err->code;
	for (size_t j = 0; j < set->njobs; j++) {
		struct memlimit probe;
		int rc;

		if (set->jobs[j].mem_limit && (rc = memlimit_check(&probe, err)))
			return rc;
		if (set->jobs[j].trace == TRACE_MODE_BLOCK) {
			char where[4200];

			job_where(job_origin_of(&set->jobs[j], "trace"), where, sizeof(where));
			if ((rc = tracer_check(where, set->jobs[j].name, err)))
				return rc;
		}
		if (set->jobs[j].cache == CACHE_DROP && access(RUN_DROP_CACHES, W_OK)) {
			char where[4200];
			const struct job *job = &set->jobs[j];

			job_where(job_origin_of(job, "cache"), where, sizeof(where));
			return dbio_err_set(
				err, DBIO_EINPUT,
				"%s: key 'cache': drop needs write access to %s (run as root), or use cache=fadvise (job '%s')",
				where, RUN_DROP_CACHES, job->name);
		}
	}
	for (size_t j = 0; j < set->njobs; j++) {
		char **dirs = NULL;
		int n = job_split_dirs(set->jobs[j].directory, &dirs);
		int rc = n < 0 ? dbio_err_set(err, n, "out of memory") : 0;
		bool warn = true; /* the RAM warning once per directory (the default suite has five jobs) */

		for (size_t k = 0; k < j && warn; k++)
			warn = !(fileio_files(&set->jobs[k])->layout.direct &&
				 !strcmp(set->jobs[k].directory, set->jobs[j].directory));
		for (int i = 0; i < n; i++)
			if (!rc)
				rc = check_dir(&set->jobs[j], dirs[i], warn, opts, err);
		if (!rc && n > 1)
			rc = check_spread(&set->jobs[j], dirs, (size_t)n, err);
		if (!rc && n > 0)
			rc = check_named_files(&set->jobs[j], dirs, (size_t)n, opts, err);
		if (!rc && n > 0)
			rc = run_vstate_check(&set->jobs[j], dirs[0], opts, err);
		for (int i = 0; i < n; i++)
			free(dirs[i]);
		free(dirs);
		if (rc)
			return rc;
	}
	return 0;
}

/* Whether dir takes an O_DIRECT open: an empty file dbio.<job>.direct made
 * there (O_EXCL, O_NOFOLLOW) and removed. The default scratch directory,
 * made for the check when missing, is removed again (the layout makes it,
 * and then removes it, for the run). 0 or -errno. */
static int direct_works(const char *dir, const char *job_name, bool *works, struct dbio_err *err)
{
	bool made = false;
	char name[160];
	int dirfd, fd, rc = 0;

	if (!strcmp(dir, RUN_SCRATCH_DEFAULT) && mkdir(dir, 0755) == 0)
		made = true;
	if ((dirfd = safepath_open_dir("key 'directory':", dir, err)) < 0) {
		rc = dbio_err_set(err, dirfd, "%s: cannot open: %s", dir, strerror(-dirfd));
		goto out_rmdir;
	}
	snprintf(name, sizeof(name), "dbio.%s.direct", job_name);
	fd = dbio_sys->openat(dirfd, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_DIRECT | O_CLOEXEC,
			      0600);
	*works = fd >= 0;
	if (fd >= 0) {
		dbio_sys->close(fd);
		dbio_sys->unlinkat(dirfd, name, 0);
	} else if (errno != EINVAL) {
		rc = dbio_err_set(err, errno == EEXIST ? DBIO_EUNSAFE : -errno, "%s/%s: cannot create: %s",
				  dir, name, strerror(errno));
	}
	close(dirfd);
out_rmdir:
	if (made)
		rmdir(dir);
	return rc;
}

int run_direct_fallback(struct jobset *set, size_t *fellback, struct dbio_err *err)
{
	*fellback = 0;
	for (size_t j = 0; j < set->njobs; j++) {
		struct job *job = &set->jobs[j];
		char **dirs = NULL;
		int n = fileio_files(job)->layout.direct ? job_split_dirs(job->directory, &dirs) : 0;
		int rc = n < 0 ? dbio_err_set(err, n, "out of memory") : 0;
		bool works = true;

		for (int i = 0; i < n && !rc && works; i++)
			rc = direct_works(dirs[i], job->name, &works, err);
		for (int i = 0; i < n; i++)
			free(dirs[i]);
		free(dirs);
		if (rc)
			return rc;
		if (!works) {
			fileio_files(job)->layout.direct = false;
			(*fellback)++;
		}
	}
	return 0;
}
