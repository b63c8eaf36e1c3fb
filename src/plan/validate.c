/*
 * Validation of a job before anything is written; see plan.h. The order
 * is: the name, which workload and engine the job is, whether every key
 * given for it is its own, the engine's checks, the job's own checks, then
 * the workload's. Every failure names where the offending key was given.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "plan/fio_keys.h"
#include "plan/plan.h"
#include "util/fault.h"
#include "util/numa.h"
#include "util/termesc.h"
#include "util/units.h"
#include "workload/workload.h"
#include "workload/fileio/files.h"

/* Whether the part of table t (OPTION_SCOPE_PART) is job's: job is of the
 * part's workload and its value of the part's key is the part's. */
static bool part_is_jobs(const struct job *job, const struct plan_table *t)
{
	const struct job_keys *keys;
	const struct option_def *def;
	char value[128];

	if (strcmp(t->part_of, job->wl->name) || !(def = job_find(job, t->part_key, &keys)))
		return false;
	option_format(job_keys_base(job, keys), def, value, sizeof(value));
	return !strcmp(value, t->owner);
}

/* Which of job's tables are its own, now that its workload and engine are
 * known. */
static void mark_applies(struct job *job)
{
	for (size_t t = 0; t < job->nkeys; t++) {
		struct job_keys *k = &job->keys[t];
		struct plan_table pt;

		switch (k->scope) {
		case OPTION_SCOPE_JOB:
			k->applies = true;
			break;
		case OPTION_SCOPE_FILES:
			k->applies = job->eng != NULL;
			break;
		case OPTION_SCOPE_WORKLOAD:
			k->applies = !strcmp(k->owner, job->wl->name) ||
				     (job->wl->borrows && !strcmp(k->owner, job->wl->borrows));
			if (!strcmp(k->owner, job->wl->name))
				job->wl_conf = k->conf;
			break;
		case OPTION_SCOPE_ENGINE:
			k->applies = job->eng && !strcmp(k->owner, job->eng->name);
			if (k->applies)
				job->eng_conf = k->conf;
			break;
		case OPTION_SCOPE_PART: /* job->keys[t] was made from table t */
			k->applies = plan_table_at(t, &pt) && part_is_jobs(job, &pt);
			break;
		}
	}
}

/* Whether key is set in one of job's own tables. */
static bool set_in_own(const struct job *job, const char *key)
{
	for (size_t t = 0; t < job->nkeys; t++) {
		const struct job_keys *k = &job->keys[t];
		const struct option_def *def = option_table_find(k->table, key);

		if (def && k->applies && k->state[def - k->table->defs].set)
			return true;
	}
	return false;
}

/* "workload=kv" or "workload=kv, which does no file I/O": what the job is,
 * for a key of scope that is not its own. */
static void job_is(const struct job *job, size_t table, enum option_scope scope, char *buf, size_t len)
{
	const struct job_keys *keys;
	const struct option_def *def;
	struct plan_table pt;

	if (scope == OPTION_SCOPE_PART && plan_table_at(table, &pt) && !strcmp(pt.part_of, job->wl->name) &&
	    (def = job_find(job, pt.part_key, &keys))) {
		char value[128];

		option_format(job_keys_base(job, keys), def, value, sizeof(value));
		snprintf(buf, len, "%s=%s", pt.part_key, value);
	} else if (scope == OPTION_SCOPE_ENGINE && job->eng)
		snprintf(buf, len, "ioengine=%s", job->eng->name);
	else if (scope == OPTION_SCOPE_ENGINE || scope == OPTION_SCOPE_FILES)
		snprintf(buf, len, "workload=%s, which does no file I/O", job->wl->name);
	else
		snprintf(buf, len, "workload=%s", job->wl->name);
}

/* A key given for this job alone that belongs to another workload or
 * engine is an error; one given for several jobs at once is left to
 * plan_check_shared. */
static int check_ownership(const struct job *job, struct dbio_err *err)
{
	for (size_t t = 0; t < job->nkeys; t++) {
		const struct job_keys *k = &job->keys[t];

		for (size_t d = 0; !k->applies && d < k->table->count; d++) {
			const char *key = k->table->defs[d].name;
			char owners[256], is[128];

			if (!k->state[d].set || k->state[d].origin.shared || set_in_own(job, key))
				continue;
			plan_owners(key, owners, sizeof(owners));
			job_is(job, t, k->scope, is, sizeof(is));
			return job_fail(job, key, err, "belongs to %s; this job is %s", owners, is);
		}
	}
	return 0;
}

