/* Job defaults, validation and the jobset container; see job.h. */
#include "job/job.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "workload/workload.h"
#include "job/option.h"
#include "util/built.h"
#include "util/termesc.h"
#include "util/units.h"

void job_defaults(struct job *job, const char *name)
{
	struct dbio_err err = { 0 };

	memset(job, 0, sizeof(*job));
	for (size_t i = 0; i < option_count; i++)
		option_set(job, option_table[i].name, option_table[i].def, NULL, &err);
	/* The table's defaults are parsed like user input; a bad one is a bug
	 * that the option unit test catches. */
	job->set_mask = 0;
	memset(job->origin, 0, sizeof(job->origin));
	snprintf(job->name, sizeof(job->name), "%s", name);
}

bool job_is_set(const struct job *job, const char *key)
{
	return job->set_mask & (1ull << option_index(option_find(key)));
}

int job_fail(const struct job *job, const char *key, struct dbio_err *err, const char *fmt, ...)
{
	const struct option_def *def = option_find(key);
	const struct job_origin *origin = &job->section;
	char where[4200], what[600];
	va_list ap;

	if (job_is_set(job, key))
		origin = &job->origin[option_index(def)];
	option_where(origin, where, sizeof(where));
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return dbio_err_set(err, DBIO_EINPUT, "%s: key '%s': %s (job '%s')", where, key, what, job->name);
}

int job_fail_choice(const struct job *job, const char *key, const char *value, const char *choices,
		    struct dbio_err *err)
{
	const char *pkg = built_missing_package(key, value);

	if (pkg)
		return job_fail(job, key, err,
				"'%s' is not in this build of dbio: install %s and build dbio again", value,
				pkg);
	return job_fail(job, key, err, "bad value '%s': expected one of %s", value, choices);
}

bool job_reads(const struct job *job)
{
	return job->rw != RW_WRITE && job->rw != RW_RANDWRITE;
}

bool job_writes(const struct job *job)
{
	return job->rw != RW_READ && job->rw != RW_RANDREAD;
}

bool job_is_random(const struct job *job)
{
	return job->rw == RW_RANDREAD || job->rw == RW_RANDWRITE || job->rw == RW_RANDRW;
}

/* random_distribution: "random", "zipf:THETA" or "pareto:H". */
static int parse_distribution(struct job *job, struct dbio_err *err)
{
	const char *v = job->random_distribution;
	char *end;

	job->dist = DIST_UNIFORM;
	if (!strcmp(v, "random"))
		return 0;
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
		"bad value '%s': expected random, zipf:THETA (0 < THETA <= 10) or pareto:H (0 < H < 1)", v);
}

/* sync_file_range: "" or FLAGS:N, FLAGS a comma list of wait_before, write
 * and wait_after (fio's form). */
static int parse_sync_file_range(struct job *job, struct dbio_err *err)
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

int job_validate(struct job *job, struct dbio_err *err)
{
	char a[32];

	if (!job->name[0])
		snprintf(job->name, sizeof(job->name), "job");
	if (strchr(job->name, '/'))
		return job_fail(job, "name", err, "bad value '%s': expected a name without '/'", job->name);
	/* Names reach the terminal (progress line, reports) and file names. */
	if (termesc_needed(job->name))
		return job_fail(job, "name", err,
				"bad value '%s': expected a name of UTF-8 text without control characters",
				job->name);
	const struct engine_ops *eng = engine_find(job->ioengine);

	if (!eng) {
		char list[256];

		engine_list(list, sizeof(list));
		return job_fail_choice(job, "ioengine", job->ioengine, list, err);
	}
	if (job->rw == RW_REWRITE && (eng->caps & ENGINE_CAP_QUEUE))
		return job_fail(
			job, "rw", err,
			"rewrite with ioengine=%s: each block is read, then written back, one after the "
			"other; use ioengine=psync, sync or mmap",
			eng->name);
	if (job->iodepth > 1 && !(eng->caps & ENGINE_CAP_QUEUE))
		return job_fail(
			job, "iodepth", err,
			"%llu with ioengine=%s, which keeps one I/O in flight: use iodepth=1, or ioengine=io_uring or libaio",
			(unsigned long long)job->iodepth, eng->name);
	if (parse_sync_file_range(job, err))
		return err->code;
	if (eng->check) {
		const struct engine_conf conf = { .iodepth = (unsigned)job->iodepth,
						  .direct = job->direct,
						  .writable = job_writes(job),
						  .registerfiles = job->registerfiles,
						  .fixedbufs = job->fixedbufs,
						  .hipri = job->hipri,
						  .sync_file_range = job->sfr_every > 0 };
		const char *why = eng->check(&conf);

		if (why)
			return job_fail(job, "ioengine", err, "%s", why);
	}
	if (job->time_based && job->runtime_ns == 0)
		return job_fail(job, "time_based", err, "needs a runtime, e.g. runtime=30s");
	if (!job->directory[0])
		return job_fail(job, "directory", err,
				"empty: expected one or more directories separated by ':'");
	for (const char *p = job->directory; *p; p++)
		if (*p == ':' && (p == job->directory || p[1] == ':' || p[1] == '\0'))
			return job_fail(job, "directory", err,
					"bad value '%s': an empty directory between ':' separators",
					job->directory);

	if (!job->randrepeat && !job_is_set(job, "randseed")) {
		/* A fresh seed per run of dbio, recorded in the result's
		 * options so the run can still be repeated. */
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		job->randseed = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) & INT64_MAX;
	}
	if (parse_distribution(job, err))
		return err->code;
	if (job_is_set(job, "cache"))
		job->invalidate = job->cache != CACHE_KEEP;
	else
		job->cache = job->invalidate ? CACHE_FADVISE : CACHE_KEEP;

	if (job->mem_limit && job->mem_limit < (4u << 20))
		return job_fail(job, "mem_limit", err,
				"%s is too small to run anything: give at least 4m, or 0 for no limit",
				units_fmt_bytes(a, sizeof(a), job->mem_limit));
	const struct workload_ops *wl = workload_find(job->workload);

	if (!wl) {
		char list[256];

		workload_list(list, sizeof(list));
		return job_fail_choice(job, "workload", job->workload, list, err);
	}
	if (wl->validate)
		return wl->validate(job, err);
	return job_validate_files(job, err);
}

