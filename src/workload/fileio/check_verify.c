/*
 * fio's verify keys, checked and parsed: verify='s values (those dbio
 * checks, and fio's that it refuses with the reason), verify_pattern in
 * fio's forms (0x hex, "text", decimal numbers, run together) into bytes,
 * and verify_interval completed and checked against the block sizes. What
 * depends on the engine or the workload (the null engine, a queued engine
 * with verify_backlog) is workload/fileio/verify.c's check; the loop that writes
 * the headers, reads back and checks is workload/fileio/verify.c and fileio.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/fileio/files.h"
#include "util/units.h"

/* One hex run (after "0x") into out: digits in the order written, an odd
 * count's first byte from one digit, as fio. Returns the digits used, 0
 * when none, -ERANGE when out is full. */
static int hex_run(const char *s, uint8_t *out, size_t room, size_t *n)
{
	size_t digits = 0;

	while ((s[digits] >= '0' && s[digits] <= '9') || ((s[digits] | 32) >= 'a' && (s[digits] | 32) <= 'f'))
		digits++;
	/* fio: "0xff0x14" is two runs */
	if (digits >= 2 && s[digits] == 'x' && s[digits - 1] == '0')
		digits--;
	for (size_t i = 0; i < digits;) {
		const size_t take = (digits - i) % 2 ? 1 : 2;
		unsigned v = 0;

		if (*n >= room)
			return -ERANGE;
		for (size_t k = 0; k < take; k++, i++)
			v = v * 16 + (unsigned)(s[i] <= '9' ? s[i] - '0' : (s[i] | 32) - 'a' + 10);
		out[(*n)++] = (uint8_t)v;
	}
	return (int)digits;
}

/* fio's verify_pattern (lib/pattern.c) into bytes: runs of 0x hex, quoted
 * text and decimal numbers (little-endian, as few bytes as hold them),
 * optionally apart by blanks. 0, -EINVAL (with *bad at the place), or
 * -ERANGE (longer than out). */
int job_parse_verify_pattern(const char *s, uint8_t *out, size_t room, size_t *n, const char **bad)
{
	*n = 0;
	while (*s) {
		*bad = s;
		if (*s == ' ' || *s == '\t') {
			s++;
		} else if (s[0] == '0' && (s[1] | 32) == 'x') {
			int used = hex_run(s + 2, out, room, n);

			if (used <= 0)
				return used ? used : -EINVAL;
			s += 2 + used;
		} else if (*s == '"') {
			const char *end = strchr(s + 1, '"');

			if (!end)
				return -EINVAL;
			for (const char *p = s + 1; p < end; p++) {
				if (*n >= room)
					return -ERANGE;
				out[(*n)++] = (uint8_t)*p;
			}
			s = end + 1;
		} else if ((*s >= '0' && *s <= '9') || *s == '-') {
			char *end;
			long v = strtol(s, &end, 10);
			unsigned u = (unsigned)v;

			if (end == s || v > INT_MAX || v < INT_MIN)
				return -EINVAL;
			/* fio: "12x0x1" reads 12 then 0x1; a '0' of "0x" ends the number */
			if (end > s && end[-1] == '0' && (*end | 32) == 'x' && end - 1 > s)
				end--, v /= 10, u = (unsigned)v;
			do {
				if (*n >= room)
					return -ERANGE;
				out[(*n)++] = (uint8_t)(u & 0xff);
				u >>= 8;
			} while (u);
			s = end;
		} else {
			return -EINVAL;
		}
	}
	return *n ? 0 : -EINVAL;
}

static int parse_pattern(struct job *job, struct dbio_err *err)
{
	const char *bad = fileio_files(job)->verify.verify_pattern;
	size_t n = 0;
	int rc;

	fileio_files(job)->verify.vpattern_len = 0;
	if (!fileio_files(job)->verify.verify_pattern[0])
		return fileio_files(job)->verify.verify == VERIFY_PATTERN
			       ? job_fail(
					 job, "verify", err,
					 "pattern checks verify_pattern, and none is given: give verify_pattern=")
			       : 0;
	if (fileio_files(job)->verify.verify_pattern[0] == '\'') {
		if ((rc = job_pattern_file(job, "verify_pattern", fileio_files(job)->verify.verify_pattern,
					   fileio_files(job)->verify.vpattern, FILEIO_PATTERN_MAX, &n, err)))
			return rc;
		fileio_files(job)->verify.vpattern_len = (unsigned)n;
		return 0;
	}
	if (strchr(fileio_files(job)->verify.verify_pattern, '%'))
		return job_fail(
			job, "verify_pattern", err,
			"fio's %%o (the block's offset) is not in dbio: give bytes (0x hex, \"text\" or decimal numbers)");
	rc = job_parse_verify_pattern(fileio_files(job)->verify.verify_pattern,
				      fileio_files(job)->verify.vpattern, FILEIO_PATTERN_TEXT_MAX, &n, &bad);
	if (rc == -ERANGE)
		return job_fail(job, "verify_pattern", err, "longer than %d bytes, fio's limit too",
				FILEIO_PATTERN_TEXT_MAX);
	if (rc)
		return job_fail(
			job, "verify_pattern", err,
			"cannot read '%s' at '%s': expected 0x and hex digits (0xaa555aa5), \"text\" or a decimal number, run together",
			fileio_files(job)->verify.verify_pattern, bad);
	fileio_files(job)->verify.vpattern_len = (unsigned)n;
	return 0;
}

