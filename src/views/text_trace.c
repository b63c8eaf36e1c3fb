/*
 * The trace lines of the text report (a run's "trace", trace=block):
 * per traced device and request type, what bpftrace counted at the block
 * layer, and where an operation's time went — in dbio, in the system
 * call, on the device — from the run's per-operation counters. Written
 * into text_report's stream, which escapes the result's text.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/tree.h"
#include "util/units.h"
#include "views/text.h"

/* A histogram's buckets that hold something: "4 KiB-8 KiB 998, …",
 * sizes in binary units or times. */
static void hist_text(FILE *fp, const json_t *hist, bool bytes)
{
	const json_t *b;
	size_t i;

	json_array_foreach (hist, i, b) {
		char lo[32], hi[32];
		const double min = tree_num(b, "min"), max = tree_num(b, "max");

		if (bytes) {
			units_fmt_bytes(lo, sizeof(lo), (uint64_t)min);
			units_fmt_bytes(hi, sizeof(hi), (uint64_t)max + 1);
		} else {
			units_fmt_ns(lo, sizeof(lo), min);
			units_fmt_ns(hi, sizeof(hi), max + 1);
		}
		if (max == min)
			fprintf(fp, "%s%s %.0f", i ? ", " : "", lo, tree_num(b, "count"));
		else
			fprintf(fp, "%s%s-%s %.0f", i ? ", " : "", lo, hi, tree_num(b, "count"));
	}
}

static void op_lines(FILE *fp, const char *name, const json_t *op)
{
	char bytes[32], mean[32];
	const double done = tree_num(op, "completed");

	fprintf(fp, "      %s: %.0f requests, %s", name, tree_num(op, "requests"),
		units_fmt_bytes(bytes, sizeof(bytes), (uint64_t)tree_num(op, "bytes")));
	if (tree_num(op, "bytes") > 0) {
		fprintf(fp, "; sizes: ");
		hist_text(fp, json_object_get(op, "size_bytes"), true);
	}
	fputc('\n', fp);
	if (done > 0) {
		fprintf(fp, "        device latency: mean %s; ",
			units_fmt_ns(mean, sizeof(mean), tree_num(op, "device_ns") / done));
		hist_text(fp, json_object_get(op, "device_lat_ns"), false);
		fputc('\n', fp);
	}
}

/* Where the time of one operation went, from counters.per_op: user CPU
 * in dbio, the system call (on a CPU and blocked), the device's part. */
static void split_line(FILE *fp, const json_t *run)
{
	const json_t *per = tree_get(run, "counters.per_op");
	char user[32], sys[32], blocked[32], call[32], dev[32];

	if (!json_is_number(json_object_get(per, "device_time")) ||
	    !json_is_number(json_object_get(per, "time_blocked")))
		return;
	fprintf(fp,
		"    where the time went, per %s: %s in dbio (user), %s in the system call (%s on a CPU, %s blocked), "
		"%s of it on the device: %.1f %% of the threads' time waiting on the device\n",
		tree_str(per, "per"), units_fmt_ns(user, sizeof(user), tree_num(per, "time_user")),
		units_fmt_ns(call, sizeof(call),
			     tree_num(per, "time_kernel") + tree_num(per, "time_blocked")),
		units_fmt_ns(sys, sizeof(sys), tree_num(per, "time_kernel")),
		units_fmt_ns(blocked, sizeof(blocked), tree_num(per, "time_blocked")),
		units_fmt_ns(dev, sizeof(dev), tree_num(per, "device_time")), tree_num(per, "device_wait"));
}

void text_trace(FILE *fp, const json_t *run)
{
	const json_t *trace = json_object_get(run, "trace"), *d;
	size_t i;

	if (!trace)
		return;
	json_array_foreach (json_object_get(trace, "disk"), i, d) {
		const char *name;
		const json_t *op;

		fprintf(fp, "    block requests (bpftrace) on %s%s%s:%s\n", tree_str(d, "device"),
			*tree_str(d, "name") ? " " : "", tree_str(d, "name"),
			tree_num(d, "requests") > 0 ? "" : " none");
		json_object_foreach ((json_t *)json_object_get(d, "ops"), name, op)
			op_lines(fp, name, op);
	}
	split_line(fp, run);
}
