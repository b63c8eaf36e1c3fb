/*
 * fio's keys of pacing and threads, checked and parsed: rate and its kin in
 * fio's "R,W" form, startdelay's range, the CPUs of cpus_allowed or
 * cpumask, nice, and the values of fio's keys that dbio takes only in the
 * one form it does (continue_on_error=none), and io_submit_mode. The queued engines' batch keys get fio's
 * fix-ups against iodepth here; that they belong to a queued engine is the
 * workload's check (workload/fileio/pace.c), which knows the engine. The loop
 * that honours the rest is workload/fileio/pace.c and fileio.c; the thread keys
 * are applied by run/thread.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload/fileio/files.h"
#include "util/units.h"

#define RATE_FORMS "one value for reads and writes, or R,W for each (R, caps reads only, ,W writes only)"

/* One part of a rate: empty or 0 (no cap), or a number with k, m, g, t
 * (binary, as fio's rate). */
static int rate_part(const char *s, size_t len, uint64_t *out)
{
	char part[48];

	*out = 0;
	if (len == 0)
		return 0;
	if (len >= sizeof(part))
		return -ERANGE;
	memcpy(part, s, len);
	part[len] = '\0';
	return units_parse_size(part, out) ? -EINVAL : 0;
}

/* fio's form of rate and its kin into per-direction values: "V" is both,
 * "R,W" each, "R," reads only, ",W" writes only; a third part (trims)
 * is taken and has nothing to cap. 0, -EINVAL or -ERANGE. */
int job_parse_rw_pair(const char *s, uint64_t out[2])
{
	const char *comma = strchr(s, ',');
	uint64_t trims;
	int rc;

	out[0] = out[1] = 0;
	if (!*s)
		return 0;
	if (!comma) {
		rc = rate_part(s, strlen(s), &out[0]);
		out[1] = out[0];
		return rc;
	}
	const char *second = comma + 1, *third = strchr(second, ',');
	const size_t second_len = third ? (size_t)(third - second) : strlen(second);

	if ((rc = rate_part(s, (size_t)(comma - s), &out[0])) ||
	    (rc = rate_part(second, second_len, &out[1])))
		return rc;
	if (third && (strchr(third + 1, ',') || (rc = rate_part(third + 1, strlen(third + 1), &trims))))
		return rc ? rc : -EINVAL;
	return 0;
}

static int parse_rates(struct job *job, struct dbio_err *err)
{
	static const char bps[] =
		"bytes per second with an optional k, m or g suffix (binary), e.g. 1m or ,500k",
			  iops[] = "reads or writes per second, e.g. 500 or ,100";
	static const struct {
		const char *key;
		size_t offset;
		const char *unit;
	} keys[] = {
		{ "rate", offsetof(struct files_pacing, rate), bps },
		{ "rate_iops", offsetof(struct files_pacing, rate_iops), iops },
		{ "rate_min", offsetof(struct files_pacing, rate_min), bps },
		{ "rate_iops_min", offsetof(struct files_pacing, rate_iops_min), iops },
	};
	uint64_t v[4][2];

	for (size_t k = 0; k < 4; k++) {
		const char *s = (const char *)&fileio_files(job)->pacing + keys[k].offset;
		int rc = job_parse_rw_pair(s, v[k]);

		if (rc)
			return job_fail(job, keys[k].key, err, "bad value '%s'%s: expected %s, each %s", s,
					rc == -ERANGE ? ": too large" : "", RATE_FORMS, keys[k].unit);
	}
	for (int d = 0; d < 2; d++) {
		/* As fio: rate wins over rate_iops, rate_min over rate_iops_min. */
		/* fio's IOPS of a direction are of its smallest size (bs=R,W) */
		if (!v[0][d] && v[1][d] > UINT64_MAX / fileio_files(job)->where.min_bs_rw[d])
			return job_fail(job, "rate_iops", err, "bad value '%s': too large",
					fileio_files(job)->pacing.rate_iops);
		fileio_files(job)->pacing.rate_bps[d] =
			v[0][d] ? v[0][d] : v[1][d] * fileio_files(job)->where.min_bs_rw[d];
		fileio_files(job)->pacing.rate_min_bps[d] = v[2][d];
		fileio_files(job)->pacing.rate_min_iops[d] = v[2][d] ? 0 : v[3][d];
	}
	return 0;
}

