/*
 * Unit tests for sysbench's rounds of syncs (src/workload/fileio/jobsync.c,
 * fsync_scope=job): which request of a job's shared count starts a round,
 * that a round needs a write since the last one, none after the job's last
 * request (but after a thread's last while others go on), the sync a round makes,
 * and that four threads counting at once make exactly the rounds one
 * thread would. Exact figures throughout.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <cmocka.h>

#include "job/job.h"
#include "plan/plan.h"
#include "workload/fileio/jobsync.h"
#include "workload/fileio/files.h"

static struct job job; /* only the sync keys and numjobs are read */

static void init(struct jobsync *js, int scope, uint64_t fsync, uint64_t fdatasync)
{
	if (!job.keys) {
		assert_int_equal(plan_job_init(&job, "j"), 0);
		job.numjobs = 1;
	}
	fileio_files(&job)->layout.fsync_scope = scope;
	fileio_files(&job)->layout.fsync = fsync;
	fileio_files(&job)->layout.fdatasync = fdatasync;
	assert_int_equal(jobsync_init(js, &job, NULL), 0);
}

static void test_jobsync_every_nth_request_with_a_write(void **state)
{
	struct jobsync js;
	unsigned rounds = 0;

	(void)state;
	init(&js, FSYNC_SCOPE_JOB, 100, 0);
	assert_int_equal(js.every, 100);
	assert_int_equal(js.op, OP_FSYNC);
	for (unsigned i = 1; i <= 1000; i++) {
		unsigned due = jobsync_count(&js, OP_WRITE, true);

		assert_int_equal(due, i % 100 ? 0 : JOBSYNC_ROUND);
		rounds += due != 0;
	}
	assert_int_equal(rounds, 10);
}

static void test_jobsync_reads_count_but_make_no_round_alone(void **state)
{
	struct jobsync js;
	unsigned rounds = 0;

	(void)state;
	init(&js, FSYNC_SCOPE_JOB, 0, 10);
	assert_int_equal(js.op, OP_FDATASYNC);
	/* one write among the first 10 requests, none among the next 10,
	 * and the 30th request a write: rounds after 10 and 30 */
	for (unsigned i = 1; i <= 30; i++) {
		unsigned due = jobsync_count(&js, i == 3 || i == 30 ? OP_WRITE : OP_READ, true);

		assert_int_equal(due, i == 10 || i == 30 ? JOBSYNC_ROUND : 0);
		rounds += due != 0;
	}
	assert_int_equal(rounds, 2);
}

static void test_jobsync_no_round_after_the_jobs_last_request(void **state)
{
	struct jobsync js;

	(void)state;
	job.numjobs = 2;
	init(&js, FSYNC_SCOPE_JOB, 10, 0);
	/* thread A's last request is the 10th: B has requests left, so the round is made */
	for (unsigned i = 1; i < 10; i++)
		assert_int_equal(jobsync_count(&js, OP_WRITE, true), 0);
	assert_int_equal(jobsync_count(&js, OP_WRITE, false), JOBSYNC_ROUND);
	/* B's last is the 20th: the job's last, no round after it */
	for (unsigned i = 11; i < 20; i++)
		assert_int_equal(jobsync_count(&js, OP_WRITE, true), 0);
	assert_int_equal(jobsync_count(&js, OP_WRITE, false), 0);
	job.numjobs = 1;
}

static void test_jobsync_scope_file_counts_nothing(void **state)
{
	struct jobsync js;

	(void)state;
	init(&js, FSYNC_SCOPE_FILE, 100, 0);
	assert_int_equal(js.every, 0);
}

struct counter {
	struct jobsync *js;
	unsigned rounds;
};

static void *count_many(void *arg)
{
	struct counter *c = arg;

	for (unsigned i = 0; i < 25000; i++)
		c->rounds += jobsync_count(c->js, OP_WRITE, true) != 0;
	return NULL;
}

static void test_jobsync_four_threads_make_the_rounds_of_one(void **state)
{
	struct jobsync js;
	struct counter c[4];
	pthread_t t[4];
	unsigned rounds = 0;

	(void)state;
	init(&js, FSYNC_SCOPE_JOB, 100, 0);
	for (int i = 0; i < 4; i++) {
		c[i] = (struct counter){ .js = &js };
		assert_int_equal(pthread_create(&t[i], NULL, count_many, &c[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		rounds += c[i].rounds;
	}
	assert_int_equal(rounds, 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobsync_every_nth_request_with_a_write),
		cmocka_unit_test(test_jobsync_reads_count_but_make_no_round_alone),
		cmocka_unit_test(test_jobsync_no_round_after_the_jobs_last_request),
		cmocka_unit_test(test_jobsync_scope_file_counts_nothing),
		cmocka_unit_test(test_jobsync_four_threads_make_the_rounds_of_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
