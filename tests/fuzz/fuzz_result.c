/*
 * libFuzzer target: the result loader of compare, report, plot and sweep
 * --resume, and the views that read a loaded result. The input is a result
 * file's text; what result_load accepts is rendered as the text report,
 * fio's JSON+ and the HTML page, and compared with itself over every
 * metric, all into /dev/null.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/compare.h"
#include "analysis/metric.h"
#include "result/result.h"
#include "views/fio_json.h"
#include "views/html.h"
#include "views/plot.h"
#include "views/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dbio_err err = { 0 };
	json_error_t jerr;
	json_t *r = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);

	if (!r)
		return 0;
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!result_check(r, "fuzz.json", &err) && sink) {
		const json_t *both[2] = { r, r };
		const char *names[2] = { "a.json", "b.json" };
		const struct metric *metrics[64];
		struct plot_input in[1] = { { .label = "fuzz.json", .result = r } };
		struct comparison c = { 0 };
		size_t n = 0;

		text_report(sink, r);
		text_summary(sink, r);
		fio_json_print(sink, r, true);
		html_report_write(sink,
				  &(struct html_report){ .in = in, .n = 1, .metric = metric_find("iops") });
		for (; n < metric_count && n < 64; n++)
			metrics[n] = &metric_registry[n];
		compare_build(&c, both, names, 2, metrics, n, 0.05, NULL, &err);
		compare_release(&c);
	}
	json_decref(r);
	return 0;
}
