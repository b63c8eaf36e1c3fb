/*
 * fio's exec_prerun and exec_postrun: the user's command, run by the shell
 * as fio's system(3) runs it, its standard output and error kept in
 * JOBNAME.prerun.txt (or .postrun.txt) of the current directory, as fio.
 * The command is the user's own, as typed at a shell; the file's name
 * comes from the job file, so it is written as dbio's own outputs are
 * (atomic_write_own: a new file renamed into place), and a symlink at that
 * path is refused, never followed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "run/run_int.h"
#include "util/atomic.h"
#include "util/safepath.h"
#include "workload/fileio/files.h"

#define EXEC_OUT_MAX (16u << 20) /* output kept past this is cut */

/* Whether path may be written: nothing or a regular file, no symlink. */
static int exec_path_check(const char *path, struct dbio_err *err)
{
	struct safepath sp;
	int rc = safepath_resolve("exec output", path, &sp, err);

	if (rc == DBIO_EUNSAFE) {
		safepath_release(&sp);
		return rc;
	}
	if (!rc && sp.via_link)
		rc = dbio_err_set(err, DBIO_EUNSAFE,
				  "%s: a symlink: refusing to follow it for exec's output; remove it", path);
	else if (!rc && sp.fd >= 0 && !S_ISREG(sp.st.st_mode))
		rc = dbio_err_set(err, DBIO_EUNSAFE,
				  "%s: not a regular file: refusing to write exec's output there", path);
	else if (rc)
		rc = dbio_err_set(err, rc, "%s: %s", path, strerror(-rc));
	safepath_release(&sp);
	return rc;
}

/* Read all of fp into a buffer (cut at EXEC_OUT_MAX); NULL when out of memory. */
static char *slurp(FILE *fp, size_t *len)
{
	size_t cap = 4096, n = 0, got;
	char *buf = malloc(cap), *nb;

	while (buf && (got = fread(buf + n, 1, cap - n, fp)) > 0) {
		n += got;
		if (n == cap && cap < EXEC_OUT_MAX) {
			if (!(nb = realloc(buf, cap * 2)))
				break;
			buf = nb;
			cap *= 2;
		} else if (n == cap) {
			char sink[4096];

			while (fread(sink, 1, sizeof(sink), fp) > 0)
				;
			break;
		}
	}
	*len = n;
	return buf;
}

int run_exec(const struct job *job, bool post, struct run_exec *rec, struct dbio_err *err)
{
	const struct fileio_files *ff = fileio_files(job); /* NULL: a workload without files */
	const char *cmd = !ff ? "" : post ? ff->exec.postrun : ff->exec.prerun;
	const char *mode = post ? "postrun" : "prerun";
	char path[160], *line = NULL, *out;
	size_t len = 0;
	FILE *fp;
	int rc, status;

	rec->ran = false;
	if (!cmd[0])
		return 0;
	snprintf(path, sizeof(path), "%s.%s.txt", job->name, mode);
	if ((rc = exec_path_check(path, err)))
		return rc;
	if (asprintf(&line, "exec 2>&1\n%s", cmd) < 0)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	fflush(NULL);
	fp = popen(line, "r");
	free(line);
	if (!fp)
		return dbio_err_set(err, -errno, "exec_%s: cannot run the shell: %s", mode, strerror(errno));
	out = slurp(fp, &len);
	status = pclose(fp);
	rec->ran = true;
	rec->command = cmd;
	rec->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	rc = out ? atomic_write_own(path, out, len, err) : dbio_err_set(err, -ENOMEM, "out of memory");
	free(out);
	if (!rc && !post && rec->status)
		rc = dbio_err_set(
			err, -ECANCELED,
			"job %s: exec_prerun exited with status %d (its output is in %s): as fio, the job runs no I/O",
			job->name, rec->status, path);
	return rc;
}
