/*
 * Unit tests for the stonewall a job's threads share
 * (src/workload/stonewall.h), with made-up workers and no I/O: what each
 * thread tells it adds up, the wear-out's remainder is the agreed work
 * less what the rank did and its threads together take exactly that many
 * I/Os (also when several threads take at once), a thread whose files ran
 * out tells its work once, a loop's stop time is the stonewall before its
 * deadline, and without wear-out a thread stops at the stonewall.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <string.h>
#include <cmocka.h>

#include "workload/stonewall.h"
#include "workload/workload.h"

static atomic_int no_stop;

/* A worker of the job, done reads and writes of bs bytes measured so far. */
static void worker_at(struct worker *w, struct stonewall *s, uint64_t done, uint64_t bs)
{
	static atomic_int job_stop;

	memset(w, 0, sizeof(*w));
	w->wall = s;
	w->stop = &no_stop;
	w->job_stop = &job_stop;
	atomic_store(&w->progress_ops, done);
	w->stats[OP_READ].bytes = done * bs;
}

static void test_stonewall_tells_add_up(void **state)
{
	struct stonewall s;
	struct worker a, b;
	uint64_t ops = 0, bytes = 0, told = 0;

	(void)state;
	assert_int_equal(stonewall_init(&s, 2, false), 0);
	stonewall_arm(&s, 5000);
	worker_at(&a, &s, 30, 4096);
	worker_at(&b, &s, 12, 4096);
	assert_false(stonewall_pass(&a)); /* without wear-out: the thread stops */
	stonewall_leave(&b);		  /* its files ran out before the stonewall */
	stonewall_leave(&a);		  /* told already: not counted twice */
	stonewall_wait(&s, &ops, &bytes, &told);
	assert_int_equal(ops, 42);
	assert_int_equal(bytes, 42 * 4096);
	assert_true(told > 0);
	stonewall_decide(&s, 99);
	assert_int_equal(atomic_load(&s.left), 0); /* no wear-out: nothing shared */
	stonewall_release(&s);
}

static void test_stonewall_stop_at_is_the_wall_before_the_deadline(void **state)
{
	struct stonewall s;
	struct worker w;
	uint64_t stop_at;

	(void)state;
	assert_int_equal(stonewall_init(&s, 1, false), 0);
	stonewall_arm(&s, 1000);
	worker_at(&w, &s, 0, 512);
	assert_int_equal(stonewall_stop_at(&w, UINT64_MAX), 1000);
	assert_int_equal(stonewall_stop_at(&w, 800), 800); /* runtime first */
	stop_at = 1000;
	assert_false(stonewall_past(&w, 900, 900, &stop_at)); /* at the deadline: stop */
	assert_false(w.wall_told);
	assert_false(stonewall_past(&w, 1000, UINT64_MAX, &stop_at)); /* no wear-out: stop */
	assert_true(w.wall_told);
	assert_int_equal(stonewall_stop_at(&w, UINT64_MAX), UINT64_MAX); /* passed */
	w.wall = NULL;
	assert_int_equal(stonewall_stop_at(&w, 700), 700);
	stonewall_release(&s);
}

struct taker {
	struct stonewall *s;
	uint64_t took;
};

static void *take_all(void *arg)
{
	struct taker *t = arg;

	while (stonewall_take(t->s))
		t->took++;
	return NULL;
}

/* The runner's side in a thread, as run_walls_decide: wait, agree, decide. */
static void *decide(void *arg)
{
	struct stonewall *s = arg;
	uint64_t ops, bytes, told;

	stonewall_wait(s, &ops, &bytes, &told);
	stonewall_decide(s, 1000 > ops ? 1000 : ops); /* another rank did 1000 */
	return NULL;
}

static void test_stonewall_wearout_shares_the_remainder_exactly(void **state)
{
	struct stonewall s;
	struct worker a, b;
	struct taker t[4];
	pthread_t th[4], runner;
	uint64_t sum = 0;

	(void)state;
	assert_int_equal(stonewall_init(&s, 2, true), 0);
	stonewall_arm(&s, 1);
	worker_at(&a, &s, 300, 4096);
	worker_at(&b, &s, 100, 4096);
	assert_int_equal(pthread_create(&runner, NULL, decide, &s), 0);
	stonewall_leave(&b);		 /* b ended before the stonewall ... */
	assert_true(stonewall_pass(&a)); /* ... a waits for the agreed work, then goes on */
	assert_int_equal(pthread_join(runner, NULL), 0);
	assert_int_equal(atomic_load(&s.left), 600); /* 1000 agreed less 400 done */
	for (int i = 0; i < 4; i++) {
		t[i] = (struct taker){ .s = &s };
		assert_int_equal(pthread_create(&th[i], NULL, take_all, &t[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(th[i], NULL), 0);
		sum += t[i].took;
	}
	assert_int_equal(sum, 600);
	assert_false(stonewall_take(&s));
	stonewall_release(&s);
}

static void test_stonewall_wearout_most_is_mine(void **state)
{
	struct stonewall s;
	struct worker a;
	uint64_t ops, bytes, told;

	(void)state;
	assert_int_equal(stonewall_init(&s, 1, true), 0);
	stonewall_arm(&s, 1);
	worker_at(&a, &s, 7, 4096);
	stonewall_leave(&a);
	stonewall_wait(&s, &ops, &bytes, &told);
	stonewall_decide(&s, ops); /* the rank that did the most: nothing to wear out */
	assert_false(stonewall_pass(&a));
	assert_false(stonewall_take(&s));
	stonewall_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stonewall_tells_add_up),
		cmocka_unit_test(test_stonewall_stop_at_is_the_wall_before_the_deadline),
		cmocka_unit_test(test_stonewall_wearout_shares_the_remainder_exactly),
		cmocka_unit_test(test_stonewall_wearout_most_is_mine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
