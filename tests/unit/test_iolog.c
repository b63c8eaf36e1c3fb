/*
 * Unit tests for fio's log files (src/stats/iolog.h) and command
 * priorities (src/workload/fileio/check_logs.c, src/workload/fileio/logs.h): per I/O, the exact
 * lines of each kind of log in fio's format (offset and priority columns,
 * lat = slat + clat, bw = bytes * 10^6 / clat, a time base added); records
 * past the reserved chunk are kept in order; with a window, the I/O that
 * ends a window is in it, the next one starts on the grid, means round as
 * fio's, bw and iops are over the time since the last window, and the end
 * of the phase closes what holds I/O; cmdprio's forms parse into fio's
 * priority values and a draw takes each entry's share exactly at 0 and
 * 100 % and within a bound between.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "workload/fileio/check_logs.h"
#include "plan/plan.h"
#include "stats/iolog.h"
#include "workload/fileio/logs.h"
#include "workload/fileio/files.h"

#define T0 7000000000ull /* an arbitrary CLOCK_MONOTONIC epoch */
#define MS 1000000ull

static struct iolog l;
static uint64_t epoch = T0;

static int release(void **state)
{
	(void)state;
	iolog_release(&l);
	return 0;
}

/* The text of l's log of kind written with fmt, into buf. */
static const char *text_of(enum iolog_kind kind, const struct iolog_format *fmt, char *buf, size_t len)
{
	FILE *f;

	buf[0] = '\0'; /* fmemopen writes no NUL when nothing is written */
	f = fmemopen(buf, len, "w");
	assert_non_null(f);
	assert_int_equal(iolog_write(&l, kind, fmt, f), 0);
	fclose(f);
	return buf;
}

static void test_iolog_lines_per_io(void **state)
{
	const struct iolog_format plain = { .slat = true },
				  full = { .offset = true, .prio = true, .slat = true, .base_ms = 1000 };
	char buf[512];

	(void)state;
	assert_int_equal(iolog_init(&l, 0, 4, &epoch), 0);
	iolog_add(&l, 0, 4096, 8192, 0, 20000, 3000, T0 + 1 * MS + 5);
	iolog_add(&l, 1, 8192, 0, 0x2003, 40000, 0, T0 + 12 * MS);
	assert_string_equal(text_of(IOLOG_LAT, &plain, buf, sizeof(buf)),
			    "1, 23000, 0, 4096, 0\n12, 40000, 1, 8192, 1\n");
	assert_string_equal(text_of(IOLOG_CLAT, &full, buf, sizeof(buf)),
			    "1001, 20000, 0, 4096, 8192, 0x0000\n1012, 40000, 1, 8192, 0, 0x2003\n");
	assert_string_equal(text_of(IOLOG_SLAT, &plain, buf, sizeof(buf)),
			    "1, 3000, 0, 4096, 0\n12, 0, 1, 8192, 1\n");
	/* bw: 4096 * 10^6 / 20000 = 204800; iops: 1 */
	assert_string_equal(text_of(IOLOG_BW, &plain, buf, sizeof(buf)),
			    "1, 204800, 0, 4096, 0\n12, 204800, 1, 8192, 1\n");
	assert_string_equal(text_of(IOLOG_IOPS, &plain, buf, sizeof(buf)),
			    "1, 1, 0, 4096, 0\n12, 1, 1, 8192, 1\n");
	/* a synchronous engine has no submission latency: no slat lines, as fio */
	const struct iolog_format sync = { 0 };

	assert_string_equal(text_of(IOLOG_SLAT, &sync, buf, sizeof(buf)), "");
}

static void test_iolog_grows_past_its_reservation(void **state)
{
	const struct iolog_format fmt = { 0 };
	size_t n = 0, cap = 1 << 20;
	char *buf = malloc(cap);
	FILE *f;

	(void)state;
	assert_non_null(buf);
	assert_int_equal(iolog_init(&l, 0, 1, &epoch), 0);
	for (uint64_t i = 0; i < 5000; i++)
		iolog_add(&l, 0, 512, i * 512, 0, 1000 + i, 0, T0 + i * MS);
	assert_int_equal(l.lost, 0);
	f = fmemopen(buf, cap, "w");
	assert_int_equal(iolog_write(&l, IOLOG_CLAT, &fmt, f), 0);
	fclose(f);
	for (char *p = buf; (p = strchr(p, '\n')); p++)
		n++;
	assert_int_equal(n, 5000);
	/* in order: the last line is the last I/O */
	assert_non_null(strstr(buf, "4999, 5999, 0, 512, 0\n"));
	free(buf);
}

