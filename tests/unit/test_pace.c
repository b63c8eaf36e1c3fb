/*
 * Unit tests for fio's keys of pacing and threads: the parsing and checks
 * of src/workload/fileio/check_pacing.c (fio's R,W rate forms, startdelay ranges, CPU
 * lists and masks, nice, the refused values, the batch keys' fix-ups), and
 * the arithmetic of src/workload/fileio/pace.h driven with made-up clocks: the
 * linear rate's schedule, a mixed job's direction giving way, Poisson's
 * mean gap, thinktime's counting by blocks and by time, the credit of
 * rate_ignore_thinktime, and the rate floor's settle time, windows and the
 * rate it reports. Exact figures throughout.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <unistd.h>

#include "job/job.h"
#include "plan/plan.h"
#include "util/clock.h"
#include "engine/engine.h"
#include "workload/fileio/keys.h"
#include "workload/fileio/pace.h"
#include "workload/fileio/files.h"

#define MS 1000000ull
#define S  1000000000ull

static struct job made[64];
static size_t nmade;

static int release_made(void **state)
{
	(void)state;
	while (nmade)
		job_release(&made[--nmade]);
	return 0;
}

/* job, made anew, with size=1m and the keys of kv ("key=value" each). */
static void make_job(struct job *job, const char *const *kv)
{
	struct dbio_err err = { 0 };

	assert_true(nmade < sizeof(made) / sizeof(made[0]));
	assert_int_equal(plan_job_init(job, "j"), 0);
	nmade++;
	assert_int_equal(job_set(job, "size", "1m", NULL, &err), 0);
	for (; *kv; kv++) {
		char key[64];
		const char *eq = strchr(*kv, '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - *kv), *kv);
		if (job_set(job, key, eq + 1, NULL, &err))
			fail_msg("%s: %s", *kv, err.msg);
	}
}

/* A fileio job of size=1m with the keys of kv, validated. */
static struct job *job_of(const char *const *kv)
{
	struct job *job = &made[nmade];
	struct dbio_err err = { 0 };

	make_job(job, kv);
	if (plan_validate(job, &err))
		fail_msg("%s", err.msg);
	return job;
}

/* The same keys must be refused with exactly msg. */
static void refused(const char *const *kv, const char *msg)
{
	struct job *job = &made[nmade];
	struct dbio_err err = { 0 };

	make_job(job, kv);
	assert_int_equal(plan_validate(job, &err), DBIO_EINPUT);
	assert_string_equal(err.msg, msg);
}

#define KEYS(...)                                                                                            \
	(const char *const[])                                                                                \
	{                                                                                                    \
		__VA_ARGS__, NULL                                                                            \
	}

static void test_pace_rw_pair_forms(void **state)
{
	uint64_t v[2];

	(void)state;
	assert_int_equal(job_parse_rw_pair("1m", v), 0);
	assert_int_equal(v[0], 1048576);
	assert_int_equal(v[1], 1048576);
	assert_int_equal(job_parse_rw_pair("1m,500k", v), 0);
	assert_int_equal(v[0], 1048576);
	assert_int_equal(v[1], 512000);
	assert_int_equal(job_parse_rw_pair("500k,", v), 0);
	assert_int_equal(v[0], 512000);
	assert_int_equal(v[1], 0);
	assert_int_equal(job_parse_rw_pair(",2k", v), 0);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[1], 2048);
	assert_int_equal(job_parse_rw_pair("1,2,3", v), 0); /* a trim rate has nothing to cap */
	assert_int_equal(v[0], 1);
	assert_int_equal(v[1], 2);
	assert_int_equal(job_parse_rw_pair("", v), 0);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[1], 0);
	assert_int_equal(job_parse_rw_pair("0", v), 0); /* fio: no cap */
	assert_int_equal(v[0], 0);
	assert_int_equal(job_parse_rw_pair("1m,2m,3m,4m", v), -EINVAL);
	assert_int_equal(job_parse_rw_pair("1x", v), -EINVAL);
	assert_int_equal(job_parse_rw_pair("-1", v), -EINVAL);
	assert_int_equal(job_parse_rw_pair("1,x", v), -EINVAL);
	assert_int_equal(job_parse_rw_pair("99999999999999999999", v), -EINVAL);
}

