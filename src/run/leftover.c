/*
 * Leftovers: the data files of a run that did not finish (killed with
 * SIGKILL, a crash, a power cut), which carry dbio's live mark
 * (RUN_MARK_LIVE). run_check_targets lets a directory holding them pass,
 * and the runner removes them before laying out the job's files, saying
 * so. A file of the job's name without the mark is not dbio's to remove: it
 * is refused, as ever. See run_int.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/run_int.h"
#include "util/mark.h"
#include "util/syscalls.h"

bool run_is_job_file(const struct job *job, const char *name)
{
	size_t len = strlen(job->name), n;
	const char *s;

	if (strncmp(name, "dbio.", 5) || strncmp(name + 5, job->name, len) || name[5 + len] != '.')
		return false;
	s = name + 5 + len + 1;
	n = strspn(s, "0123456789");
	if (!n && !strcmp(s, "probe"))
		return true;
	if (!n && !strncmp(s, "shared", 6))
		n = 6;
	if (!n || s[n] != '.')
		return false;
	return s[n + 1] != '\0';
}

/* Whether dirfd/name is a regular file of dbio's user with one link that
 * carries mark, opened without following a symlink. */
static bool marked_ours(int dirfd, const char *name, const char *mark)
{
	/* a look, not I/O of the job: past the syscall seam, as the other
	 * checks of the target directories */
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	bool ours;

	if (fd < 0)
		return false;
	ours = !fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_nlink == 1 && st.st_uid == geteuid() &&
	       !mark_check(fd, mark);
	close(fd);
	return ours;
}

bool run_leftover_ours(int dirfd, const char *name)
{
	return marked_ours(dirfd, name, RUN_MARK_LIVE);
}

bool run_kept_ours(int dirfd, const char *name)
{
	return marked_ours(dirfd, name, RUN_MARK_KEPT);
}

void layout_clear_leftovers(struct layout *l, const struct run_opts *opts)
{
	for (size_t i = 0; i < l->ndirs; i++) {
		/* A new open of the directory: a dup would share its position. */
		int fd = openat(l->dirs[i].fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

		if (!d) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		for (struct dirent *e; (e = readdir(d));) {
			if (!run_is_job_file(l->job, e->d_name) ||
			    !run_leftover_ours(l->dirs[i].fd, e->d_name))
				continue;
			if (dbio_sys->unlinkat(l->dirs[i].fd, e->d_name, 0) && errno != ENOENT)
				run_warn(
					opts,
					"%s/%s: left by a run of dbio that did not finish, cannot remove: %s",
					l->dirs[i].path, e->d_name, strerror(errno));
			else
				run_warn(opts, "%s/%s: removed: left by a run of dbio that did not finish",
					 l->dirs[i].path, e->d_name);
		}
		closedir(d);
	}
}
