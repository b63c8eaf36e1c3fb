/*
 * Unit tests for the option tables and job model (src/job/option.h, job.h,
 * src/plan/plan.h): every row of every table of the build is well formed
 * and its default parses to what plan_job_init holds; job_set's parsing,
 * exact error texts and recorded origins; plan_suggest; plan_validate's
 * checks, derived sizes and the refusal of keys that belong to another
 * workload or engine. Also walks the engine registry (src/engine/engine.h)
 * and the command registry (src/cmd/cmd.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cmd/cmd.h"
#include "engine/engine.h"
#include "job/job.h"
#include "job/option.h"
#include "plan/plan.h"
#include "workload/fileio/files.h"

#define NS_PER_S 1000000000ull

/* Every job a test makes with fresh(), released after the test. */

/* The workloads that have a key batch besides kv: import (SQLite) and
 * postgres (libpq), as this build has them. */
#if defined(DBIO_HAVE_SQLITE3) && defined(DBIO_HAVE_LIBPQ)
#define BATCH_OWNERS " and import and postgres"
#define BATCH_TABLES 3
#elif defined(DBIO_HAVE_SQLITE3)
#define BATCH_OWNERS " and import"
#define BATCH_TABLES 2
#else
#define BATCH_OWNERS " and postgres"
#define BATCH_TABLES 2
#endif
static struct job made[256];
static size_t nmade;

/* job, made anew with every table of the build at its defaults. */
static void fresh(struct job *job, const char *name)
{
	assert_int_equal(plan_job_init(job, name), 0);
	assert_true(nmade < sizeof(made) / sizeof(made[0]));
	made[nmade++] = *job; /* the tables stay where they are */
}

static int release_made(void **state)
{
	(void)state;
	while (nmade)
		job_release(&made[--nmade]);
	return 0;
}

/* Whether any key of job is set. */
static bool any_set(const struct job *job)
{
	for (size_t t = 0; t < job->nkeys; t++)
		for (size_t d = 0; d < job->keys[t].table->count; d++)
			if (job->keys[t].state[d].set)
				return true;
	return false;
}

static const char size_accepted[] =
	"a size from 1 B to 1 GiB with an optional k, m, g or t suffix (binary: 1k = 1024), e.g. 4k";

/* Set key=value on job from the command line; the call must succeed. */
static void set_ok(struct job *job, const char *key, const char *value)
{
	struct dbio_err err = { 0 };

	if (job_set(job, key, value, NULL, &err))
		fail_msg("%s=%s: %s", key, value ? value : "(bare)", err.msg);
}

/* option_set must fail with DBIO_EINPUT and exactly msg. */
static void set_fails(const char *key, const char *value, const char *msg)
{
	struct dbio_err err = { 0 };
	struct job job;

	fresh(&job, "job");
	assert_int_equal(job_set(&job, key, value, NULL, &err), DBIO_EINPUT);
	assert_int_equal(err.code, DBIO_EINPUT);
	assert_string_equal(err.msg, msg);
	assert_false(any_set(&job));
}

/* job_validate must fail with DBIO_EINPUT and exactly msg. */
static void validate_fails(struct job *job, const char *msg)
{
	struct dbio_err err = { 0 };

	assert_int_equal(plan_validate(job, &err), DBIO_EINPUT);
	assert_string_equal(err.msg, msg);
}

static void test_option_table_rows_well_formed(void **state)
{
	struct dbio_err err = { 0 };
	struct plan_table t;
	size_t ntables = 0, nkeys = 0;

	(void)state;
	if (plan_check(&err))
		fail_msg("plan_check: %s", err.msg);
	for (size_t i = 0; plan_table_at(i, &t); i++, ntables++) {
		assert_true(t.table->count > 0);
		assert_true(t.table->conf_size > 0);
		assert_true((t.scope == OPTION_SCOPE_WORKLOAD || t.scope == OPTION_SCOPE_ENGINE ||
			     t.scope == OPTION_SCOPE_PART) == (t.owner != NULL));
		assert_true((t.scope == OPTION_SCOPE_PART) == (t.part_key != NULL));
		for (size_t k = 0; k < t.table->count; k++, nkeys++) {
			const struct option_def *def = &t.table->defs[k];

			assert_non_null(def->name);
			assert_non_null(def->def);
			assert_non_null(def->help);
			if (!def->name[0] || !def->help[0])
				fail_msg("option '%s': empty name or help", def->name);
			assert_ptr_equal(option_table_find(t.table, def->name), def);
			assert_true(def->offset < t.table->conf_size);
			if (def->type == OPT_STR && (def->size == 0 || strlen(def->def) >= def->size))
				fail_msg("option '%s': field size %zu for default '%s'", def->name, def->size,
					 def->def);
			if ((def->type == OPT_UINT || def->type == OPT_SIZE || def->type == OPT_TIME) &&
			    def->min > def->max)
				fail_msg("option '%s': min %llu > max %llu", def->name,
					 (unsigned long long)def->min, (unsigned long long)def->max);
			if (def->type == OPT_TIME && def->bare_unit_ns == 0)
				fail_msg("option '%s': no unit for a bare number", def->name);
		}
	}
	assert_true(ntables >= 2);
	assert_true(nkeys >= 40);
	assert_null(plan_find("bsz"));
	assert_null(plan_find(""));
}

