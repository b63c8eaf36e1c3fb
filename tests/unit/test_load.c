/*
 * Unit tests for the views' lean loader (src/result/load.c): it gives the
 * same tree as jansson's whole load but for the histograms, whose buckets
 * come back exactly through result_hist_load; its errors carry the file's
 * own line numbers wherever in the file they are (inside a job, after the
 * jobs array, a file cut short); repeated keys are refused in and out of
 * jobs; strings with brackets and escaped quotes do not confuse it, nor
 * do jobs that are not objects or a "jobs" key it cannot see plainly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "result/result.h"

#define HEAD "{\"schema_version\": 1, \"tool\": {\"name\": \"dbio\"},\n"

/* result_load_stream of text; 0 or the error, message in err. */
static int load_text(const char *text, json_t **out, struct dbio_err *err)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(fp);
	rc = result_load_stream(fp, "r.json", out, err);
	fclose(fp);
	return rc;
}

/* The error text of loading text, which must fail. */
static void assert_load_fails(const char *text, const char *msg)
{
	struct dbio_err err = { 0 };
	json_t *r = (json_t *)1;

	assert_int_equal(load_text(text, &r, &err), DBIO_EINPUT);
	assert_null(r);
	if (!strstr(err.msg, msg))
		fail_msg("expected '%s' in '%s'", msg, err.msg);
}

/* Remove every lat_hist under v, to compare the rest of two trees. */
static void drop_hists(json_t *v)
{
	const char *key;
	void *tmp;
	json_t *e;
	size_t i;

	if (json_is_object(v)) {
		json_object_foreach_safe(v, tmp, key, e)
		{
			if (!strcmp(key, "lat_hist"))
				json_object_del(v, key);
			else
				drop_hists(e);
		}
	} else if (json_is_array(v)) {
		json_array_foreach (v, i, e)
			drop_hists(e);
	}
}

/* Two jobs with histograms of 2 and 300 buckets (counts up to 2^40, so
 * varints of several bytes), indented as dbio writes results, and a ranks
 * section with one more: the lean tree equals jansson's but for the
 * histograms, which result_hist_load gives back bucket for bucket. */
