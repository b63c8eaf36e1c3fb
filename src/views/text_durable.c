/*
 * The durability lines of the text report (a job run's "durability",
 * dbio crash): what a power cut at the checked states lost of what the
 * workload saw acknowledged, beside the rate of its writes. Written into
 * text_report's stream, which escapes the result's text.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/tree.h"
#include "views/text.h"

/* The writes' ops/s of the run: insert, or update when it did none (kv),
 * or write (fileio). */
static double write_rate(const json_t *run)
{
	const json_t *ops = json_object_get(run, "ops");
	const char *names[] = { "insert", "update", "write" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const json_t *o = json_object_get(ops, names[i]);

		if (o && tree_num(o, "count") > 0)
			return tree_num(o, "iops");
	}
	return 0;
}

/* The injected fault's line: what it hit, whether the workload saw it,
 * what the states after it lost. */
static void fault_line(FILE *fp, const json_t *f)
{
	fputs("      fault ", fp);
	fputs(tree_str(f, "fault"), fp);
	if (!json_is_true(json_object_get(f, "hit"))) {
		fputs(": never hit\n", fp);
		return;
	}
	fputs(": hit ", fp);
	fputs(tree_str(f, "what"), fp);
	if (json_is_true(json_object_get(f, "seen"))) {
		fputs("; the workload saw it: ", fp);
		fputs(tree_str(f, "error"), fp);
	} else {
		fputs("; the workload saw no error", fp);
	}
	fprintf(fp, "; %.0f states after it, %.0f with losses, up to %.0f acknowledged lost in one\n",
		tree_num(f, "states_after"), tree_num(f, "states_after_with_losses"),
		tree_num(f, "lost_after_max"));
}

/* The first acknowledged operation lost: a record by its key, or a
 * block (fileio) by its offset; its write, the cut, why. */
static void first_lost(FILE *fp, const json_t *first, bool block)
{
	if (block)
		fprintf(fp, "      first lost: the block at offset %.0f", tree_num(first, "key"));
	else
		fprintf(fp, "      first lost: key %016.0f", tree_num(first, "key"));
	fprintf(fp, ", acknowledged write %.0f, at the cut '", tree_num(first, "sequence"));
	fputs(tree_str(first, "cut"), fp);
	fputs("': ", fp);
	fputs(tree_str(first, "why"), fp);
	fputc('\n', fp);
}

/* fileio's (unit "block"): its random cuts follow writes, what was
 * written and lost, the first lost block by its offset. */
static void blocks(FILE *fp, const json_t *d)
{
	const json_t *wl = json_object_get(d, "written_lost"), *first = json_object_get(d, "first_lost");

	fprintf(fp,
		"      %.0f at fsync returns, %.0f after writes; torn blocks: %.0f; written and lost (acknowledged or not): up to %.0f of %.0f blocks in one state, %.0f in all\n",
		tree_num(d, "at_durability_points"), tree_num(d, "after_acknowledgements"),
		tree_num(d, "torn_records"), tree_num(wl, "max"), tree_num(d, "written"),
		tree_num(wl, "total"));
	if (first)
		first_lost(fp, first, true);
}

void text_durability(FILE *fp, const json_t *run)
{
	const json_t *d = json_object_get(run, "durability");
	const json_t *lost = json_object_get(d, "acknowledged_lost"),
		     *first = json_object_get(d, "first_lost");

	if (!d)
		return;
	fputs("    after a power cut (", fp);
	fputs(tree_str(d, "setting"), fp);
	if (strcmp(tree_str(d, "model"), "lose") && tree_str(d, "model")[0]) {
		fputs(", crash model ", fp);
		fputs(tree_str(d, "model"), fp);
	}
	fprintf(fp,
		"): lost %.0f acknowledged in %.0f crash states, up to %.0f of %.0f in one (%.0f states with losses)",
		tree_num(lost, "total"), tree_num(d, "states"), tree_num(lost, "max"),
		tree_num(d, "acknowledged"), tree_num(d, "states_with_losses"));
	fprintf(fp, "; %.0f write ops/s\n", write_rate(run));
	if (json_object_get(d, "unit")) {
		blocks(fp, d);
		return;
	}
	fprintf(fp,
		"      %.0f at fsync returns, %.0f after acknowledgements; did not open: %.0f, integrity_check failed: %.0f, torn records: %.0f\n",
		tree_num(d, "at_durability_points"), tree_num(d, "after_acknowledgements"),
		tree_num(d, "not_opened"), tree_num(d, "integrity_failed"), tree_num(d, "torn_records"));
	if (first)
		first_lost(fp, first, false);
	if (json_object_get(d, "fault"))
		fault_line(fp, json_object_get(d, "fault"));
}
