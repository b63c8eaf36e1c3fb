/*
 * Which jobs of a jobset run together: fio's stonewall, wait_for and
 * new_group over consecutive jobs; see plan_groups in plan.h.
 */
#include <string.h>

#include "plan/plan.h"
#include "util/units.h"
#include "workload/fileio/files.h"

/* The index of the last job before j named name, or j when there is none. */
static size_t find_before(const struct jobset *set, size_t j, const char *name)
{
	for (size_t k = j; k-- > 0;)
		if (!strcmp(set->jobs[k].name, name))
			return k;
	return j;
}

/* Does job j start a group, which starts at start so far, for its
 * wait_for? *starts is already true for a stonewall or the first job. */
static int wait_for_starts(const struct jobset *set, size_t start, size_t j, bool *starts,
			   struct dbio_err *err)
{
	const struct job *job = &set->jobs[j];
	size_t x = find_before(set, j, job->wait_for);

	if (x == j)
		return job_fail(
			job, "wait_for", err,
			"no job named '%s' comes before job '%s': wait_for names an earlier job of the job files",
			job->wait_for, job->name);
	if (*starts || x < start)
		return 0; /* it has finished before this group starts */
	if (j - start == 1) {
		*starts = true;
		return 0;
	}
	size_t other = x == start ? start + 1 : start;

	return job_fail(
		job, "wait_for", err,
		"'%s' runs at the same time as '%s' (no stonewall between them), and dbio starts a job only with its group: say stonewall to wait for every job before this one",
		job->wait_for, set->jobs[other].name);
}

/* Does job a name file (fio's filename) in directory dir? */
static bool names_file(const struct job *a, const char *dir, const char *file)
{
	char name[4096];

	if (!fileio_files(a)->layout.filename[0] || strcmp(a->directory, dir))
		return false;
	for (size_t i = 0; i < fileio_files(a)->layout.nrfiles; i++)
		if (!strcmp(job_filename_at(a, i, name, sizeof(name)), file))
			return true;
	return false;
}

/* Job j and a job before it in its group (from start) that name one file
 * share it, as in fio (layout_share): they must agree on its size. */
static int check_shared_names(const struct jobset *set, size_t start, size_t j, struct dbio_err *err)
{
	const struct job *job = &set->jobs[j];
	char name[4096], a[32], b[32];

	for (size_t i = 0; fileio_files(job)->layout.filename[0] && i < fileio_files(job)->layout.nrfiles;
	     i++) {
		job_filename_at(job, i, name, sizeof(name));
		for (size_t k = start; k < j; k++)
			if (names_file(&set->jobs[k], job->directory, name) &&
			    fileio_files(&set->jobs[k])->layout.filesize !=
				    fileio_files(job)->layout.filesize)
				return job_fail(
					job, "filename", err,
					"'%s' is a file of job '%s' too, which runs at the same time and makes it %s; here it is %s: jobs that share a file must agree on its size (filesize=)",
					name, set->jobs[k].name,
					units_fmt_bytes(a, sizeof(a),
							fileio_files(&set->jobs[k])->layout.filesize),
					units_fmt_bytes(b, sizeof(b), fileio_files(job)->layout.filesize));
	}
	return 0;
}

int plan_groups(struct jobset *set, struct dbio_err *err)
{
	uint64_t groupid = 0;
	size_t start = 0;

	for (size_t j = 0; j < set->njobs; j++) {
		struct job *job = &set->jobs[j];
		bool starts = j == 0 || job->stonewall;
		int rc = 0;

		if (job->wait_for[0] && (rc = wait_for_starts(set, start, j, &starts, err)))
			return rc;
		if (j > 0 && (job->stonewall || job->new_group))
			groupid++;
		if (starts)
			start = j;
		job->starts_group = starts;
		job->groupid = groupid;
		if ((rc = check_shared_names(set, start, j, err)))
			return rc;
		for (size_t k = 0; k < j; k++)
			if ((rc = job_check_steady_pair(&set->jobs[k], job, err)))
				return rc;
		for (size_t k = start; k < j; k++)
			if (!strcmp(set->jobs[k].name, job->name)) {
				char where[4200];

				job_where(&job->section, where, sizeof(where));
				return dbio_err_set(
					err, DBIO_EINPUT,
					"%s: job '%s': runs at the same time as the job '%s' before it (no stonewall between them), and the files of two jobs of one name would be one: give it another name, or add stonewall",
					where, job->name, job->name);
			}
	}
	plan_threads(set);
	return plan_carry_files(set, err);
}