static void test_lean_equals_whole(void **state)
{
	json_t *whole = json_pack("{s:i, s:{s:s}, s:[], s:{s:[]}, s:s}", "schema_version", 1, "tool", "name",
				  "dbio", "jobs", "ranks", "jobs", "finished_at", "then");
	struct dbio_err err = { 0 };
	struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	json_t *lean, *copy;
	char *text;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	for (int j = 0; j < 3; j++) {
		json_t *buckets = json_array();
		int n = j == 1 ? 300 : 2;

		for (int k = 0; k < n; k++)
			json_array_append_new(buckets,
					      json_pack("[i, I]", 100 + 7 * k,
							(json_int_t)((k + 1) * (j ? 1LL << 40 : 3))));
		json_array_append_new(j < 2 ? json_object_get(whole, "jobs")
					    : json_object_get(json_object_get(whole, "ranks"), "jobs"),
				      json_pack("{s:s, s:[{s:{s:{s:I, s:{s:i, s:f}, s:{s:i, s:o}}}}]}",
						"name", "a ] } [ { \\\" job", "runs", "ops", "read", "count",
						(json_int_t)5, "lat_ns", "min", 1, "mean", 2.5, "lat_hist",
						"sub_bucket_bits", HIST_SUB_BITS, "buckets", buckets));
	}
	text = json_dumps(whole, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	assert_non_null(text);
	assert_int_equal(load_text(text, &lean, &err), 0);
	assert_int_equal(json_array_size(json_object_get(lean, "jobs")), 2);
	for (int j = 0; j < 3; j++) {
		const char *p = j < 2 ? "jobs" : "ranks";
		const json_t *jw = json_array_get(j < 2 ? json_object_get(whole, p)
							: json_object_get(json_object_get(whole, p), "jobs"),
						  j % 2);
		const json_t *jl = json_array_get(j < 2 ? json_object_get(lean, p)
							: json_object_get(json_object_get(lean, p), "jobs"),
						  j % 2);
		const json_t *ow = json_object_get(
			json_object_get(json_array_get(json_object_get(jw, "runs"), 0), "ops"), "read");
		const json_t *ol = json_object_get(
			json_object_get(json_array_get(json_object_get(jl, "runs"), 0), "ops"), "read");

		/* Packed: no bucket array is left in the lean tree. */
		assert_null(json_object_get(json_object_get(ol, "lat_hist"), "buckets"));
		assert_int_equal(result_hist_load(ow, a), 0);
		assert_int_equal(result_hist_load(ol, b), 0);
		assert_int_equal(a->count, b->count);
		assert_memory_equal(a->buckets, b->buckets, sizeof(a->buckets));
	}
	copy = json_deep_copy(whole);
	drop_hists(copy);
	drop_hists(lean);
	assert_true(json_equal(copy, lean));
	json_decref(copy);
	json_decref(lean);
	json_decref(whole);
	free(text);
	free(a);
	free(b);
}

/* Errors name the file's line, wherever they are. */
static void test_lean_error_lines(void **state)
{
	(void)state;
	/* In the second job, on line 6. */
	assert_load_fails(HEAD "\"jobs\": [\n  {\"a\": 1},\n  {\n    \"b\":\n      tru\n  }\n]}\n",
			  "r.json: not JSON: invalid token near 'tru' (line 6)");
	/* After the jobs array, on line 6. */
	assert_load_fails(HEAD "\"jobs\": [\n  {\"a\": 1},\n  {\"b\": 2}\n],\n\"finished_at\": nul\n}\n",
			  "(line 6)");
	/* Before it, on line 2. */
	assert_load_fails(HEAD "\"x\": [1,, 2],\n\"jobs\": []}\n", "(line 2)");
	/* A file cut off inside a job, and inside the jobs array. */
	assert_load_fails(HEAD "\"jobs\": [\n  {\"a\": 1},\n  {\"b\": [1, 2,\n",
			  "']' expected near end of file (line 5)");
	assert_load_fails(HEAD "\"jobs\": [\n  {\"a\": 1},\n", "']' expected near end of file (line 4)");
	/* Repeated keys: in a job, and the jobs array twice. */
	assert_load_fails(HEAD "\"jobs\": [\n  {\"a\": 1,\n   \"a\": 2}\n]}\n",
			  "duplicate object key near '\"a\"' (line 4)");
	assert_load_fails(HEAD "\"jobs\": [{}],\n\"jobs\": [{}]}\n", "duplicate object key");
	/* Commas between jobs: one, and only between two. */
	assert_load_fails(HEAD "\"jobs\": [{}\n 0]}",
			  "',' or ']' expected near '0' in the jobs array (line 3)");
	assert_load_fails(HEAD "\"jobs\": [, {}]}", "a job expected near ',' in the jobs array (line 2)");
	assert_load_fails(HEAD "\"jobs\": [{},, {}]}", "a job expected near ','");
	assert_load_fails(HEAD "\"jobs\": [{},\n]}", "a job expected near ']' in the jobs array (line 3)");
	/* Whitespace inside a word is not left out. */
	assert_load_fails(HEAD "\"jobs\": [{\"a\": [1 2]}]}", "(line 2)");
	assert_load_fails(HEAD "\"jobs\": [{\"a\": tr\n ue}]}", "invalid token near 'tr'");
	/* A NUL byte, even where jansson would take it for a number's end. */
	{
		static const char nul[] = HEAD "\"jobs\": [\n{\"a\": 1\0}]}";
		struct dbio_err err = { 0 };
		FILE *fp = fmemopen((void *)nul, sizeof(nul) - 1, "r");
		json_t *r = NULL;

		assert_non_null(fp);
		assert_int_equal(result_load_stream(fp, "r.json", &r, &err), DBIO_EINPUT);
		assert_string_equal(err.msg, "r.json: not JSON: a NUL byte (line 3)");
		fclose(fp);
	}
	/* Not a result at all. */
	assert_load_fails("[1, 2]", "r.json: not a dbio result: no schema_version");
	assert_load_fails("", "r.json: not JSON:");
}

/* Jobs that are not objects, a "jobs" key written with an escape (loaded
 * whole, not cut) and brackets inside strings. */
static void test_lean_odd_but_valid(void **state)
{
	struct dbio_err err = { 0 };
	json_t *r;

	(void)state;
	assert_int_equal(
		load_text(HEAD "\"jobs\": [1, \"x]\", [2, {}], null, {\"n\": \"}\\\"]\"}, 3.5e1]}", &r, &err),
		0);
	assert_int_equal(json_array_size(json_object_get(r, "jobs")), 6);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(r, "jobs"), 0)), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(r, "jobs"), 1)), "x]");
	assert_string_equal(
		json_string_value(json_object_get(json_array_get(json_object_get(r, "jobs"), 4), "n")),
		"}\"]");
	assert_true(json_real_value(json_array_get(json_object_get(r, "jobs"), 5)) == 35.0);
	json_decref(r);
	assert_int_equal(load_text(HEAD "\"\\u006aobs\": [{\"n\": 1}], \"jobsx\": [1]}", &r, &err), 0);
	assert_int_equal(json_array_size(json_object_get(r, "jobs")), 1);
	json_decref(r);
}