static int parse_startdelay(struct job *job, struct dbio_err *err)
{
	const char *s = fileio_files(job)->pacing.startdelay, *dash = strchr(s, '-');
	char lo[64];
	int rc;

	snprintf(lo, sizeof(lo), "%.*s", dash ? (int)(dash - s) : (int)strlen(s), s);
	rc = units_parse_time(lo, 1000000000ull, &fileio_files(job)->pacing.startdelay_lo_ns);
	if (!rc)
		rc = dash ? units_parse_time(dash + 1, 1000000000ull,
					     &fileio_files(job)->pacing.startdelay_hi_ns)
			  : (fileio_files(job)->pacing.startdelay_hi_ns =
				     fileio_files(job)->pacing.startdelay_lo_ns,
			     0);
	if (rc)
		return job_fail(
			job, "startdelay", err,
			"bad value '%s'%s: expected a duration or a range lo-hi of durations, each with a suffix ns, us, ms, s, m or h (a bare number is in seconds), e.g. 10s or 1-5",
			s, rc == -ERANGE ? ": too large" : "");
	if (fileio_files(job)->pacing.startdelay_lo_ns > fileio_files(job)->pacing.startdelay_hi_ns)
		return job_fail(job, "startdelay", err, "bad value '%s': the range is inverted (lo > hi)", s);
	return 0;
}

static void cpu_set(struct job *job, unsigned cpu)
{
	fileio_files(job)->pacing.cpus[cpu / 64] |= 1ull << (cpu % 64);
}

/* A CPU number of cpus_allowed, which must exist here. */
static int cpu_number(struct job *job, const char *key, const char *s, size_t len, long ncpus, unsigned *cpu,
		      struct dbio_err *err)
{
	char num[16];
	uint64_t v;

	snprintf(num, sizeof(num), "%.*s", len < sizeof(num) ? (int)len : (int)sizeof(num) - 1, s);
	if (len == 0 || len >= sizeof(num) || units_parse_u64(num, &v))
		return job_fail(
			job, key, err,
			"bad value '%s': expected CPU numbers from 0 and ranges of them separated by commas, e.g. 0,5,8-15",
			fileio_files(job)->pacing.cpus_allowed);
	if (v >= (uint64_t)ncpus || v >= 64 * 16)
		return job_fail(job, key, err, "CPU %llu: this machine has CPUs 0 to %ld",
				(unsigned long long)v, ncpus - 1);
	*cpu = (unsigned)v;
	return 0;
}

static int parse_cpus_allowed(struct job *job, long ncpus, struct dbio_err *err)
{
	const char *p = fileio_files(job)->pacing.cpus_allowed;

	while (*p) {
		const char *end = p + strcspn(p, ","), *dash = memchr(p, '-', (size_t)(end - p));
		unsigned lo, hi;
		int rc = cpu_number(job, "cpus_allowed", p, (size_t)((dash ? dash : end) - p), ncpus, &lo,
				    err);

		if (!rc)
			rc = dash ? cpu_number(job, "cpus_allowed", dash + 1, (size_t)(end - dash - 1), ncpus,
					       &hi, err)
				  : (hi = lo, 0);
		if (rc)
			return rc;
		if (lo > hi)
			return job_fail(job, "cpus_allowed", err,
					"bad value '%s': the range %u-%u is inverted",
					fileio_files(job)->pacing.cpus_allowed, lo, hi);
		for (unsigned c = lo; c <= hi; c++)
			cpu_set(job, c);
		p = *end ? end + 1 : end; /* a comma at the end is fio's too */
	}
	return 0;
}

static int parse_cpumask(struct job *job, long ncpus, struct dbio_err *err)
{
	const char *s = fileio_files(job)->pacing.cpumask;
	char *end;
	unsigned long long mask;

	errno = 0;
	mask = strtoull(s, &end, !strncasecmp(s, "0x", 2) ? 16 : 10);
	if (errno || end == s || *end || *s == '-' || mask > 0xffffffffull)
		return job_fail(
			job, "cpumask", err,
			"bad value '%s': expected a bit mask of CPUs 0 to 31, decimal or 0x hex, e.g. 34 or 0x22",
			s);
	for (unsigned c = 0; c < 32; c++) {
		if (!(mask & (1ull << c)))
			continue;
		if (c >= ncpus)
			return job_fail(job, "cpumask", err, "CPU %u: this machine has CPUs 0 to %ld", c,
					ncpus - 1);
		cpu_set(job, c);
	}
	return 0;
}