static void test_option_enum_defaults_valid(void **state)
{
	struct plan_table t;

	(void)state;
	for (size_t i = 0; plan_table_at(i, &t); i++)
		for (size_t k = 0; k < t.table->count; k++) {
			const struct option_def *def = &t.table->defs[k];
			const struct opt_enum *e;
			int listed = 0;

			if (def->type != OPT_ENUM)
				continue;
			assert_non_null(def->values);
			for (e = def->values; e->name; e++) {
				for (const struct opt_enum *f = def->values; f != e; f++)
					if (!strcmp(f->name, e->name))
						fail_msg("option '%s': value '%s' twice", def->name, e->name);
				if (!strcmp(e->name, def->def)) {
					if (!e->help)
						fail_msg("option '%s': default '%s' is an unlisted alias",
							 def->name, def->def);
					listed = 1;
				}
			}
			if (!listed)
				fail_msg("option '%s': default '%s' is not one of its values", def->name,
					 def->def);
		}
}

static void test_option_defaults_parse(void **state)
{
	struct job defaults, parsed;
	struct plan_table t;
	char a[4200], b[4200];
	size_t ntables = 0;

	(void)state;
	fresh(&defaults, "myjob");
	assert_false(any_set(&defaults));
	assert_string_equal(defaults.name, "myjob");
	while (plan_table_at(ntables, &t))
		ntables++;
	assert_int_equal(defaults.nkeys, ntables);
	for (size_t i = 0; i < defaults.nkeys; i++) {
		const struct job_keys *k = &defaults.keys[i];

		for (size_t d = 0; d < k->table->count; d++) {
			const struct option_def *def = &k->table->defs[d];
			struct dbio_err err = { 0 };

			fresh(&parsed, "x");
			if (job_set(&parsed, def->name, def->def, NULL, &err))
				fail_msg("default of '%s' does not parse: %s", def->name, err.msg);
			assert_true(job_is_set(&parsed, def->name));
			assert_true(parsed.keys[i].state[d].set);
			if (!strcmp(def->name, "name"))
				continue;
			option_format(job_keys_base(&defaults, k), def, a, sizeof(a));
			option_format(job_keys_base(&parsed, &parsed.keys[i]), def, b, sizeof(b));
			if (strcmp(a, b))
				fail_msg("'%s': plan_job_init holds '%s', parsing '%s' gives '%s'", def->name,
					 a, def->def, b);
		}
	}
}

static void test_option_default_values(void **state)
{
	struct job job;
	char buf[64];

	(void)state;
	fresh(&job, "job");
	assert_string_equal(job.directory, "./dbio-scratch");
	assert_string_equal(fileio_files(&job)->layout.ioengine, "psync");
	assert_false(job.stonewall);
	assert_string_equal(job.wait_for, "");
	assert_int_equal(fileio_files(&job)->layout.rw, RW_READ);
	assert_int_equal(fileio_files(&job)->layout.rwmixread, 50);
	assert_int_equal(fileio_files(&job)->layout.bs, 4096);
	assert_int_equal(fileio_files(&job)->layout.size, 0);
	assert_int_equal(fileio_files(&job)->layout.filesize, 0);
	assert_int_equal(fileio_files(&job)->layout.nrfiles, 1);
	assert_int_equal(job.numjobs, 1);
	assert_false(fileio_files(&job)->layout.direct);
	assert_int_equal(fileio_files(&job)->layout.sync, SYNC_NONE);
	assert_int_equal(job.runtime_ns, 0);
	assert_false(job.time_based);
	assert_int_equal(fileio_files(&job)->layout.loops, 1);
	assert_true(job.invalidate);
	assert_int_equal(job.randseed, 24301);
	assert_true(job.randrepeat);
	assert_false(fileio_files(&job)->layout.norandommap);
	assert_int_equal(fileio_files(&job)->layout.fallocate, FALLOC_NATIVE);
	assert_int_equal(fileio_files(&job)->layout.prefill, PREFILL_AUTO);
	assert_false(fileio_files(&job)->layout.share_files);
	assert_int_equal(job.percentiles.n, 0);
	option_format(fileio_files(&job), plan_find("rw"), buf, sizeof(buf));
	assert_string_equal(buf, "read");
	option_format(fileio_files(&job), plan_find("bs"), buf, sizeof(buf));
	assert_string_equal(buf, "4096");
	option_format(&job, plan_find("invalidate"), buf, sizeof(buf));
	assert_string_equal(buf, "1");
}

