/*
 * fio's verify state (verify_state_save, verify_state_load) between two
 * runs on files kept with --keep: at the end of a group, each thread of a
 * job that wrote with verify= leaves the count of the writes it completed
 * in dbio.<job>.verify.<thread>.state, in the job's first directory beside
 * its files; a later run's job of the same name that only reads, with
 * verify_state_load, reads back no more blocks than that (fio's "stop
 * verify" at the saved write count), so a write job cut short is checked
 * only as far as it wrote. <thread> is fio's thread number (the index of
 * fio's local-<job>-<index>-verify.state). dbio's own format, not fio's:
 * below, every field checked on load. The file is dbio's only when it
 * carries the mark RUN_MARK_VSTATE (util/mark.h: only root sets it), so a
 * state file is never taken from, nor written over, anyone else.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/run_int.h"
#include "util/checksum.h"
#include "util/mark.h"
#include "util/safepath.h"
#include "util/syscalls.h"
#include "workload/fileio/files.h"

#define VSTATE_MAGIC   "DBIOVST"
#define VSTATE_VERSION 1

/* The file, little-endian as the machine that wrote it (a state is read
 * back where its files are). */
struct vstate_rec {
	char magic[8];	  /* VSTATE_MAGIC and a NUL */
	uint32_t version; /* VSTATE_VERSION */
	uint32_t size;	  /* sizeof(struct vstate_rec) */
	char job[256];	  /* the job's name, NUL-terminated */
	uint64_t thread;  /* fio's thread number: thread_base + index */
	uint32_t verify;  /* enum verify_type */
	uint32_t nrfiles; /* the files of the thread's set */
	uint64_t bs;	  /* the smallest block of the writes */
	uint64_t writes;  /* the writes the thread completed */
	uint32_t reserved;
	uint32_t crc; /* crc32c of every byte before it */
};

_Static_assert(sizeof(struct vstate_rec) == 312, "the state file is 312 bytes");

void run_vstate_name(const struct job *job, unsigned t, char *out, size_t len)
{
	snprintf(out, len, "dbio.%s.verify.%llu.state", job->name,
		 (unsigned long long)(fileio_files(job)->pacing.thread_base + t));
}

static const char *verify_name(uint32_t type)
{
	for (size_t i = 0; job_verify_values[i].name; i++)
		if ((uint32_t)job_verify_values[i].value == type)
			return job_verify_values[i].name;
	return "?";
}

static uint64_t read_bs(const struct job *job)
{
	return fileio_files(job)->where.min_bs_rw[job_writes(job) ? 1 : 0];
}

/* rec's fields against the job that reads it back as thread t. */
static int check_fields(const struct vstate_rec *r, const struct job *job, unsigned t, const char *path,
			struct dbio_err *err)
{
	const uint64_t thread = fileio_files(job)->pacing.thread_base + t;

	if (memcmp(r->magic, VSTATE_MAGIC, sizeof(r->magic)))
		return dbio_err_set(err, DBIO_EINPUT,
				    "%s: not a verify state file of dbio (no magic " VSTATE_MAGIC ")", path);
	if (r->version != VSTATE_VERSION)
		return dbio_err_set(err, DBIO_EINPUT,
				    "%s: verify state of version %u; this dbio reads version %u", path,
				    (unsigned)r->version, VSTATE_VERSION);
	if (r->size != sizeof(*r))
		return dbio_err_set(err, DBIO_EINPUT, "%s: verify state says %u bytes, expected %zu", path,
				    (unsigned)r->size, sizeof(*r));
	if (r->crc != csum_crc32c(0, r, offsetof(struct vstate_rec, crc)))
		return dbio_err_set(err, DBIO_EINPUT,
				    "%s: verify state is corrupt: its crc32c does not match its bytes", path);
	if (!memchr(r->job, '\0', sizeof(r->job)) || strcmp(r->job, job->name))
		return dbio_err_set(err, DBIO_EINPUT, "%s: verify state of another job, not '%s'", path,
				    job->name);
	if (r->thread != thread)
		return dbio_err_set(err, DBIO_EINPUT,
				    "%s: verify state of thread %llu, this is thread %llu of job '%s'", path,
				    (unsigned long long)r->thread, (unsigned long long)thread, job->name);
	if (r->verify != (uint32_t)fileio_files(job)->verify.verify)
		return dbio_err_set(err, DBIO_EINPUT,
				    "%s: saved by a job with verify=%s; job '%s' has verify=%s", path,
				    verify_name(r->verify), job->name,
				    verify_name((uint32_t)fileio_files(job)->verify.verify));
	if (r->nrfiles != fileio_files(job)->layout.nrfiles || r->bs != read_bs(job))
		return dbio_err_set(
			err, DBIO_EINPUT,
			"%s: saved by a job of %u files and blocks of %llu bytes; job '%s' has %llu and %llu",
			path, (unsigned)r->nrfiles, (unsigned long long)r->bs, job->name,
			(unsigned long long)fileio_files(job)->layout.nrfiles,
			(unsigned long long)read_bs(job));
	return 0;
}

