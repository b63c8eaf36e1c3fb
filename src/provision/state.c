/*
 * The state file of a matrix run, and --cleanup. Every resource is written
 * to the state file before (mount, image: the intent) or right after (loop
 * device: it detaches itself when dbio dies, LO_FLAGS_AUTOCLEAR) it is
 * made, and a line "-<record>" is appended when it is undone, so the
 * records still open in a state file are exactly what is left to undo
 * (undo.c reads them back and undoes them).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "provision/provision_int.h"

#define STATE_HEADER "dbio-matrix-state 2\n"

/* ---- records ---- */

void provision_rec_of(const struct provision_env *m, enum provision_rec_kind kind, struct provision_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	snprintf(r->token, sizeof(r->token), "%s", m->token);
	r->dev = m->image_dev;
	r->ino = m->image_ino;
	switch (kind) {
	case PROVISION_REC_MNT:
	case PROVISION_REC_MOUNT:
		r->rest = m->mnt;
		break;
	case PROVISION_REC_IMAGE:
	case PROVISION_REC_IMAGEID:
		r->rest = m->image;
		break;
	case PROVISION_REC_LOOP:
		snprintf(r->name, sizeof(r->name), "%s", m->loop_dev);
		break;
	case PROVISION_REC_SCHED_LOOP:
	case PROVISION_REC_SCHED_DEV:
		snprintf(r->name, sizeof(r->name), "%s", m->disk);
		snprintf(r->sched, sizeof(r->sched), "%s", m->sched_saved);
		r->rest = m->disk_devno;
		break;
	case PROVISION_REC_UNKNOWN:
		break;
	}
}

int provision_rec_format(const struct provision_rec *r, char *buf, size_t len)
{
	switch (r->kind) {
	case PROVISION_REC_MNT:
		return snprintf(buf, len, "mnt %s", r->rest);
	case PROVISION_REC_MOUNT:
		return snprintf(buf, len, "mount %s", r->rest);
	case PROVISION_REC_IMAGE:
		return snprintf(buf, len, "image %s %s", r->token, r->rest);
	case PROVISION_REC_IMAGEID:
		return snprintf(buf, len, "imageid %llu %llu %s %s", r->dev, r->ino, r->token, r->rest);
	case PROVISION_REC_LOOP:
		return snprintf(buf, len, "loop %s %llu %llu %s", r->name, r->dev, r->ino, r->token);
	/* A loop device's scheduler is restored only while it is free or
	 * holds dbio's image; a real device's while it is the same device. */
	case PROVISION_REC_SCHED_LOOP:
		return snprintf(buf, len, "sched %s %s loop %llu %llu %s", r->name, r->sched, r->dev, r->ino,
				r->token);
	case PROVISION_REC_SCHED_DEV:
		return snprintf(buf, len, "sched %s %s dev %s", r->name, r->sched, r->rest);
	case PROVISION_REC_UNKNOWN:
		break;
	}
	return -EINVAL;
}

/* Every field is checked, so a line cut short (or a newer dbio's) is
 * UNKNOWN and nothing is undone for it; "imageid" is tried before "image",
 * and "image" needs its space, so that one is never read as the other. */
enum provision_rec_kind provision_rec_parse(const char *line, struct provision_rec *r)
{
	char kind[8];
	int off = 0;

	memset(r, 0, sizeof(*r));
	if (sscanf(line, "sched %63s %127s %7s %n", r->name, r->sched, kind, &off) == 3 && off) {
		if (!strcmp(kind, "dev")) {
			r->kind = PROVISION_REC_SCHED_DEV;
			r->rest = line + off;
		} else if (sscanf(line + off, "%llu %llu %32s", &r->dev, &r->ino, r->token) == 3) {
			r->kind = PROVISION_REC_SCHED_LOOP;
		}
	} else if (!strncmp(line, "mount ", 6)) {
		r->kind = PROVISION_REC_MOUNT;
		r->rest = line + 6;
	} else if (sscanf(line, "loop %127s %llu %llu %32s", r->name, &r->dev, &r->ino, r->token) == 4) {
		r->kind = PROVISION_REC_LOOP;
	} else if ((off = 0,
		    sscanf(line, "imageid %llu %llu %32s %n", &r->dev, &r->ino, r->token, &off) == 3) &&
		   off) {
		r->kind = PROVISION_REC_IMAGEID;
		r->rest = line + off;
	} else if (!strncmp(line, "image ", 6) &&
		   (off = 0, sscanf(line, "image %32s %n", r->token, &off) == 1) && off) {
		/* the inode not yet recorded */
		r->kind = PROVISION_REC_IMAGE;
		r->dev = r->ino = 0;
		r->rest = line + off;
	} else if (!strncmp(line, "mnt ", 4)) {
		r->kind = PROVISION_REC_MNT;
		r->rest = line + 4;
	}
	if (r->kind == PROVISION_REC_UNKNOWN)
		memset(r, 0, sizeof(*r));
	return r->kind;
}

