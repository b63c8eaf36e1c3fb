/* fio's log files and command priorities in a file worker; see logs.h. */
#include "workload/fileio/logs.h"

#include <string.h>

#include "engine/engine.h"
#include "workload/fileio/check_logs.h"
#include "workload/workload.h"

int logs_validate(struct job *job, struct dbio_err *err)
{
	static const char *const keys[] = { "cmdprio_percentage", "cmdprio_bssplit", "cmdprio_class",
					    "cmdprio", "cmdprio_hint" };
	char engines[128];
	int rc = job_validate_logs(job, err);

	if (rc || (job->eng->caps & ENGINE_CAP_IOPRIO))
		return rc;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		if (!job_is_set(job, keys[k]))
			continue;
		engine_list_caps(engines, sizeof(engines), ENGINE_CAP_IOPRIO);
		return job_fail(
			job, keys[k], err,
			"belongs to the engines that give each I/O its own priority (%s%s); this job is ioengine=%s: use prio and prioclass for the priority of its threads",
			engines[0] ? "ioengine=" : "none in this build: see dbio --version", engines,
			job->eng->name);
	}
	return 0;
}

int logs_refuse(const struct job *job, struct dbio_err *err)
{
	const char *key = job_logs_key_given(job);

	if (!key)
		return 0;
	return job_fail(
		job, key, err,
		"not for workload=%s (yet): only workload=fileio writes fio's logs and command priorities",
		job->wl->name);
}