/* The verify= values dbio refuses, with why. */
static const char *refused_type(int type)
{
	switch (type) {
	case VERIFY_CRC64:
	case VERIFY_CRC32:
	case VERIFY_CRC16:
	case VERIFY_CRC7:
		return "fio's own checksum, not in dbio: use crc32c (or xxhash, md5, sha1, sha256, sha512)";
	case VERIFY_PATTERN_HDR:
		return "not in dbio: use verify=meta with verify_pattern= (a header and the pattern)";
	case VERIFY_ON:
		return "1 is workload=kv's; for files name the check: crc32c (or xxhash, md5, sha1, sha256, sha512, meta)";
	default:
		return NULL;
	}
}

/* verify_interval against the sizes of the writes (the reads of a job
 * that only reads): each I/O holds whole intervals. */
static int check_interval(struct job *job, struct dbio_err *err)
{
	const int d = job_writes(job) ? 1 : 0;
	const uint64_t bs = fileio_files(job)->where.min_bs_rw[d];
	char a[32], b[32];

	/* fio's fix-up: none, or one larger than the smallest block, is
	 * the smallest block (fio's t0004: 1m over blocks of 512 B) */
	if (!fileio_files(job)->verify.verify_interval || fileio_files(job)->verify.verify_interval > bs)
		fileio_files(job)->verify.verify_interval = bs;
	if (fileio_files(job)->where.bs_unaligned)
		return job_fail(job, "bs_unaligned", err,
				"not with verify=: each I/O must hold whole blocks of verify_interval");
	for (unsigned i = 0; i <= fileio_files(job)->where.nsplit[d]; i++) {
		const uint64_t size =
			i < fileio_files(job)->where.nsplit[d] ? fileio_files(job)->where.split_bs[d][i] : bs;

		if (size % fileio_files(job)->verify.verify_interval)
			return job_fail(
				job, "verify_interval", err,
				"%s does not divide the block size %s: give a divisor of every block size",
				units_fmt_bytes(a, sizeof(a), fileio_files(job)->verify.verify_interval),
				units_fmt_bytes(b, sizeof(b), size));
	}
	if (fileio_files(job)->verify.verify_offset &&
	    fileio_files(job)->verify.verify_offset + 64 > fileio_files(job)->verify.verify_interval)
		return job_fail(job, "verify_offset", err,
				"%llu bytes: the header would not fit in a block of verify_interval=%llu",
				(unsigned long long)fileio_files(job)->verify.verify_offset,
				(unsigned long long)fileio_files(job)->verify.verify_interval);
	return 0;
}

int job_validate_verify(struct job *job, struct dbio_err *err)
{
	const char *why = refused_type(fileio_files(job)->verify.verify);
	int rc;

	if (fileio_files(job)->verify.verify == VERIFY_NONE) {
		static const char *const needs[] = { "verify_only",	     "verify_backlog",
						     "verify_backlog_batch", "verify_interval",
						     "verify_offset",	     "experimental_verify",
						     "verify_state_load" };

		for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
			if (job_is_set(job, needs[i]))
				return job_fail(
					job, needs[i], err,
					"has nothing to do without verify=: give verify=crc32c (or another)");
		return 0;
	}
	if (why)
		return job_fail(job, "verify", err, "%s", why);
	if ((rc = parse_pattern(job, err)) || (rc = check_interval(job, err)))
		return rc;
	if (fileio_files(job)->verify.verify_only && !job_writes(job))
		return job_fail(job, "verify_only", err,
				"for a job that writes: it reads back what the same job wrote before");
	if (fileio_files(job)->verify.verify_only && job->time_based)
		return job_fail(job, "verify_only", err,
				"not with time_based: it reads back the writes of a job bound by size");
	if (fileio_files(job)->verify.verify_state_load && job_writes(job))
		return job_fail(
			job, "verify_state_load", err,
			"for a job that only reads (rw=read or randread): it checks the writes an earlier run's job saved with verify_state_save");
	if (fileio_files(job)->verify.verify_state_load && job->time_based)
		return job_fail(job, "verify_state_load", err,
				"not with time_based: it reads back as many blocks as the saved job wrote");
	if (fileio_files(job)->verify.verify_only && job->ramp_ns)
		return job_fail(
			job, "ramp_time", err,
			"not with verify_only: the ramp's writes would overwrite what is to be checked");
	return 0;
}
