/*
 * The plan as text (plan.h, plan_describe): what ranks of an MPI job
 * compare before any of them writes a file, so that ranks started with
 * different job files or keys refuse together instead of being merged as
 * if they had run the same jobs (mpi/world.c, mpi_agree_plan).
 */
#include <stdio.h>
#include <string.h>

#include "plan/plan.h"

/* Keys a rank may hold a value of its own for: they pace the same work
 * (rate*, thinktime*: a host made slower on purpose, as a slower disk
 * would be) or place it on the host's own CPUs and memory nodes, which
 * differ between hosts; they change neither what is read and written nor
 * where. docs/mpi.md lists them. */
static const char *const per_rank_keys[] = {
	"rate",
	"rate_iops",
	"rate_min",
	"rate_iops_min",
	"rate_process",
	"rate_cycle",
	"rate_ignore_thinktime",
	"thinktime",
	"thinktime_spin",
	"thinktime_blocks",
	"thinktime_blocks_type",
	"thinktime_iotime",
	"cpumask",
	"cpus_allowed",
	"cpus_allowed_policy",
	"numa_cpu_nodes",
	"numa_mem_policy",
};

bool plan_key_per_rank(const char *name)
{
	for (size_t i = 0; i < sizeof(per_rank_keys) / sizeof(per_rank_keys[0]); i++)
		if (!strcmp(per_rank_keys[i], name))
			return true;
	return false;
}

/* value, with backslash, tab and newline escaped: one line, one tab. */
static void put_value(FILE *out, const char *value)
{
	for (const char *p = value; *p; p++)
		if (*p == '\\')
			fputs("\\\\", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p == '\n')
			fputs("\\n", out);
		else
			fputc(*p, out);
	fputc('\n', out);
}

static void put_job(FILE *out, const struct job *job, size_t index)
{
	char subject[512], value[8192];

	fprintf(out, "job %zu's name\t", index + 1);
	put_value(out, job->name);
	fprintf(out, "job '%s': its group\t%s (group %llu)\n", job->name,
		job->starts_group ? "starts a group" : "runs with the job before",
		(unsigned long long)job->groupid);
	for (size_t t = 0; t < job->nkeys; t++) {
		const struct job_keys *k = &job->keys[t];

		if (!k->applies)
			continue;
		for (size_t d = 0; d < k->table->count; d++) {
			const struct option_def *def = &k->table->defs[d];

			if (plan_key_per_rank(def->name))
				continue;
			snprintf(subject, sizeof(subject), "job '%s' key '%s'", job->name, def->name);
			/* randrepeat=0 without randseed: a seed from each
			 * process's clock, which differs by its nature */
			if (!strcmp(def->name, "randseed") && !job->randrepeat &&
			    !job_is_set(job, "randseed"))
				snprintf(value, sizeof(value), "(from the clock)");
			else
				option_format(job_keys_base(job, k), def, value, sizeof(value));
			fprintf(out, "%s\t", subject);
			put_value(out, value);
		}
	}
}

void plan_describe(FILE *out, const struct jobset *set)
{
	fprintf(out, "the number of jobs\t%zu\n", set->njobs);
	for (size_t j = 0; j < set->njobs; j++)
		put_job(out, &set->jobs[j], j);
}
