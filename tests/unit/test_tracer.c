/*
 * Unit tests for the block tracer's reading of bpftrace's JSON lines
 * (src/run/tracer.h): the names of the request types, the maps and histograms dbio's program makes added to
 * the right device and type with exact counts, and every line dbio did not ask for refused: another map, a
 * device it did not trace, a bucket that is not bpftrace's log2 shape, lost events, text that is not JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "run/tracer.h"

/* Two devices: 7:0 (kernel dev 7340032) and 254:0 (266338304). */
static void two_devices(struct trace_stats *ts)
{
	memset(ts, 0, sizeof(*ts));
	ts->ndev = 2;
	ts->dev[0] = (struct trace_dev){ .major = 7, .minor = 0 };
	ts->dev[1] = (struct trace_dev){ .major = 254, .minor = 0 };
}

static void test_tracer_op_names(void **state)
{
	(void)state;
	assert_string_equal(trace_op_name(TRACE_READ), "read");
	assert_string_equal(trace_op_name(TRACE_WRITE), "write");
	assert_string_equal(trace_op_name(TRACE_FLUSH), "flush");
	assert_string_equal(trace_op_name(TRACE_DISCARD), "discard");
	assert_string_equal(trace_op_name(TRACE_OTHER), "other");
}

static void test_tracer_parse_maps_and_hists(void **state)
{
	struct trace_stats ts;
	char why[256] = "";

	(void)state;
	two_devices(&ts);
	assert_int_equal(trace_parse_line(&ts, "{\"type\": \"attached_probes\", \"data\": {\"probes\": 3}}",
					  why, sizeof(why)),
			 0);
	assert_int_equal(trace_parse_line(&ts,
					  "{\"type\": \"printf\", \"data\": \"dbio: probes attached\\n\"}",
					  why, sizeof(why)),
			 0);
	assert_int_equal(trace_parse_line(&ts, "", why, sizeof(why)), 0);
	assert_int_equal(
		trace_parse_line(
			&ts,
			"{\"type\": \"map\", \"data\": {\"@bytes\": {\"7340032,1\": 12288, \"266338304,0\": 512}}}",
			why, sizeof(why)),
		0);
	assert_int_equal(ts.dev[0].op[TRACE_WRITE].bytes, 12288);
	assert_int_equal(ts.dev[1].op[TRACE_READ].bytes, 512);
	assert_int_equal(
		trace_parse_line(&ts, "{\"type\": \"map\", \"data\": {\"@devns\": {\"7340032,1\": 30000}}}",
				 why, sizeof(why)),
		0);
	assert_int_equal(ts.dev[0].op[TRACE_WRITE].device_ns, 30000);
	assert_int_equal(
		trace_parse_line(
			&ts,
			"{\"type\": \"hist\", \"data\": {\"@size\": {\"7340032,1\": [{\"min\": 4096, \"max\": 8191, \"count\": 3}], \"7340032,2\": [{\"min\": 0, \"max\": 0, \"count\": 2}]}}}",
			why, sizeof(why)),
		0);
	assert_int_equal(ts.dev[0].op[TRACE_WRITE].requests, 3);
	assert_int_equal(ts.dev[0].op[TRACE_WRITE].size_hist[13], 3); /* [2^12, 2^13 - 1] */
	assert_int_equal(ts.dev[0].op[TRACE_FLUSH].requests, 2);
	assert_int_equal(ts.dev[0].op[TRACE_FLUSH].size_hist[0], 2);
	assert_int_equal(
		trace_parse_line(
			&ts,
			"{\"type\": \"hist\", \"data\": {\"@lat\": {\"7340032,1\": [{\"min\": 1, \"max\": 1, \"count\": 1}, {\"min\": 8192, \"max\": 16383, \"count\": 2}]}}}",
			why, sizeof(why)),
		0);
	assert_int_equal(ts.dev[0].op[TRACE_WRITE].completed, 3);
	assert_int_equal(ts.dev[0].op[TRACE_WRITE].lat_hist[1], 1);
	assert_int_equal(ts.dev[0].op[TRACE_WRITE].lat_hist[14], 2);
}

static void test_tracer_parse_refuses(void **state)
{
	static const char *const bad[] = {
		"Attaching 3 probes...",
		"{\"type\": \"map\", \"data\": {\"@other\": {\"7340032,1\": 1}}}",
		"{\"type\": \"map\", \"data\": {\"@bytes\": {\"8388608,1\": 1}}}", /* 8:0: not traced */
		"{\"type\": \"map\", \"data\": {\"@bytes\": {\"7340032,5\": 1}}}", /* no such type */
		"{\"type\": \"map\", \"data\": {\"@bytes\": {\"7340032,W\": 1}}}",
		"{\"type\": \"map\", \"data\": {\"@bytes\": {\"7340032,1\": -1}}}",
		"{\"type\": \"hist\", \"data\": {\"@size\": {\"7340032,1\": [{\"min\": 4096, \"max\": 9000, \"count\": 1}]}}}",
		"{\"type\": \"hist\", \"data\": {\"@size\": {\"7340032,1\": [{\"min\": 3, \"max\": 5, \"count\": 1}]}}}",
		"{\"type\": \"hist\", \"data\": {\"@lat\": {\"7340032,1\": [{\"max\": -1, \"count\": 1}]}}}",
		"{\"type\": \"lost_events\", \"data\": {\"events\": 12}}",
		"{\"type\": \"printf\", \"data\": \"hello\\n\"}",
		"{\"type\": \"map\", \"data\": {\"@bytes\": {}}, \"extra\": 1}",
	};
	struct trace_stats ts;
	char why[256];

	(void)state;
	two_devices(&ts);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(trace_parse_line(&ts, bad[i], why, sizeof(why)), -1);
		assert_true(why[0] != '\0');
	}
	assert_int_equal(ts.dev[0].op[TRACE_WRITE].bytes, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracer_op_names),
		cmocka_unit_test(test_tracer_parse_maps_and_hists),
		cmocka_unit_test(test_tracer_parse_refuses),
	};

	return cmocka_run_group_tests_name("tracer", tests, NULL, NULL);
}
