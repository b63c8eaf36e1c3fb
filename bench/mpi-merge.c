/*
 * mpi-merge: the merge at rank 0 without MPI, at rank counts no machine
 * here can launch. Takes one rank's result (any dbio result), parses it
 * once per rank as rank 0 does (as rank 0's own, then trimmed as the
 * other ranks send it), and
 * times mpi_merge (src/mpi/merge.c) of N copies, for each N given, ROUNDS
 * times; prints per N the median (min-max) of the parse and merge time,
 * the merged histogram's buckets (fixed: at most 7424 whatever N) and the
 * merged file's size.
 *
 *   build/bench/mpi-merge RESULT.json ROUNDS N...    (make build/bench/mpi-merge)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi.h"
#include "util/clock.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One round at n ranks: parse n copies of text, merge them; the times in
 * ns into *parse and *merge, the merged result's buckets and size. */
static int round_at(const char *text, const char *trimmed, size_t n, uint64_t *parse, uint64_t *merge,
		    size_t *buckets, size_t *bytes)
{
	struct mpi_part *parts = calloc(n, sizeof(*parts));
	json_t *spans = json_array(), *merged;
	struct dbio_err err = { 0 };
	uint64_t t0 = clock_now_ns(), t1, t2;

	if (!parts)
		return -1;
	for (size_t i = 0; i < n; i++) {
		parts[i].result = json_loads(i ? trimmed : text, 0, NULL);
		parts[i].rank = (int)i;
		parts[i].host = "host";
		parts[i].spans = spans;
		if (!parts[i].result)
			return -1;
	}
	t1 = clock_now_ns();
	merged = mpi_merge(parts, n, NULL, 0, &err);
	t2 = clock_now_ns();
	if (!merged) {
		fprintf(stderr, "mpi-merge: %s\n", err.msg);
		return -1;
	}
	*parse = t1 - t0;
	*merge = t2 - t1;
	*buckets = json_array_size(json_object_get(
		json_object_get(
			json_object_get(
				json_object_get(
					json_array_get(
						json_object_get(
							json_array_get(json_object_get(merged, "jobs"), 0),
							"runs"),
						0),
					"ops"),
				"read"),
			"lat_hist"),
		"buckets"));
	char *out = json_dumps(merged, JSON_COMPACT);

	*bytes = out ? strlen(out) : 0;
	free(out);
	json_decref(merged);
	for (size_t i = 0; i < n; i++)
		json_decref(parts[i].result);
	json_decref(spans);
	free(parts);
	return 0;
}

int main(int argc, char **argv)
{
	json_t *r;
	char *text, *trimmed;
	int rounds;

	if (argc < 4 || (rounds = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: mpi-merge RESULT.json ROUNDS N...\n");
		return 2;
	}
	if (!(r = json_load_file(argv[1], 0, NULL)) || !(text = json_dumps(r, JSON_COMPACT))) {
		fprintf(stderr, "mpi-merge: %s: cannot read it as JSON\n", argv[1]);
		return 2;
	}
	mpi_part_trim(r); /* as a rank other than 0 sends it */
	if (!(trimmed = json_dumps(r, JSON_COMPACT)))
		return 1;
	printf("rank 0's part: %zu bytes, another rank's: %zu bytes\n", strlen(text), strlen(trimmed));
	printf("ranks  parse (ms, median min-max)   merge (ms)                  merge per rank (us)  buckets  merged file (KiB)\n");
	for (int a = 3; a < argc; a++) {
		size_t n = (size_t)atoi(argv[a]), buckets = 0, bytes = 0;
		uint64_t *p = calloc((size_t)rounds, sizeof(*p)), *m = calloc((size_t)rounds, sizeof(*m));

		for (int i = 0; p && m && i < rounds; i++)
			if (round_at(text, trimmed, n, &p[i], &m[i], &buckets, &bytes))
				return 1;
		qsort(p, (size_t)rounds, sizeof(*p), cmp_u64);
		qsort(m, (size_t)rounds, sizeof(*m), cmp_u64);
		printf("%5zu  %7.1f (%.1f-%.1f)  %14.1f (%.1f-%.1f)  %12.1f  %13zu  %10.0f\n", n,
		       (double)p[rounds / 2] / 1e6, (double)p[0] / 1e6, (double)p[rounds - 1] / 1e6,
		       (double)m[rounds / 2] / 1e6, (double)m[0] / 1e6, (double)m[rounds - 1] / 1e6,
		       (double)m[rounds / 2] / 1e3 / (double)n, buckets, (double)bytes / 1024);
		free(p);
		free(m);
	}
	json_decref(r);
	free(trimmed);
	free(text);
	return 0;
}
