/*
 * libFuzzer target: the result loaders of compare, report, plot and sweep
 * --resume, and the views that read a loaded result. The input is a result
 * file's text. The views' lean loader (result_load_stream) must accept
 * exactly what jansson's whole load and result_check accept, and give the
 * same tree but for the packed histograms, each of which must give the
 * whole tree's buckets back (abort otherwise). What it accepts is
 * rendered as the text report, fio's JSON+ and the HTML page, and
 * compared with itself over every metric, all into /dev/null.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/metric.h"
#include "result/result.h"
#include "views/fio_json.h"
#include "views/html.h"
#include "views/plot.h"
#include "views/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

/* Every op's histogram under w, loaded from w and from l (the same place
 * in the lean tree), must agree; then the lat_hist objects are removed,
 * so that json_equal can check the rest. */
static void hists_agree(json_t *w, json_t *l)
{
	static struct hist a, b;
	const char *key;
	json_t *e;
	void *tmp;
	size_t i;

	if (json_is_object(w) && json_is_object(json_object_get(w, "lat_hist"))) {
		int ra = result_hist_load(w, &a), rb = result_hist_load(l, &b);

		if (ra != rb ||
		    (!ra && (a.count != b.count || memcmp(a.buckets, b.buckets, sizeof(a.buckets)))))
			abort();
		json_object_del(w, "lat_hist");
		json_object_del(l, "lat_hist");
	}
	if (json_is_object(w)) {
		json_object_foreach_safe(w, tmp, key, e) hists_agree(e, json_object_get(l, key));
	} else if (json_is_array(w)) {
		json_array_foreach (w, i, e)
			hists_agree(e, json_array_get(l, i));
	}
}

/* The lean loader of data, checked against jansson's whole load. */
static json_t *load_both(const uint8_t *data, size_t size)
{
	struct dbio_err err = { 0 };
	json_error_t jerr;
	json_t *whole = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
	json_t *lean = NULL, *shown = NULL;
	FILE *fp = size ? fmemopen((void *)data, size, "r") : NULL;
	int rc = fp ? result_load_stream(fp, "fuzz.json", &lean, &err) : DBIO_EINPUT;

	if (fp)
		fclose(fp);
	if (whole && result_check(whole, "fuzz.json", &err)) {
		json_decref(whole);
		whole = NULL;
	}
	/* A NUL byte: the lean loader refuses it anywhere, jansson only
	 * where it is not the end of a number. */
	if (memchr(data, 0, size)) {
		if (!rc)
			abort();
		json_decref(whole);
		return NULL;
	}
	if (!whole != !!rc)
		abort();
	if (whole) {
		shown = json_deep_copy(lean);
		hists_agree(whole, lean);
		if (!json_equal(whole, lean))
			abort();
	}
	json_decref(whole);
	json_decref(lean);
	return shown;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dbio_err err = { 0 };
	json_t *r = load_both(data, size);

	if (!r)
		return 0;
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (sink) {
		const json_t *both[2] = { r, r };
		const char *names[2] = { "a.json", "b.json" };
		const struct metric *metrics[64];
		struct plot_input in[1] = { { .label = "fuzz.json", .result = r } };
		struct comparison c = { 0 };
		size_t n = 0;

		text_report(sink, r);
		text_summary(sink, r, false);
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