int plan_engine_refusal(const struct job *job, const char *engines, struct dbio_err *err)
{
	const char *why = fio_engine_reason(fileio_files(job)->layout.ioengine);

	if (!why)
		return job_fail_choice(job, "ioengine", fileio_files(job)->layout.ioengine, engines, err);
	return job_fail(job, "ioengine", err, "'%s' is %s; dbio's engines are %s",
			fileio_files(job)->layout.ioengine, why, engines);
}

/* The workload and, for one that lays out files, the engine. */
static int resolve(struct job *job, struct dbio_err *err)
{
	char list[256];

	if (!(job->wl = workload_find(job->workload))) {
		workload_list(list, sizeof(list));
		return job_fail_choice(job, "workload", job->workload, list, err);
	}
	job->eng = NULL;
	if (job->wl->caps & WORKLOAD_CAP_FILES) {
		if (!(job->eng = engine_find(fileio_files(job)->layout.ioengine))) {
			engine_list(list, sizeof(list));
			return plan_engine_refusal(job, list, err);
		}
	}
	mark_applies(job);
	return check_ownership(job, err);
}

/* What the file workloads ask of their engine. */
static int check_engine(struct job *job, struct dbio_err *err)
{
	const struct engine_ops *eng = job->eng;
	struct engine_conf conf;
	const char *why;

	if (fileio_files(job)->layout.rw == RW_REWRITE && (eng->caps & ENGINE_CAP_QUEUE))
		return job_fail(
			job, "rw", err,
			"rewrite with ioengine=%s: each block is read, then written back, one after the "
			"other; use ioengine=psync, sync or mmap",
			eng->name);
	if (fileio_files(job)->layout.iodepth > 1 && eng->queued) /* null: fio's queues */
		job->eng = eng = eng->queued;
	/* As fio: a synchronous engine runs at depth 1, and says so. */
	const bool capped = fileio_files(job)->layout.iodepth > 1 && !(eng->caps & ENGINE_CAP_QUEUE);

	if (capped)
		fileio_files(job)->layout.iodepth = 1;
	if (job_parse_sync_file_range(job, err))
		return err->code;
	workload_engine_conf(job, &conf);
	if (eng->check && (why = eng->check(&conf)))
		return job_fail(job, "ioengine", err, "%s", why);
	if (job_validate_trims(job, eng->caps & ENGINE_CAP_TRIM, eng->name, err) ||
	    job_validate_numa(job, NUMA_SYSFS_DIR, err))
		return err->code;
	job->engine_warning = eng->warn ? eng->warn(&conf) : NULL;
	if (capped && !job->engine_warning)
		job->engine_warning =
			"iodepth > 1 with a synchronous engine: the queue depth is capped at 1, as fio caps it (\"note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1\"); for I/O in flight use a queued engine (dbio --version lists them)";
	return 0;
}

/* The keys of every job. */
static int check_job(struct job *job, struct dbio_err *err)
{
	char a[32];

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
	if (job_is_set(job, "cache"))
		job->invalidate = job->cache != CACHE_KEEP;
	else
		job->cache = job->invalidate ? CACHE_FADVISE : CACHE_KEEP;
	if (job->mem_limit && job->mem_limit < (4u << 20))
		return job_fail(job, "mem_limit", err,
				"%s is too small to run anything: give at least 4m, or 0 for no limit",
				units_fmt_bytes(a, sizeof(a), job->mem_limit));
	/* mem_limit's threads run in a child process in the cgroup: bpftrace,
	 * started beside them, would run and be charged under the limit */
	if (job->trace == TRACE_MODE_BLOCK && job->mem_limit)
		return job_fail(
			job, "trace", err,
			"block cannot be used with mem_limit (bpftrace would run under the job's memory limit): give one of them");
	return 0;
}

/* DBIO_FAULT (util/fault.h) injects faults into dbio_sys only: a job
 * whose reads, writes or syncs go elsewhere would run as if it were not
 * set, and a test would pass that tested nothing. */
static int check_fault(struct job *job, struct dbio_err *err)
{
	const bool io = fault_on(FAULT_OP_READ) || fault_on(FAULT_OP_WRITE), sync = fault_on(FAULT_OP_FSYNC);
	const unsigned caps = job->eng ? job->eng->caps : 0;

	if ((io || sync) && (job->wl->caps & WORKLOAD_CAP_LIBRARY_IO))
		return job_fail(
			job, "workload", err,
			"%s=%s cannot reach workload=%s: its database library or server reads, writes and syncs by itself, not through dbio's syscall table; fault only open there",
			FAULT_ENV, fault_spec(), job->wl->name);
	if ((io && (caps & ENGINE_CAP_OWN_IO)) || (sync && (caps & ENGINE_CAP_OWN_SYNC)))
		return job_fail(
			job, "ioengine", err,
			"%s=%s cannot reach ioengine=%s: its %s do not go through dbio's syscall table; use ioengine=sync, psync or pvsync2",
			FAULT_ENV, fault_spec(), job->eng->name,
			io && (caps & ENGINE_CAP_OWN_IO) ? "reads and writes" : "syncs");
	return 0;
}

