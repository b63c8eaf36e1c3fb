/*
 * fio's trim modes (rw=trim, randtrim, trimwrite, randtrimwrite), checked
 * before anything runs. A trim reaches the kernel only through an engine
 * that has one for a file: fio's sync and queued engines trim with the
 * BLKDISCARD ioctl, which a regular file refuses (ENOTTY: fio 3.33 fails
 * the job), so dbio refuses them here; ioengine=falloc punches a hole, and
 * null completes it. The loop that issues trims is workload/fileio/fileio.c (a
 * trim, or a trim then a write of the same block), their offsets and sizes
 * those of writes (workload/fileio/where.c), as fio's bs=R,W gives trims W.
 */
#include <stdbool.h>

#include "workload/fileio/files.h"

/* fio's rate keys take a third part for trims, which dbio does not pace. */
static const char *const rate_keys[] = { "rate", "rate_iops", "rate_min", "rate_iops_min" };

int job_validate_trims(struct job *job, bool engine_trims, const char *engine, struct dbio_err *err)
{
	if (!job_trims(job))
		return 0;
	if (!engine_trims)
		return job_fail(
			job, "rw", err,
			"trims with ioengine=%s: fio's engines trim with the BLKDISCARD ioctl, which only block devices take (fio fails on a file); use ioengine=falloc, which punches holes",
			engine);
	for (size_t i = 0; i < sizeof(rate_keys) / sizeof(rate_keys[0]); i++)
		if (job_is_set(job, rate_keys[i]))
			return job_fail(
				job, rate_keys[i], err,
				"with rw=trim, randtrim, trimwrite or randtrimwrite: dbio does not pace trims; run without it");
	return 0;
}
