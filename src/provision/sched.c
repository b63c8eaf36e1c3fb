/*
 * The I/O scheduler of the disk under test: checking --sched names, setting
 * one through /sys/block/<disk>/queue/scheduler (the old one saved and
 * recorded first, the new one read back), restoring it, and --cleanup's
 * restore, which happens only while the disk is still the one recorded.
 * Reading and writing go through sys/sysfs.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "provision/provision_int.h"
#include "sys/sysfs.h"

static bool all_of(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return false;
	return true;
}

int provision_check_sched(const char *name, struct dbio_err *err)
{
	if (!*name || !all_of(name, "-_") || strlen(name) >= 64)
		return dbio_err_set(
			err, DBIO_EINPUT,
			"--sched '%s': expected a list of I/O scheduler names, e.g. none,mq-deadline", name);
	return 0;
}

int provision_sched_active(const char *disk, char *name, size_t len)
{
	char dir[256];
	int rc = sysfs_block_dir(dir, sizeof(dir), SYSFS_ROOT, disk);

	return rc ? rc : sysfs_block_scheduler(dir, name, len);
}

static int sched_write(const char *disk, const char *name)
{
	char dir[256];
	int rc = sysfs_block_dir(dir, sizeof(dir), SYSFS_ROOT, disk);

	return rc ? rc : sysfs_block_set_scheduler(dir, name);
}

static enum provision_rec_kind sched_kind(const struct provision_env *m)
{
	return m->loop_dev[0] ? PROVISION_REC_SCHED_LOOP : PROVISION_REC_SCHED_DEV;
}

int provision_sched_set(struct provision_env *m, const char *sched, struct dbio_err *err)
{
	char path[256], avail[512] = "", now[64];
	int rc;

	if (!sched || !*sched)
		return 0;
	snprintf(path, sizeof(path), "%s/block/%s/queue/scheduler", SYSFS_ROOT, m->disk);
	if ((rc = provision_sched_active(m->disk, now, sizeof(now))))
		return dbio_err_set(err, rc, "matrix: %s: cannot read: %s", path, strerror(-rc));
	if (!strcmp(now, sched))
		return 0;
	snprintf(m->sched_saved, sizeof(m->sched_saved), "%s", now);
	if ((rc = provision_state_rec(m, sched_kind(m), false, err))) {
		m->sched_saved[0] = '\0';
		return rc;
	}
	rc = sched_write(m->disk, sched);
	if (!rc && !provision_sched_active(m->disk, now, sizeof(now)) && strcmp(now, sched))
		rc = -EINVAL;
	if (rc) {
		sysfs_read_line(path, avail, sizeof(avail));
		return dbio_err_set(err, DBIO_EINPUT, "--sched %s: %s cannot use it: %s (available: %s)",
				    sched, m->disk, strerror(-rc), avail);
	}
	return 0;
}

int provision_sched_restore(struct provision_env *m, struct dbio_err *err)
{
	int rc = 0;

	if (!m->sched_saved[0])
		return 0;
	if ((rc = sched_write(m->disk, m->sched_saved)) && rc != -ENOENT)
		rc = dbio_err_set(err, rc, "matrix: cannot restore the scheduler of %s to %s: %s", m->disk,
				  m->sched_saved, strerror(-rc));
	else
		provision_state_rec(m, sched_kind(m), true, err);
	m->sched_saved[0] = '\0';
	return rc == -ENOENT ? 0 : rc;
}

int provision_sched_undo(const struct provision_rec *r, char **log)
{
	char dir[256], dev[160], now[32];
	int rc;

	if (r->kind == PROVISION_REC_SCHED_DEV) {
		if (sysfs_block_dir(dir, sizeof(dir), SYSFS_ROOT, r->name) ||
		    sysfs_block_dev(dir, now, sizeof(now)) || strcmp(now, r->rest)) {
			provision_log_add(log, "left alone: the scheduler of %s (no longer the device %s)",
					  r->name, r->rest);
			return 0;
		}
	} else {
		snprintf(dev, sizeof(dev), "/dev/%s", r->name);
		if (provision_loop_holds(dev, r->dev, r->ino, r->token) < 0) {
			provision_log_add(log, "left alone: the scheduler of %s (it holds another file now)",
					  r->name);
			return 0;
		}
	}
	rc = sched_write(r->name, r->sched);
	if (!rc)
		provision_log_add(log, "scheduler of %s back to %s", r->name, r->sched);
	return rc == -ENOENT ? 0 : rc;
}