int job_validate_files(struct job *job, struct dbio_err *err)
{
	char a[32], b[32];

	if (job->size == 0 && job->filesize == 0)
		return job_fail(job, "size", err,
				"missing: give size= (bytes of I/O) or filesize= (bytes per file)");
	if (job->filesize == 0) {
		/* Round up to whole blocks, so the files hold all of size. */
		uint64_t per_file = job->size / job->nrfiles + (job->size % job->nrfiles != 0);

		job->filesize = (per_file + job->bs - 1) / job->bs * job->bs;
	}
	if (job->size == 0)
		job->size = job->filesize * job->nrfiles;
	if (job->filesize < job->bs)
		return job_fail(
			job, job_is_set(job, "filesize") ? "filesize" : "size", err,
			"each file would hold %s, less than one block (bs=%s); make size at least bs * nrfiles",
			units_fmt_bytes(a, sizeof(a), job->filesize), units_fmt_bytes(b, sizeof(b), job->bs));
	if (job->filesize / job->bs > UINT64_MAX / job->nrfiles)
		return job_fail(job, "nrfiles", err, "too many blocks in all");
	uint64_t space = job->filesize / job->bs * job->bs * job->nrfiles;

	if (job->size > space)
		return job_fail(job, "size", err,
				"%s is more than the files hold (%s = nrfiles * filesize in whole blocks)",
				units_fmt_bytes(a, sizeof(a), job->size),
				units_fmt_bytes(b, sizeof(b), space));
	if (job->size < job->bs)
		return job_fail(job, "size", err, "%s is less than one block (bs=%s)",
				units_fmt_bytes(a, sizeof(a), job->size),
				units_fmt_bytes(b, sizeof(b), job->bs));
	if (job->share_files && job->size / job->bs < job->numjobs)
		return job_fail(job, "numjobs", err,
				"%llu threads share %llu blocks: each needs at least one",
				(unsigned long long)job->numjobs, (unsigned long long)(job->size / job->bs));
	if (job->direct && job->bs % 512)
		return job_fail(
			job, "bs", err,
			"%llu is not a multiple of 512, which direct=1 needs (the device's logical block size)",
			(unsigned long long)job->bs);
	if (job->direct && job->filesize % 512)
		return job_fail(job, "filesize", err, "%llu is not a multiple of 512, which direct=1 needs",
				(unsigned long long)job->filesize);
	return 0;
}

int jobset_add(struct jobset *set, const struct job *job)
{
	struct job *jobs = realloc(set->jobs, (set->njobs + 1) * sizeof(*jobs));

	if (!jobs)
		return -ENOMEM;
	set->jobs = jobs;
	set->jobs[set->njobs++] = *job;
	return 0;
}

void jobset_release(struct jobset *set)
{
	for (size_t i = 0; i < set->nfiles; i++)
		free(set->files[i]);
	free(set->files);
	free(set->jobs);
	memset(set, 0, sizeof(*set));
}

int job_split_dirs(const char *spec, char ***out)
{
	char *copy = strdup(spec), *save = NULL;
	char **dirs = NULL;
	int n = 0;

	if (!copy)
		return -ENOMEM;
	for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char **grown = realloc(dirs, (size_t)(n + 1) * sizeof(*dirs));

		if (!grown || !(grown[n] = strdup(tok))) {
			free(grown ? grown : dirs);
			free(copy);
			return -ENOMEM;
		}
		dirs = grown;
		n++;
	}
	free(copy);
	*out = dirs;
	return n;
}

uint64_t job_work_items(const struct job *job)
{
	if (!strcmp(job->workload, "kv"))
		return job->records;
	if (!strcmp(job->workload, "import"))
		return job->rows;
	return 0;
}
