/*
 * fio's keys of log files and command priorities, checked and parsed; see
 * fio_logs.h. cmdprio's forms are fio's (engines/cmdprio.c, options.c
 * split_parse_prio_ddir): cmdprio_percentage, cmdprio_class, cmdprio and
 * cmdprio_hint each one value for reads and writes or R,W apart;
 * cmdprio_bssplit BS/PERCENT[/CLASS/LEVEL[/HINT]] entries joined by ':',
 * one list for both directions or READS,WRITES. Where fio clamps a value
 * out of range, dbio refuses it and says what is accepted.
 */
#include "workload/fileio/check_logs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/units.h"
#include "workload/fileio/files.h"

#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_HINT_SHIFT  3
#define CLASS_RT	   1
#define MAX_ENTRIES	   64

unsigned job_ioprio_value(unsigned cls, unsigned level, unsigned hint)
{
	return (cls ? cls : 2) << IOPRIO_CLASS_SHIFT | hint << IOPRIO_HINT_SHIFT | level;
}

/* A whole number in [lo, hi] from s[0..len); false when it is not one. */
static bool small_number(const char *s, size_t len, unsigned lo, unsigned hi, unsigned *out)
{
	char num[16];
	uint64_t v;

	if (!len || len >= sizeof(num))
		return false;
	memcpy(num, s, len);
	num[len] = '\0';
	if (units_parse_u64(num, &v) || v < lo || v > hi)
		return false;
	*out = (unsigned)v;
	return true;
}

/* One of cmdprio's R,W keys into out[2]: "V" both, "R,W" each, an empty
 * part leaves its direction at what out holds. */
static int rw_numbers(const struct job *job, const char *key, const char *s, unsigned lo, unsigned hi,
		      unsigned out[2], struct dbio_err *err)
{
	const char *comma = strchr(s, ',');
	const size_t len0 = comma ? (size_t)(comma - s) : strlen(s);
	const char *second = comma ? comma + 1 : s;
	const size_t len1 = comma ? strlen(second) : len0;
	unsigned v[2] = { out[0], out[1] };

	if ((len0 && !small_number(s, len0, lo, hi, &v[0])) ||
	    (len1 && !small_number(second, len1, lo, hi, &v[1])) || (comma && strchr(second, ',')))
		return job_fail(
			job, key, err,
			"bad value '%s': expected a whole number from %u to %u, or R,W for reads and writes apart",
			s, lo, hi);
	out[0] = v[0];
	out[1] = v[1];
	return 0;
}

/* Add an entry to direction d's table. */
static int add_entry(struct job *job, const char *key, int d, uint64_t bs, unsigned perc, unsigned val,
		     struct dbio_err *err)
{
	unsigned total = perc, n = fileio_files(job)->logs.cmdprio_n[d];

	if (n == MAX_ENTRIES)
		return job_fail(job, key, err, "more than %d entries for one direction", MAX_ENTRIES);
	for (unsigned i = 0; i < n; i++)
		if (fileio_files(job)->logs.cmdprio_bs[d][i] == bs)
			total += fileio_files(job)->logs.cmdprio_perc[d][i];
	if (total > 100)
		return job_fail(job, key, err, "the percentages of %llu bytes add up to %u: at most 100",
				(unsigned long long)bs, total);
	fileio_files(job)->logs.cmdprio_bs[d][n] = bs;
	fileio_files(job)->logs.cmdprio_perc[d][n] = perc;
	fileio_files(job)->logs.cmdprio_val[d][n] = (uint16_t)val;
	fileio_files(job)->logs.cmdprio_n[d] = n + 1;
	return 0;
}

/* One entry BS/PERCENT[/CLASS/LEVEL[/HINT]] of cmdprio_bssplit for
 * direction d; implicit is the value of an entry without CLASS/LEVEL. */