static void test_pace_job_rates(void **state)
{
	const struct job *job;

	(void)state;
	job = job_of(KEYS("rate_iops=100,50", "rate=,1m", "bs=8k"));
	assert_int_equal(fileio_files(job)->pacing.rate_bps[0], 100 * 8192); /* rate_iops * bs */
	assert_int_equal(fileio_files(job)->pacing.rate_bps[1], 1048576);    /* rate wins, as in fio */
	job = job_of(KEYS("rate_min=1m,", "rate_iops_min=10"));
	assert_int_equal(fileio_files(job)->pacing.rate_min_bps[0], 1048576);
	assert_int_equal(fileio_files(job)->pacing.rate_min_iops[0], 0); /* rate_min is checked instead */
	assert_int_equal(fileio_files(job)->pacing.rate_min_bps[1], 0);
	assert_int_equal(fileio_files(job)->pacing.rate_min_iops[1], 10);
	refused(KEYS("rate=1m:2m"),
		"command line: key 'rate': bad value '1m:2m': expected one value for reads and writes, or R,W for each (R, caps reads only, ,W writes only), each bytes per second with an optional k, m or g suffix (binary), e.g. 1m or ,500k (job 'j')");
	refused(KEYS("rate_iops_min=x"),
		"command line: key 'rate_iops_min': bad value 'x': expected one value for reads and writes, or R,W for each (R, caps reads only, ,W writes only), each reads or writes per second, e.g. 500 or ,100 (job 'j')");
}

static void test_pace_job_startdelay(void **state)
{
	const struct job *job;

	(void)state;
	job = job_of(KEYS("startdelay=2"));
	assert_int_equal(fileio_files(job)->pacing.startdelay_lo_ns, 2 * S);
	assert_int_equal(fileio_files(job)->pacing.startdelay_hi_ns, 2 * S);
	job = job_of(KEYS("startdelay=500ms-3s"));
	assert_int_equal(fileio_files(job)->pacing.startdelay_lo_ns, 500 * MS);
	assert_int_equal(fileio_files(job)->pacing.startdelay_hi_ns, 3 * S);
	refused(KEYS("startdelay=3-1"),
		"command line: key 'startdelay': bad value '3-1': the range is inverted (lo > hi) (job 'j')");
	refused(KEYS("startdelay=1s-"),
		"command line: key 'startdelay': bad value '1s-': expected a duration or a range lo-hi of durations, each with a suffix ns, us, ms, s, m or h (a bare number is in seconds), e.g. 10s or 1-5 (job 'j')");
}

static void test_pace_job_cpus(void **state)
{
	const long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	const struct job *job;
	char msg[256];

	(void)state;
	job = job_of(KEYS("cpus_allowed=0,0-0,"));
	assert_true(fileio_files(job)->pacing.cpus_set);
	assert_int_equal(fileio_files(job)->pacing.cpus[0], 1);
	job = job_of(KEYS("cpumask=0x1"));
	assert_int_equal(fileio_files(job)->pacing.cpus[0], 1);
	job = job_of(KEYS("cpumask=1", "cpus_allowed_policy=split"));
	assert_int_equal(fileio_files(job)->pacing.cpus[0], 1);
	assert_int_equal(fileio_files(job)->pacing.cpus_allowed_policy, CPUS_SPLIT);
	job = job_of(KEYS("rw=read"));
	assert_false(fileio_files(job)->pacing.cpus_set);
	refused(KEYS("cpus_allowed=1-0"),
		"command line: key 'cpus_allowed': bad value '1-0': the range 1-0 is inverted (job 'j')");
	refused(KEYS("cpus_allowed=0,,1"),
		"command line: key 'cpus_allowed': bad value '0,,1': expected CPU numbers from 0 and ranges of them separated by commas, e.g. 0,5,8-15 (job 'j')");
	snprintf(msg, sizeof(msg),
		 "command line: key 'cpus_allowed': CPU %ld: this machine has CPUs 0 to %ld (job 'j')", ncpus,
		 ncpus - 1);
	char list[32];

	snprintf(list, sizeof(list), "cpus_allowed=0-%ld", ncpus);
	refused((const char *const[]){ list, NULL }, msg);
	refused(KEYS("cpumask=0x100000000"),
		"command line: key 'cpumask': bad value '0x100000000': expected a bit mask of CPUs 0 to 31, decimal or 0x hex, e.g. 34 or 0x22 (job 'j')");
	refused(KEYS("cpumask=0"), "command line: key 'cpumask': bad value '0': names no CPU (job 'j')");
	refused(KEYS("cpumask=1", "cpus_allowed=0"),
		"command line: key 'cpumask': given with cpus_allowed: both name the job's CPUs; give one of them (job 'j')");
}