/* cpus_allowed or cpumask into fileio_files(job)->pacing.cpus. */
static int parse_cpus(struct job *job, struct dbio_err *err)
{
	const long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	const bool allowed = job_is_set(job, "cpus_allowed"), mask = job_is_set(job, "cpumask");
	int rc = 0;

	memset(fileio_files(job)->pacing.cpus, 0, sizeof(fileio_files(job)->pacing.cpus));
	fileio_files(job)->pacing.cpus_set = allowed || mask;
	if (allowed && mask)
		return job_fail(job, "cpumask", err,
				"given with cpus_allowed: both name the job's CPUs; give one of them");
	if (allowed)
		rc = parse_cpus_allowed(job, ncpus, err);
	else if (mask)
		rc = parse_cpumask(job, ncpus, err);
	if (rc)
		return rc;
	for (size_t i = 0;
	     i < sizeof(fileio_files(job)->pacing.cpus) / sizeof(fileio_files(job)->pacing.cpus[0]); i++)
		if (fileio_files(job)->pacing.cpus[i])
			return 0;
	return fileio_files(job)->pacing.cpus_set ? job_fail(job, allowed ? "cpus_allowed" : "cpumask", err,
							     "bad value '%s': names no CPU",
							     allowed ? fileio_files(job)->pacing.cpus_allowed
								     : fileio_files(job)->pacing.cpumask)
						  : 0;
}

static int parse_nice(struct job *job, struct dbio_err *err)
{
	const char *s = fileio_files(job)->pacing.nice;
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < -20 || v > 19)
		return job_fail(job, "nice", err, "bad value '%s': expected a whole number from -20 to 19",
				s);
	fileio_files(job)->pacing.nice_inc = (int)v;
	return 0;
}

/* continue_on_error into fileio_files(job)->pacing.continue_on: fio's values but those that
 * would go on after a verify mismatch, which dbio always stops at. */
static int parse_continue(struct job *job, struct dbio_err *err)
{
	const char *coe = fileio_files(job)->pacing.continue_on_error;

	if (!strcmp(coe, "none") || !strcmp(coe, "0"))
		fileio_files(job)->pacing.continue_on = 0;
	else if (!strcmp(coe, "read"))
		fileio_files(job)->pacing.continue_on = CONTINUE_READ;
	else if (!strcmp(coe, "write"))
		fileio_files(job)->pacing.continue_on = CONTINUE_WRITE;
	else if (!strcmp(coe, "io"))
		fileio_files(job)->pacing.continue_on = CONTINUE_READ | CONTINUE_WRITE | CONTINUE_TRIM;
	else if (!strcmp(coe, "verify") || !strcmp(coe, "all") || !strcmp(coe, "1"))
		return job_fail(
			job, "continue_on_error", err,
			"%s is not honoured: dbio goes on after read and write errors but stops at a verify mismatch; use continue_on_error=io",
			coe);
	else
		return job_fail(
			job, "continue_on_error", err,
			"bad value '%s': expected none, read, write or io (fio's verify, all and 1 are not honoured)",
			coe);
	if (fileio_files(job)->pacing.continue_on && strcmp(job->workload, "fileio"))
		return job_fail(job, "continue_on_error", err, "%s with workload=%s: workload=fileio only",
				coe, job->workload);
	return 0;
}

/* fio's keys whose other values dbio does not do (io_submit_mode is
 * fileio's: pace_validate). */
static int check_modes(struct job *job, struct dbio_err *err)
{
	return parse_continue(job, err) ? err->code : 0;
}

int job_validate_pacing(struct job *job, struct dbio_err *err)
{
	int rc;

	if ((rc = parse_rates(job, err)) || (rc = parse_startdelay(job, err)) ||
	    (rc = parse_cpus(job, err)) || (rc = parse_nice(job, err)) || (rc = check_modes(job, err)))
		return rc;
	return 0;
}