static void test_option_set_parses_values(void **state)
{
	struct job job;
	char buf[64];

	(void)state;
	fresh(&job, "job");
	set_ok(&job, "bs", "64k");
	assert_int_equal(fileio_files(&job)->layout.bs, 65536);
	set_ok(&job, "size", "2g");
	assert_int_equal(fileio_files(&job)->layout.size, 2147483648ull);
	set_ok(&job, "rw", "randwrite");
	assert_int_equal(fileio_files(&job)->layout.rw, RW_RANDWRITE);
	set_ok(&job, "rw", "rw");
	assert_int_equal(fileio_files(&job)->layout.rw, RW_READWRITE);
	option_format(fileio_files(&job), plan_find("rw"), buf, sizeof(buf));
	assert_string_equal(buf, "readwrite");
	set_ok(&job, "sync", "1");
	assert_int_equal(fileio_files(&job)->layout.sync, SYNC_SYNC);
	set_ok(&job, "runtime", "30");
	assert_int_equal(job.runtime_ns, 30 * NS_PER_S);
	set_ok(&job, "ramp_time", "250ms");
	assert_int_equal(job.ramp_ns, 250000000);
	set_ok(&job, "rwmixread", "100");
	assert_int_equal(fileio_files(&job)->layout.rwmixread, 100);
	set_ok(&job, "rwmixread", "0");
	assert_int_equal(fileio_files(&job)->layout.rwmixread, 0);
	set_ok(&job, "direct", "yes");
	assert_true(fileio_files(&job)->layout.direct);
	set_ok(&job, "direct", "false");
	assert_false(fileio_files(&job)->layout.direct);
	set_ok(&job, "direct", "TRUE");
	assert_true(fileio_files(&job)->layout.direct);
	set_ok(&job, "direct", "0");
	assert_false(fileio_files(&job)->layout.direct);
	set_ok(&job, "invalidate", "no");
	assert_false(job.invalidate);
	set_ok(&job, "directory", "/a:/b");
	assert_string_equal(job.directory, "/a:/b");
	set_ok(&job, "percentile_list", "99.5:99.99");
	assert_int_equal(job.percentiles.n, 2);
	assert_true(job.percentiles.v[0] == 99.5);
	assert_true(job.percentiles.v[1] == 99.99);
	option_format(&job, plan_find("percentile_list"), buf, sizeof(buf));
	assert_string_equal(buf, "99.5:99.99");
	set_ok(&job, "percentile_list", "100");
	assert_int_equal(job.percentiles.n, 1);
	assert_true(job.percentiles.v[0] == 100.0);
	set_ok(&job, "ioengine", "0123456789012345678901234567890"); /* 31 bytes fit */
	assert_int_equal(strlen(fileio_files(&job)->layout.ioengine), 31);
}

static void test_option_set_bare_bool_is_1(void **state)
{
	struct job job;

	(void)state;
	fresh(&job, "job");
	assert_false(job.time_based);
	set_ok(&job, "time_based", NULL);
	assert_true(job.time_based);
	set_ok(&job, "invalidate", "0");
	set_ok(&job, "invalidate", NULL);
	assert_true(job.invalidate);
	assert_true(job_is_set(&job, "time_based"));
	assert_true(job_is_set(&job, "invalidate"));
	assert_false(job_is_set(&job, "direct"));
}

static void test_option_set_unknown_key_messages(void **state)
{
	(void)state;
	set_fails("bsz", "4k", "command line: key 'bsz': unknown (did you mean 'bs'?)");
	set_fails("runtim", "10", "command line: key 'runtim': unknown (did you mean 'runtime'?)");
	set_fails("cgroup_weight", "32",
		  "command line: key 'cgroup_weight': unknown (`dbio help options` lists the keys)");
}