static int bssplit_entry(struct job *job, int d, const char *s, size_t len, unsigned implicit,
			 struct dbio_err *err)
{
	static const unsigned lo[5] = { 0, 0, 0, 0, 0 }, hi[5] = { 0, 100, 3, 7, 1023 };
	const char *p = s, *end = s + len;
	unsigned field[5] = { 0 }, n = 0;
	uint64_t bs = 0;
	char size[32];

	while (n < 5) {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		const size_t flen = (size_t)((slash ? slash : end) - p);

		if (n == 0) {
			snprintf(size, sizeof(size), "%.*s", (int)(flen < sizeof(size) ? flen : 0), p);
			if (!flen || flen >= sizeof(size) || units_parse_size(size, &bs) || !bs)
				break;
		} else if (flen && !small_number(p, flen, lo[n], hi[n], &field[n])) {
			break;
		}
		n++;
		if (!slash) {
			p = end;
			break;
		}
		p = slash + 1;
	}
	if (p != end || n == 3)
		return job_fail(
			job, "cmdprio_bssplit", err,
			"bad entry '%.*s': expected BS/PERCENT or BS/PERCENT/CLASS/LEVEL[/HINT]: a block size, a percent (0 to 100), a class (0 to 3), a level (0 to 7), a hint (0 to 1023), e.g. 64k/25/1/0",
			(int)len, s);
	if (!field[1])
		return 0; /* as fio: an entry of 0 % says nothing */
	return add_entry(job, "cmdprio_bssplit", d, bs, field[1],
			 n >= 4 ? job_ioprio_value(field[2], field[3], field[4]) : implicit, err);
}

static int parse_bssplit(struct job *job, const unsigned implicit[2], struct dbio_err *err)
{
	const char *s = fileio_files(job)->logs.cmdprio_bssplit, *comma = strchr(s, ',');

	for (int d = 0; d < 2; d++) {
		/* READS,WRITES[,TRIMS]; one list is both */
		const char *p = d && comma ? comma + 1 : s, *list_end = p + strcspn(p, ",");

		while (p < list_end) {
			const char *colon = memchr(p, ':', (size_t)(list_end - p));
			const char *e = colon ? colon : list_end;
			int rc;

			if (e == p)
				break; /* as fio: an empty entry ends the list */
			if ((rc = bssplit_entry(job, d, p, (size_t)(e - p), implicit[d], err)))
				return rc;
			p = colon ? colon + 1 : list_end;
		}
	}
	return 0;
}

static int parse_cmdprio(struct job *job, struct dbio_err *err)
{
	unsigned perc[2] = { 0, 0 }, cls[2] = { CLASS_RT, CLASS_RT }, level[2] = { 0, 0 }, hint[2] = { 0, 0 },
		 implicit[2];
	int rc;

	fileio_files(job)->logs.cmdprio_n[0] = fileio_files(job)->logs.cmdprio_n[1] = 0;
	if ((rc = rw_numbers(job, "cmdprio_percentage", fileio_files(job)->logs.cmdprio_percentage, 0, 100,
			     perc, err)) ||
	    (rc = rw_numbers(job, "cmdprio_class", fileio_files(job)->logs.cmdprio_class, 1, 3, cls, err)) ||
	    (rc = rw_numbers(job, "cmdprio", fileio_files(job)->logs.cmdprio, 0, 7, level, err)) ||
	    (rc = rw_numbers(job, "cmdprio_hint", fileio_files(job)->logs.cmdprio_hint, 0, 1023, hint, err)))
		return rc;
	for (int d = 0; d < 2; d++)
		implicit[d] = job_ioprio_value(cls[d], level[d], hint[d]);
	if (fileio_files(job)->logs.cmdprio_bssplit[0] && (perc[0] || perc[1]))
		return job_fail(
			job, "cmdprio_bssplit", err,
			"given with cmdprio_percentage: the two are exclusive, as in fio; give one of them");
	if (fileio_files(job)->logs.cmdprio_bssplit[0])
		return parse_bssplit(job, implicit, err);
	for (int d = 0; d < 2; d++)
		if (perc[d] && (rc = add_entry(job, "cmdprio_percentage", d, 0, perc[d], implicit[d], err)))
			return rc;
	return 0;
}