static void test_pace_job_modes(void **state)
{
	const struct job *job;

	(void)state;
	job = job_of(KEYS("nice=-20", "continue_on_error=0", "io_submit_mode=inline", "exit_what=stonewall"));
	assert_int_equal(fileio_files(job)->pacing.nice_inc, -20);
	assert_int_equal(fileio_files(job)->pacing.exit_what, EXIT_STONEWALL);
	job = job_of(KEYS("nice=19", "continue_on_error=none"));
	assert_int_equal(fileio_files(job)->pacing.nice_inc, 19);
	refused(KEYS("nice=20"),
		"command line: key 'nice': bad value '20': expected a whole number from -20 to 19 (job 'j')");
	assert_int_equal(fileio_files(job_of(KEYS("continue_on_error=none")))->pacing.continue_on, 0);
	assert_int_equal(fileio_files(job_of(KEYS("continue_on_error=read")))->pacing.continue_on,
			 CONTINUE_READ);
	assert_int_equal(fileio_files(job_of(KEYS("continue_on_error=write")))->pacing.continue_on,
			 CONTINUE_WRITE);
	assert_int_equal(fileio_files(job_of(KEYS("continue_on_error=io")))->pacing.continue_on,
			 CONTINUE_READ | CONTINUE_WRITE | CONTINUE_TRIM);
	refused(KEYS("continue_on_error=all"),
		"command line: key 'continue_on_error': all is not honoured: dbio goes on after read and write errors but stops at a verify mismatch; use continue_on_error=io (job 'j')");
	refused(KEYS("continue_on_error=sometimes"),
		"command line: key 'continue_on_error': bad value 'sometimes': expected none, read, write or io (fio's verify, all and 1 are not honoured) (job 'j')");
	assert_true(fileio_conf(job_of(KEYS("io_submit_mode=offload")))->offload);
	refused(KEYS("io_submit_mode=pool"),
		"command line: key 'io_submit_mode': bad value 'pool': expected inline or offload (job 'j')");
	assert_int_equal(fileio_files(job_of(KEYS("exit_what=all")))->pacing.exit_what, EXIT_ALL);
#if defined(DBIO_HAVE_LIBURING) && defined(DBIO_HAVE_LIBAIO)
	refused(KEYS("iodepth_batch_complete=2"),
		"command line: key 'iodepth_batch_complete_min': belongs to the engines that queue (ioengine=io_uring, libaio or posixaio); this job is ioengine=psync, which keeps one I/O in flight (job 'j')");
#endif
}

/* fio's fix-ups of the batch keys against iodepth; dbio's default reaps
 * every completion there is. */
