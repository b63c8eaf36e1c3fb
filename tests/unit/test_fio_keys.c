/*
 * Unit tests for fio's keys and engines that dbio does not have
 * (src/plan/fio_keys.h): both tables sorted and unique, every reason one
 * short line, no name in them that dbio takes (a key of an option table of
 * this build, an engine of its registry) — the test that fails when dbio
 * starts to honour a key and its row stays — and the lookups, aliases and
 * the ends of the tables included.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "engine/engine.h"
#include "plan/fio_keys.h"
#include "plan/plan.h"

/* The longest reason, so that a refusal stays one line of a terminal. */
#define REASON_MAX 159

/* Failures of the rows of table, printed one a row; 0 when all pass. */
static int check_rows(const struct fio_key *table, size_t count, const char *what)
{
	int bad = 0;

	for (size_t i = 0; i < count; i++) {
		const struct fio_key *k = &table[i];

		if (!k->name || !k->name[0] || !k->reason || !k->reason[0]) {
			print_error("%s %zu: empty name or reason\n", what, i);
			bad++;
			continue;
		}
		if (i > 0 && strcmp(table[i - 1].name, k->name) >= 0) {
			print_error("%s '%s': after '%s', not sorted or twice\n", what, k->name,
				    table[i - 1].name);
			bad++;
		}
		if (strchr(k->reason, '\n') || strlen(k->reason) > REASON_MAX) {
			print_error("%s '%s': the reason is not one line of at most %d bytes\n", what,
				    k->name, REASON_MAX);
			bad++;
		}
	}
	return bad;
}

static void test_fio_keys_sorted_unique_one_line(void **state)
{
	(void)state;
	assert_true(fio_key_count > 150); /* the table is there; it shrinks as keys are honoured */
	assert_int_equal(check_rows(fio_keys, fio_key_count, "key"), 0);
	assert_true(fio_engine_count > 40);
	assert_int_equal(check_rows(fio_engines, fio_engine_count, "engine"), 0);
}

/* A key dbio honours has no row: its row must go when its option_def comes. */
static void test_fio_keys_none_is_dbio_key(void **state)
{
	int bad = 0;

	(void)state;
	for (size_t i = 0; i < fio_key_count; i++)
		if (plan_find(fio_keys[i].name)) {
			print_error("key '%s' is in dbio's tables: remove its row from src/plan/fio_keys.c\n",
				    fio_keys[i].name);
			bad++;
		}
	for (size_t i = 0; i < fio_engine_count; i++)
		if (engine_find(fio_engines[i].name)) {
			print_error(
				"engine '%s' is in dbio's registry: remove its row from src/plan/fio_keys.c\n",
				fio_engines[i].name);
			bad++;
		}
	assert_int_equal(bad, 0);
}

/* fio's other names for dbio's keys are dbio's keys too (option_canonical),
 * and so are in no row of the table. */
static void test_fio_keys_alias_names_dbio_key(void **state)
{
	static const char *const aliases[] = { "readwrite", "blocksize",     "nr_files",
					       "timeout",   "allrandrepeat", "wait_for_previous" };

	(void)state;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		const char *name = option_canonical(aliases[i]);

		assert_string_not_equal(name, aliases[i]);
		assert_non_null(plan_find(aliases[i]));
		assert_ptr_equal(plan_find(aliases[i]), plan_find(name));
		assert_string_equal(option_alias_of(name), aliases[i]);
		assert_null(fio_key_find(aliases[i]));
	}
}

static void test_fio_keys_find(void **state)
{
	const struct fio_key *k;

	(void)state;
	assert_null(fio_key_find("readwrite")); /* fio's alias of rw: dbio takes it */
	k = fio_key_find("log_hist_msec");	/* a key of write_hist_log, which dbio lacks too */
	assert_non_null(k);
	assert_ptr_equal(k->reason, fio_key_find("write_hist_log")->reason);
	assert_null(fio_key_find("verify"));		/* dbio honours it */
	assert_null(fio_key_find("verify_state_load")); /* dbio honours it */
	assert_string_equal(fio_key_find("cgroup_weight")->reason,
			    "fio key dbio does not honour yet: sets the I/O weight of the job's cgroup");
	assert_string_equal(
		fio_key_find("block")->reason,
		"option of fio's tiobench profile (fio --profile=tiobench), which dbio does not have");
	assert_string_equal(
		fio_key_find("hostname")->reason,
		"option of fio's network (net, netsplice, rdma) and HDFS (libhdfs) engines, which dbio "
		"does not have");
	/* the ends of the binary search */
	assert_ptr_equal(fio_key_find(fio_keys[0].name), &fio_keys[0]);
	assert_ptr_equal(fio_key_find(fio_keys[fio_key_count - 1].name), &fio_keys[fio_key_count - 1]);
	/* dbio's keys, and names fio has not */
	assert_null(fio_key_find("bs"));
	assert_null(fio_key_find("rw"));
	assert_null(fio_key_find("workload"));
	assert_null(fio_key_find("bsz"));
	assert_null(fio_key_find("Verify"));
	assert_null(fio_key_find(""));
}

static void test_fio_keys_engine_reason(void **state)
{
	const char *r;

	(void)state;
	assert_string_equal(fio_engine_reason("rdma"), "fio's RDMA network engine");
	r = fio_engine_reason("filecreate"); /* dbio's: workload=meta (plan_fio_meta) */
	assert_null(r);
	assert_string_equal(fio_engine_reason("external:/tmp/engine.so"), fio_engine_reason("external"));
	assert_ptr_equal(fio_engine_reason(fio_engines[0].name), fio_engines[0].reason);
	assert_ptr_equal(fio_engine_reason(fio_engines[fio_engine_count - 1].name),
			 fio_engines[fio_engine_count - 1].reason);
	assert_null(fio_engine_reason("psync"));
	for (size_t i = 0; i < engine_count; i++)
		assert_null(fio_engine_reason(engine_registry[i]->name));
	assert_null(fio_engine_reason("nosuchengine"));
	assert_null(fio_engine_reason(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio_keys_sorted_unique_one_line),
		cmocka_unit_test(test_fio_keys_none_is_dbio_key),
		cmocka_unit_test(test_fio_keys_alias_names_dbio_key),
		cmocka_unit_test(test_fio_keys_find),
		cmocka_unit_test(test_fio_keys_engine_reason),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
