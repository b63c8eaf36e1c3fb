/*
 * random_distribution's forms of fio that need more than one number:
 * zoned:ACCESS/PERCENT:... (shares of the accesses to shares of the region)
 * and zoned_abs:ACCESS/SIZE:... (to bytes of it), READ,WRITE lists apart,
 * into the job's zone tables; normal:DEV; and sequence:B,B,... (blocks in
 * that order). workload/fileio/where.c draws from them. See job_parse_fio_distribution in job.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/fileio/files.h"
#include "util/units.h"

#define ZONES_MAX 256 /* fio's ZONESPLIT_MAX */

/* One entry ACCESS/SHARE into the zone tables of direction d: the share a
 * percentage (zoned; none or 0: unknown yet, UINT64_MAX) or bytes
 * (zoned_abs; none: 0). */
static int parse_zone(struct job *job, unsigned d, char *e, bool abs, struct dbio_err *err)
{
	const unsigned i = fileio_files(job)->where.nzones[d];
	char *slash = strchr(e, '/'), *end = NULL;
	unsigned long access;
	uint64_t share = abs ? 0 : UINT64_MAX;

	if (i == ZONES_MAX)
		return job_fail(job, "random_distribution", err, "more than %d zones for one direction",
				ZONES_MAX);
	if (slash)
		*slash = '\0';
	access = strtoul(e, &end, 10);
	if (end == e || *end || access > 100)
		return job_fail(job, "random_distribution", err,
				"bad share of accesses '%s': expected a percentage from 0 to 100", e);
	if (slash && slash[1] && abs && units_parse_size(slash + 1, &share))
		return job_fail(job, "random_distribution", err,
				"bad zone size '%s': expected bytes with an optional k, m, g or t suffix",
				slash + 1);
	if (slash && slash[1] && !abs) {
		unsigned long p = strtoul(slash + 1, &end, 10);

		if (*end)
			return job_fail(job, "random_distribution", err,
					"bad zone '%s': expected a percentage of the file", slash + 1);
		share = p == 0 ? UINT64_MAX : p > 100 ? 100 : p; /* as fio */
	}
	fileio_files(job)->where.zone_access[d][i] = (unsigned)access;
	fileio_files(job)->where.zone_len[d][i] = share;
	fileio_files(job)->where.nzones[d] = i + 1;
	return 0;
}

/* Direction d's list: every zone, the accesses adding up to 100, the
 * shares of the file at most 100 (the unknown ones sharing the rest). */
static int parse_zones(struct job *job, unsigned d, const char *list, bool abs, struct dbio_err *err)
{
	char copy[512];
	unsigned access = 0, missing = 0;
	uint64_t shares = 0, start = 0;
	int rc;

	fileio_files(job)->where.nzones[d] = 0;
	snprintf(copy, sizeof(copy), "%s", list);
	for (char *save = NULL, *e = strtok_r(copy, ":", &save); e; e = strtok_r(NULL, ":", &save))
		if ((rc = parse_zone(job, d, e, abs, err)))
			return rc;
	for (unsigned i = 0; i < fileio_files(job)->where.nzones[d]; i++) {
		access += fileio_files(job)->where.zone_access[d][i];
		if (fileio_files(job)->where.zone_len[d][i] == UINT64_MAX)
			missing++;
		else
			shares += fileio_files(job)->where.zone_len[d][i];
	}
	if (access != 100 || (!abs && shares > 100))
		return job_fail(
			job, "random_distribution", err,
			"'%s': the accesses add up to %u and the zones to %llu%s: expected accesses of 100 in all%s",
			list, access, (unsigned long long)shares, abs ? " bytes" : " %",
			abs ? "" : " and zones of at most 100 %");
	for (unsigned i = 0; i < fileio_files(job)->where.nzones[d]; i++) {
		if (fileio_files(job)->where.zone_len[d][i] == UINT64_MAX)
			fileio_files(job)->where.zone_len[d][i] = (100 - shares) / missing;
		fileio_files(job)->where.zone_start[d][i] = start;
		start += fileio_files(job)->where.zone_len[d][i];
	}
	return 0;
}