static void test_option_set_bad_value_messages(void **state)
{
	char msg[1024];

	(void)state;
	snprintf(msg, sizeof(msg), "command line: key 'bs': bad value '4x': expected %s", size_accepted);
	set_fails("bs", "4x", msg);
	snprintf(msg, sizeof(msg), "command line: key 'bs': bad value '0': out of range: expected %s",
		 size_accepted);
	set_fails("bs", "0", msg);
	snprintf(msg, sizeof(msg), "command line: key 'bs': bad value '2g': out of range: expected %s",
		 size_accepted);
	set_fails("bs", "2g", msg);
	set_fails("size", "99999999999999999999",
		  "command line: key 'size': bad value '99999999999999999999': too large: expected a "
		  "size in bytes with an optional k, m, g or t suffix (binary: 1k = 1024), e.g. 4k");
	set_fails("rwmixread", "101",
		  "command line: key 'rwmixread': bad value '101': out of range: expected a whole "
		  "number from 0 to 100");
	set_fails("numjobs", "0",
		  "command line: key 'numjobs': bad value '0': out of range: expected a whole number "
		  "from 1 to 4096");
	set_fails("loops", "x", "command line: key 'loops': bad value 'x': expected a whole number from 1");
	set_fails("rw", "READ",
		  "command line: key 'rw': bad value 'READ': expected one of read, write, randread, "
		  "randwrite, randrw, readwrite, rewrite, trim, randtrim, trimwrite, randtrimwrite");
	set_fails("direct", "2",
		  "command line: key 'direct': bad value '2': expected 0 or 1 (a bare key means 1)");
	set_fails("runtime", "1.5s",
		  "command line: key 'runtime': bad value '1.5s': expected a duration with a suffix "
		  "ns, us, ms, s, m or h (a bare number is in seconds), e.g. 30s");
	set_fails("ioengine", "01234567890123456789012345678901",
		  "command line: key 'ioengine': bad value '01234567890123456789012345678901': too "
		  "long: expected text of at most 31 bytes");
	set_fails("percentile_list", "0:99",
		  "command line: key 'percentile_list': bad value '0:99': expected up to 16 "
		  "different percentiles above 0 and at most 100 separated by ':', e.g. 99.5:99.99");
	set_fails("percentile_list", "100.1",
		  "command line: key 'percentile_list': bad value '100.1': expected up to 16 "
		  "different percentiles above 0 and at most 100 separated by ':', e.g. 99.5:99.99");
	set_fails("percentile_list", "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17",
		  "command line: key 'percentile_list': bad value "
		  "'1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17': expected up to 16 different percentiles "
		  "above 0 and at most 100 separated by ':', e.g. 99.5:99.99");
	set_fails("percentile_list", "99:99",
		  "command line: key 'percentile_list': bad value '99:99': expected up to 16 "
		  "different percentiles above 0 and at most 100 separated by ':', e.g. 99.5:99.99");
}

static void test_option_set_bare_non_bool_needs_value(void **state)
{
	char msg[1024];

	(void)state;
	snprintf(msg, sizeof(msg), "command line: key 'bs': needs a value: expected %s", size_accepted);
	set_fails("bs", NULL, msg);
	set_fails("rw", NULL,
		  "command line: key 'rw': needs a value: expected one of read, write, randread, "
		  "randwrite, randrw, readwrite, rewrite, trim, randtrim, trimwrite, randtrimwrite");
	set_fails("directory", NULL,
		  "command line: key 'directory': needs a value: expected text of at most 4095 bytes");
}

static void test_option_set_failure_keeps_value(void **state)
{
	struct dbio_err err = { 0 };
	struct job job;

	(void)state;
	fresh(&job, "job");
	set_ok(&job, "bs", "8k");
	assert_int_equal(job_set(&job, "bs", "8q", NULL, &err), DBIO_EINPUT);
	assert_int_equal(fileio_files(&job)->layout.bs, 8192);
	/* The first error is kept: a second failure does not overwrite it. */
	assert_int_equal(job_set(&job, "rwmixread", "101", NULL, &err), DBIO_EINPUT);
	assert_int_equal(strncmp(err.msg, "command line: key 'bs': bad value '8q'", 38), 0);
	assert_int_equal(fileio_files(&job)->layout.rwmixread, 50);
}

static void test_option_set_records_origin(void **state)
{
	struct job_origin at = { .file = "jobs/a.fio", .line = 12 };
	struct dbio_err err = { 0 };
	struct job job;
	char where[64];

	(void)state;
	fresh(&job, "job");
	assert_int_equal(job_set(&job, "bs", "16k", &at, &err), 0);
	assert_string_equal(job_origin_of(&job, "bs")->file, "jobs/a.fio");
	assert_int_equal(job_origin_of(&job, "bs")->line, 12);
	assert_true(job_is_set(&job, "bs"));
	assert_false(job_is_set(&job, "rw"));
	/* Not given: the job's section. */
	job.section = (struct job_origin){ .file = "s.fio", .line = 2 };
	assert_ptr_equal(job_origin_of(&job, "rw"), &job.section);
	at.line = 13;
	assert_int_equal(job_set(&job, "rw", "write", &at, &err), 0);
	assert_int_equal(job_origin_of(&job, "rw")->line, 13);
	assert_int_equal(job_origin_of(&job, "bs")->line, 12);
	/* From the command line: no file. */
	assert_int_equal(job_set(&job, "bs", "32k", NULL, &err), 0);
	assert_null(job_origin_of(&job, "bs")->file);
	assert_string_equal(job_where(job_origin_of(&job, "bs"), where, sizeof(where)), "command line");
	assert_string_equal(job_where(&at, where, sizeof(where)), "jobs/a.fio:13");
	assert_string_equal(job_where(NULL, where, sizeof(where)), "command line");
	/* A key two workloads have (batch: kv's and import's) is set in both. */
	if (plan_find("rows")) {
		size_t tables = 0;

		assert_int_equal(job_set(&job, "batch", "77", &at, &err), 0);
		for (size_t t = 0; t < job.nkeys; t++) {
			const struct option_def *def = option_table_find(job.keys[t].table, "batch");

			if (def && job.keys[t].state[def - job.keys[t].table->defs].set)
				tables++;
		}
		assert_int_equal(tables, BATCH_TABLES);
	}
	/* Messages name the place. */
	at.line = 7;
	assert_int_equal(job_set(&job, "rwmixread", "200", &at, &err), DBIO_EINPUT);
	assert_string_equal(err.msg, "jobs/a.fio:7: key 'rwmixread': bad value '200': out of "
				     "range: expected a whole number from 0 to 100");
}

