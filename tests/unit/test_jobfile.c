/*
 * Unit tests for fio-style job files (jobfile_parse_string and jobfile_parse
 * in src/job/job.h): [global] sections apply to later jobs only and
 * accumulate, jobs take their section's name, empty sections are jobs, bare
 * keys, comments, recorded origins, exact error messages with file name and
 * line number, and long lines kept intact.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "job/job.h"
#include "plan/plan.h"
#include "job/option.h"
#include "workload/fileio/files.h"

#define NS_PER_S 1000000000ull

/* Parse text as "x.fio"; must succeed with njobs jobs. */
static void parse_ok(struct jobset *set, const char *text, size_t njobs)
{
	struct dbio_err err = { 0 };

	if (plan_jobfile_parse_string(set, text, "x.fio", &err))
		fail_msg("parse failed: %s", err.msg);
	assert_int_equal(err.code, 0);
	assert_int_equal(set->njobs, njobs);
}

/* Parsing text as "x.fio" must fail with code and exactly msg. */
static void parse_fails(const char *text, int code, const char *msg)
{
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };

	assert_int_equal(plan_jobfile_parse_string(&set, text, "x.fio", &err), code);
	assert_int_equal(err.code, code);
	assert_string_equal(err.msg, msg);
	jobset_release(&set);
}