/* ---- the state file of this run ---- */

int provision_state_open(struct provision_env *m, struct dbio_err *err)
{
	char tmp[PROVISION_PATH_MAX];
	struct stat st;
	int rc;

	/* 0711: others may pass through to a mount point (a server running as
	 * the user postgres, workload=postgres, works there), never list or
	 * write; the state files are 0600. */
	if (mkdir(PROVISION_STATE_DIR, 0711) && errno != EEXIST)
		return dbio_err_set(err, -errno, "matrix: cannot create %s: %s", PROVISION_STATE_DIR,
				    strerror(errno));
	if (lstat(PROVISION_STATE_DIR, &st) || !S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022))
		return dbio_err_set(
			err, DBIO_EUNSAFE,
			"matrix: %s: not a directory that only root can write: refusing to use it",
			PROVISION_STATE_DIR);
	if ((st.st_mode & 0111) != 0111 && chmod(PROVISION_STATE_DIR, (st.st_mode & 0700) | 0711))
		return dbio_err_set(err, -errno, "matrix: %s: cannot let others pass through it: %s",
				    PROVISION_STATE_DIR, strerror(errno));
	/* Made under a temporary name and locked before it can be seen, so a
	 * cleanup never takes a live run's file for a dead one's. */
	snprintf(tmp, sizeof(tmp), "%s/.new.XXXXXX", PROVISION_STATE_DIR);
	m->state_fd = mkostemp(tmp, O_CLOEXEC | O_APPEND);
	if (m->state_fd < 0)
		return dbio_err_set(err, -errno, "matrix: cannot create a state file in %s: %s",
				    PROVISION_STATE_DIR, strerror(errno));
	snprintf(m->state_path, sizeof(m->state_path), "%s/%d.state", PROVISION_STATE_DIR, (int)getpid());
	if (flock(m->state_fd, LOCK_EX | LOCK_NB) ||
	    write(m->state_fd, STATE_HEADER, strlen(STATE_HEADER)) != (ssize_t)strlen(STATE_HEADER) ||
	    fsync(m->state_fd) || link(tmp, m->state_path)) {
		rc = -errno;
		unlink(tmp);
		close(m->state_fd);
		m->state_fd = -1;
		m->state_path[0] = '\0';
		return dbio_err_set(err, rc, "matrix: cannot create the state file %s/%d.state: %s",
				    PROVISION_STATE_DIR, (int)getpid(), strerror(-rc));
	}
	unlink(tmp);
	return 0;
}

int provision_state_rec(struct provision_env *m, enum provision_rec_kind kind, bool undone,
			struct dbio_err *err)
{
	char line[PROVISION_PATH_MAX + 128];
	size_t off = undone ? 1 : 0;
	struct provision_rec r;
	int n;

	provision_rec_of(m, kind, &r);
	line[0] = '-';
	n = provision_rec_format(&r, line + off, sizeof(line) - 1 - off);
	if (n < 0 || (size_t)n + off >= sizeof(line) - 1)
		return dbio_err_set(err, -ENAMETOOLONG, "matrix: state record too long");
	n += (int)off;
	line[n++] = '\n';
	if (write(m->state_fd, line, (size_t)n) != n || fdatasync(m->state_fd))
		return dbio_err_set(err, -errno ? -errno : -EIO, "matrix: %s: cannot write: %s",
				    m->state_path, strerror(errno ? errno : EIO));
	return 0;
}

void provision_state_close(struct provision_env *m, bool remove)
{
	if (m->state_fd < 0)
		return;
	if (remove && m->state_path[0])
		unlink(m->state_path);
	close(m->state_fd);
	m->state_fd = -1;
}

void provision_log_add(char **log, const char *fmt, ...)
{
	char *line = NULL, *joined = NULL;
	va_list ap;
	int n;

	if (!log)
		return;
	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (asprintf(&joined, "%s%s\n", *log ? *log : "", line) >= 0) {
		free(*log);
		*log = joined;
	}
	free(line);
}