static void test_option_suggest(void **state)
{
	(void)state;
	assert_string_equal(plan_suggest("bsz"), "bs");
	assert_string_equal(plan_suggest("bs"), "bs");
	assert_string_equal(plan_suggest("runtim"), "runtime");
	assert_string_equal(plan_suggest("numjob"), "numjobs");
	assert_string_equal(plan_suggest("time_base"), "time_based");
	assert_string_equal(plan_suggest("randsed"), "randseed");
	assert_string_equal(plan_suggest("filesiz"), "filesize");
	assert_string_equal(plan_suggest("percentile"), "percentile_list"); /* a prefix */
	assert_string_equal(plan_suggest("rwmix"), "rwmixread");
	assert_null(plan_suggest("cgroup_weight"));
	assert_null(plan_suggest("xyzzy"));
	/* a short name sharing no letter with a key is no guess ('rw') */
	assert_null(plan_suggest("zz"));
	assert_string_equal(plan_suggest("bz"), "bs");
	assert_null(plan_suggest("a_very_long_key_name_that_matches_nothing_known_to_dbio_at_all"
				 "_really"));
}

static void job_sized(struct job *job, const char *size)
{
	fresh(job, "job");
	set_ok(job, "directory", "/tmp");
	if (size)
		set_ok(job, "size", size);
}

static void test_option_validate_missing_size(void **state)
{
	struct job job;

	(void)state;
	job_sized(&job, NULL);
	validate_fails(&job, "command line: key 'size': missing: give size= (bytes of I/O) or "
			     "filesize= (bytes per file) (job 'job')");
	/* Without an option origin, the job's section is named. */
	job_sized(&job, NULL);
	job.section = (struct job_origin){ .file = "x.fio", .line = 4 };
	validate_fails(&job, "x.fio:4: key 'size': missing: give size= (bytes of I/O) or "
			     "filesize= (bytes per file) (job 'job')");
}

static void test_option_validate_time_based_needs_runtime(void **state)
{
	struct job_origin at = { .file = "t.fio", .line = 3 };
	struct dbio_err err = { 0 };
	struct job job;

	(void)state;
	job_sized(&job, "1m");
	set_ok(&job, "time_based", NULL);
	validate_fails(&job, "command line: key 'time_based': needs a runtime, e.g. runtime=30s (job 'job')");
	job_sized(&job, "1m");
	assert_int_equal(job_set(&job, "time_based", NULL, &at, &err), 0);
	validate_fails(&job, "t.fio:3: key 'time_based': needs a runtime, e.g. runtime=30s (job 'job')");
	job_sized(&job, "1m");
	set_ok(&job, "time_based", NULL);
	set_ok(&job, "runtime", "10s");
	assert_int_equal(plan_validate(&job, &err), 0);
}

static void test_option_validate_filesize_below_bs(void **state)
{
	struct job job;
	struct dbio_err err = { 0 };

	(void)state;
	job_sized(&job, "2k");
	validate_fails(&job, "command line: key 'size': 2 KiB is less than one block (bs=4 KiB) (job 'job')");
	job_sized(&job, "64k");
	set_ok(&job, "filesize", "1k");
	validate_fails(&job, "command line: key 'filesize': each file would hold 1 KiB, less than "
			     "one block (bs=4 KiB); make size at least bs * nrfiles (job 'job')");
	/* A derived filesize is rounded up to whole blocks: 16k over 8 files
	 * gives 8 files of one 4 KiB block, of which size uses 4. */
	job_sized(&job, "16k");
	set_ok(&job, "nrfiles", "8");
	assert_int_equal(plan_validate(&job, &err), 0);
	assert_int_equal(fileio_files(&job)->layout.filesize, 4096);
	assert_int_equal(fileio_files(&job)->layout.size, 16384);
}

