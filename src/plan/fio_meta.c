/*
 * fio's metadata engines on dbio's meta workload: a job with
 * ioengine=filecreate, filestat, filedelete, dircreate, dirstat or
 * dirdelete becomes workload=meta, each thread working on nrfiles files
 * (or directories) in one measured phase — fio's engines do "no I/O" but
 * that one call per file. See plan_fio_meta in plan.h.
 */
#include <stdio.h>
#include <string.h>

#include "plan/plan.h"
#include "workload/fileio/files.h"

static const struct {
	const char *engine, *phase, *kind;
} engines[] = {
	{ "filecreate", "create", "file" }, { "filestat", "stat", "file" },
	{ "filedelete", "delete", "file" }, { "dircreate", "create", "dir" },
	{ "dirstat", "stat", "dir" },	    { "dirdelete", "delete", "dir" },
};

/* Set key=value on job as if given where its ioengine was. */
static int set_as_engine(struct job *job, const char *key, const char *value, struct dbio_err *err)
{
	struct job_origin origin = *job_origin_of(job, "ioengine");

	origin.shared = false;
	return job_set(job, key, value, &origin, err);
}

bool plan_fio_meta_at(size_t i, const char **engine, const char **phase, const char **kind)
{
	if (i >= sizeof(engines) / sizeof(engines[0]))
		return false;
	*engine = engines[i].engine;
	*phase = engines[i].phase;
	*kind = engines[i].kind;
	return true;
}

int plan_fio_meta(struct job *job, struct dbio_err *err)
{
	char files[32];
	size_t e = 0;
	int rc;

	while (e < sizeof(engines) / sizeof(engines[0]) &&
	       strcmp(engines[e].engine, fileio_files(job)->layout.ioengine))
		e++;
	if (e == sizeof(engines) / sizeof(engines[0]))
		return 0;
	if (job_is_set(job, "workload") && strcmp(job->workload, "fileio"))
		return job_fail(
			job, "ioengine", err,
			"'%s' is fio's metadata engine, a job of workload=meta; this job is workload=%s",
			fileio_files(job)->layout.ioengine, job->workload);
	snprintf(files, sizeof(files), "%llu", (unsigned long long)fileio_files(job)->layout.nrfiles);
	if ((rc = set_as_engine(job, "workload", "meta", err)) ||
	    (rc = set_as_engine(job, "meta_files", files, err)) ||
	    (rc = set_as_engine(job, "meta_phases", engines[e].phase, err)) ||
	    (rc = set_as_engine(job, "meta_kind", engines[e].kind, err)))
		return rc;
	/* The engine's file keys are spent: fio's metadata engines read
	 * nrfiles and leave the rest (filesize, fallocate ...) unused. */
	for (size_t t = 0; t < job->nkeys; t++)
		if (job->keys[t].scope == OPTION_SCOPE_FILES)
			for (size_t d = 0; d < job->keys[t].table->count; d++)
				job->keys[t].state[d].set = false;
	return 0;
}
