/* Sleeping and spinning towards a time, stoppable; see sleep.h. */
#include "util/sleep.h"

#include <errno.h>
#include <time.h>

#include "util/clock.h"

static bool stopped(const atomic_int *a, const atomic_int *b)
{
	return (a && atomic_load_explicit(a, memory_order_relaxed)) ||
	       (b && atomic_load_explicit(b, memory_order_relaxed));
}

bool sleep_until_ns(uint64_t until_ns, const atomic_int *a, const atomic_int *b)
{
	for (;;) {
		if (stopped(a, b))
			return false;
		uint64_t now = clock_now_ns();

		if (now >= until_ns)
			return true;
		uint64_t to = until_ns - now > SLEEP_STEP_NS ? now + SLEEP_STEP_NS : until_ns;
		struct timespec ts = { .tv_sec = (time_t)(to / 1000000000u),
				       .tv_nsec = (long)(to % 1000000000u) };

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			if (stopped(a, b))
				return false;
	}
}

uint64_t sleep_spin_until_ns(uint64_t until_ns, const atomic_int *a, const atomic_int *b)
{
	uint64_t now = clock_now_ns();

	while (now < until_ns && !stopped(a, b))
		now = clock_now_ns();
	return now;
}
