/*
 * libFuzzer target: the job-file parser and the plan behind it. The input is
 * a job file's text; it is parsed, every job validated and the jobset
 * grouped as `dbio run FILE` does, without running anything. A crash, a leak
 * or undefined behaviour is a finding; a refusal (DBIO_EINPUT) is not.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!plan_jobfile_parse_string(&set, text, "fuzz.fio", &err)) {
		for (size_t j = 0; j < set.njobs && !err.code; j++)
			plan_validate(&set.jobs[j], &err);
		if (!err.code)
			plan_groups(&set, &err);
	}
	jobset_release(&set);
	free(text);
	return 0;
}