/* Where key was given for job. */
static const struct job_origin *at(const struct job *job, const char *key)
{
	assert_true(job_is_set(job, key));
	return job_origin_of(job, key);
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

static void test_jobfile_global_applies_to_later_jobs_only(void **state)
{
	struct jobset set = { 0 };

	(void)state;
	parse_ok(&set,
		 "[a]\n"
		 "bs=8k\n"
		 "[global]\n"
		 "bs=16k\n"
		 "rw=randread\n"
		 "[b]\n"
		 "[c]\n"
		 "bs=1m\n",
		 3);
	assert_string_equal(set.jobs[0].name, "a");
	assert_int_equal(fileio_files(&set.jobs[0])->layout.bs, 8192);
	assert_int_equal(fileio_files(&set.jobs[0])->layout.rw, RW_READ);
	assert_string_equal(set.jobs[1].name, "b");
	assert_int_equal(fileio_files(&set.jobs[1])->layout.bs, 16384);
	assert_int_equal(fileio_files(&set.jobs[1])->layout.rw, RW_RANDREAD);
	assert_string_equal(set.jobs[2].name, "c");
	assert_int_equal(fileio_files(&set.jobs[2])->layout.bs, 1048576);
	assert_int_equal(fileio_files(&set.jobs[2])->layout.rw, RW_RANDREAD);
	/* A global key counts as given, with the global line as origin. */
	assert_true(job_is_set(&set.jobs[1], "bs"));
	assert_int_equal(at(&set.jobs[1], "bs")->line, 4);
	assert_false(job_is_set(&set.jobs[0], "rw"));
	jobset_release(&set);
}

static void test_jobfile_multiple_global_sections_accumulate(void **state)
{
	struct jobset set = { 0 };

	(void)state;
	parse_ok(&set,
		 "[global]\n"
		 "rw=write\n"
		 "size=1m\n"
		 "[a]\n"
		 "[global]\n"
		 "bs=64k\n"
		 "size=2m\n"
		 "[b]\n",
		 2);
	assert_int_equal(fileio_files(&set.jobs[0])->layout.rw, RW_WRITE);
	assert_int_equal(fileio_files(&set.jobs[0])->layout.bs, 4096);
	assert_int_equal(fileio_files(&set.jobs[0])->layout.size, 1048576);
	assert_int_equal(fileio_files(&set.jobs[1])->layout.rw, RW_WRITE);
	assert_int_equal(fileio_files(&set.jobs[1])->layout.bs, 65536);
	assert_int_equal(fileio_files(&set.jobs[1])->layout.size, 2097152);
	jobset_release(&set);
}

static void test_jobfile_job_name_from_section(void **state)
{
	struct jobset set = { 0 };

	(void)state;
	parse_ok(&set,
		 "[seq-read]\n"
		 "[  rand write 4k  ]\n"
		 "[renamed]\n"
		 "name=other\n",
		 3);
	assert_string_equal(set.jobs[0].name, "seq-read");
	assert_string_equal(set.jobs[1].name, "rand write 4k");
	assert_string_equal(set.jobs[2].name, "other");
	assert_string_equal(set.jobs[0].section.file, "x.fio");
	assert_int_equal(set.jobs[0].section.line, 1);
	assert_int_equal(set.jobs[1].section.line, 2);
	assert_int_equal(set.jobs[2].section.line, 3);
	jobset_release(&set);
}

static void test_jobfile_empty_sections_are_jobs(void **state)
{
	struct jobset set = { 0 };
	struct job def;

	(void)state;
	assert_int_equal(plan_job_init(&def, "x"), 0);
	parse_ok(&set, "[a]\n[b]\n\n[c]", 3);
	for (size_t i = 0; i < 3; i++) {
		assert_false(any_set(&set.jobs[i]));
		assert_int_equal(fileio_files(&set.jobs[i])->layout.bs, fileio_files(&def)->layout.bs);
		assert_string_equal(set.jobs[i].directory, def.directory);
	}
	assert_string_equal(set.jobs[2].name, "c");
	assert_int_equal(set.jobs[2].section.line, 4);
	jobset_release(&set);
	job_release(&def);
}

static void test_jobfile_bare_keys(void **state)
{
	struct jobset set = { 0 };

	(void)state;
	parse_ok(&set,
		 "[a]\n"
		 "time_based\n"
		 "runtime=10\n"
		 "  direct  \n"
		 "end_fsync=0\n",
		 1);
	assert_true(set.jobs[0].time_based);
	assert_true(fileio_files(&set.jobs[0])->layout.direct);
	assert_false(fileio_files(&set.jobs[0])->layout.end_fsync);
	assert_int_equal(set.jobs[0].runtime_ns, 10 * NS_PER_S);
	assert_true(job_is_set(&set.jobs[0], "time_based"));
	assert_int_equal(at(&set.jobs[0], "direct")->line, 4);
	jobset_release(&set);
}

static void test_jobfile_comments_and_blank_lines(void **state)
{
	struct jobset set = { 0 };

	(void)state;
	parse_ok(&set,
		 "# a comment\n"
		 "; another\n"
		 "\n"
		 "[a]\n"
		 "# bs=1m\n"
		 "; bs=2m\n"
		 "   \n"
		 "bs=8k ; inline\n"
		 "rw = randwrite\n",
		 1);
	assert_int_equal(fileio_files(&set.jobs[0])->layout.bs, 8192);
	assert_int_equal(fileio_files(&set.jobs[0])->layout.rw, RW_RANDWRITE);
	assert_int_equal(set.jobs[0].section.line, 4);
	assert_int_equal(at(&set.jobs[0], "bs")->line, 8);
	assert_int_equal(at(&set.jobs[0], "rw")->line, 9);
	assert_string_equal(at(&set.jobs[0], "rw")->file, "x.fio");
	jobset_release(&set);
}

static void test_jobfile_crlf_line_ends(void **state)
{
	struct jobset set = { 0 };

	(void)state;
	parse_ok(&set, "[a]\r\nbs=8k\r\ntime_based\r\n[b]\r\n", 2);
	assert_string_equal(set.jobs[0].name, "a");
	assert_int_equal(fileio_files(&set.jobs[0])->layout.bs, 8192);
	assert_true(set.jobs[0].time_based);
	assert_string_equal(set.jobs[1].name, "b");
	assert_int_equal(set.jobs[1].section.line, 4);
	jobset_release(&set);
}

static void test_jobfile_unknown_key_line(void **state)
{
	(void)state;
	parse_fails("[a]\nbs=4k\n\n# x\nbsz=8k\n", DBIO_EINPUT,
		    "x.fio:5: key 'bsz': unknown (did you mean 'bs'?)");
	parse_fails("[global]\nfrobnicate_backlogs=32\n[a]\n", DBIO_EINPUT,
		    "x.fio:2: key 'frobnicate_backlogs': unknown (`dbio help options` lists the keys)");
	/* a key of fio's that dbio does not honour: its reason, and every one */
	parse_fails(
		"[global]\ncgroup_weight=100\n[a]\nbsz=8k\n", DBIO_EINPUT,
		"x.fio:2: key 'cgroup_weight': fio key dbio does not honour yet: sets the I/O weight of the job's cgroup\n"
		"x.fio:4: key 'bsz': unknown (did you mean 'bs'?)");
}

static void test_jobfile_bad_value_line(void **state)
{
	(void)state;
	parse_fails("[a]\nbs=4x\n", DBIO_EINPUT,
		    "x.fio:2: key 'bs': bad value '4x': expected a size from 1 B to 1 GiB with an "
		    "optional k, m, g or t suffix (binary: 1k = 1024), e.g. 4k");
	parse_fails(
		"[global]\n\nrw=sequential\n[a]\n", DBIO_EINPUT,
		"x.fio:3: key 'rw': bad value 'sequential': expected one of read, write, "
		"randread, randwrite, randrw, readwrite, rewrite, trim, randtrim, trimwrite, randtrimwrite");
	parse_fails("[a]\n[b]\nrwmixread=101\n", DBIO_EINPUT,
		    "x.fio:3: key 'rwmixread': bad value '101': out of range: expected a whole number "
		    "from 0 to 100");
	parse_fails("[a]\nbs\n", DBIO_EINPUT,
		    "x.fio:2: key 'bs': needs a value: expected a size from 1 B to 1 GiB with an "
		    "optional k, m, g or t suffix (binary: 1k = 1024), e.g. 4k");
}

static void test_jobfile_key_outside_section(void **state)
{
	(void)state;
	parse_fails("bs=4k\n[a]\n", DBIO_EINPUT,
		    "x.fio:1: key 'bs': outside a section: put it under [global] or a [job] section");
	parse_fails("# header\n\ntime_based\n[a]\n", DBIO_EINPUT,
		    "x.fio:3: key 'time_based': outside a section: put it under [global] or a [job] "
		    "section");
}

static void test_jobfile_malformed_line(void **state)
{
	(void)state;
	parse_fails("[a]\nbs=4k\n[b\nbs=8k\n", DBIO_EINPUT,
		    "x.fio:3: malformed line: expected '[section]', 'key=value' or a bare 'key'");
	parse_fails("[a\n", DBIO_EINPUT,
		    "x.fio:1: malformed line: expected '[section]', 'key=value' or a bare 'key'");
}

static void test_jobfile_no_job(void **state)
{
	(void)state;
	parse_fails("[global]\nbs=4k\n", DBIO_EINPUT,
		    "x.fio: no job: expected at least one [section] other than [global]");
	parse_fails("", DBIO_EINPUT, "x.fio: no job: expected at least one [section] other than [global]");
	parse_fails("# only a comment\n", DBIO_EINPUT,
		    "x.fio: no job: expected at least one [section] other than [global]");
}

static void test_jobfile_section_name_too_long(void **state)
{
	char text[300];

	(void)state;
	memset(text, 'n', sizeof(text));
	text[0] = '[';
	snprintf(text + 129, sizeof(text) - 129, "]\n");
	parse_fails(text, DBIO_EINPUT, "x.fio:1: section name too long (at most 127 bytes)");
	/* 127 bytes fit. */
	struct jobset set = { 0 };

	snprintf(text + 128, sizeof(text) - 128, "]\n");
	parse_ok(&set, text, 1);
	assert_int_equal(strlen(set.jobs[0].name), 127);
	jobset_release(&set);
}

static void test_jobfile_two_files_in_one_set(void **state)
{
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };

	(void)state;
	assert_int_equal(plan_jobfile_parse_string(&set, "[global]\nbs=8k\n[a]\n", "one.fio", &err), 0);
	assert_int_equal(plan_jobfile_parse_string(&set, "[b]\nrw=write\n", "two.fio", &err), 0);
	assert_int_equal(set.njobs, 2);
	assert_int_equal(set.nfiles, 2);
	assert_string_equal(set.jobs[0].section.file, "one.fio");
	assert_string_equal(set.jobs[1].section.file, "two.fio");
	/* [global] of one file does not reach into the next. */
	assert_int_equal(fileio_files(&set.jobs[0])->layout.bs, 8192);
	assert_int_equal(fileio_files(&set.jobs[1])->layout.bs, 4096);
	assert_string_equal(at(&set.jobs[1], "rw")->file, "two.fio");
	/* A third file with only [global] has no job of its own. */
	assert_int_equal(plan_jobfile_parse_string(&set, "[global]\n", "three.fio", &err), DBIO_EINPUT);
	assert_string_equal(err.msg,
			    "three.fio: no job: expected at least one [section] other than [global]");
	jobset_release(&set);
	assert_int_equal(set.njobs, 0);
	assert_null(set.jobs);
}

