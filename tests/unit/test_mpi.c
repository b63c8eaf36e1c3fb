/*
 * Unit tests for the merge of the ranks' results (src/mpi/merge.c,
 * mpi_merge): three ranks with known reads give one run whose counts,
 * bytes and histogram are the ranks' added, whose percentiles are exactly
 * those of one histogram that recorded every rank's latencies, whose rates
 * are over the first start to the last end, and a ranks section with each
 * rank's figures and their spread. No MPI is needed: the merge is JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mpi/mpi.h"
#include "plan/plan.h"
#include "result/result.h"

#define NRANKS 3

struct fixture {
	struct jobset set;
	struct mpi_part parts[NRANKS];
	json_t *spans[NRANKS];
	struct op_stats *all; /* every rank's reads in one */
	json_t *merged;
};

/* Rank r: 1000 * (r + 1) reads of 4 KiB, latencies spread differently on
 * each rank (a slow rank 2), over 1 s + r * 0.5 s, starting r ms after
 * the barrier. */
static int setup(void **state)
{
	static char *argv[] = { "dbio", "run" };
	struct fixture *f = calloc(1, sizeof(*f));
	struct dbio_err err = { 0 };
	struct job job;

	if (!f || !(f->all = malloc(sizeof(*f->all))))
		return -1;
	op_stats_init(f->all);
	plan_job_init(&job, "job");
	if (job_set(&job, "size", "16m", NULL, &err) ||
	    job_set(&job, "percentile_list", "99.5", NULL, &err) || plan_validate(&job, &err) ||
	    jobset_add(&f->set, &job)) {
		print_error("job: %s\n", err.msg);
		return -1;
	}
	job_release(&job);
	for (int r = 0; r < NRANKS; r++) {
		struct run_stats *st = malloc(sizeof(*st));

		if (!st)
			return -1;
		run_stats_init(st);
		for (uint64_t i = 0; i < 1000u * (uint64_t)(r + 1); i++) {
			uint64_t lat = 1000 + (i * 7919) % (5000u * (uint64_t)(r + 1) * (uint64_t)(r + 1));

			op_stats_add(&st->ops[OP_READ], 4096, lat);
			op_stats_add(f->all, 4096, lat);
		}
		st->elapsed_ns = 1000000000ull + (uint64_t)r * 500000000ull;
		st->threads = 1;
		f->parts[r].result = result_new(2, argv);
		if (!f->parts[r].result || result_add_run(f->parts[r].result, 0, &f->set.jobs[0], st)) {
			print_error("result of rank %d: out of memory\n", r);
			return -1;
		}
		f->spans[r] = json_pack("[[i, i, I, I]]", 0, 0, (json_int_t)r * 1000000,
					(json_int_t)(r * 1000000 + (json_int_t)st->elapsed_ns));
		f->parts[r].spans = f->spans[r];
		f->parts[r].rank = r;
		f->parts[r].host = r < 2 ? "a" : "b";
		run_stats_release(st);
		free(st);
	}
	f->merged = mpi_merge(f->parts, NRANKS, NULL, 0, &err);
	if (!f->merged) {
		print_error("mpi_merge: %s\n", err.msg);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (!f)
		return 0;
	for (int r = 0; r < NRANKS; r++) {
		json_decref(f->parts[r].result);
		json_decref(f->spans[r]);
	}
	json_decref(f->merged);
	jobset_release(&f->set);
	free(f->all);
	free(f);
	return 0;
}

static json_t *merged_read(const struct fixture *f)
{
	return json_object_get(
		json_object_get(
			json_array_get(json_object_get(json_array_get(json_object_get(f->merged, "jobs"), 0),
						       "runs"),
				       0),
			"ops"),
		"read");
}

static json_int_t int_of(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static void test_mpi_counts_and_buckets_add_up(void **state)
{
	struct fixture *f = *state;
	const json_t *read = merged_read(f);
	struct hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	assert_int_equal(int_of(read, "count"), 6000);
	assert_int_equal(int_of(read, "bytes"), 6000 * 4096);
	assert_int_equal(result_hist_load(read, h), 0);
	assert_int_equal(h->count, 6000);
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		assert_int_equal(h->buckets[i], f->all->lat_ns.buckets[i]);
	free(h);
}

static void test_mpi_percentiles_are_those_of_all_latencies(void **state)
{
	struct fixture *f = *state;
	const json_t *lat = json_object_get(merged_read(f), "lat_ns");
	const struct hist *all = &f->all->lat_ns;

	assert_int_equal(int_of(lat, "p50"), hist_percentile(all, 50));
	assert_int_equal(int_of(lat, "p90"), hist_percentile(all, 90));
	assert_int_equal(int_of(lat, "p99"), hist_percentile(all, 99));
	assert_int_equal(int_of(lat, "p99_9"), hist_percentile(all, 99.9));
	assert_int_equal(int_of(json_object_get(lat, "percentiles"), "99.5"), hist_percentile(all, 99.5));
	assert_int_equal(int_of(lat, "min"), all->min);
	assert_int_equal(int_of(lat, "max"), all->max);
	assert_true(fabs(json_real_value(json_object_get(lat, "mean")) - hist_mean(all)) <
		    1e-6 * hist_mean(all));
	assert_true(fabs(json_real_value(json_object_get(lat, "stddev")) - hist_stddev(all)) <
		    1e-6 * hist_stddev(all));
}

/* rank 0 starts at 0, rank 2 ends at 2 ms + 2 s: the aggregate is 2.002 s */
static void test_mpi_rates_over_first_start_to_last_end(void **state)
{
	struct fixture *f = *state;
	const json_t *run = json_array_get(
		json_object_get(json_array_get(json_object_get(f->merged, "jobs"), 0), "runs"), 0);

	assert_int_equal(int_of(run, "elapsed_ns"), 2002000000);
	assert_int_equal(int_of(run, "threads"), 3);
	assert_true(fabs(json_real_value(json_object_get(merged_read(f), "iops")) - 6000 / 2.002) < 1e-3);
	assert_null(json_object_get(run, "series"));
}

static void test_mpi_ranks_section(void **state)
{
	struct fixture *f = *state;
	const json_t *ranks = json_object_get(f->merged, "ranks");
	const json_t *run =
		json_array_get(json_object_get(json_array_get(json_object_get(ranks, "jobs"), 0), "runs"), 0);
	const json_t *iops = json_object_get(
		json_object_get(json_object_get(json_object_get(run, "across"), "ops"), "read"), "iops");
	const json_t *hosts = json_object_get(ranks, "hosts");

	assert_int_equal(int_of(ranks, "count"), 3);
	assert_int_equal(json_array_size(json_object_get(run, "ranks")), 3);
	assert_int_equal(
		int_of(json_object_get(
			       json_object_get(json_array_get(json_object_get(run, "ranks"), 2), "ops"),
			       "read"),
		       "count"),
		3000);
	/* rank r: 1000 (r + 1) reads over 1 + r/2 s: 1000, 1333.3, 1500 ops/s */
	assert_true(fabs(json_real_value(json_object_get(iops, "min")) - 1000) < 1e-6);
	assert_true(fabs(json_real_value(json_object_get(iops, "max")) - 1500) < 1e-6);
	assert_true(fabs(json_real_value(json_object_get(iops, "mean")) - (1000 + 4000.0 / 3 + 1500) / 3) <
		    1e-3);
	assert_int_equal(json_array_size(hosts), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(hosts, 1), "hostname")), "b");
	assert_int_equal(json_array_size(json_object_get(json_array_get(hosts, 0), "ranks")), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mpi_counts_and_buckets_add_up),
		cmocka_unit_test(test_mpi_percentiles_are_those_of_all_latencies),
		cmocka_unit_test(test_mpi_rates_over_first_start_to_last_end),
		cmocka_unit_test(test_mpi_ranks_section),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