/* stonewall_s and stonewall_wearout: a stonewall after the ramp, for a
 * workload whose threads stop at one. */
static int check_stonewall(const struct job *job, struct dbio_err *err)
{
	char a[32], b[32];

	if (job_is_set(job, "stonewall_s") && !job->stonewall_ns)
		return job_fail(
			job, "stonewall_s", err,
			"must be more than 0: a duration such as 10 or 10s (seconds), 500ms; leave it out for no stonewall");
	if (job->stonewall_wearout && !job->stonewall_ns)
		return job_fail(
			job, "stonewall_wearout", err,
			"needs stonewall_s: the wear-out starts at the stonewall, e.g. stonewall_s=10s");
	if (job->stonewall_ns && !(job->wl->caps & WORKLOAD_CAP_STONEWALL))
		return job_fail(job, job_is_set(job, "stonewall_s") ? "stonewall_s" : "stonewall_wearout",
				err, "not for workload=%s: only workload=fileio stops its I/O at a stonewall",
				job->wl->name);
	if (job->stonewall_ns && job->stonewall_ns <= job->ramp_ns)
		return job_fail(
			job, "stonewall_s", err,
			"%s is within ramp_time=%s: the stonewall counts from the start, ramp included, and would stop the job before it measured anything",
			units_fmt_ns(a, sizeof(a), job->stonewall_ns),
			units_fmt_ns(b, sizeof(b), job->ramp_ns));
	return 0;
}

/* repeat_max, repeat_ci and repeat_time: the caps of repeat=auto alone. */
static int check_repeat(const struct job *job, struct dbio_err *err)
{
	static const char *const keys[] = { "repeat_max", "repeat_ci", "repeat_time" };

	for (size_t i = 0; job->repeat && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (job_is_set(job, keys[i]))
			return job_fail(
				job, keys[i], err,
				"only with repeat=auto, not repeat=%llu: it caps the runs repeat=auto makes",
				(unsigned long long)job->repeat);
	return 0;
}

int plan_validate(struct job *job, struct dbio_err *err)
{
	int rc;

	if (!job->name[0])
		snprintf(job->name, sizeof(job->name), "job");
	if (strchr(job->name, '/'))
		return job_fail(job, "name", err, "bad value '%s': expected a name without '/'", job->name);
	/* Names reach the terminal (progress line, reports) and file names. */
	if (termesc_needed(job->name))
		return job_fail(job, "name", err,
				"bad value '%s': expected a name of UTF-8 text without control characters",
				job->name);
	if ((rc = plan_fio_meta(job, err)) || (rc = resolve(job, err)) ||
	    (job->eng && (rc = check_engine(job, err))) || (rc = check_fault(job, err)) ||
	    (rc = check_job(job, err)) || (rc = check_stonewall(job, err)) || (rc = check_repeat(job, err)))
		return rc;
	if (job->wl->validate)
		return job->wl->validate(job, err);
	return job->eng ? job_validate_files(job, err) : 0;
}

/* Whether some job of set has key, given at origin, among its own keys. */
static bool applies_somewhere(const struct jobset *set, const char *key, const struct job_origin *origin)
{
	for (size_t j = 0; j < set->njobs; j++) {
		const struct job *job = &set->jobs[j];

		for (size_t t = 0; t < job->nkeys; t++) {
			const struct job_keys *k = &job->keys[t];
			const struct option_def *def = option_table_find(k->table, key);
			const struct job_key_state *st = def ? &k->state[def - k->table->defs] : NULL;

			if (st && k->applies && st->set && st->origin.file == origin->file &&
			    st->origin.line == origin->line)
				return true;
		}
	}
	return false;
}

int plan_check_shared(const struct jobset *set, struct dbio_err *err)
{
	for (size_t j = 0; j < set->njobs; j++) {
		const struct job *job = &set->jobs[j];

		for (size_t t = 0; t < job->nkeys; t++) {
			const struct job_keys *k = &job->keys[t];

			for (size_t d = 0; !k->applies && d < k->table->count; d++) {
				const char *key = k->table->defs[d].name;
				char owners[256], where[4200];

				if (!k->state[d].set || !k->state[d].origin.shared ||
				    applies_somewhere(set, key, &k->state[d].origin))
					continue;
				plan_owners(key, owners, sizeof(owners));
				job_where(&k->state[d].origin, where, sizeof(where));
				return dbio_err_set(err, DBIO_EINPUT,
						    "%s: key '%s': belongs to %s; no job it was given to is",
						    where, key, owners);
			}
		}
	}
	return 0;
}