static void test_jobfile_long_directory_line(void **state)
{
	static const char next_line[] = "x.fio:4: key 'bsz': unknown (did you mean 'bs'?)";
	static const size_t lens[] = { 300, 1000, 4000 };
	char dir[4001], text[4200];
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	int bad = 0;

	(void)state;
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		for (size_t i = 0; i < lens[k]; i++)
			dir[i] = i % 50 == 0 ? ':' : (char)('a' + i % 26);
		dir[0] = '/';
		dir[lens[k]] = '\0';
		/* The line after the long one is numbered right... */
		snprintf(text, sizeof(text), "[a]\ndirectory=%s\nbs=8k\nbsz=1\n", dir);
		memset(&err, 0, sizeof(err));
		if (plan_jobfile_parse_string(&set, text, "x.fio", &err) != DBIO_EINPUT ||
		    strcmp(err.msg, next_line)) {
			print_error("directory of %zu bytes: '%s', expected '%s'\n", lens[k], err.msg,
				    next_line);
			bad++;
		}
		jobset_release(&set);
		/* ... and the directory arrives whole. */
		snprintf(text, sizeof(text), "[a]\ndirectory=%s\nbs=8k\n", dir);
		memset(&err, 0, sizeof(err));
		if (plan_jobfile_parse_string(&set, text, "x.fio", &err)) {
			print_error("directory of %zu bytes: %s\n", lens[k], err.msg);
			bad++;
		} else if (set.njobs != 1 || strcmp(set.jobs[0].directory, dir) ||
			   fileio_files(&set.jobs[0])->layout.bs != 8192) {
			print_error("directory of %zu bytes: %zu jobs, directory of %zu bytes, bs %llu\n",
				    lens[k], set.njobs, strlen(set.jobs[0].directory),
				    (unsigned long long)fileio_files(&set.jobs[0])->layout.bs);
			bad++;
		}
		jobset_release(&set);
	}
	assert_int_equal(bad, 0);
}

