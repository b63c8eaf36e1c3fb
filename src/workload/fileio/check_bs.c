/*
 * fio's block size keys, resolved before the file checks: bs's READ,WRITE
 * form (parsed by the option table), bsrange, bssplit, blockalign (ba) and
 * bs_unaligned into each direction's smallest and largest size, bssplit's
 * table and the alignment of random offsets, and the job's block (min_bs)
 * that the file checks and the layout count in. The sizes of each I/O are
 * drawn by workload/fileio/where.c. See job_validate_sizes in job.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/fileio/files.h"
#include "util/units.h"

#define BS_MAX (1ull << 30) /* bs's bound */

/* The i-th ','-separated part of list (READ, WRITE, TRIM) into buf, as
 * fio takes them: a missing part is the last one given's (a list of one
 * part is every direction's); an empty part is "" (the default). */
static const char *part_of(const char *list, unsigned i, char *buf, size_t len)
{
	const char *p = list, *q;

	for (unsigned n = 0; n < i && (q = strchr(p, ',')); n++)
		p = q + 1;
	snprintf(buf, len, "%.*s", (int)strcspn(p, ","), p);
	return buf;
}

/* Which part of bs, bsrange and bssplit direction d takes: a job of the
 * trim patterns trims (and rw=trimwrite writes what it trimmed) with the
 * TRIM one, as fio's does. */
static unsigned part_index(const struct job *job, unsigned d)
{
	return d && job_trims(job) ? 2 : d;
}

static unsigned commas(const char *s)
{
	unsigned n = 0;

	for (; (s = strchr(s, ',')); s++)
		n++;
	return n;
}

/* A size of a list, 1 byte to BS_MAX. */
static int parse_bs(const struct job *job, const char *key, const char *text, uint64_t *v,
		    struct dbio_err *err)
{
	if (units_parse_size(text, v) || *v == 0 || *v > BS_MAX)
		return job_fail(job, key, err, "bad size '%s': expected 1 byte to 1 GiB, e.g. 4k", text);
	return 0;
}

/* bsrange's part for direction d: "LO-HI" (or fio's "LO:HI"), or "N". */
static int parse_range(struct job *job, unsigned d, struct dbio_err *err)
{
	char part[80], lo[40];
	uint64_t a, b;
	size_t n;
	int rc;

	if (commas(fileio_files(job)->where.bsrange) > 2)
		return job_fail(job, "bsrange", err, "'%s': more than READ,WRITE,TRIM ranges",
				fileio_files(job)->where.bsrange);
	if (!part_of(fileio_files(job)->where.bsrange, part_index(job, d), part, sizeof(part))[0])
		return 0;
	n = strcspn(part, "-:");
	snprintf(lo, sizeof(lo), "%.*s", (int)n, part);
	if ((rc = parse_bs(job, "bsrange", lo, &a, err)) ||
	    (rc = parse_bs(job, "bsrange", part[n] ? part + n + 1 : lo, &b, err)))
		return rc;
	if (a > b)
		return job_fail(job, "bsrange", err, "'%s': the range is inverted (LO > HI)", part);
	fileio_files(job)->where.min_bs_rw[d] = a;
	fileio_files(job)->where.max_bs_rw[d] = b;
	return 0;
}

/* Ascending share, as fio sorts bssplit's table (the last entry takes what
 * the shares leave below 100). */
static void sort_split(struct job *job, unsigned d)
{
	for (unsigned i = 1; i < fileio_files(job)->where.nsplit[d]; i++)
		for (unsigned j = i; j > 0 && fileio_files(job)->where.split_perc[d][j - 1] >
						      fileio_files(job)->where.split_perc[d][j];
		     j--) {
			const uint64_t bs = fileio_files(job)->where.split_bs[d][j];
			const unsigned perc = fileio_files(job)->where.split_perc[d][j];

			fileio_files(job)->where.split_bs[d][j] = fileio_files(job)->where.split_bs[d][j - 1];
			fileio_files(job)->where.split_perc[d][j] =
				fileio_files(job)->where.split_perc[d][j - 1];
			fileio_files(job)->where.split_bs[d][j - 1] = bs;
			fileio_files(job)->where.split_perc[d][j - 1] = perc;
		}
}

/* bssplit's list for direction d: SIZE/PERCENT:SIZE/:SIZE..., as fio reads
 * it (a percentage of 0 or none shares what the others leave). */
