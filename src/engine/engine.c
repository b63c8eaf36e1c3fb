/* The engine registry; see engine.h. One line per engine. */
#include "engine/engine.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/clock.h"
#include "util/syscalls.h"

extern const struct engine_ops engine_psync;
extern const struct engine_ops engine_pvsync2;
extern const struct engine_ops engine_sync;
extern const struct engine_ops engine_mmap;
extern const struct engine_ops engine_null;
extern const struct engine_ops engine_falloc;
extern const struct engine_ops engine_ftruncate;
extern const struct engine_ops engine_io_uring; /* DBIO_HAVE_LIBURING: see util/built.h */
extern const struct engine_ops engine_libaio;	/* DBIO_HAVE_LIBAIO */
extern const struct engine_ops engine_posixaio;

const struct engine_ops *const engine_registry[] = {
	&engine_psync,	  &engine_sync, &engine_pvsync2,
#ifdef DBIO_HAVE_LIBURING
	&engine_io_uring,
#endif
#ifdef DBIO_HAVE_LIBAIO
	&engine_libaio,
#endif
	&engine_posixaio, &engine_mmap, &engine_null,	 &engine_falloc, &engine_ftruncate,
};

const size_t engine_count = sizeof(engine_registry) / sizeof(engine_registry[0]);

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < engine_count; i++)
		if (!strcmp(engine_registry[i]->name, name))
			return engine_registry[i];
	return NULL;
}

int engine_sync_call(const struct engine *e, int fd, enum op_type op)
{
	int rc;

	if (op == OP_SYNC_FILE_RANGE)
		rc = dbio_sys->sync_file_range(fd, 0, 0, e->sync_flags);
	else
		rc = op == OP_FDATASYNC ? dbio_sys->fdatasync(fd) : dbio_sys->fsync(fd);
	return rc < 0 ? -errno : 0;
}

void engine_list(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < engine_count && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", engine_registry[i]->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

void engine_list_caps(char *buf, size_t len, unsigned caps)
{
	size_t used = 0, n = 0, count = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < engine_count; i++)
		count += (engine_registry[i]->caps & caps) == caps;
	for (size_t i = 0; i < engine_count && used < len; i++)
		if ((engine_registry[i]->caps & caps) == caps)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 !n++	      ? ""
						 : n == count ? " or "
							      : ", ",
						 engine_registry[i]->name);
}

void engine_list_queued(char *buf, size_t len)
{
	engine_list_caps(buf, len, ENGINE_CAP_QUEUE);
}

/* Whether ops has every hook its caps need. */
static bool ops_complete(const struct engine_ops *ops)
{
	bool queued = ops->caps & ENGINE_CAP_QUEUE;

	return ops->name && ops->summary && ops->setup && ops->teardown && ops->sync && (queued || ops->io) &&
	       (!queued || (ops->queue && ops->submit && ops->reap));
}

int engine_registry_check(const char **bad)
{
	for (size_t i = 0; i < engine_count; i++) {
		const struct engine_ops *ops = engine_registry[i];
		const struct engine_ops *q = ops->queued;

		/* a queued twin: the same name, queued, complete */
		if (!ops_complete(ops) || engine_find(ops->name) != ops ||
		    (q &&
		     (!ops_complete(q) || strcmp(q->name, ops->name) || !(q->caps & ENGINE_CAP_QUEUE)))) {
			*bad = ops->name ? ops->name : "(unnamed)";
			return -EINVAL;
		}
	}
	return 0;
}

double engine_clock_cost_ns(unsigned long calls)
{
	volatile uint64_t sink = 0;
	uint64_t t0, t1;

	if (!calls)
		return 0;
	t0 = clock_now_ns();
	for (unsigned long i = 0; i < calls; i++)
		sink += clock_now_ns();
	t1 = clock_now_ns();
	(void)sink;
	return (double)(t1 - t0) / (double)calls;
}

bool engine_reap_left(const struct engine *e, struct timespec *left)
{
	const uint64_t now = e->reap_until ? clock_now_ns() : 0,
		       ns = e->reap_until > now ? e->reap_until - now : 0;

	if (!e->reap_until)
		return false;
	*left = (struct timespec){ .tv_sec = (time_t)(ns / 1000000000u),
				   .tv_nsec = (long)(ns % 1000000000u) };
	return true;
}
