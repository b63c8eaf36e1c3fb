/*
 * DBIO_FAULT, a test hook: a dbio_sys table (syscalls.h) that wraps the libc
 * one, counts the calls of each kind of operation across all threads, and
 * makes chosen calls fail the way failing storage does (EIO, ENOSPC), be
 * interrupted (EINTR) or move fewer bytes than asked (a short transfer).
 * main.c installs it once, before any command runs, from the environment;
 * a job file cannot set it. docs/errors.md describes the value.
 *
 * The value: one or more FAULT separated by ',', each
 * KIND:OP[:after=N][:times=M] — KIND eio, enospc, eintr, short or slow (the
 * call stalls 200 ms, then is done: a device that hangs); OP read
 * (pread, read, preadv2), write (pwrite, write, pwritev2), fsync (fsync,
 * fdatasync), open (openat) or fallocate (fallocate, posix_fallocate). The
 * first N calls of OP pass; the M after them fail (times=0: every one after
 * them, the default for eio and enospc, as a broken device stays broken;
 * eintr, short and slow default to times=1, since the engines retry the
 * first two and a stall is an event).
 */
#ifndef DBIO_UTIL_FAULT_H
#define DBIO_UTIL_FAULT_H

#include <stdint.h>

#include "util/err.h"

enum fault_op {
	FAULT_OP_READ,
	FAULT_OP_WRITE,
	FAULT_OP_FSYNC,
	FAULT_OP_OPEN,
	FAULT_OP_FALLOCATE,
	FAULT_NOPS,
};

/* The environment variable the hook is read from. */
#define FAULT_ENV "DBIO_FAULT"

/* Parse spec (DBIO_FAULT's value) and point dbio_sys at the faulting table.
 * 0, or DBIO_EINPUT with err saying what was wrong and what is accepted;
 * nothing is installed then. */
int fault_install(const char *spec, struct dbio_err *err);

/* Put the libc table back and forget the faults (for tests). */
void fault_remove(void);

/* True when an installed fault can hit calls of op. */
int fault_on(enum fault_op op);

/* The installed value, or NULL when none is. */
const char *fault_spec(void);

/* How many calls of op the table has seen since it was installed. */
uint64_t fault_calls(enum fault_op op);

#endif