static int parse_split(struct job *job, unsigned d, struct dbio_err *err)
{
	char part[512];
	unsigned given = 0, missing = 0, n = 0;
	int rc;

	if (commas(fileio_files(job)->where.bssplit) > 2)
		return job_fail(job, "bssplit", err, "more than READ,WRITE,TRIM lists");
	if (!part_of(fileio_files(job)->where.bssplit, part_index(job, d), part, sizeof(part))[0])
		return 0;
	for (char *save = NULL, *e = strtok_r(part, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(e, '/'), *end = NULL;
		unsigned long perc = 0;

		if (n == 64)
			return job_fail(job, "bssplit", err, "more than 64 sizes for one direction");
		if (slash) {
			*slash = '\0';
			perc = strtoul(slash + 1, &end, 10);
			if (*end || perc > 100)
				return job_fail(job, "bssplit", err,
						"bad share '%s' of %s: expected a percentage from 0 to 100",
						slash + 1, e);
		}
		if ((rc = parse_bs(job, "bssplit", e, &fileio_files(job)->where.split_bs[d][n], err)))
			return rc;
		fileio_files(job)->where.split_perc[d][n++] = (unsigned)perc;
		given += (unsigned)perc;
		missing += perc == 0;
	}
	if (given > 100)
		return job_fail(job, "bssplit", err, "'%s': the shares add up to %u, more than 100",
				fileio_files(job)->where.bssplit, given);
	fileio_files(job)->where.nsplit[d] = n;
	fileio_files(job)->where.min_bs_rw[d] = UINT64_MAX;
	fileio_files(job)->where.max_bs_rw[d] = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!fileio_files(job)->where.split_perc[d][i])
			fileio_files(job)->where.split_perc[d][i] = (100 - given) / missing;
		if (fileio_files(job)->where.split_bs[d][i] < fileio_files(job)->where.min_bs_rw[d])
			fileio_files(job)->where.min_bs_rw[d] = fileio_files(job)->where.split_bs[d][i];
		if (fileio_files(job)->where.split_bs[d][i] > fileio_files(job)->where.max_bs_rw[d])
			fileio_files(job)->where.max_bs_rw[d] = fileio_files(job)->where.split_bs[d][i];
	}
	sort_split(job, d);
	return 0;
}

/* The mean size of direction d's I/Os (bsrange's: its middle). */
static uint64_t mean_of(const struct job *job, unsigned d)
{
	uint64_t sum = 0, weight = 0;

	for (unsigned i = 0; i < fileio_files(job)->where.nsplit[d]; i++) {
		sum += fileio_files(job)->where.split_bs[d][i] * fileio_files(job)->where.split_perc[d][i];
		weight += fileio_files(job)->where.split_perc[d][i];
	}
	return weight ? sum / weight
		      : (fileio_files(job)->where.min_bs_rw[d] + fileio_files(job)->where.max_bs_rw[d]) / 2;
}

/* Every size a job of direct=1 may issue is a multiple of 512. */
static int check_direct(const struct job *job, const bool dirs[2], struct dbio_err *err)
{
	for (unsigned d = 0; d < 2; d++) {
		if (!dirs[d])
			continue;
		const char *key =
			fileio_files(job)->where.nsplit[d] ? "bssplit"
			: fileio_files(job)->where.min_bs_rw[d] != fileio_files(job)->where.max_bs_rw[d]
				? "bsrange"
				: "bs";
		uint64_t bad = fileio_files(job)->where.min_bs_rw[d] % 512
				       ? fileio_files(job)->where.min_bs_rw[d]
				       : fileio_files(job)->where.max_bs_rw[d];

		for (unsigned i = 0; i < fileio_files(job)->where.nsplit[d]; i++)
			if (fileio_files(job)->where.split_bs[d][i] % 512)
				bad = fileio_files(job)->where.split_bs[d][i];
		if (bad % 512)
			return job_fail(
				job, key, err,
				"%llu is not a multiple of 512, which direct=1 needs (the device's logical block size)",
				(unsigned long long)bad);
		if (fileio_files(job)->where.ba_rw[d] % 512)
			return job_fail(
				job, "blockalign", err,
				"%llu is not a multiple of 512, which direct=1 needs (the device's logical block size)",
				(unsigned long long)fileio_files(job)->where.ba_rw[d]);
	}
	if (fileio_files(job)->where.bs_unaligned &&
	    fileio_files(job)->where.min_bs_rw[0] + fileio_files(job)->where.min_bs_rw[1] !=
		    fileio_files(job)->where.max_bs_rw[0] + fileio_files(job)->where.max_bs_rw[1])
		return job_fail(job, "bs_unaligned", err,
				"sizes of any length do not go with direct=1, which needs multiples of 512");
	return 0;
}

