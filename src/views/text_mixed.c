/*
 * unified_rw_reporting in the text: a run's reads, writes and trims as
 * fio's one "mixed" direction, their histograms merged so that the
 * percentiles are those of all of them.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/tree.h"
#include "result/result.h"
#include "stats/hist.h"
#include "util/units.h"
#include "views/views_int.h"

bool text_mixed_skips(const char *unified, const char *op)
{
	return !strcmp(unified, "mixed") &&
	       (!strcmp(op, "read") || !strcmp(op, "write") || !strcmp(op, "trim"));
}

void text_mixed_row(FILE *fp, const json_t *ops, const char *unified)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	static const double pcts[] = { 50, 95, 99, 99.9 };
	struct hist *h, *tmp;
	double iops = 0, bw = 0;

	if (strcmp(unified, "mixed") && strcmp(unified, "both"))
		return;
	h = malloc(sizeof(*h));
	tmp = malloc(sizeof(*tmp));
	if (!h || !tmp)
		goto out;
	hist_init(h);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		const json_t *op = json_object_get(ops, dirs[i]);

		if (tree_num(op, "count") > 0 && !result_hist_load(op, tmp)) {
			hist_merge(h, tmp);
			iops += tree_num(op, "iops");
			bw += tree_num(op, "bw_bytes");
		}
	}
	if (h->count) {
		char buf[32];

		fprintf(fp, "    %-15s %12llu %12.1f %10.2f", "mixed", (unsigned long long)h->count, iops,
			bw / 1048576.0);
		fprintf(fp, " %9s", units_fmt_ns(buf, sizeof(buf), (double)h->min));
		fprintf(fp, " %9s", units_fmt_ns(buf, sizeof(buf), hist_mean(h)));
		for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
			fprintf(fp, " %9s",
				units_fmt_ns(buf, sizeof(buf), (double)hist_percentile(h, pcts[i])));
		fprintf(fp, " %9s\n", units_fmt_ns(buf, sizeof(buf), (double)h->max));
	}
out:
	free(h);
	free(tmp);
}
