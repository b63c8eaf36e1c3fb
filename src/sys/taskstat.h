/*
 * The counters the kernel keeps for dbio's own process and threads: the
 * I/O of /proc/self/io (bytes asked for by read and write calls, the
 * calls, the bytes that went to or came from storage, the bytes of page
 * cache written then dropped before writeback) and the scheduler's
 * /proc/thread-self/schedstat (time on a CPU, time waiting for one,
 * timeslices). Paths are parameters so unit tests read fixtures.
 */
#ifndef DBIO_SYS_TASKSTAT_H
#define DBIO_SYS_TASKSTAT_H

#include <stdint.h>

/* /proc/<pid>/io; present false when the file is absent
 * (CONFIG_TASK_IO_ACCOUNTING off). For a process, the sum over its live
 * and ended threads. */
struct taskio {
	int present;
	uint64_t rchar, wchar, syscr, syscw;
	uint64_t read_bytes, write_bytes, cancelled_write_bytes;
};

/* /proc/<pid>/task/<tid>/schedstat: one thread's times, in ns. */
struct schedstat {
	uint64_t run_ns, wait_ns, timeslices;
};

/* 0 or -errno (present set only on 0). */
int taskstat_io(const char *path, struct taskio *io);

/* 0, -errno, or -EINVAL for a file that is not three numbers. */
int taskstat_sched(const char *path, struct schedstat *s);

/* The calling thread's schedstat (/proc/thread-self/schedstat), all zero
 * when it cannot be read (CONFIG_SCHEDSTATS off). */
void taskstat_sched_self(struct schedstat *s);

#endif