/* Whether the job's I/Os have one size and alignment; where they do not,
 * what the runner does not support yet. */
static int check_vary(struct job *job, const bool dirs[2], struct dbio_err *err)
{
	const char *key = fileio_files(job)->where.bssplit[0]	? "bssplit"
			  : fileio_files(job)->where.bsrange[0] ? "bsrange"
			  : job_is_set(job, "blockalign")	? "blockalign"
								: "bs";

	fileio_files(job)->where.sizes_vary = false;
	for (unsigned d = 0; d < 2; d++)
		if (dirs[d] && (fileio_files(job)->where.min_bs_rw[d] != fileio_files(job)->where.min_bs ||
				fileio_files(job)->where.max_bs_rw[d] != fileio_files(job)->where.min_bs ||
				(job_is_random(job) &&
				 fileio_files(job)->where.ba_rw[d] != fileio_files(job)->where.min_bs)))
			fileio_files(job)->where.sizes_vary = true;
	if (fileio_files(job)->where.sizes_vary && fileio_files(job)->layout.nrfiles > 1)
		return job_fail(
			job, key, err,
			"sizes or alignments that vary, with nrfiles=%llu: fio takes the files in turn, an I/O each, and dbio one after the other; give one file per job",
			(unsigned long long)fileio_files(job)->layout.nrfiles);
	if (fileio_files(job)->where.sizes_vary && fileio_files(job)->layout.share_files)
		return job_fail(
			job, key, err,
			"sizes or alignments that vary do not go with share_files=1 (dbio's own) yet");
	return 0;
}

int job_validate_sizes(struct job *job, struct dbio_err *err)
{
	const bool dirs[2] = { job_reads(job), job_writes(job) };
	const uint64_t ba[2] = { fileio_files(job)->where.blockalign,
				 fileio_files(job)->where.blockalign_write };
	const uint64_t *bs[3] = { &fileio_files(job)->layout.bs, &fileio_files(job)->where.bs_write,
				  &fileio_files(job)->where.bs_trim };
	int rc;

	if (!job_is_set(job, "bs")) /* a workload's own default (oltp's page) */
		fileio_files(job)->where.bs_write = fileio_files(job)->where.bs_trim =
			fileio_files(job)->layout.bs;
	fileio_files(job)->where.min_bs = UINT64_MAX;
	fileio_files(job)->where.max_bs = 0;
	for (unsigned d = 0; d < 2; d++) {
		fileio_files(job)->where.min_bs_rw[d] = fileio_files(job)->where.max_bs_rw[d] =
			*bs[part_index(job, d)];
		fileio_files(job)->where.nsplit[d] = 0;
		if (fileio_files(job)->where.bsrange[0] && (rc = parse_range(job, d, err)))
			return rc;
		if (fileio_files(job)->where.bssplit[0] && (rc = parse_split(job, d, err)))
			return rc;
		/* fio aligns only random offsets; sequential ones follow the sizes */
		fileio_files(job)->where.ba_rw[d] =
			ba[d] && job_is_random(job) ? ba[d] : fileio_files(job)->where.min_bs_rw[d];
		if (dirs[d] && fileio_files(job)->where.min_bs_rw[d] < fileio_files(job)->where.min_bs)
			fileio_files(job)->where.min_bs = fileio_files(job)->where.min_bs_rw[d];
		if (dirs[d] && fileio_files(job)->where.max_bs_rw[d] > fileio_files(job)->where.max_bs)
			fileio_files(job)->where.max_bs = fileio_files(job)->where.max_bs_rw[d];
	}
	if (fileio_files(job)->layout.direct && (rc = check_direct(job, dirs, err)))
		return rc;
	fileio_files(job)->where.mean_bs =
		dirs[0] && dirs[1] ? (mean_of(job, 0) * fileio_files(job)->layout.rwmixread +
				      mean_of(job, 1) * (100 - fileio_files(job)->layout.rwmixread)) /
					     100
				   : mean_of(job, dirs[1]);
	return check_vary(job, dirs, err);
}
