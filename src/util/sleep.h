/*
 * Waiting inside a worker thread without missing a stop: the pauses of
 * fio's pacing keys (rate, thinktime) and startdelay sleep towards an
 * absolute CLOCK_MONOTONIC time in short steps, looking at the stop flags
 * between them, so that a signal or another job's end stops a pausing
 * thread within one step.
 */
#ifndef DBIO_UTIL_SLEEP_H
#define DBIO_UTIL_SLEEP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* The longest step of sleep_until_ns: how late a stop may be seen. */
#define SLEEP_STEP_NS 10000000ull

/* Sleep until the CLOCK_MONOTONIC time until_ns (clock_nanosleep with
 * TIMER_ABSTIME, steps of at most SLEEP_STEP_NS). Returns true when that
 * time came, false as soon as *a or *b (either may be NULL) is non-zero. */
bool sleep_until_ns(uint64_t until_ns, const atomic_int *a, const atomic_int *b);

/* Keep the CPU busy reading the clock until until_ns, or until *a or *b is
 * non-zero; returns the last clock read. */
uint64_t sleep_spin_until_ns(uint64_t until_ns, const atomic_int *a, const atomic_int *b);

#endif