static void test_option_validate_size_above_files(void **state)
{
	struct job job;

	(void)state;
	job_sized(&job, "16k");
	set_ok(&job, "filesize", "8k");
	validate_fails(&job, "command line: key 'size': 16 KiB is more than the files hold (8 KiB = "
			     "nrfiles * filesize in whole blocks) (job 'job')");
	/* Only whole blocks count: 3 files of 10 KiB hold 3 * 8 KiB. */
	job_sized(&job, "30k");
	set_ok(&job, "filesize", "10k");
	set_ok(&job, "nrfiles", "3");
	validate_fails(&job, "command line: key 'size': 30 KiB is more than the files hold (24 KiB = "
			     "nrfiles * filesize in whole blocks) (job 'job')");
}

static void test_option_validate_direct_needs_512_multiple(void **state)
{
	struct dbio_err err = { 0 };
	struct job job;

	(void)state;
	job_sized(&job, "512000");
	set_ok(&job, "bs", "1000");
	set_ok(&job, "direct", NULL);
	validate_fails(&job, "command line: key 'bs': 1000 is not a multiple of 512, which direct=1 "
			     "needs (the device's logical block size) (job 'job')");
	job_sized(&job, "8k");
	set_ok(&job, "filesize", "9000");
	set_ok(&job, "direct", NULL);
	validate_fails(&job, "command line: key 'filesize': 9000 is not a multiple of 512, which "
			     "direct=1 needs (job 'job')");
	job_sized(&job, "1m");
	set_ok(&job, "bs", "1536");
	set_ok(&job, "size", "1536k");
	set_ok(&job, "direct", NULL);
	assert_int_equal(plan_validate(&job, &err), 0);
}

static void test_option_validate_other_errors(void **state)
{
	char list[256], msg[512];
	struct job job;

	(void)state;
	job_sized(&job, "1m");
	set_ok(&job, "ioengine", "libfoo");
	engine_list(list, sizeof(list));
	snprintf(msg, sizeof(msg),
		 "command line: key 'ioengine': bad value 'libfoo': expected one of %s (job 'job')", list);
	validate_fails(&job, msg);
	job_sized(&job, "1m");
	set_ok(&job, "name", "a/b");
	validate_fails(&job, "command line: key 'name': bad value 'a/b': expected a name without "
			     "'/' (job 'a/b')");
	job_sized(&job, "1m");
	set_ok(&job, "directory", "");
	validate_fails(&job, "command line: key 'directory': empty: expected one or more directories "
			     "separated by ':' (job 'job')");
	job_sized(&job, "1m");
	set_ok(&job, "directory", "/a::/b");
	validate_fails(&job, "command line: key 'directory': bad value '/a::/b': an empty directory "
			     "between ':' separators (job 'job')");
	job_sized(&job, "1m");
	set_ok(&job, "directory", "/a:");
	validate_fails(&job, "command line: key 'directory': bad value '/a:': an empty directory "
			     "between ':' separators (job 'job')");
	job_sized(&job, "8k");
	set_ok(&job, "share_files", NULL);
	set_ok(&job, "numjobs", "3");
	validate_fails(&job, "command line: key 'numjobs': 3 threads share 2 blocks: each needs at "
			     "least one (job 'job')");
}

static void test_option_validate_derives_sizes(void **state)
{
	struct dbio_err err = { 0 };
	struct job job;

	(void)state;
	job_sized(&job, "1m");
	set_ok(&job, "nrfiles", "4");
	assert_int_equal(plan_validate(&job, &err), 0);
	assert_int_equal(fileio_files(&job)->layout.filesize, 262144);
	assert_int_equal(fileio_files(&job)->layout.size, 1048576);
	job_sized(&job, NULL);
	set_ok(&job, "filesize", "64k");
	set_ok(&job, "nrfiles", "3");
	assert_int_equal(plan_validate(&job, &err), 0);
	assert_int_equal(fileio_files(&job)->layout.size, 196608);
	assert_int_equal(fileio_files(&job)->layout.filesize, 65536);
	/* Both given: kept as given. */
	job_sized(&job, "8k");
	set_ok(&job, "filesize", "64k");
	assert_int_equal(plan_validate(&job, &err), 0);
	assert_int_equal(fileio_files(&job)->layout.size, 8192);
	assert_int_equal(fileio_files(&job)->layout.filesize, 65536);
	/* An empty name becomes "job". */
	job_sized(&job, "1m");
	job.name[0] = '\0';
	assert_int_equal(plan_validate(&job, &err), 0);
	assert_string_equal(job.name, "job");
	assert_int_equal(err.code, 0);
}

