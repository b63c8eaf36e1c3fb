/*
 * Unit tests for the counter registry (src/analysis/counter.h): every row
 * complete and named once; a run's figures per data operation (the
 * operations summed over the data types, named after the most frequent),
 * as a percent of the sampled time, from the run's sched; a counter the
 * run lacks (a kernel without flush counts, no counters, no data ops)
 * gives no figure; counter_annotate writes them beside the raw counters.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "analysis/counter.h"

static const struct counter *find(const char *name)
{
	for (size_t i = 0; i < counter_count; i++)
		if (!strcmp(counter_registry[i].name, name))
			return &counter_registry[i];
	fail_msg("no counter %s", name);
	return NULL;
}

/* 1000 writes and 24 fdatasyncs (not data), 2 s sampled. */
static json_t *a_run(void)
{
	json_error_t e;
	json_t *run = json_loads(
		"{\"ops\": {\"read\": {\"count\": 0}, \"write\": {\"count\": 1000}, \"fdatasync\": {\"count\": 24},"
		"  \"trim\": {\"count\": 24}},"
		" \"sched\": {\"run_ns\": 5000000, \"wait_ns\": 1024000, \"timeslices\": 9},"
		" \"counters\": {\"total\": {\"duration_ns\": 2000000000,"
		"   \"disk\": [{\"device\": \"7:3\", \"write_ios\": 2048, \"flush_ios\": 512, \"write_bytes\": 4194304}],"
		"   \"vmstat\": {\"pgfault\": 10240},"
		"   \"pressure\": {\"io\": {\"some_us\": 500000, \"full_us\": 250000}, \"memory\": null}}}}",
		0, &e);

	assert_non_null(run);
	return run;
}

static void test_counter_registry_complete(void **state)
{
	const char *bad = NULL;

	assert_int_equal(counter_registry_check(&bad), 0);
	assert_true(counter_count >= 20);
}

static void test_counter_per_op(void **state)
{
	json_t *run = a_run();
	double ops = 0, v = 0;

	assert_string_equal(counter_per_op(run, &ops), "write");
	assert_true(ops == 1024); /* writes and trims; fdatasync is no data op */
	assert_true(counter_value(find("device_flushes"), run, &v));
	assert_true(v == 0.5);
	assert_true(counter_value(find("sectors_written"), run, &v));
	assert_true(v == 8); /* 4 MiB = 8192 sectors over 1024 ops */
	assert_true(counter_value(find("page_faults"), run, &v));
	assert_true(v == 10);
	assert_true(counter_value(find("cpu_wait"), run, &v));
	assert_true(v == 1000);
	json_decref(run);
}

/* A counter's resolution as a figure: rusage's CPU times a clock tick
 * (0.01 s) over the run's 1024 data ops, in ns; a count's none. */
static void test_counter_step(void **state)
{
	json_t *run = a_run();
	double step = -1;

	assert_true(counter_step(find("time_user"), run, &step));
	assert_true(fabs(step - 0.01 * 1e9 / 1024) < 1e-6);
	assert_true(counter_step(find("device_flushes"), run, &step));
	assert_true(step == 0);
	json_decref(run);
}

static void test_counter_pct_time(void **state)
{
	json_t *run = a_run();
	double v = 0;

	assert_true(counter_value(find("io_pressure"), run, &v));
	assert_true(fabs(v - 25) < 1e-9); /* 0.5 s of 2 s */
	assert_true(counter_value(find("io_pressure_full"), run, &v));
	assert_true(fabs(v - 12.5) < 1e-9);
	/* PSI absent (null), a field the kernel does not count, no cgroup */
	assert_false(counter_value(find("memory_pressure"), run, &v));
	assert_false(counter_value(find("device_discards"), run, &v));
	assert_false(counter_value(find("cgroup_reclaim_scans"), run, &v));
	json_decref(run);
}

static void test_counter_no_ops_or_counters(void **state)
{
	json_t *run = a_run();
	double v = 0, ops = 1;

	json_object_set_new(json_object_get(json_object_get(run, "ops"), "write"), "count", json_integer(0));
	json_object_set_new(json_object_get(json_object_get(run, "ops"), "trim"), "count", json_integer(0));
	assert_null(counter_per_op(run, &ops));
	assert_true(ops == 0);
	assert_false(counter_value(find("device_flushes"), run, &v));
	assert_true(counter_value(find("io_pressure"), run, &v)); /* a share of time needs no ops */
	json_object_del(run, "counters");
	assert_false(counter_value(find("io_pressure"), run, &v));
	json_decref(run);
}

static void test_counter_annotate(void **state)
{
	json_t *job = json_pack("{s:[o]}", "runs", a_run());
	const json_t *per;

	counter_annotate(job);
	per = json_object_get(json_object_get(json_array_get(json_object_get(job, "runs"), 0), "counters"),
			      "per_op");
	assert_non_null(per);
	assert_string_equal(json_string_value(json_object_get(per, "per")), "write");
	assert_true(json_number_value(json_object_get(per, "ops")) == 1024);
	assert_true(json_number_value(json_object_get(per, "device_flushes")) == 0.5);
	assert_null(json_object_get(per, "memory_pressure"));
	json_decref(job);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_registry_complete),
		cmocka_unit_test(test_counter_per_op),
		cmocka_unit_test(test_counter_step),
		cmocka_unit_test(test_counter_pct_time),
		cmocka_unit_test(test_counter_no_ops_or_counters),
		cmocka_unit_test(test_counter_annotate),
	};

	return cmocka_run_group_tests_name("counter", tests, NULL, NULL);
}