/* Open name in dirfd as a file dbio may read or replace: no symlink, no
 * device node or fifo (looked at before any open: opening a device can
 * act), a regular file of dbio's user with one link, carrying
 * RUN_MARK_VSTATE. The fd, or an error in err (path for messages). */
static int open_ours(int dirfd, const char *name, const char *path, const struct job *job,
		     struct dbio_err *err)
{
	struct stat st, fst;
	int fd, rc = 0;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT
			       ? dbio_err_set(
					 err, DBIO_EINPUT,
					 "%s: no verify state: verify_state_load reads what a job of the same name saved in an earlier run with verify= and --keep (job '%s')",
					 path, job->name)
			       : dbio_err_set(err, -errno, "%s: cannot look at it: %s", path,
					      strerror(errno));
	if (!S_ISREG(st.st_mode))
		return dbio_err_set(err, DBIO_EUNSAFE, "%s: %s, not a verify state dbio saved: not opened",
				    path, S_ISLNK(st.st_mode) ? "a symlink" : "not a regular file");
	if ((fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)
		return dbio_err_set(err, -errno, "%s: cannot open: %s", path, strerror(errno));
	/* the same file as looked at: not swapped for another meanwhile */
	if (fstat(fd, &fst) || fst.st_ino != st.st_ino || fst.st_dev != st.st_dev || !S_ISREG(fst.st_mode) ||
	    fst.st_nlink != 1 || fst.st_uid != geteuid())
		rc = dbio_err_set(
			err, DBIO_EUNSAFE,
			"%s: not a regular file of dbio's user with one link: not a verify state dbio saved",
			path);
	else if (mark_check(fd, RUN_MARK_VSTATE))
		rc = dbio_err_set(
			err, DBIO_EUNSAFE,
			"%s: not a verify state dbio saved: it lacks the mark trusted.dbio.kept=" RUN_MARK_VSTATE
			" (needs root and extended attributes)",
			path);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

int run_vstate_load(const struct job *job, int dirfd, const char *dir, unsigned t, uint64_t *writes,
		    struct dbio_err *err)
{
	char name[384], path[4500];
	struct vstate_rec r;
	struct stat st;
	ssize_t got;
	int fd, rc = 0;

	run_vstate_name(job, t, name, sizeof(name));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fd = open_ours(dirfd, name, path, job, err)) < 0)
		return fd;
	if (fstat(fd, &st) || st.st_size != (off_t)sizeof(r))
		rc = dbio_err_set(err, DBIO_EINPUT,
				  "%s: verify state of %lld bytes, expected %zu: corrupt or not dbio's", path,
				  (long long)st.st_size, sizeof(r));
	else if ((got = pread(fd, &r, sizeof(r), 0)) != (ssize_t)sizeof(r))
		rc = dbio_err_set(err, got < 0 ? -errno : DBIO_EINPUT, "%s: cannot read the verify state: %s",
				  path, got < 0 ? strerror(errno) : "short read");
	else if (!(rc = check_fields(&r, job, t, path, err)))
		*writes = r.writes;
	close(fd);
	return rc;
}

/* Whether name in dirfd may be written as the job's state: absent, or a
 * state dbio saved before (open_ours). 0 or an error in err. */
static int check_replaceable(int dirfd, const char *name, const char *path, const struct job *job,
			     struct dbio_err *err)
{
	struct dbio_err why = { 0 };
	struct stat st;
	int fd;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) && errno == ENOENT)
		return 0;
	if ((fd = open_ours(dirfd, name, path, job, &why)) < 0)
		return dbio_err_set(
			err, DBIO_EUNSAFE,
			"%s: exists and is not a verify state dbio saved (a symlink, a device node or another's file): not replaced; remove it, or give verify_state_save=0 (job '%s')",
			path, job->name);
	close(fd);
	return 0;
}

