/* The engine registry; see engine.h. One line per engine. */
#include "engine/engine.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/clock.h"

extern const struct engine_ops engine_psync;
extern const struct engine_ops engine_sync;
extern const struct engine_ops engine_mmap;
extern const struct engine_ops engine_null;
#if __has_include(<liburing.h>)
#define ENGINE_HAVE_IO_URING 1
extern const struct engine_ops engine_io_uring;
#endif
#if __has_include(<libaio.h>)
#define ENGINE_HAVE_LIBAIO 1
extern const struct engine_ops engine_libaio;
#endif

const struct engine_ops *const engine_registry[] = {
	&engine_psync,	  &engine_sync,
#ifdef ENGINE_HAVE_IO_URING
	&engine_io_uring,
#endif
#ifdef ENGINE_HAVE_LIBAIO
	&engine_libaio,
#endif
	&engine_mmap,	  &engine_null,
};

const size_t engine_count = sizeof(engine_registry) / sizeof(engine_registry[0]);

/* Engines a build may lack, and the Debian package that brings each. */
static const struct {
	const char *name;
	const char *package;
} optional_engines[] = {
	{ "io_uring", "liburing-dev" },
	{ "libaio", "libaio-dev" },
};

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < engine_count; i++)
		if (!strcmp(engine_registry[i]->name, name))
			return engine_registry[i];
	return NULL;
}

const char *engine_missing_package(const char *name)
{
	if (engine_find(name))
		return NULL;
	for (size_t i = 0; i < sizeof(optional_engines) / sizeof(optional_engines[0]); i++)
		if (!strcmp(optional_engines[i].name, name))
			return optional_engines[i].package;
	return NULL;
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

int engine_registry_check(const char **bad)
{
	for (size_t i = 0; i < engine_count; i++) {
		const struct engine_ops *ops = engine_registry[i];
		bool queued = ops->caps & ENGINE_CAP_QUEUE;

		if (!ops->name || !ops->summary || !ops->setup || !ops->teardown || !ops->sync ||
		    (!queued && !ops->io) || (queued && (!ops->queue || !ops->submit || !ops->reap)) ||
		    engine_find(ops->name) != ops) {
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