static void test_pace_job_batches(void **state)
{
	const struct job *job;

	(void)state;
	job = job_of(KEYS("ioengine=null", "rw=read"));
	assert_int_equal(fileio_conf(job)->iodepth_batch_submit, 1);
	assert_int_equal(fileio_conf(job)->iodepth_batch_complete_min, 1);
	assert_int_equal(fileio_conf(job)->iodepth_batch_complete_max, 1);
	assert_int_equal(fileio_conf(job)->iodepth_low, 1);
#ifdef DBIO_HAVE_LIBURING
	job = job_of(KEYS("ioengine=io_uring", "iodepth=16"));
	assert_int_equal(fileio_conf(job)->iodepth_batch_submit, 16);
	assert_int_equal(fileio_conf(job)->iodepth_batch_complete_min, 1);
	assert_int_equal(fileio_conf(job)->iodepth_batch_complete_max, 16);
	assert_int_equal(fileio_conf(job)->iodepth_low, 16);
	job = job_of(KEYS("ioengine=io_uring", "iodepth=16", "iodepth_batch=32", "iodepth_low=4",
			  "iodepth_batch_complete_min=4"));
	assert_int_equal(fileio_conf(job)->iodepth_batch_submit, 16);	   /* more than iodepth: iodepth */
	assert_int_equal(fileio_conf(job)->iodepth_batch_complete_max, 4); /* fio's default: the min */
	assert_int_equal(fileio_conf(job)->iodepth_low, 4);
	job = job_of(KEYS("ioengine=io_uring", "iodepth=16", "iodepth_batch_complete_min=0"));
	assert_int_equal(fileio_conf(job)->iodepth_batch_complete_max, 0); /* polling, as fio */
	job = job_of(KEYS("ioengine=io_uring", "iodepth=16", "iodepth_batch_complete_min=8",
			  "iodepth_batch_complete_max=2"));
	assert_int_equal(fileio_conf(job)->iodepth_batch_complete_max, 8);
#endif
}

/* A pace for job at epoch 0. */
static void pace_at0(struct pace *p, const struct job *job)
{
	pace_init(p, job, 1, NULL, NULL);
	pace_start(p, 0);
}

/* The queued loop's pauses: inline waits for what is in flight before a
 * rate pause (no reap deadline, nothing filled), offload does not: the
 * engine's reap returns at the pause's end, and then the loop fills
 * whatever is in flight. A drained loop sleeps the pause out; a thinktime
 * or flow pause drains with offload too. */
static void test_pace_queue_pause(void **state)
{
	struct pace p;
	struct engine e = { 0 };
	uint64_t now = clock_now_ns();
	const uint64_t far = now + 10 * S;

	(void)state;
#ifndef DBIO_HAVE_LIBURING
	skip(); /* its jobs are io_uring's: a build without liburing has none */
#endif
	pace_init(&p, job_of(KEYS("ioengine=io_uring", "rw=read", "rate_iops=1000")), 1, NULL, NULL);
	assert_false(p.offload);
	p.pause = PACE_RATE;
	p.pause_until = now + 5 * MS;
	assert_false(pace_queue_pause(&p, &e, 3, false, OP_READ, &now, far));
	assert_int_equal(e.reap_until, 0);
	assert_int_equal(p.pause, PACE_RATE);
	/* drained: the pause is slept out, to its end */
	assert_true(pace_queue_pause(&p, &e, 0, false, OP_READ, &now, far));
	assert_true(now >= p.pause_until);
	assert_int_equal(p.pause, PACE_GO);
	/* stopping (busy with nothing in flight): no pause */
	p.pause = PACE_RATE;
	p.pause_until = now + 5 * S;
	assert_true(pace_queue_pause(&p, &e, 0, true, OP_READ, &now, far));
	assert_true(now < p.pause_until);
	assert_int_equal(p.pause, PACE_GO);

	pace_init(&p,
		  job_of(KEYS("ioengine=io_uring", "rw=read", "rate_iops=1000", "io_submit_mode=offload")), 1,
		  NULL, NULL);
	assert_true(p.offload);
	now = clock_now_ns();
	p.pause = PACE_RATE;
	p.pause_until = now + 5 * MS;
	assert_false(pace_queue_pause(&p, &e, 3, false, OP_READ, &now, far));
	assert_int_equal(e.reap_until, p.pause_until);
	assert_int_equal(p.pause, PACE_RATE);
	/* never past the runtime's deadline */
	assert_false(pace_queue_pause(&p, &e, 3, false, OP_READ, &now, now + MS));
	assert_int_equal(e.reap_until, now + MS);
	/* a full queue (busy) reaps as inline: it cannot issue anyway */
	assert_false(pace_queue_pause(&p, &e, 3, true, OP_READ, &now, far));
	assert_int_equal(e.reap_until, 0);
	/* its time came: fill now, with 3 in flight */
	now = p.pause_until;
	assert_false(pace_queue_pause(&p, &e, 3, false, OP_READ, &now, far));
	assert_int_equal(p.pause, PACE_GO);
	assert_int_equal(e.reap_until, 0);
	/* a flow pause drains with offload too */
	p.pause = PACE_RATE;
	p.pause_until = now + MS;
	p.flow_held = true;
	assert_false(pace_queue_pause(&p, &e, 3, false, OP_READ, &now, far));
	assert_int_equal(e.reap_until, 0);
	assert_int_equal(p.pause, PACE_RATE);
}

