/*
 * dbio crash's directory: DIR (--exec, --cleanup) or a job's directory,
 * opened as every target of dbio is, and the crash model and fault
 * arguments. Their own file, as both modes of the command (crash.c,
 * crash_job.c) take them.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/crash_int.h"
#include "powercut/powercut.h"
#include "util/safepath.h"

/* DIR, resolved as every target of dbio is (util/safepath.h): another
 * user's symlink anywhere in it, the last component too, is refused. An
 * fd, or minus the exit status after saying why. */
int crash_open_dir(const char *dir)
{
	struct dbio_err err = { 0 };
	struct safepath sp;
	int rc = safepath_resolve("", dir, &sp, &err), fd = -1;

	if (!rc && sp.fd < 0)
		rc = -ENOENT;

	if (rc == DBIO_EUNSAFE)
		cmd_error("crash: %s", err.msg);
	else if (rc || (fd = safepath_reopen(&sp, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		cmd_error("crash: %s: cannot open the directory: %s", dir, strerror(rc ? -rc : -fd));
	safepath_release(&sp);
	return fd >= 0 ? fd : rc == DBIO_EUNSAFE ? -2 : -1;
}

int crash_model_arg(const char *v, struct powercut_conf *c)
{
	if (powercut_parse_model(v, &c->model) == 0)
		return 0;
	cmd_error("crash: --model '%s': expected lose, reorder, torn512 or torn4k", v);
	return 2;
}

int crash_fault_arg(const char *v, struct powercut_conf *c)
{
	if (powercut_parse_fault(v, c) == 0)
		return 0;
	cmd_error("crash: --fault '%s': expected eio-fsync@N, enospc-write@N (N from 1) or none", v);
	return 2;
}
