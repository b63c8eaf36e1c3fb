/*
 * --cleanup and the start of every matrix run: provision_cleanup_stale
 * reads the state files of runs that are gone (state.c writes them) and
 * hands each open record, newest first, to the file that knows its kind:
 * the undo of a scheduler (sched.c), a mount (mount.c), a loop device
 * (loop.c) or an image (image.c). Apart from state.c, which every one of
 * those calls to record what it made, so that none of them is called back.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "provision/provision_int.h"

/* ---- leftovers of runs that are gone ---- */

/* Undo one record of a state file ("mount /run/…"); 0 when nothing of
 * dbio's is left of it, also when what is there now is someone else's. */
static int undo_record(const char *line, char **log)
{
	struct provision_rec r;

	switch (provision_rec_parse(line, &r)) {
	case PROVISION_REC_SCHED_LOOP:
	case PROVISION_REC_SCHED_DEV:
		return provision_sched_undo(&r, log);
	case PROVISION_REC_MOUNT:
		return provision_mount_undo(r.rest, log);
	case PROVISION_REC_LOOP:
		return provision_loop_undo(&r, log);
	case PROVISION_REC_IMAGEID:
	case PROVISION_REC_IMAGE:
		return provision_image_undo(r.rest, r.token, r.dev, r.ino, log);
	case PROVISION_REC_MNT:
		return provision_mnt_undo(r.rest);
	case PROVISION_REC_UNKNOWN:
		break;
	}
	return 0; /* unknown: a newer dbio's; nothing to do */
}

/* The records of the state file fd still open (not undone by a later "-"
 * line), in order, into *recs (undone ones NULL). 0 or -ENOMEM. */
static int open_records(int fd, char ***recs, size_t *n)
{
	size_t cap = 0, lcap = 0;
	char *line = NULL;
	FILE *fp = fdopen(dup(fd), "r");
	int rc = 0;

	*recs = NULL;
	*n = 0;
	if (!fp)
		return -errno;
	while (getline(&line, &lcap, fp) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '-') { /* undone: drop the latest equal record */
			for (size_t k = *n; k-- > 0;)
				if ((*recs)[k] && !strcmp((*recs)[k], line + 1)) {
					free((*recs)[k]);
					(*recs)[k] = NULL;
					break;
				}
			continue;
		}
		if (!strncmp(line, "dbio-matrix-state", 17))
			continue;
		if (*n == cap) {
			char **grown = realloc(*recs, (cap = cap ? cap * 2 : 16) * sizeof(**recs));

			if (!grown) {
				rc = -ENOMEM;
				break;
			}
			*recs = grown;
		}
		if (!((*recs)[(*n)++] = strdup(line))) {
			rc = -ENOMEM;
			break;
		}
	}
	free(line);
	fclose(fp);
	return rc;
}

/* Undo the open records of one state file (fd locked); 0 when all went. */
static int cleanup_state(const char *path, int fd, char **log, struct dbio_err *err)
{
	char **recs;
	size_t n;
	int rc = open_records(fd, &recs, &n);

	if (rc && !recs)
		return rc;
	for (size_t k = n; k-- > 0;) {
		int r;

		if (!recs[k] || rc == -ENOMEM)
			continue;
		r = undo_record(recs[k], log);
		if (r && !rc)
			rc = dbio_err_set(
				err, r, "cleanup: %s: cannot undo '%s': %s: undo it by hand, then remove %s",
				path, recs[k], dbio_strerror(r), path);
	}
	for (size_t k = 0; k < n; k++)
		free(recs[k]);
	free(recs);
	return rc;
}

int provision_cleanup_stale(size_t *cleaned, char **log, struct dbio_err *err)
{
	DIR *d = opendir(PROVISION_STATE_DIR);
	struct dirent *de;
	int rc = 0;

	*cleaned = 0;
	if (!d)
		return errno == ENOENT ? 0
				       : dbio_err_set(err, -errno, "cleanup: %s: %s", PROVISION_STATE_DIR,
						      strerror(errno));
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		bool state = len > 6 && !strcmp(de->d_name + len - 6, ".state");
		bool fresh = !strncmp(de->d_name, ".new.", 5);
		char path[PROVISION_PATH_MAX];
		struct stat a, b;
		int fd, r;

		if (!state && !fresh)
			continue;
		snprintf(path, sizeof(path), "%s/%s", PROVISION_STATE_DIR, de->d_name);
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* Locked: its run is alive. Replaced meanwhile: another
		 * cleanup did it. */
		if (flock(fd, LOCK_EX | LOCK_NB) || fstat(fd, &a) || lstat(path, &b) ||
		    a.st_ino != b.st_ino) {
			if (state && errno == EWOULDBLOCK)
				provision_log_add(log, "left alone: %s (its run is still going)", path);
			close(fd);
			continue;
		}
		if (fresh) { /* never published: holds nothing */
			unlink(path);
			close(fd);
			continue;
		}
		r = cleanup_state(path, fd, log, err);
		if (!r) {
			unlink(path);
			(*cleaned)++;
		} else if (!rc) {
			rc = r;
		}
		close(fd);
	}
	closedir(d);
	return rc;
}