static void test_pace_linear_rate(void **state)
{
	struct pace p;
	enum op_type op = OP_READ;

	(void)state;
	pace_at0(&p, job_of(KEYS("rw=read", "rate_iops=1000")));
	assert_true(p.on);
	assert_true(p.rate);
	assert_int_equal(pace_rate_wait_ns(&p, &op, 0), 0); /* the first goes at once */
	pace_issued(&p, OP_READ, 4096);
	assert_int_equal(pace_rate_wait_ns(&p, &op, 250000), 750000);
	assert_int_equal(pace_rate_wait_ns(&p, &op, 1 * MS), 0);
	pace_issued(&p, OP_READ, 4096);
	pace_issued(&p, OP_READ, 4096);
	assert_int_equal(pace_rate_wait_ns(&p, &op, 1 * MS), 2 * MS); /* the schedule, not the last I/O */
	assert_int_equal(op, OP_READ);
	assert_int_equal(p.issued, 3);
	/* catching up after a stall: behind the schedule, no wait */
	assert_int_equal(pace_rate_wait_ns(&p, &op, 50 * MS), 0);
	/* a write of a read-only capped job has no cap */
	op = OP_WRITE;
	assert_int_equal(pace_rate_wait_ns(&p, &op, 0), 0);
	/* the ramp's end starts the schedule again */
	pace_start(&p, 7 * S);
	op = OP_READ;
	assert_int_equal(pace_rate_wait_ns(&p, &op, 7 * S), 0);
	assert_int_equal(p.issued, 0);
}

static void test_pace_mixed_gives_way(void **state)
{
	struct pace p;
	enum op_type op;

	(void)state;
	/* writes capped at 10/s, reads free: a write ahead becomes a read */
	pace_at0(&p, job_of(KEYS("rw=randrw", "rate_iops=,10")));
	pace_issued(&p, OP_WRITE, 4096);
	op = OP_WRITE;
	assert_int_equal(pace_rate_wait_ns(&p, &op, 1 * MS), 0);
	assert_int_equal(op, OP_READ);
	/* both capped and both ahead: wait for the one due first, and do it */
	pace_at0(&p, job_of(KEYS("rw=randrw", "rate_iops=100,10")));
	pace_issued(&p, OP_READ, 4096);
	pace_issued(&p, OP_WRITE, 4096);
	op = OP_WRITE;
	assert_int_equal(pace_rate_wait_ns(&p, &op, 1 * MS), 9 * MS);
	assert_int_equal(op, OP_READ);
	/* no share of the mix for the other direction: no switch, as fio */
	pace_at0(&p, job_of(KEYS("rw=randrw", "rwmixread=100", "rate_iops=10,")));
	pace_issued(&p, OP_READ, 4096);
	op = OP_READ;
	assert_int_equal(pace_rate_wait_ns(&p, &op, 0), 100 * MS);
	assert_int_equal(op, OP_READ);
}

