/*
 * Files that outlive their group: as in fio, a later job of the job files
 * that names the same filename= in the same directory (after a stonewall)
 * works on the file an earlier one wrote — fio's surface-scan example
 * writes datafile.tmp with verify headers, and a stonewalled job reads and
 * checks it. plan_carry_files marks the maker (files_for_later: the runner
 * keeps its files after its group) and the user (files_from_earlier: its
 * layout opens them again instead of creating them); the last one removes
 * them. Jobs of one group that share a file are layout_share's.
 */
#include <string.h>

#include "plan/plan.h"
#include "workload/workload.h"
#include "workload/fileio/files.h"

/* Do jobs a and b name the same files in the same directory? */
static bool same_files(const struct job *a, const struct job *b)
{
	return fileio_files(a)->layout.filename[0] &&
	       !strcmp(fileio_files(a)->layout.filename, fileio_files(b)->layout.filename) &&
	       !strcmp(a->directory, b->directory) && (a->wl->caps & WORKLOAD_CAP_FILES) &&
	       (b->wl->caps & WORKLOAD_CAP_FILES);
}

int plan_carry_files(struct jobset *set, struct dbio_err *err)
{
	size_t group = 0; /* where job j's group starts */

	for (size_t j = 0; j < set->njobs; j++) {
		struct job *job = &set->jobs[j];

		if (job->starts_group)
			group = j;
		for (size_t k = 0; k < group; k++) {
			struct job *earlier = &set->jobs[k];

			if (!same_files(earlier, job))
				continue;
			if (earlier->repeat != 1) /* several runs, or repeat=auto */
				return job_fail(
					earlier, "repeat", err,
					"not with a file a later job uses ('%s', job '%s'): each run of the job would find the file of the run before",
					fileio_files(job)->layout.filename, job->name);
			fileio_files(earlier)->verify.files_for_later = true;
			fileio_files(job)->verify.files_from_earlier = true;
		}
	}
	return 0;
}