/* A key given for a job that is not its own is refused, naming its owner
 * and what the job is. */
static void test_option_keys_belong_to_their_owner(void **state)
{
	struct job job;

	(void)state;
	job_sized(&job, "64k");
	set_ok(&job, "records", "5");
	validate_fails(&job,
		       "command line: key 'records': belongs to workload=kv; this job is workload=fileio "
		       "(job 'job')");
	job_sized(&job, "64k");
	set_ok(&job, "hipri", "1");
	if (engine_find("io_uring"))
		validate_fails(&job,
			       "command line: key 'hipri': belongs to ioengine=pvsync2 and io_uring; this "
			       "job is ioengine=psync (job 'job')");
	else
		validate_fails(&job, "command line: key 'hipri': belongs to ioengine=pvsync2; this job is "
				     "ioengine=psync (job 'job')");
	fresh(&job, "job");
	set_ok(&job, "directory", "/tmp");
	set_ok(&job, "workload", "kv");
	set_ok(&job, "bs", "8k");
	validate_fails(&job, "command line: key 'bs': belongs to the workloads that do file I/O (fileio, "
			     "oltp); this job is workload=kv, which does no file I/O (job 'job')");
	if (plan_find("rows")) {
		job_sized(&job, "64k");
		set_ok(&job, "batch", "10");
		validate_fails(&job, "command line: key 'batch': belongs to workload=kv" BATCH_OWNERS
				     "; this job is workload=fileio (job 'job')");
	}
}

/* A kv_engine of this build (its default, sqlite, where built), or NULL. */
static const char *kv_engine_built(void)
{
#if defined(DBIO_HAVE_SQLITE3)
	return "sqlite";
#elif defined(DBIO_HAVE_LMDB)
	return "lmdb";
#elif defined(DBIO_HAVE_GDBM)
	return "gdbm";
#else
	return NULL;
#endif
}

/* A kv job takes its own key; one given for several jobs at once is
 * refused only when no job takes it. */
static void test_option_shared_key_needs_one_owner(void **state)
{
	struct job_origin shared = { .shared = true };
	struct dbio_err err = { 0 };
	struct jobset set = { 0 };
	const char *kv = kv_engine_built();
	struct job job;

	(void)state;
	if (!kv) {
		print_message(
			"skip: this build has no kv engine (make WITHOUT= left out gdbm, lmdb and sqlite3)\n");
		skip();
	}
	/* Its own key: fine. */
	fresh(&job, "job");
	set_ok(&job, "directory", "/tmp");
	set_ok(&job, "workload", "kv");
	set_ok(&job, "kv_engine", kv);
	set_ok(&job, "records", "5");
	assert_int_equal(plan_validate(&job, &err), 0);
	/* Given for several jobs: a fileio job ignores records, the kv job
	 * takes it; given to none, it is refused. */
	fresh(&job, "a");
	set_ok(&job, "directory", "/tmp");
	set_ok(&job, "size", "64k");
	assert_int_equal(job_set(&job, "records", "5", &shared, &err), 0);
	assert_int_equal(plan_validate(&job, &err), 0);
	assert_int_equal(jobset_add(&set, &job), 0);
	assert_int_equal(plan_check_shared(&set, &err), DBIO_EINPUT);
	assert_string_equal(err.msg,
			    "command line: key 'records': belongs to workload=kv; no job it was given to is");
	memset(&err, 0, sizeof(err));
	fresh(&job, "b");
	set_ok(&job, "directory", "/tmp");
	set_ok(&job, "workload", "kv");
	set_ok(&job, "kv_engine", kv);
	assert_int_equal(job_set(&job, "records", "5", &shared, &err), 0);
	assert_int_equal(plan_validate(&job, &err), 0);
	assert_int_equal(jobset_add(&set, &job), 0);
	assert_int_equal(plan_check_shared(&set, &err), 0);
	jobset_release(&set);
}

static void test_option_job_patterns(void **state)
{
	static const struct {
		const char *rw;
		bool reads, writes, random;
	} cases[] = {
		{ "read", true, false, false },	   { "write", false, true, false },
		{ "randread", true, false, true }, { "randwrite", false, true, true },
		{ "randrw", true, true, true },	   { "readwrite", true, true, false },
	};
	struct job job;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fresh(&job, "job");
		set_ok(&job, "rw", cases[i].rw);
		assert_int_equal(job_reads(&job), cases[i].reads);
		assert_int_equal(job_writes(&job), cases[i].writes);
		assert_int_equal(job_is_random(&job), cases[i].random);
	}
}

