/* fio's log files of a group's threads; see logs.h. */
#include "run/logs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "workload/fileio/check_logs.h"
#include "stats/iolog.h"
#include "util/atomic.h"
#include "workload/fileio/files.h"

#define HINT_MAX (1u << 20) /* records reserved per thread at most; more are grown */

/* The kinds of log each key writes. */
static const struct {
	const char *key;
	enum iolog_kind kinds[3];
	unsigned nkinds;
} keys[] = {
	{ "write_lat_log", { IOLOG_LAT, IOLOG_CLAT, IOLOG_SLAT }, 3 },
	{ "write_bw_log", { IOLOG_BW }, 1 },
	{ "write_iops_log", { IOLOG_IOPS }, 1 },
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

/* The path of the log of keys[k]'s i-th kind of job's thread t (from 0);
 * false when the job does not write it. */
static bool log_path(const struct job *job, size_t k, unsigned i, uint64_t t, char *buf, size_t len)
{
	const char *name = job_log_name(job, keys[k].key);

	return name && job_log_path(job, name, iolog_kind_name(keys[k].kinds[i]),
				    fileio_files(job)->pacing.thread_base + t + 1, buf, len);
}

int run_logs_check(const struct jobset *set, struct dbio_err *err)
{
	char path[4096];

	for (size_t j = 0; j < set->njobs; j++) {
		const struct job *job = &set->jobs[j];

		for (size_t k = 0; fileio_files(job)->logs.nlogs && k < NKEYS; k++)
			for (unsigned i = 0; i < keys[k].nkinds; i++)
				for (uint64_t t = 0; t < job->numjobs; t++) {
					int rc;

					if (!log_path(job, k, i, t, path, sizeof(path)))
						continue;
					if ((rc = atomic_write_check(keys[k].key, path, err)))
						return rc;
				}
	}
	return 0;
}

int run_logs_assign(struct worker *w, const struct job *job)
{
	uint64_t hint = fileio_files(job)->logs.log_entries;

	if (!fileio_files(job)->logs.nlogs)
		return 0;
	if (!fileio_files(job)->logs.log_avg_msec && !job->time_based && w->ops_total > hint)
		hint = w->ops_total + 1; /* a record per I/O, reserved */
	else if (fileio_files(job)->logs.log_avg_msec && job->runtime_ns)
		hint = 2 *
		       ((job->ramp_ns + job->runtime_ns) / 1000000 / fileio_files(job)->logs.log_avg_msec +
			2);
	if (!(w->iolog = malloc(sizeof(*w->iolog))))
		return -ENOMEM;
	if (iolog_init(w->iolog, fileio_files(job)->logs.log_avg_msec,
		       hint > HINT_MAX ? HINT_MAX : (size_t)hint, &w->start_ns)) {
		free(w->iolog);
		w->iolog = NULL;
		return -ENOMEM;
	}
	return 0;
}

void run_logs_release(struct worker *w)
{
	if (!w->iolog)
		return;
	iolog_release(w->iolog);
	free(w->iolog);
	w->iolog = NULL;
}

static uint64_t clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* How w's logs are written: the columns, and the time of its start on
 * the clock of log_unix_epoch or log_alternate_epoch. */
static struct iolog_format log_format(const struct worker *w)
{
	const struct job *job = w->job;
	struct iolog_format fmt = { .offset = fileio_files(job)->logs.log_offset,
				    .prio = fileio_files(job)->logs.log_prio,
				    .issue_time = fileio_files(job)->logs.log_issue_time,
				    .window_value = fileio_files(job)->logs.log_max_value,
				    .slat = (job->eng->caps & ENGINE_CAP_QUEUE) != 0 };
	const uint64_t mono_ms = clock_ms(CLOCK_MONOTONIC), start_ms = w->start_ns / 1000000;

	if (fileio_files(job)->logs.log_unix_epoch)
		fmt.base_ms += clock_ms(CLOCK_REALTIME) - (mono_ms - start_ms);
	if (fileio_files(job)->logs.log_alternate_epoch)
		fmt.base_ms += clock_ms((clockid_t)fileio_files(job)->logs.log_alternate_epoch_clock_id) -
			       (mono_ms - start_ms);
	return fmt;
}

/* Whether a slot before s already wrote path (per_job_logs=0, or jobs of
 * the group naming the same file). */
static bool written_before(struct run_group *g, size_t s, const char *path)
{
	char other[4096];

	for (size_t o = 0; o < s; o++) {
		const struct worker *w = &g->slots[o].w;

		for (size_t k = 0; w->iolog && k < NKEYS; k++)
			for (unsigned i = 0; i < keys[k].nkinds; i++)
				if (log_path(w->job, k, i, w->index, other, sizeof(other)) &&
				    !strcmp(other, path))
					return true;
	}
	return false;
}

/* The file at path: the lines of every thread from slot s on whose log of
 * a kind has that path, thread by thread. */
static int write_file(struct run_group *g, size_t s, const char *path, struct dbio_err *err)
{
	char *buf = NULL, other[4096];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = f ? 0 : dbio_err_set(err, -ENOMEM, "%s: out of memory for the log", path);

	for (size_t o = s; !rc && o < g->started; o++) {
		const struct worker *w = &g->slots[o].w;
		const struct iolog_format fmt = log_format(w);

		for (size_t k = 0; w->iolog && !rc && k < NKEYS; k++)
			for (unsigned i = 0; !rc && i < keys[k].nkinds; i++)
				if (log_path(w->job, k, i, w->index, other, sizeof(other)) &&
				    !strcmp(other, path) && iolog_write(w->iolog, keys[k].kinds[i], &fmt, f))
					rc = dbio_err_set(err, -ENOMEM, "%s: out of memory for the log",
							  path);
		if (!rc && w->iolog && w->iolog->lost)
			rc = dbio_err_set(err, -ENOMEM,
					  "%s: %llu log lines of job '%s' thread %u found no memory", path,
					  (unsigned long long)w->iolog->lost, w->job->name, w->index);
	}
	if (f && fclose(f) && !rc)
		rc = dbio_err_set(err, -ENOMEM, "%s: out of memory for the log", path);
	if (!rc)
		rc = atomic_write(path, buf ? buf : "", len, err);
	free(buf);
	return rc;
}

int run_logs_write(struct run_group *g, struct dbio_err *err)
{
	char path[4096];

	for (size_t s = 0; s < g->started; s++)
		if (g->slots[s].w.iolog)
			iolog_finish(g->slots[s].w.iolog, g->slots[s].w.end_ns);
	for (size_t s = 0; s < g->started; s++) {
		const struct worker *w = &g->slots[s].w;

		for (size_t k = 0; w->iolog && k < NKEYS; k++)
			for (unsigned i = 0; i < keys[k].nkinds; i++) {
				int rc;

				if (!log_path(w->job, k, i, w->index, path, sizeof(path)) ||
				    written_before(g, s, path))
					continue;
				if ((rc = write_file(g, s, path, err)))
					return rc;
			}
	}
	return 0;
}