static void test_iolog_windows_are_fios(void **state)
{
	const struct iolog_format mean = { .slat = true },
				  max = { .window_value = IOLOG_WIN_MAX, .slat = true };
	char buf[512];

	(void)state;
	assert_int_equal(iolog_init(&l, 100, 4, &epoch), 0);
	/* reads at 10, 50 and 120 ms: the third ends the first window (at 120 ms) and is in it */
	iolog_add(&l, 0, 4096, 0, 0, 1000, 0, T0 + 10 * MS);
	iolog_add(&l, 0, 4096, 0, 0, 2000, 0, T0 + 50 * MS);
	iolog_add(&l, 0, 4096, 0, 0, 4000, 0, T0 + 120 * MS);
	/* the next starts at 100 ms on the grid: 150 ms is in it; a write at
	 * 130 ms ends the first window of the writes (0 to 100 ms) */
	iolog_add(&l, 0, 4096, 0, 0, 6000, 0, T0 + 150 * MS);
	iolog_add(&l, 1, 8192, 0, 0, 9000, 0, T0 + 130 * MS);
	iolog_finish(&l, T0 + 250 * MS);
	/* means rounded (7000 / 3 = 2333.3), bs and offset 0 */
	assert_string_equal(text_of(IOLOG_CLAT, &mean, buf, sizeof(buf)),
			    "120, 2333, 0, 0, 0\n130, 9000, 1, 0, 0\n250, 6000, 0, 0, 0\n");
	assert_string_equal(text_of(IOLOG_CLAT, &max, buf, sizeof(buf)),
			    "120, 4000, 0, 0, 0\n130, 9000, 1, 0, 0\n250, 6000, 0, 0, 0\n");
	/* over the time since the last window of the direction: 3 reads of 4 KiB
	 * in 120 ms = 100 KiB/s, 25 I/Os per second; a write of 8 KiB in 130 ms
	 * (61 KiB/s, 7 per second); the read of the last window in 130 ms */
	assert_string_equal(text_of(IOLOG_BW, &mean, buf, sizeof(buf)),
			    "120, 100, 0, 0, 0\n130, 61, 1, 0, 0\n250, 30, 0, 0, 0\n");
	assert_string_equal(text_of(IOLOG_IOPS, &mean, buf, sizeof(buf)),
			    "120, 25, 0, 0, 0\n130, 7, 1, 0, 0\n250, 7, 0, 0, 0\n");
	/* log_window_value=both: the mean, then the largest; the bandwidth
	 * has one figure a window, twice; log_issue_time's column is 0 in
	 * windows, as fio's (t0033, t0034) */
	const struct iolog_format both = {
		.window_value = IOLOG_WIN_BOTH, .slat = true, .offset = true, .issue_time = true
	};

	assert_string_equal(
		text_of(IOLOG_CLAT, &both, buf, sizeof(buf)),
		"120, 2333, 4000, 0, 0, 0, 0, 0\n130, 9000, 9000, 1, 0, 0, 0, 0\n250, 6000, 6000, 0, 0, 0, 0, 0\n");
	assert_string_equal(
		text_of(IOLOG_BW, &both, buf, sizeof(buf)),
		"120, 100, 100, 0, 0, 0, 0, 0\n130, 61, 61, 1, 0, 0, 0, 0\n250, 30, 30, 0, 0, 0, 0, 0\n");
}

static void test_iolog_issue_time_is_fios(void **state)
{
	const struct iolog_format fmt = { .slat = true, .offset = true, .issue_time = true };
	char buf[512];

	(void)state;
	assert_int_equal(iolog_init(&l, 0, 4, &epoch), 0);
	/* submitted over 300 ns, in flight 1000 ns, done at 5 ms: issued at
	 * 5 ms - 1000 ns (the end of its submit) */
	iolog_add(&l, 1, 4096, 8192, 0, 1000, 300, T0 + 5 * MS);
	assert_string_equal(text_of(IOLOG_CLAT, &fmt, buf, sizeof(buf)),
			    "5, 1000, 1, 4096, 8192, 0, 4999000\n");
	assert_string_equal(text_of(IOLOG_SLAT, &fmt, buf, sizeof(buf)),
			    "5, 300, 1, 4096, 8192, 0, 4999000\n");
	/* the total latency, the bandwidth and the IOPS have 0 there */
	assert_string_equal(text_of(IOLOG_LAT, &fmt, buf, sizeof(buf)), "5, 1300, 1, 4096, 8192, 0, 0\n");
	assert_string_equal(text_of(IOLOG_IOPS, &fmt, buf, sizeof(buf)), "5, 1, 1, 4096, 8192, 0, 0\n");
}