static void test_jobfile_parse_file(void **state)
{
	char path[] = "/tmp/dbio-test-jobfile.XXXXXX";
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	int fd = mkstemp(path);
	FILE *fp;

	(void)state;
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	fputs("[global]\nsize=1m\n\n[r]\nrw=randread\n[w]\nrw=write\nbsz=1\n", fp);
	fclose(fp);
	assert_int_equal(plan_jobfile_parse(&set, path, &err), DBIO_EINPUT);
	char want[128];

	snprintf(want, sizeof(want), "%s:8: key 'bsz': unknown (did you mean 'bs'?)", path);
	assert_string_equal(err.msg, want);
	jobset_release(&set);

	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("[global]\nsize=1m\n\n[r]\nrw=randread\n[w]\nrw=write\n", fp);
	fclose(fp);
	memset(&err, 0, sizeof(err));
	assert_int_equal(plan_jobfile_parse(&set, path, &err), 0);
	assert_int_equal(set.njobs, 2);
	assert_int_equal(fileio_files(&set.jobs[1])->layout.rw, RW_WRITE);
	assert_int_equal(fileio_files(&set.jobs[1])->layout.size, 1048576);
	assert_string_equal(set.jobs[1].section.file, path);
	assert_int_equal(set.jobs[1].section.line, 6);
	jobset_release(&set);
	assert_int_equal(unlink(path), 0);

	memset(&err, 0, sizeof(err));
	assert_int_equal(plan_jobfile_parse(&set, path, &err), DBIO_EINPUT);
	snprintf(want, sizeof(want), "%s: cannot open job file: No such file or directory", path);
	assert_string_equal(err.msg, want);
	jobset_release(&set);
}