static void test_pace_poisson_mean(void **state)
{
	struct pace p;
	enum op_type op = OP_WRITE;
	const int n = 100000;

	(void)state;
	pace_at0(&p, job_of(KEYS("rw=write", "rate_iops=1000", "rate_process=poisson")));
	for (int i = 0; i < n; i++)
		pace_issued(&p, OP_WRITE, 4096);
	/* n gaps of mean 1 ms: within 1 % (the standard error is 0.3 %) */
	assert_true(fabs((double)p.next_ns[1] / n - 1e6) < 1e4);
	assert_int_equal(pace_rate_wait_ns(&p, &op, 0), p.next_ns[1]);
}

static void test_pace_think_counts(void **state)
{
	struct pace p;

	(void)state;
	pace_at0(&p, job_of(KEYS("rw=read", "thinktime=10", "thinktime_blocks=3")));
	assert_true(p.think);
	assert_false(p.rate);
	p.issued = p.completed = 2;
	assert_false(pace_think_due(&p, 0));
	p.issued = 4; /* counted by completions by default */
	assert_false(pace_think_due(&p, 0));
	p.completed = 3;
	assert_true(pace_think_due(&p, 0));
	assert_int_equal(pace_think(&p, OP_READ, 5 * MS, 5 * MS), 5 * MS); /* at the deadline: no pause */
	p.completed = 5;
	assert_false(pace_think_due(&p, 0));
	p.completed = 6;
	assert_true(pace_think_due(&p, 0));
	/* by issue, and by time alone */
	pace_at0(&p, job_of(KEYS("rw=read", "thinktime=10", "thinktime_blocks=2",
				 "thinktime_blocks_type=issue")));
	p.issued = 2;
	assert_true(pace_think_due(&p, 0));
	pace_at0(&p, job_of(KEYS("rw=read", "thinktime=10", "thinktime_iotime=1s")));
	p.issued = p.completed = 1000;
	assert_false(pace_think_due(&p, 999 * MS));
	assert_true(pace_think_due(&p, 1 * S));
	/* with thinktime_blocks given too, whichever comes first */
	pace_at0(&p, job_of(KEYS("rw=read", "thinktime=10", "thinktime_iotime=1s", "thinktime_blocks=1000")));
	p.issued = p.completed = 1000;
	assert_true(pace_think_due(&p, 0));
}

/* rate_ignore_thinktime: a 100 ms pause at 1 MiB/s is 104857 bytes of the
 * rate, less one block (fio's rule); without the key, none. */
static void test_pace_think_credit(void **state)
{
	struct pace p;
	const uint64_t now = 1000 * S;

	(void)state;
	pace_init(&p, job_of(KEYS("rw=read", "rate=1m", "thinktime=100ms", "rate_ignore_thinktime=1")), 1,
		  NULL, NULL);
	pace_start(&p, now);
	p.completed = 1;
	assert_true(pace_think_due(&p, now));
	uint64_t after = pace_think(&p, OP_READ, now, now); /* the deadline is now: no pause, no credit */
	assert_int_equal(after, now);
	assert_int_equal(p.rate_bytes[0], 0);
	pace_start(&p, 0);
	uint64_t t0 = clock_now_ns();

	after = pace_think(&p, OP_READ, t0, UINT64_MAX);
	assert_true(after - t0 >= 100 * MS);
	assert_int_equal(p.rate_bytes[0], (uint64_t)((unsigned __int128)1048576 * (after - t0) / S) - 4096);
}

static void stats_set(struct op_stats *s, uint64_t reads, uint64_t writes)
{
	for (int t = 0; t < OP_NTYPES; t++)
		op_stats_init(&s[t]);
	for (uint64_t i = 0; i < reads; i++)
		op_stats_add(&s[OP_READ], 4096, 1000);
	for (uint64_t i = 0; i < writes; i++)
		op_stats_add(&s[OP_WRITE], 4096, 1000);
}