static void test_option_split_dirs(void **state)
{
	char **dirs = NULL;
	int n;

	(void)state;
	n = job_split_dirs("/mnt/a:/mnt/b:/c", &dirs);
	assert_int_equal(n, 3);
	assert_string_equal(dirs[0], "/mnt/a");
	assert_string_equal(dirs[1], "/mnt/b");
	assert_string_equal(dirs[2], "/c");
	for (int i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	n = job_split_dirs("/tmp", &dirs);
	assert_int_equal(n, 1);
	assert_string_equal(dirs[0], "/tmp");
	free(dirs[0]);
	free(dirs);
}

static void test_option_engine_registry(void **state)
{
	const char *bad = "untouched";
	char list[256];

	(void)state;
	assert_int_equal(engine_registry_check(&bad), 0);
	assert_string_equal(bad, "untouched");
	assert_true(engine_count >= 2);
	for (size_t i = 0; i < engine_count; i++) {
		const struct engine_ops *ops = engine_registry[i];

		assert_non_null(ops->name);
		assert_non_null(ops->summary);
		assert_true(ops->summary[0] != '\0');
		assert_ptr_equal(engine_find(ops->name), ops);
		/* Every engine is accepted as ioengine by the validator. */
		struct job job;
		struct dbio_err err = { 0 };

		job_sized(&job, "1m");
		set_ok(&job, "ioengine", ops->name);
		if (!strcmp(ops->name, "libaio"))
			set_ok(&job, "direct", "1"); /* libaio refuses buffered I/O */
		if (!strcmp(ops->name, "ftruncate"))
			set_ok(&job, "rw", "write"); /* ftruncate only writes */
		if (plan_validate(&job, &err))
			fail_msg("ioengine=%s: %s", ops->name, err.msg);
	}
	assert_non_null(engine_find("psync"));
	assert_non_null(engine_find("sync"));
	assert_null(engine_find("libfoo"));
	assert_null(engine_find(""));
	engine_list(list, sizeof(list));
	assert_int_equal(strncmp(list, "psync, sync", 11), 0);
	engine_list(list, 8);
	assert_string_equal(list, "psync, ");
}

static void test_option_cmd_registry(void **state)
{
	(void)state;
	assert_true(cmd_count >= 2);
	for (unsigned i = 0; i < cmd_count; i++) {
		const struct cmd *c = cmd_registry[i];

		assert_non_null(c->name);
		assert_non_null(c->summary);
		assert_non_null(c->main);
		if (!c->name[0] || !c->summary[0])
			fail_msg("command %u: empty name or summary", i);
		assert_ptr_equal(cmd_find(c->name), c);
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(cmd_registry[j]->name, c->name))
				fail_msg("command '%s' appears twice", c->name);
	}
	assert_non_null(cmd_find("run"));
	assert_non_null(cmd_find("help"));
	assert_null(cmd_find("runn"));
	assert_null(cmd_find(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_option_table_rows_well_formed, release_made),
		cmocka_unit_test_teardown(test_option_enum_defaults_valid, release_made),
		cmocka_unit_test_teardown(test_option_defaults_parse, release_made),
		cmocka_unit_test_teardown(test_option_default_values, release_made),
		cmocka_unit_test_teardown(test_option_set_parses_values, release_made),
		cmocka_unit_test_teardown(test_option_set_bare_bool_is_1, release_made),
		cmocka_unit_test_teardown(test_option_set_unknown_key_messages, release_made),
		cmocka_unit_test_teardown(test_option_set_bad_value_messages, release_made),
		cmocka_unit_test_teardown(test_option_set_bare_non_bool_needs_value, release_made),
		cmocka_unit_test_teardown(test_option_set_failure_keeps_value, release_made),
		cmocka_unit_test_teardown(test_option_set_records_origin, release_made),
		cmocka_unit_test_teardown(test_option_suggest, release_made),
		cmocka_unit_test_teardown(test_option_validate_missing_size, release_made),
		cmocka_unit_test_teardown(test_option_validate_time_based_needs_runtime, release_made),
		cmocka_unit_test_teardown(test_option_validate_filesize_below_bs, release_made),
		cmocka_unit_test_teardown(test_option_validate_size_above_files, release_made),
		cmocka_unit_test_teardown(test_option_validate_direct_needs_512_multiple, release_made),
		cmocka_unit_test_teardown(test_option_validate_other_errors, release_made),
		cmocka_unit_test_teardown(test_option_validate_derives_sizes, release_made),
		cmocka_unit_test_teardown(test_option_keys_belong_to_their_owner, release_made),
		cmocka_unit_test_teardown(test_option_shared_key_needs_one_owner, release_made),
		cmocka_unit_test_teardown(test_option_job_patterns, release_made),
		cmocka_unit_test_teardown(test_option_split_dirs, release_made),
		cmocka_unit_test_teardown(test_option_engine_registry, release_made),
		cmocka_unit_test_teardown(test_option_cmd_registry, release_made),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
