/*
 * The file workloads' checks in one place (job_validate_files, and
 * sync_file_range's parse, see job.h): the order fio's key files are
 * called in, each of them using only the key state of job.c. job.c calls
 * none of them, so the job's files form no loop: validate.c ─► fio_files,
 * fio_dist, fio_bs, fio_where ─► job.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "util/units.h"

/* random_distribution: "random", "zipf:THETA" or "pareto:H". */
static int parse_distribution(struct job *job, struct dbio_err *err)
{
	const char *v = job->random_distribution;
	char *end;

	job->dist = DIST_UNIFORM;
	job->nzones[0] = job->nzones[1] = 0;
	if (!strcmp(v, "random"))
		return 0;
	/* fio's forms of more than one number: job/fio_dist.c */
	if (!strncmp(v, "zoned:", 6) || !strncmp(v, "zoned_abs:", 10) || !strncmp(v, "normal:", 7) ||
	    !strncmp(v, "sequence:", 9))
		return job_parse_fio_distribution(job, err);
	if (!strncmp(v, "zipf:", 5) || !strncmp(v, "pareto:", 7)) {
		bool zipf = v[0] == 'z';
		double p = strtod(v + (zipf ? 5 : 7), &end);

		if (!*end && end != v + (zipf ? 5 : 7) && (zipf ? p > 0 && p <= 10 : p > 0 && p < 1)) {
			job->dist = zipf ? DIST_ZIPF : DIST_PARETO;
			job->dist_param = p;
			return 0;
		}
	}
	return job_fail(
		job, "random_distribution", err,
		"bad value '%s': expected random, zipf:THETA (0 < THETA <= 10), pareto:H (0 < H < 1), normal:DEV, "
		"zoned:ACCESS/PERCENT:..., zoned_abs:ACCESS/SIZE:... or sequence:B,B,...",
		v);
}

/* sync_file_range: "" or FLAGS:N, FLAGS a comma list of wait_before, write
 * and wait_after (fio's form). */
int job_parse_sync_file_range(struct job *job, struct dbio_err *err)
{
	static const struct {
		const char *name;
		unsigned flag;
	} flags[] = {
		{ "wait_before", SYNC_FILE_RANGE_WAIT_BEFORE },
		{ "write", SYNC_FILE_RANGE_WRITE },
		{ "wait_after", SYNC_FILE_RANGE_WAIT_AFTER },
	};
	const char *v = job->sync_file_range, *colon = strrchr(v, ':');
	char *end;

	job->sfr_every = 0;
	job->sfr_flags = 0;
	if (!*v)
		return 0;
	/* Each comma-separated item before the colon is a flag's name. */
	for (const char *p = v; colon && p <= colon;) {
		size_t n = strcspn(p, ",:"), i = 0;

		while (i < 3 && !(strlen(flags[i].name) == n && !strncmp(flags[i].name, p, n)))
			i++;
		if (i == 3) {
			job->sfr_flags = 0;
			break;
		}
		job->sfr_flags |= flags[i].flag;
		p += n + 1;
	}
	if (colon && job->sfr_flags) {
		errno = 0;
		job->sfr_every = strtoull(colon + 1, &end, 10);
		if (!errno && end != colon + 1 && !*end && colon[1] != '-' && job->sfr_every > 0)
			return 0;
	}
	job->sfr_every = 0;
	return job_fail(
		job, "sync_file_range", err,
		"bad value '%s': expected FLAGS:N, FLAGS one or more of wait_before, write, "
		"wait_after joined by commas, N a count of writes >= 1 (wait_before,write,wait_after:8)",
		v);
}

int job_validate_files(struct job *job, struct dbio_err *err)
{
	char a[32], b[32];

	if (job_validate_fio_files(job, err) || parse_distribution(job, err) || job_validate_sizes(job, err))
		return err->code;
	if (job->size == 0 && job->filesize == 0)
		return job_fail(job, "size", err,
				"missing: give size= (bytes of I/O) or filesize= (bytes per file)");
	if (job->filesize == 0) {
		/* Round up to whole blocks, so the files hold all of size. */
		uint64_t per_file = job->size / job->nrfiles + (job->size % job->nrfiles != 0);

		job->filesize = (per_file + job->min_bs - 1) / job->min_bs * job->min_bs;
	}
	if (job->size == 0)
		job->size = job->filesize * job->nrfiles;
	if (job->filesize < job->min_bs)
		return job_fail(
			job, job_is_set(job, "filesize") ? "filesize" : "size", err,
			"each file would hold %s, less than one block (bs=%s); make size at least bs * nrfiles",
			units_fmt_bytes(a, sizeof(a), job->filesize),
			units_fmt_bytes(b, sizeof(b), job->min_bs));
	if (job->filesize / job->min_bs > UINT64_MAX / job->nrfiles)
		return job_fail(job, "nrfiles", err, "too many blocks in all");
	uint64_t space = job->filesize / job->min_bs * job->min_bs * job->nrfiles;

	if (job->size > space)
		return job_fail(job, "size", err,
				"%s is more than the files hold (%s = nrfiles * filesize in whole blocks)",
				units_fmt_bytes(a, sizeof(a), job->size),
				units_fmt_bytes(b, sizeof(b), space));
	if (job->size < job->min_bs)
		return job_fail(job, "size", err, "%s is less than one block (bs=%s)",
				units_fmt_bytes(a, sizeof(a), job->size),
				units_fmt_bytes(b, sizeof(b), job->min_bs));
	if (job->share_files && job->size / job->min_bs < job->numjobs)
		return job_fail(
			job, "numjobs", err, "%llu threads share %llu blocks: each needs at least one",
			(unsigned long long)job->numjobs, (unsigned long long)(job->size / job->min_bs));
	if (job->direct && job->bs % 512)
		return job_fail(
			job, "bs", err,
			"%llu is not a multiple of 512, which direct=1 needs (the device's logical block size)",
			(unsigned long long)job->bs);
	if (job->direct && job->filesize % 512)
		return job_fail(job, "filesize", err, "%llu is not a multiple of 512, which direct=1 needs",
				(unsigned long long)job->filesize);
	return job_validate_where(job, err);
}