/* plan_expand of value must give want. */
static void expands(const char *value, const char *want)
{
	const struct job_origin o = { .file = "x.fio", .line = 3 };
	struct dbio_err err = { 0 };
	char out[128];

	if (plan_expand("k", value, &o, out, sizeof(out), &err))
		fail_msg("'%s': %s", value, err.msg);
	assert_string_equal(out, want);
}

/* plan_expand of value must fail with msg. */
static void expand_fails(const char *value, const char *msg)
{
	const struct job_origin o = { .file = "x.fio", .line = 3 };
	struct dbio_err err = { 0 };
	char out[64];

	assert_int_equal(plan_expand("k", value, &o, out, sizeof(out), &err), DBIO_EINPUT);
	assert_string_equal(err.msg, msg);
}

static void test_jobfile_expand(void **state)
{
	char cpus[32], want[64];

	(void)state;
	setenv("DBIO_UNIT_X", "8k", 1);
	expands("plain", "plain");
	expands("${DBIO_UNIT_X}", "8k");
	expands("a${DBIO_UNIT_X}b${DBIO_UNIT_X}", "a8kb8k");
	expands("(4*1024)k", "4096k");
	expands("((1+2)*(3+4))", "21");
	expands("(7/2)", "3");
	expands("read:-8k", "read:-8k"); /* not arithmetic: no parenthesis, no fio word */
	expands("zoned:50/5:30/15", "zoned:50/5:30/15");
	snprintf(cpus, sizeof(cpus), "%ld", sysconf(_SC_NPROCESSORS_CONF));
	expands("$ncpus", cpus);
	snprintf(want, sizeof(want), "%ld", 2 * sysconf(_SC_NPROCESSORS_CONF) + 1);
	expands("$ncpus*2+1", want);
	snprintf(want, sizeof(want), "%ld", sysconf(_SC_PAGESIZE));
	expands("$pagesize", want);
	unsetenv("DBIO_UNIT_NO");
	expand_fails(
		"${DBIO_UNIT_NO}",
		"x.fio:3: key 'k': ${DBIO_UNIT_NO} is not set in the environment (fio would make it empty): set it, e.g. DBIO_UNIT_NO=... dbio run ...");
	expand_fails("${}", "x.fio:3: key 'k': '${}': expected ${NAME} with NAME an environment variable");
	expand_fails("${OPEN",
		     "x.fio:3: key 'k': '${OPEN': expected ${NAME} with NAME an environment variable");
	expand_fails(
		"(1/0)",
		"x.fio:3: key 'k': bad value '(1/0)': cannot compute '(1/0)' (whole numbers with + - * / % and parentheses)");
	expand_fails(
		"(2*(3)",
		"x.fio:3: key 'k': bad value '(2*(3)': cannot compute '(2*(3)' (whole numbers with + - * / % and parentheses)");
	expand_fails(
		"(9223372036854775807*2)",
		"x.fio:3: key 'k': bad value '(9223372036854775807*2)': cannot compute '(9223372036854775807*2)' (whole numbers with + - * / % and parentheses)");
	expand_fails(
		"(-(0-9223372036854775807-1))",
		"x.fio:3: key 'k': bad value '(-(0-9223372036854775807-1))': cannot compute '(-(0-9223372036854775807-1))' (whole numbers with + - * / % and parentheses)");
	expand_fails(
		"(1-5)",
		"x.fio:3: key 'k': bad value '(1-5)': cannot compute '(1-5)' (whole numbers with + - * / % and parentheses)");
	setenv("DBIO_UNIT_X", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", 1);
	expand_fails("${DBIO_UNIT_X}",
		     "x.fio:3: key 'k': the value is too long once expanded (at most 63 bytes)");
}

/* The groups of text: for each job, '|' when it starts a group, then its
 * groupid, e.g. "|0 0 |1". */
static void groups_are(const char *text, size_t njobs, const char *want)
{
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	char got[128] = "";

	parse_ok(&set, text, njobs);
	if (plan_groups(&set, &err))
		fail_msg("plan_groups: %s", err.msg);
	for (size_t j = 0; j < set.njobs; j++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s%llu", j ? " " : "",
			 set.jobs[j].starts_group ? "|" : "", (unsigned long long)set.jobs[j].groupid);
	assert_string_equal(got, want);
	jobset_release(&set);
}

static void test_jobfile_groups(void **state)
{
	(void)state;
	groups_are("[a]\n[b]\n[c]\n", 3, "|0 0 0");
	groups_are("[a]\n[b]\nstonewall\n[c]\n", 3, "|0 |1 1");
	groups_are("[global]\nstonewall\n[a]\n[b]\n[c]\n", 3, "|0 |1 |2");
	groups_are("[a]\n[b]\nnew_group\n[c]\n", 3, "|0 1 1");
	groups_are("[a]\n[b]\nwait_for=a\n[c]\n", 3, "|0 |0 0");
	groups_are("[a]\n[b]\nstonewall\n[c]\nwait_for=a\n", 3, "|0 |1 1");
}

static void test_jobfile_wait_for_refused(void **state)
{
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };

	(void)state;
	parse_ok(&set, "[a]\n[b]\n[c]\nwait_for=b\n", 3);
	assert_int_equal(plan_groups(&set, &err), DBIO_EINPUT);
	assert_string_equal(
		err.msg,
		"x.fio:4: key 'wait_for': 'b' runs at the same time as 'a' (no stonewall between them), and dbio starts a job only with its group: say stonewall to wait for every job before this one (job 'c')");
	jobset_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobfile_global_applies_to_later_jobs_only),
		cmocka_unit_test(test_jobfile_multiple_global_sections_accumulate),
		cmocka_unit_test(test_jobfile_job_name_from_section),
		cmocka_unit_test(test_jobfile_empty_sections_are_jobs),
		cmocka_unit_test(test_jobfile_bare_keys),
		cmocka_unit_test(test_jobfile_comments_and_blank_lines),
		cmocka_unit_test(test_jobfile_crlf_line_ends),
		cmocka_unit_test(test_jobfile_unknown_key_line),
		cmocka_unit_test(test_jobfile_bad_value_line),
		cmocka_unit_test(test_jobfile_key_outside_section),
		cmocka_unit_test(test_jobfile_malformed_line),
		cmocka_unit_test(test_jobfile_no_job),
		cmocka_unit_test(test_jobfile_section_name_too_long),
		cmocka_unit_test(test_jobfile_two_files_in_one_set),
		cmocka_unit_test(test_jobfile_long_directory_line),
		cmocka_unit_test(test_jobfile_parse_file),
		cmocka_unit_test(test_jobfile_expand),
		cmocka_unit_test(test_jobfile_groups),
		cmocka_unit_test(test_jobfile_wait_for_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
