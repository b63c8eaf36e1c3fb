/* The process's and thread's own counters; see taskstat.h. */
#include "sys/taskstat.h"

#include <errno.h>
#include <stdio.h>

#include "sys/procstat.h"

int taskstat_io(const char *path, struct taskio *io)
{
	static const char *const names[] = {
		"rchar", "wchar", "syscr", "syscw", "read_bytes", "write_bytes", "cancelled_write_bytes"
	};
	uint64_t v[7], found;
	int rc = procstat_keyed(path, names, 7, v, &found);

	*io = (struct taskio){ 0 };
	if (rc)
		return rc;
	*io = (struct taskio){ .present = 1,
			       .rchar = v[0],
			       .wchar = v[1],
			       .syscr = v[2],
			       .syscw = v[3],
			       .read_bytes = v[4],
			       .write_bytes = v[5],
			       .cancelled_write_bytes = v[6] };
	return 0;
}

int taskstat_sched(const char *path, struct schedstat *s)
{
	FILE *fp = fopen(path, "re");
	unsigned long long run, wait, slices;
	int n;

	*s = (struct schedstat){ 0 };
	if (!fp)
		return -errno;
	n = fscanf(fp, "%llu %llu %llu", &run, &wait, &slices);
	fclose(fp);
	if (n != 3)
		return -EINVAL;
	*s = (struct schedstat){ .run_ns = run, .wait_ns = wait, .timeslices = slices };
	return 0;
}

void taskstat_sched_self(struct schedstat *s)
{
	taskstat_sched("/proc/thread-self/schedstat", s);
}
