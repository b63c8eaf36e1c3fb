/* The stall probe; see probe.h. */
#include "run/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/syscalls.h"

#define PROBE_BYTES 4096

int probe_init(struct probe *p, const struct job *job, int dirfd, const char *dir_path, struct dbio_err *err)
{
	static char block[PROBE_BYTES];

	memset(p, 0, sizeof(*p));
	p->job = job;
	p->dirfd = dirfd;
	p->fd = -1;
	hist_init(&p->lat);
	snprintf(p->name, sizeof(p->name), "dbio.%s.probe", job->name);
	snprintf(p->path, sizeof(p->path), "%s/%s", dir_path, p->name);
	p->stalls = calloc(PROBE_MAX_STALLS, sizeof(*p->stalls));
	if (!p->stalls)
		return dbio_err_set(err, -ENOMEM, "probe: out of memory");
	p->fd = dbio_sys->openat(dirfd, p->name, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, 0644);
	if (p->fd < 0)
		return dbio_err_set(err, errno == EEXIST ? DBIO_EUNSAFE : -errno, "%s: cannot create: %s",
				    p->path, strerror(errno));
	p->created = true;
	memset(block, 0x5a, sizeof(block));
	if (dbio_sys->pwrite(p->fd, block, PROBE_BYTES, 0) != PROBE_BYTES || dbio_sys->fsync(p->fd))
		return dbio_err_set(err, -errno, "%s: cannot write: %s", p->path, strerror(errno));
	return 0;
}

/* One probe: 0 or -errno. */
static int probe_once(struct probe *p, char *buf)
{
	if (p->job->probe == PROBE_WRITE) {
		if (dbio_sys->pwrite(p->fd, buf, PROBE_BYTES, 0) != PROBE_BYTES || dbio_sys->fdatasync(p->fd))
			return -errno;
		return 0;
	}
	/* A read that has to reach the device: the page is dropped first
	 * (not timed: the caller's clock starts after this). */
	if (dbio_sys->pread(p->fd, buf, PROBE_BYTES, 0) != PROBE_BYTES)
		return -errno;
	return 0;
}

static void *probe_main(void *arg)
{
	struct probe *p = arg;
	static _Thread_local char buf[PROBE_BYTES];
	uint64_t next = p->origin_ns;

	memset(buf, 0xa5, sizeof(buf));
	while (!atomic_load(&p->stop)) {
		uint64_t now = clock_now_ns();

		if (now < next) {
			uint64_t wait = next - now;
			struct timespec ts = { .tv_sec = (time_t)(wait / 1000000000u),
					       .tv_nsec = (long)(wait % 1000000000u) };

			nanosleep(&ts, NULL);
			continue;
		}
		if (p->job->probe == PROBE_READ)
			dbio_sys->posix_fadvise(p->fd, 0, PROBE_BYTES, POSIX_FADV_DONTNEED);
		uint64_t start = clock_now_ns();
		int rc = probe_once(p, buf);
		uint64_t lat = clock_now_ns() - start;

		if (rc && !p->error)
			p->error = rc;
		hist_add(&p->lat, lat);
		if (lat >= p->job->probe_stall_ns) {
			if (p->nstalls < PROBE_MAX_STALLS)
				p->stalls[p->nstalls++] = (struct probe_stall){ start - p->origin_ns, lat };
			else
				p->stalls_dropped++;
		}
		/* The next probe is due an interval after this one was; a
		 * stall longer than that does not queue up probes. */
		next += p->job->probe_interval_ns;
		if (next < start)
			next = start + p->job->probe_interval_ns;
	}
	return NULL;
}

int probe_start(struct probe *p, uint64_t origin_ns, struct dbio_err *err)
{
	int rc;

	p->origin_ns = origin_ns;
	rc = pthread_create(&p->thread, NULL, probe_main, p);
	if (rc)
		return dbio_err_set(err, -rc, "probe: cannot start its thread: %s", strerror(rc));
	p->started = true;
	return 0;
}

void probe_stop(struct probe *p)
{
	if (!p->started)
		return;
	atomic_store(&p->stop, 1);
	pthread_join(p->thread, NULL);
	p->started = false;
}

void probe_release(struct probe *p)
{
	probe_stop(p);
	if (p->fd >= 0)
		dbio_sys->close(p->fd);
	if (p->created)
		dbio_sys->unlinkat(p->dirfd, p->name, 0);
	free(p->stalls);
	p->stalls = NULL;
	p->fd = -1;
	p->created = false;
}