static void test_pace_floor(void **state)
{
	static struct op_stats s[OP_NTYPES];
	struct pace p;
	struct pace_miss m;
	char text[160];

	(void)state;
	pace_at0(&p, job_of(KEYS("rw=randrw", "rate_iops_min=,100")));
	assert_true(p.floor);
	stats_set(s, 10, 10);
	assert_false(pace_floor_missed(&p, s, 1999 * MS, &m)); /* fio's 2 s to settle */
	assert_false(pace_floor_missed(&p, s, 2 * S, &m));     /* the first look: where it stands */
	stats_set(s, 10, 60);
	assert_false(pace_floor_missed(&p, s, 2 * S + 999 * MS, &m)); /* within rate_cycle */
	assert_true(pace_floor_missed(&p, s, 2500 * MS + 500 * MS, &m));
	assert_int_equal(m.dir, 1);
	assert_true(m.iops);
	assert_int_equal(m.want, 100);
	assert_int_equal(m.got, 50);
	assert_int_equal(m.window_ns, 1 * S);
	pace_miss_text(&m, text, sizeof(text));
	assert_string_equal(text, "rate_iops_min=100 not met: writes at 50 IOPS over the last 1.00 s");
	/* bytes, and a direction without I/O is not checked */
	pace_at0(&p, job_of(KEYS("rw=read", "rate_min=1m", "rate_cycle=500")));
	stats_set(s, 1, 0);
	assert_false(pace_floor_missed(&p, s, 2 * S, &m));
	stats_set(s, 129, 0); /* 128 reads of 4 KiB in 0.5 s: exactly 1 MiB/s */
	assert_false(pace_floor_missed(&p, s, 2500 * MS, &m));
	stats_set(s, 192, 0); /* 63 in 0.5 s */
	assert_true(pace_floor_missed(&p, s, 3 * S, &m));
	pace_miss_text(&m, text, sizeof(text));
	assert_string_equal(text, "rate_min=1 MiB/s not met: reads at 504 KiB/s over the last 500 ms");
}

/* fio numbers the threads of a run over every job in order, and one
 * exitall is the whole run's (plan_threads, by plan_groups). */
static void test_pace_plan_threads(void **state)
{
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };

	(void)state;
	if (plan_jobfile_parse_string(&set, "[a]\nnumjobs=3\n[b]\nstonewall\n[c]\nnumjobs=2\nexitall\n[d]\n",
				      "x.fio", &err) ||
	    plan_groups(&set, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(set.njobs, 4);
	assert_int_equal(fileio_files(&set.jobs[0])->pacing.thread_base, 0);
	assert_int_equal(fileio_files(&set.jobs[1])->pacing.thread_base, 3);
	assert_int_equal(fileio_files(&set.jobs[2])->pacing.thread_base, 4);
	assert_int_equal(fileio_files(&set.jobs[3])->pacing.thread_base, 6);
	for (size_t j = 0; j < set.njobs; j++)
		assert_true(fileio_files(&set.jobs[j])->pacing.exitall_any);
	jobset_release(&set);
	assert_int_equal(plan_jobfile_parse_string(&set, "[a]\n[b]\n", "x.fio", &err), 0);
	assert_int_equal(plan_groups(&set, &err), 0);
	assert_false(fileio_files(&set.jobs[0])->pacing.exitall_any);
	jobset_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_pace_rw_pair_forms, release_made),
		cmocka_unit_test_teardown(test_pace_job_rates, release_made),
		cmocka_unit_test_teardown(test_pace_job_startdelay, release_made),
		cmocka_unit_test_teardown(test_pace_job_cpus, release_made),
		cmocka_unit_test_teardown(test_pace_job_modes, release_made),
		cmocka_unit_test_teardown(test_pace_job_batches, release_made),
		cmocka_unit_test_teardown(test_pace_queue_pause, release_made),
		cmocka_unit_test_teardown(test_pace_linear_rate, release_made),
		cmocka_unit_test_teardown(test_pace_mixed_gives_way, release_made),
		cmocka_unit_test_teardown(test_pace_poisson_mean, release_made),
		cmocka_unit_test_teardown(test_pace_think_counts, release_made),
		cmocka_unit_test_teardown(test_pace_think_credit, release_made),
		cmocka_unit_test_teardown(test_pace_floor, release_made),
		cmocka_unit_test(test_pace_plan_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
