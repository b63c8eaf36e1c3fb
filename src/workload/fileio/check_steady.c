/*
 * fio's steady-state keys, checked and parsed: steadystate's MODE:LIMIT
 * (fio's str_steadystate_cb), the window against the check interval
 * (fio's init.c), and fio's rule that the jobs of a reporting group agree
 * on them (td_steadystate_init). The samples and the judgement are
 * run/steady.c and stats/steady.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/fileio/files.h"
#include "util/units.h"

#define SS_FORMS                                                                                             \
	"MODE:LIMIT, MODE one of iops, iops_slope, bw, bw_slope, lat, lat_slope, LIMIT a number (IOPS; bytes per second for bw, k, m, g binary; a time for lat, bare in microseconds) or N% of the window's mean, e.g. iops:10% or bw_slope:1m"
#define NS_PER_S 1000000000ull

static const struct {
	const char *name;
	int metric;
	bool slope;
} ss_modes[] = {
	{ "iops", SS_IOPS, false },  { "iops_slope", SS_IOPS, true }, { "bw", SS_BW, false },
	{ "bw_slope", SS_BW, true }, { "lat", SS_LAT, false },	      { "lat_slope", SS_LAT, true },
};

/* A decimal number, all of s, 0 or more. */
static int parse_number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || !isfinite(*v) || *v < 0 ? -EINVAL : 0;
}

/* LIMIT of mode metric into fileio_files(job)->steady.ss_limit (ss_pct for N%). */
static int parse_limit(struct job *job, const char *s)
{
	const size_t len = strlen(s);
	uint64_t v;
	char num[64];

	if (len && s[len - 1] == '%') {
		snprintf(num, sizeof(num), "%.*s", (int)(len - 1), s);
		fileio_files(job)->steady.ss_pct = true;
		return parse_number(num, &fileio_files(job)->steady.ss_limit);
	}
	fileio_files(job)->steady.ss_pct = false;
	if (fileio_files(job)->steady.ss_metric == SS_IOPS)
		return parse_number(s, &fileio_files(job)->steady.ss_limit);
	if (fileio_files(job)->steady.ss_metric == SS_BW ? units_parse_size(s, &v)
							 : units_parse_time(s, 1000, &v))
		return -EINVAL;
	fileio_files(job)->steady.ss_limit = (double)v;
	return 0;
}

static int parse_steadystate(struct job *job, struct dbio_err *err)
{
	const char *s = fileio_files(job)->steady.steadystate, *colon = strchr(s, ':');
	const size_t mode_len = colon ? (size_t)(colon - s) : strlen(s);
	size_t m;

	for (m = 0; m < sizeof(ss_modes) / sizeof(ss_modes[0]); m++)
		if (strlen(ss_modes[m].name) == mode_len && !strncmp(ss_modes[m].name, s, mode_len))
			break;
	if (m == sizeof(ss_modes) / sizeof(ss_modes[0]))
		return job_fail(job, "steadystate", err, "bad value '%s': unknown mode '%.*s': expected %s",
				s, (int)mode_len, s, SS_FORMS);
	fileio_files(job)->steady.ss_metric = ss_modes[m].metric;
	fileio_files(job)->steady.ss_slope = ss_modes[m].slope;
	if (!colon || !colon[1])
		return job_fail(job, "steadystate", err,
				"bad value '%s': a limit is needed after the mode, as in fio: expected %s", s,
				SS_FORMS);
	if (parse_limit(job, colon + 1))
		return job_fail(job, "steadystate", err, "bad value '%s': bad limit '%s': expected %s", s,
				colon + 1, SS_FORMS);
	return 0;
}

int job_validate_steady(struct job *job, struct dbio_err *err)
{
	int rc = parse_steadystate(job, err);
	char dur[32], iv[32];

	if (rc || !fileio_files(job)->steady.ss_dur_ns)
		return rc;
	if (fileio_files(job)->steady.ss_interval_ns < NS_PER_S)
		return job_fail(
			job, "steadystate_check_interval", err, "%s: too short: at least 1 s, as in fio",
			units_fmt_ns(iv, sizeof(iv), (double)fileio_files(job)->steady.ss_interval_ns));
	if (fileio_files(job)->steady.ss_dur_ns % fileio_files(job)->steady.ss_interval_ns ||
	    fileio_files(job)->steady.ss_dur_ns / fileio_files(job)->steady.ss_interval_ns < 2)
		return job_fail(
			job, "steadystate_duration", err,
			"%s: expected a whole number of at least 2 steadystate_check_interval (%s), as in fio: the window holds one sample per interval",
			units_fmt_ns(dur, sizeof(dur), (double)fileio_files(job)->steady.ss_dur_ns),
			units_fmt_ns(iv, sizeof(iv), (double)fileio_files(job)->steady.ss_interval_ns));
	if (fileio_files(job)->steady.ss_dur_ns / fileio_files(job)->steady.ss_interval_ns > 100000)
		return job_fail(
			job, "steadystate_duration", err,
			"%s: too long: at most 100000 samples (steadystate_check_interval %s)",
			units_fmt_ns(dur, sizeof(dur), (double)fileio_files(job)->steady.ss_dur_ns),
			units_fmt_ns(iv, sizeof(iv), (double)fileio_files(job)->steady.ss_interval_ns));
	if (job->numjobs > 1 && !job->group_reporting)
		return job_fail(
			job, "steadystate_duration", err,
			"with numjobs=%llu and no group_reporting fio judges each thread alone, which dbio does not do: it judges a job's threads together, as fio does with group_reporting; add group_reporting",
			(unsigned long long)job->numjobs);
	return 0;
}

int job_check_steady_pair(const struct job *a, const struct job *b, struct dbio_err *err)
{
	if (fileio_files(a)->steady.ss_dur_ns && fileio_files(b)->steady.ss_dur_ns &&
	    fileio_files(a)->steady.ss_interval_ns != fileio_files(b)->steady.ss_interval_ns)
		return job_fail(b, "steadystate_check_interval", err,
				"differs from job '%s': fio takes one check interval for every job", a->name);
	if (a->groupid != b->groupid)
		return 0;
	if (fileio_files(a)->steady.ss_dur_ns != fileio_files(b)->steady.ss_dur_ns ||
	    (fileio_files(a)->steady.ss_dur_ns &&
	     (fileio_files(a)->steady.ss_ramp_ns != fileio_files(b)->steady.ss_ramp_ns ||
	      fileio_files(a)->steady.ss_metric != fileio_files(b)->steady.ss_metric ||
	      fileio_files(a)->steady.ss_slope != fileio_files(b)->steady.ss_slope ||
	      fileio_files(a)->steady.ss_pct != fileio_files(b)->steady.ss_pct ||
	      fileio_files(a)->steady.ss_limit != fileio_files(b)->steady.ss_limit)))
		return job_fail(
			b, job_is_set(b, "steadystate_duration") ? "steadystate_duration" : "steadystate",
			err,
			"differs from job '%s' of the same reporting group: as fio, the jobs of a group must agree on steadystate, steadystate_duration and steadystate_ramp_time (or start a new group: new_group, stonewall)",
			a->name);
	return 0;
}