int run_vstate_check(const struct job *job, const char *dir, const struct run_opts *opts,
		     struct dbio_err *err)
{
	const bool load = fileio_files(job)->verify.verify_state_load;
	const bool save = opts->keep && job_saves_vstate(job);
	int dirfd, rc = 0;

	if (!(job->wl->caps & WORKLOAD_CAP_FILES) || (!load && !save))
		return 0;
	if ((dirfd = safepath_open_dir("key 'directory':", dir, err)) == DBIO_EUNSAFE)
		return dirfd;
	if (dirfd < 0 && !load)
		return 0; /* made by the layout: nothing there yet */
	if (dirfd < 0)
		return dbio_err_set(err, DBIO_EINPUT,
				    "%s: %s: verify_state_load has no state to read (job '%s')", dir,
				    strerror(-dirfd), job->name);
	for (unsigned t = 0; t < job->numjobs && !rc; t++) {
		char name[384], path[4500];
		uint64_t writes;

		run_vstate_name(job, t, name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		rc = load ? run_vstate_load(job, dirfd, dir, t, &writes, err)
			  : check_replaceable(dirfd, name, path, job, err);
	}
	close(dirfd);
	return rc;
}

/* Write thread t's state: the old one (checked as dbio's) removed, the new
 * one made with O_EXCL (a name planted meanwhile is refused, never
 * followed), marked, written whole and synced. */
static int save_one(const struct job *job, const struct layout_dir *d, unsigned t, uint64_t writes,
		    const struct run_opts *opts, struct dbio_err *err)
{
	struct vstate_rec r = { .magic = VSTATE_MAGIC, .version = VSTATE_VERSION, .size = sizeof(r) };
	char name[384], path[4500];
	int fd, rc;

	run_vstate_name(job, t, name, sizeof(name));
	snprintf(path, sizeof(path), "%s/%s", d->path, name);
	if ((rc = check_replaceable(d->fd, name, path, job, err)))
		return rc;
	if (unlinkat(d->fd, name, 0) && errno != ENOENT)
		return dbio_err_set(err, -errno, "%s: cannot replace the verify state: %s", path,
				    strerror(errno));
	fd = openat(d->fd, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return dbio_err_set(err, errno == EEXIST ? DBIO_EUNSAFE : -errno,
				    "%s: cannot create the verify state: %s", path, strerror(errno));
	if ((rc = mark_set(fd, RUN_MARK_VSTATE))) {
		/* not root, or no extended attributes: no later run could
		 * tell it dbio's, so none is left */
		close(fd);
		unlinkat(d->fd, name, 0);
		run_warn(opts, "%s: verify state not saved: cannot mark it dbio's: %s", path, strerror(-rc));
		return 0;
	}
	snprintf(r.job, sizeof(r.job), "%s", job->name);
	r.thread = fileio_files(job)->pacing.thread_base + t;
	r.verify = (uint32_t)fileio_files(job)->verify.verify;
	r.nrfiles = (uint32_t)fileio_files(job)->layout.nrfiles;
	r.bs = read_bs(job);
	r.writes = writes;
	r.crc = csum_crc32c(0, &r, offsetof(struct vstate_rec, crc));
	if (write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r) || fsync(fd))
		rc = dbio_err_set(err, -errno, "%s: cannot write the verify state: %s", path,
				  strerror(errno));
	close(fd);
	return rc;
}

int run_vstate_save(struct run_group *g, struct dbio_err *err)
{
	struct dbio_err e = { 0 };
	size_t s = 0;
	int rc = 0;

	for (size_t j = 0; j < g->n; j++) {
		const struct job *job = &g->jobs[j];
		const bool save = g->opts->keep && job_saves_vstate(job) && j < g->laid &&
				  (job->wl->caps & WORKLOAD_CAP_FILES) && g->layouts[j].ndirs;

		for (unsigned t = 0; t < job->numjobs; t++, s++)
			if (save && s < g->started && !rc)
				rc = save_one(job, &g->layouts[j].dirs[0], t,
					      g->slots[s].w.stats[OP_WRITE].lat_ns.count, g->opts, &e);
	}
	if (rc && !err->code)
		dbio_err_set(err, rc, "%s", e.msg);
	return rc;
}
