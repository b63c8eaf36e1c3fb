/*
 * The one clock of the measuring loop: CLOCK_MONOTONIC in nanoseconds. The
 * vDSO makes it about 27 ns on the development machine (DESIGN.md), so a
 * synchronous loop reads it once per operation: the end of one operation is
 * the start of the next.
 */
#ifndef DBIO_UTIL_CLOCK_H
#define DBIO_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Wall-clock time in nanoseconds since the epoch, for result timestamps. */
static inline uint64_t clock_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