/* normal:DEV, fio's Gaussian: DEV from 0 to below 100. */
static int parse_normal(struct job *job, struct dbio_err *err)
{
	const char *v = fileio_files(job)->layout.random_distribution + strlen("normal:");
	char *end;
	double dev = strtod(v, &end);

	if (end != v && *end == ':')
		return job_fail(job, "random_distribution", err,
				"'%s': a center after the deviation is not taken yet: give normal:DEV alone",
				fileio_files(job)->layout.random_distribution);
	if (end == v || *end || !(dev >= 0 && dev < 100))
		return job_fail(job, "random_distribution", err,
				"bad value '%s': normal:DEV takes a deviation from 0 to below 100",
				fileio_files(job)->layout.random_distribution);
	fileio_files(job)->layout.dist = DIST_NORMAL;
	fileio_files(job)->layout.dist_param = dev;
	return 0;
}

/* sequence:B,B,...: up to 64 block numbers, in the order fio visits them. */
static int parse_sequence(struct job *job, struct dbio_err *err)
{
	const char *p = fileio_files(job)->layout.random_distribution + 9;
	const unsigned max =
		sizeof(fileio_files(job)->where.seq_blocks) / sizeof(fileio_files(job)->where.seq_blocks[0]);

	fileio_files(job)->where.nseq_blocks = 0;
	for (;;) {
		const size_t len = strcspn(p, ",");
		char *end;
		unsigned long b = strtoul(p, &end, 10);

		if (!len || strspn(p, "0123456789") != len || end != p + len || b > UINT32_MAX)
			return job_fail(
				job, "random_distribution", err,
				"bad block '%.*s' in '%s': sequence:B,B,... takes block numbers from 0, "
				"',' between them",
				(int)len, p, fileio_files(job)->layout.random_distribution);
		if (fileio_files(job)->where.nseq_blocks == max)
			return job_fail(job, "random_distribution", err,
					"'%s': more than %u blocks in the sequence (fio's limit)",
					fileio_files(job)->layout.random_distribution, max);
		fileio_files(job)->where.seq_blocks[fileio_files(job)->where.nseq_blocks++] = (unsigned)b;
		if (!p[len])
			break;
		p += len + 1;
	}
	fileio_files(job)->layout.dist = DIST_SEQUENCE;
	return 0;
}

int job_parse_fio_distribution(struct job *job, struct dbio_err *err)
{
	const char *v = fileio_files(job)->layout.random_distribution;
	const bool abs = !strncmp(v, "zoned_abs:", 10);
	const char *lists = v + (abs ? 10 : 6), *comma = strchr(lists, ',');
	char first[512];
	int rc;

	if (!strncmp(v, "normal:", 7))
		return parse_normal(job, err);
	if (!strncmp(v, "sequence:", 9))
		return parse_sequence(job, err);
	/* READ,WRITE: one list is every direction's, as in fio */
	snprintf(first, sizeof(first), "%.*s", comma ? (int)(comma - lists) : (int)strlen(lists), lists);
	if ((rc = parse_zones(job, 0, first, abs, err)))
		return rc;
	if (comma && strchr(comma + 1, ',') && strchr(strchr(comma + 1, ',') + 1, ','))
		return job_fail(job, "random_distribution", err, "'%s': more than READ,WRITE,TRIM lists", v);
	fileio_files(job)->where.nzones[1] = 0; /* "LIST,": writes uniform */
	if (!comma) {
		memcpy(fileio_files(job)->where.zone_access[1], fileio_files(job)->where.zone_access[0],
		       sizeof(fileio_files(job)->where.zone_access[0]));
		memcpy(fileio_files(job)->where.zone_start[1], fileio_files(job)->where.zone_start[0],
		       sizeof(fileio_files(job)->where.zone_start[0]));
		memcpy(fileio_files(job)->where.zone_len[1], fileio_files(job)->where.zone_len[0],
		       sizeof(fileio_files(job)->where.zone_len[0]));
		fileio_files(job)->where.nzones[1] = fileio_files(job)->where.nzones[0];
	} else if (comma[1] && comma[1] != ',') {
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(comma + 1, ","), comma + 1);
		if ((rc = parse_zones(job, 1, first, abs, err)))
			return rc;
	}
	fileio_files(job)->layout.dist = abs ? DIST_ZONED_ABS : DIST_ZONED;
	return 0;
}