/* A packed histogram that is cut short or out of range is refused as a
 * bucket array would be; a bucket array the loader does not know stays as
 * it is and is refused the same way. */
static void test_packed_hist_malformed(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	struct dbio_err err = { 0 };
	json_t *op, *r;

	(void)state;
	assert_non_null(h);
	/* 0x80: a varint with no end. */
	op = json_pack("{s:{s:i, s:s#}}", "lat_hist", "sub_bucket_bits", HIST_SUB_BITS, "buckets_packed",
		       "\x05\x80", (int)2);
	assert_int_equal(result_hist_load(op, h), DBIO_EFORMAT);
	json_decref(op);
	/* An index past the last bucket: 0xff 0xff 0x03 is 65535. */
	op = json_pack("{s:{s:i, s:s#}}", "lat_hist", "sub_bucket_bits", HIST_SUB_BITS, "buckets_packed",
		       "\xff\xff\x03\x01", (int)4);
	assert_int_equal(result_hist_load(op, h), DBIO_EFORMAT);
	json_decref(op);
	/* Index 5, count 2. */
	op = json_pack("{s:{s:i, s:s#}, s:{s:i, s:i, s:f, s:f}}", "lat_hist", "sub_bucket_bits",
		       HIST_SUB_BITS, "buckets_packed", "\x05\x02", (int)2, "lat_ns", "min", 5, "max", 5,
		       "mean", 5.0, "stddev", 0.0);
	assert_int_equal(result_hist_load(op, h), 0);
	assert_int_equal(h->count, 2);
	assert_int_equal(h->buckets[5], 2);
	json_decref(op);
	assert_int_equal(load_text(HEAD
				   "\"jobs\": [{\"ops\": {\"read\": {\"lat_hist\": {\"sub_bucket_bits\": 7, "
				   "\"buckets\": [[99999, 1]]}}}}]}",
				   &r, &err),
			 0);
	op = json_object_get(json_object_get(json_array_get(json_object_get(r, "jobs"), 0), "ops"), "read");
	assert_non_null(json_object_get(json_object_get(op, "lat_hist"), "buckets"));
	assert_int_equal(result_hist_load(op, h), DBIO_EFORMAT);
	json_decref(r);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lean_equals_whole),
		cmocka_unit_test(test_lean_error_lines),
		cmocka_unit_test(test_lean_odd_but_valid),
		cmocka_unit_test(test_packed_hist_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
