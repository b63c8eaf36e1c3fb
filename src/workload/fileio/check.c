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

#include "workload/fileio/files.h"
#include "util/units.h"

/* random_distribution: "random", "zipf:THETA" or "pareto:H". */
static int parse_distribution(struct job *job, struct dbio_err *err)
{
	const char *v = fileio_files(job)->layout.random_distribution;
	char *end;

	fileio_files(job)->layout.dist = DIST_UNIFORM;
	fileio_files(job)->where.nzones[0] = fileio_files(job)->where.nzones[1] = 0;
	if (!strcmp(v, "random"))
		return 0;
	/* fio's forms of more than one number: workload/fileio/check_dist.c */
	if (!strncmp(v, "zoned:", 6) || !strncmp(v, "zoned_abs:", 10) || !strncmp(v, "normal:", 7) ||
	    !strncmp(v, "sequence:", 9))
		return job_parse_fio_distribution(job, err);
	if (!strncmp(v, "zipf:", 5) || !strncmp(v, "pareto:", 7)) {
		bool zipf = v[0] == 'z';
		double p = strtod(v + (zipf ? 5 : 7), &end);

		if (!*end && end != v + (zipf ? 5 : 7) && (zipf ? p > 0 && p <= 10 : p > 0 && p < 1)) {
			fileio_files(job)->layout.dist = zipf ? DIST_ZIPF : DIST_PARETO;
			fileio_files(job)->layout.dist_param = p;
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
	const char *v = fileio_files(job)->layout.sync_file_range, *colon = strrchr(v, ':');
	char *end;

	fileio_files(job)->layout.sfr_every = 0;
	fileio_files(job)->layout.sfr_flags = 0;
	if (!*v)
		return 0;
	/* Each comma-separated item before the colon is a flag's name. */
	for (const char *p = v; colon && p <= colon;) {
		size_t n = strcspn(p, ",:"), i = 0;

		while (i < 3 && !(strlen(flags[i].name) == n && !strncmp(flags[i].name, p, n)))
			i++;
		if (i == 3) {
			fileio_files(job)->layout.sfr_flags = 0;
			break;
		}
		fileio_files(job)->layout.sfr_flags |= flags[i].flag;
		p += n + 1;
	}
	if (colon && fileio_files(job)->layout.sfr_flags) {
		errno = 0;
		fileio_files(job)->layout.sfr_every = strtoull(colon + 1, &end, 10);
		if (!errno && end != colon + 1 && !*end && colon[1] != '-' &&
		    fileio_files(job)->layout.sfr_every > 0)
			return 0;
	}
	fileio_files(job)->layout.sfr_every = 0;
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
	if (fileio_files(job)->layout.size == 0 && fileio_files(job)->layout.filesize == 0)
		return job_fail(job, "size", err,
				"missing: give size= (bytes of I/O) or filesize= (bytes per file)");
	if (fileio_files(job)->layout.filesize == 0) {
		/* Round up to whole blocks, so the files hold all of size. */
		uint64_t per_file = fileio_files(job)->layout.size / fileio_files(job)->layout.nrfiles +
				    (fileio_files(job)->layout.size % fileio_files(job)->layout.nrfiles != 0);

		fileio_files(job)->layout.filesize = (per_file + fileio_files(job)->where.min_bs - 1) /
						     fileio_files(job)->where.min_bs *
						     fileio_files(job)->where.min_bs;
	}
	if (fileio_files(job)->layout.size == 0)
		fileio_files(job)->layout.size =
			fileio_files(job)->layout.filesize * fileio_files(job)->layout.nrfiles;
	if (fileio_files(job)->layout.filesize < fileio_files(job)->where.min_bs)
		return job_fail(
			job, job_is_set(job, "filesize") ? "filesize" : "size", err,
			"each file would hold %s, less than one block (bs=%s); make size at least bs * nrfiles",
			units_fmt_bytes(a, sizeof(a), fileio_files(job)->layout.filesize),
			units_fmt_bytes(b, sizeof(b), fileio_files(job)->where.min_bs));
	if (fileio_files(job)->layout.filesize / fileio_files(job)->where.min_bs >
	    UINT64_MAX / fileio_files(job)->layout.nrfiles)
		return job_fail(job, "nrfiles", err, "too many blocks in all");
	uint64_t space = fileio_files(job)->layout.filesize / fileio_files(job)->where.min_bs *
			 fileio_files(job)->where.min_bs * fileio_files(job)->layout.nrfiles;

	if (fileio_files(job)->layout.size > space)
		return job_fail(job, "size", err,
				"%s is more than the files hold (%s = nrfiles * filesize in whole blocks)",
				units_fmt_bytes(a, sizeof(a), fileio_files(job)->layout.size),
				units_fmt_bytes(b, sizeof(b), space));
	if (fileio_files(job)->layout.size < fileio_files(job)->where.min_bs)
		return job_fail(job, "size", err, "%s is less than one block (bs=%s)",
				units_fmt_bytes(a, sizeof(a), fileio_files(job)->layout.size),
				units_fmt_bytes(b, sizeof(b), fileio_files(job)->where.min_bs));
	if (fileio_files(job)->layout.share_files &&
	    fileio_files(job)->layout.size / fileio_files(job)->where.min_bs < job->numjobs)
		return job_fail(job, "numjobs", err,
				"%llu threads share %llu blocks: each needs at least one",
				(unsigned long long)job->numjobs,
				(unsigned long long)(fileio_files(job)->layout.size /
						     fileio_files(job)->where.min_bs));
	if (fileio_files(job)->layout.direct && fileio_files(job)->layout.bs % 512)
		return job_fail(
			job, "bs", err,
			"%llu is not a multiple of 512, which direct=1 needs (the device's logical block size)",
			(unsigned long long)fileio_files(job)->layout.bs);
	if (fileio_files(job)->layout.direct && fileio_files(job)->layout.filesize % 512)
		return job_fail(job, "filesize", err, "%llu is not a multiple of 512, which direct=1 needs",
				(unsigned long long)fileio_files(job)->layout.filesize);
	return job_validate_where(job, err);
}
