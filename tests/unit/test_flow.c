/*
 * Unit tests for fio's flow control (src/workload/fileio/flow.h): the shared
 * count starts at 1 as fio's, a thread over its share of the weight is
 * held back, two threads taking turns end in the ratio of their weights
 * exactly, and a thread that leaves takes its count and weight away.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "workload/fileio/flow.h"

/* Two threads of weights 1 and 8 ask in turn, 9000 times in all: each
 * issues when flow_go lets it; they end 1:8 exactly. */
static void test_flow_ratio(void **state)
{
	struct flow f;
	uint64_t mine[2] = { 0, 0 };
	const uint64_t weight[2] = { 1, 8 };

	(void)state;
	flow_init(&f, 0);
	flow_join(&f, 1);
	flow_join(&f, 8);
	for (int i = 0; i < 9000; i++)
		flow_go(&f, &mine[i % 2], weight[i % 2]);
	assert_true(mine[1] >= 7 * mine[0]);
	assert_int_equal(mine[0] * 8 / mine[1], 1);
	assert_int_equal(atomic_load(&f.ios), 1 + mine[0] + mine[1]);
}

/* fio's arithmetic, step by step: the count starts at 1, so a thread of
 * weight 1 beside one of weight 1 goes twice (0/1, then 1/2 is not above
 * 1/2), then waits (2/3 > 1/2) until the other has gone. */
static void test_flow_steps(void **state)
{
	struct flow f;
	uint64_t a = 0, b = 0;

	(void)state;
	flow_init(&f, 3);
	assert_int_equal(f.id, 3);
	flow_join(&f, 1);
	flow_join(&f, 1);
	assert_true(flow_go(&f, &a, 1));
	assert_true(flow_go(&f, &a, 1));
	assert_false(flow_go(&f, &a, 1));
	assert_int_equal(a, 2);
	assert_true(flow_go(&f, &b, 1));
	assert_true(flow_go(&f, &a, 1));  /* 2/4 */
	assert_false(flow_go(&f, &a, 1)); /* 3/5 */
	/* b leaves: a is alone and never held back again */
	flow_leave(&f, b, 1);
	for (int i = 0; i < 100; i++)
		assert_true(flow_go(&f, &a, 1));
	assert_int_equal(a, 103);
	flow_leave(&f, a, 1);
	assert_int_equal(atomic_load(&f.ios), 1);
	assert_int_equal(atomic_load(&f.weight), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flow_ratio),
		cmocka_unit_test(test_flow_steps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
