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
#include "run/run_int.h"

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

	if (!job->direct || statfs(statfs_path, &fs))
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

static int check_dir(const struct job *job, const char *path, const struct run_opts *opts,
		     struct dbio_err *err)
{
	char where[4200];
	const char *foreign = NULL, *leftover = NULL;
	struct stat st;
	DIR *d;
	int rc = 0;

	job_where(job_origin_of(job, "directory"), where, sizeof(where));
	if (stat(path, &st)) {
		if (errno == ENOENT && !strcmp(path, RUN_SCRATCH_DEFAULT)) {
			warn_ram(job, path, ".", opts);
			return 0;
		}
		return dbio_err_set(err, DBIO_EINPUT, "%s: key 'directory': %s: %s (job '%s')", where, path,
				    strerror(errno), job->name);
	}
	if (!S_ISDIR(st.st_mode))
		return dbio_err_set(err, DBIO_EINPUT, "%s: key 'directory': %s: not a directory (job '%s')",
				    where, path, job->name);
	if (!(d = opendir(path)))
		return dbio_err_set(err, -errno, "%s: cannot read directory: %s", path, strerror(errno));
	for (struct dirent *e; (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (strncmp(e->d_name, "dbio.", 5)) {
			if (!foreign && !(foreign = strdup(e->d_name)))
				foreign = "?";
		} else if (!leftover && run_is_job_file(job, e->d_name) &&
			   !run_leftover_ours(dirfd(d), e->d_name)) {
			/* one with dbio's live mark is removed before the layout */
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
	if (!rc)
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
	for (size_t i = 0; job->filename[0] && !job->verify_only && i < job->nrfiles; i++) {
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

int run_check_targets(const struct jobset *set, const struct run_opts *opts, struct dbio_err *err)
{
	if (run_logs_check(set, err))
		return err->code;
	for (size_t j = 0; j < set->njobs; j++) {
		struct memlimit probe;
		int rc;

		if (set->jobs[j].mem_limit && (rc = memlimit_check(&probe, err)))
			return rc;
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

		for (int i = 0; i < n; i++)
			if (!rc)
				rc = check_dir(&set->jobs[j], dirs[i], opts, err);
		if (!rc && n > 0)
			rc = check_named_files(&set->jobs[j], dirs, (size_t)n, opts, err);
		for (int i = 0; i < n; i++)
			free(dirs[i]);
		free(dirs);
		if (rc)
			return rc;
	}
	return 0;
}
