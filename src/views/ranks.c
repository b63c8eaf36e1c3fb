/* The ranks section as text; see ranks.h. */
#include "views/ranks.h"

#include "util/termesc.h"

/* One op type's line: aggregate from the merged run, spread from ranks. */
static void op_line(FILE *out, const char *name, const json_t *merged, const json_t *across)
{
	const json_t *op = json_object_get(json_object_get(merged, "ops"), name);
	const json_t *iops = json_object_get(json_object_get(json_object_get(across, "ops"), name), "iops");

	if (!json_integer_value(json_object_get(op, "count")))
		return;
	fprintf(out, "    %-10s %12.1f %10.2f %12.1f %12.1f %12.1f %10.1f\n", name,
		json_number_value(json_object_get(op, "iops")),
		json_number_value(json_object_get(op, "bw_bytes")) / 1048576.0,
		json_number_value(json_object_get(iops, "min")),
		json_number_value(json_object_get(iops, "mean")),
		json_number_value(json_object_get(iops, "max")),
		json_number_value(json_object_get(iops, "stddev")));
}

/* stonewall_s: IOR's stonewalling figures of a merged run (its
 * stonewall) and of its ranks (the entry's). */
static void wall_lines(FILE *out, const json_t *merged, const json_t *entry)
{
	const json_t *wall = json_object_get(merged, "stonewall"),
		     *spread = json_object_get(json_object_get(entry, "stonewall"), "ops");

	if (!wall || !spread)
		return;
	fprintf(out,
		"    stonewall at %.2f s: reads and writes done per rank min %.0f mean %.1f max %.0f (all %lld); stonewall rate %.1f ops/s, %.2f MiB/s\n",
		(double)json_integer_value(json_object_get(wall, "at_ns")) / 1e9,
		json_number_value(json_object_get(spread, "min")),
		json_number_value(json_object_get(spread, "mean")),
		json_number_value(json_object_get(spread, "max")),
		(long long)json_integer_value(json_object_get(wall, "ops")),
		json_number_value(json_object_get(wall, "iops")),
		json_number_value(json_object_get(wall, "bw_bytes")) / 1048576.0);
	if (json_is_true(json_object_get(wall, "wearout")))
		fprintf(out,
			"    wear-out: every rank to %lld reads and writes; the last ended %.1f ms after the stonewall\n",
			(long long)json_integer_value(json_object_get(wall, "target_ops")),
			(double)json_integer_value(
				json_object_get(json_object_get(entry, "stonewall"), "wearout_ns")) /
				1e6);
}

void text_ranks(FILE *fp, const json_t *result)
{
	const json_t *ranks = json_object_get(result, "ranks"), *host, *job;
	FILE *out;
	size_t i, j;

	if (!ranks || !(out = termesc_open(fp)))
		return;
	fprintf(out,
		"ranks: %lld on %zu host%s:", (long long)json_integer_value(json_object_get(ranks, "count")),
		json_array_size(json_object_get(ranks, "hosts")),
		json_array_size(json_object_get(ranks, "hosts")) == 1 ? "" : "s");
	json_array_foreach (json_object_get(ranks, "hosts"), i, host)
		fprintf(out, "%s %s (%zu)", i ? "," : "",
			json_string_value(json_object_get(host, "hostname")),
			json_array_size(json_object_get(host, "ranks")));
	fputc('\n', out);
	json_array_foreach (json_object_get(ranks, "jobs"), j, job) {
		const json_t *runs =
			json_object_get(json_array_get(json_object_get(result, "jobs"), j), "runs");
		const json_t *run;
		size_t k;

		json_array_foreach (json_object_get(job, "runs"), k, run) {
			const json_t *merged = json_array_get(runs, k),
				     *across = json_object_get(run, "across");
			const char *name;
			json_t *op;

			fprintf(out, "  job %s run %zu: all ranks over %.1f ms (first start to last end)\n",
				json_string_value(json_object_get(job, "name")), k + 1,
				(double)json_integer_value(json_object_get(run, "elapsed_ns")) / 1e6);
			fprintf(out, "    %-10s %12s %10s %12s %12s %12s %10s\n", "op", "all ops/s",
				"all MiB/s", "rank min", "rank mean", "rank max", "stddev");
			json_object_foreach ((json_t *)json_object_get(merged, "ops"), name, op)
				op_line(out, name, merged, across);
			wall_lines(out, merged, run);
		}
	}
	fclose(out);
}