/* A validated fileio job from "key=value" words. */
static void make_job(struct job *job, const char *keys, int want)
{
	char copy[512], *save = NULL;
	struct dbio_err err = { 0 };

	assert_int_equal(plan_job_init(job, "j"), 0);
	snprintf(copy, sizeof(copy), "%s", keys);
	for (char *kv = strtok_r(copy, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(kv, '=');

		if (eq)
			*eq = '\0';
		if (job_set(job, kv, eq ? eq + 1 : NULL, NULL, &err))
			fail_msg("%s", err.msg);
	}
	assert_int_equal(plan_validate(job, &err), want);
}

static void test_iolog_cmdprio_forms(void **state)
{
	struct job job;

	(void)state;
#ifndef DBIO_HAVE_LIBURING
	skip(); /* its jobs are io_uring's: a build without liburing has none */
#endif
	/* one value for both directions, class RT by default */
	make_job(&job, "size=1m ioengine=io_uring cmdprio_percentage=20 cmdprio=3", 0);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_n[0], 1);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_n[1], 1);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_perc[1][0], 20);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_val[0][0], 1 << 13 | 3);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_bs[0][0], 0);
	job_release(&job);
	/* R,W; an empty part leaves its direction out */
	make_job(&job, "size=1m ioengine=io_uring cmdprio_percentage=,40 cmdprio_class=,3 cmdprio_hint=5", 0);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_n[0], 0);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_val[1][0], 3 << 13 | 5 << 3);
	job_release(&job);
	/* fio's example cmdprio-bssplit.fio's extended form, and its prioclass/prio default */
	make_job(
		&job,
		"size=1m ioengine=io_uring prioclass=2 prio=7 bssplit=64k/40:1024k/60,1024k/100 cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0,1024k/0",
		0);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_default, 2 << 13 | 7);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_n[0], 2);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_n[1], 0); /* 0 % says nothing */
	assert_int_equal(fileio_files(&job)->logs.cmdprio_bs[0][1], 65536);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_perc[0][1], 75);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_val[0][0], 1 << 13 | 1);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_val[0][1], 3 << 13 | 2);
	job_release(&job);
	/* the hint form (cmdprio-hints) */
	make_job(
		&job,
		"size=1m ioengine=io_uring rw=randread bssplit=1M/40:2M/60 cmdprio_bssplit=1M/10/2/0/1:2M/90/2/0/3",
		0);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_val[0][0], 2 << 13 | 1 << 3);
	assert_int_equal(fileio_files(&job)->logs.cmdprio_val[0][1], 2 << 13 | 3 << 3);
	job_release(&job);
	make_job(&job, "size=1m ioengine=io_uring cmdprio_class=4 cmdprio_percentage=1", DBIO_EINPUT);
	job_release(&job);
	make_job(&job, "size=1m ioengine=psync cmdprio=1", DBIO_EINPUT);
	job_release(&job);
}

static void test_iolog_cmdprio_draws(void **state)
{
	struct job job;
	struct rng rng;
	unsigned hits = 0;

	(void)state;
#ifndef DBIO_HAVE_LIBURING
	skip(); /* its jobs are io_uring's: a build without liburing has none */
#endif
	rng_seed(&rng, 42);
	make_job(&job, "size=1m ioengine=io_uring bssplit=4k/50:8k/50 cmdprio_bssplit=4k/100:8k/30/3/0", 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(cmdprio_pick(&job, &rng, OP_READ, 4096), 1 << 13);
	for (int i = 0; i < 10000; i++)
		hits += cmdprio_pick(&job, &rng, OP_WRITE, 8192) == 3 << 13;
	/* 30 % of 10,000 draws: within 2 points */
	assert_in_range(hits, 2800, 3200);
	/* a size without an entry: the job's default */
	assert_int_equal(cmdprio_pick(&job, &rng, OP_READ, 16384), 0);
	job_release(&job);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_iolog_lines_per_io, release),
		cmocka_unit_test_teardown(test_iolog_grows_past_its_reservation, release),
		cmocka_unit_test_teardown(test_iolog_issue_time_is_fios, release),
		cmocka_unit_test_teardown(test_iolog_windows_are_fios, release),
		cmocka_unit_test(test_iolog_cmdprio_forms),
		cmocka_unit_test(test_iolog_cmdprio_draws),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