static const char *const log_keys[] = { "write_lat_log", "write_bw_log", "write_iops_log" };

const char *job_log_name(const struct job *job, const char *key)
{
	const char *v = !strcmp(key, "write_lat_log")  ? fileio_files(job)->logs.write_lat_log
			: !strcmp(key, "write_bw_log") ? fileio_files(job)->logs.write_bw_log
						       : fileio_files(job)->logs.write_iops_log;

	if (!job_is_set(job, key))
		return NULL;
	return *v ? v : job->name;
}

bool job_log_path(const struct job *job, const char *name, const char *kind, uint64_t thread, char *buf,
		  size_t len)
{
	int n = fileio_files(job)->logs.per_job_logs
			? snprintf(buf, len, "%s_%s.%llu.log", name, kind, (unsigned long long)thread)
			: snprintf(buf, len, "%s_%s.log", name, kind);

	return n >= 0 && (size_t)n < len;
}

static int check_logs(struct job *job, struct dbio_err *err)
{
	struct timespec ts;
	char path[4096];

	fileio_files(job)->logs.nlogs = 0;
	for (size_t k = 0; k < sizeof(log_keys) / sizeof(log_keys[0]); k++) {
		const char *name = job_log_name(job, log_keys[k]);

		if (!name)
			continue;
		fileio_files(job)->logs.nlogs += k ? 1 : 3;
		if (!job_log_path(job, name, "clat", fileio_files(job)->pacing.thread_base + job->numjobs,
				  path, sizeof(path)))
			return job_fail(job, log_keys[k], err, "the name '%s' is too long for a path", name);
	}
	if (fileio_files(job)->logs.log_alternate_epoch &&
	    clock_gettime((clockid_t)fileio_files(job)->logs.log_alternate_epoch_clock_id, &ts))
		return job_fail(
			job, "log_alternate_epoch_clock_id", err,
			"clock %llu: clock_gettime: %s: expected a clock of this kernel (0 CLOCK_REALTIME, 1 CLOCK_MONOTONIC, 7 CLOCK_BOOTTIME ...)",
			(unsigned long long)fileio_files(job)->logs.log_alternate_epoch_clock_id,
			strerror(errno));
	/* as fio: the issue time is a column of the latency logs, after the offset */
	if (fileio_files(job)->logs.log_issue_time &&
	    (!job_is_set(job, "write_lat_log") || !fileio_files(job)->logs.log_offset))
		return job_fail(
			job, "log_issue_time", err,
			"needs write_lat_log and log_offset=1, as in fio: the issue time is a column of the latency logs after the offset");
	return 0;
}

int job_validate_logs(struct job *job, struct dbio_err *err)
{
	int rc = check_logs(job, err);

	if (rc)
		return rc;
	fileio_files(job)->logs.cmdprio_default =
		job_is_set(job, "prio") || job_is_set(job, "prioclass")
			? job_ioprio_value((unsigned)fileio_files(job)->pacing.prioclass,
					   (unsigned)fileio_files(job)->pacing.prio, 0)
			: 0;
	return parse_cmdprio(job, err);
}

const char *job_logs_key_given(const struct job *job)
{
	static const char *const keys[] = {
		"write_lat_log",
		"write_bw_log",
		"write_iops_log",
		"log_avg_msec",
		"log_max_value",
		"log_offset",
		"log_issue_time",
		"log_prio",
		"log_unix_epoch",
		"log_alternate_epoch",
		"log_alternate_epoch_clock_id",
		"per_job_logs",
		"log_entries",
		"cmdprio_percentage",
		"cmdprio_class",
		"cmdprio",
		"cmdprio_hint",
		"cmdprio_bssplit",
	};

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (job_is_set(job, keys[k]))
			return keys[k];
	return NULL;
}
