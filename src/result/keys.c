/* The keys of a job that result/ writes beside the figures, read through
 * the job's key tables (see result_int.h): result/ includes no workload,
 * and the file workloads' keys live in workload/fileio/. */
#include <stdbool.h>
#include <stdint.h>

#include "job/job.h"
#include "result/result_int.h"

uint64_t result_key_u64(const struct job *job, const char *name)
{
	const struct job_keys *k;
	const struct option_def *def = job_find(job, name, &k);
	const char *field;

	if (!def)
		return 0;
	field = (const char *)job_keys_base(job, k) + def->offset;
	if (def->type == OPT_BOOL)
		return *(const bool *)field;
	return def->type == OPT_STR || def->type == OPT_ENUM ? 0 : *(const uint64_t *)field;
}

const char *result_key_text(const struct job *job, const char *name)
{
	const struct job_keys *k;
	const struct option_def *def = job_find(job, name, &k);

	if (!def || def->type != OPT_STR)
		return "";
	return (const char *)job_keys_base(job, k) + def->offset;
}
