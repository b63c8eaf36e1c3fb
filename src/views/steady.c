/*
 * fio's steady state of a run in two views; see steady.h. fio's object
 * follows fio 3.33's stat.c (show_thread_status_json): the rule as
 * "MODE:LIMIT", the window in whole seconds, attained as 0 or 1, the
 * criterion as text (a % after a percentage), the deviation or the slope
 * (the other 0, as fio computes one), and the window's samples with
 * their means over every slot of the window (fio pads a window that never
 * filled with zeros); lat_ns and lat_mean in the lat modes, as fio after
 * 3.33.
 */
#include "views/steady.h"

#include <stdbool.h>
#include <string.h>

#include "analysis/tree.h"
#include "util/units.h"

/* The window's samples of name, padded with zeros to its n slots, and
 * their mean over the slots (fio's steadystate_data_mean). */
static json_t *fio_samples(const json_t *window, const char *name, size_t n, json_int_t *mean)
{
	const json_t *a = json_object_get(window, name);
	json_t *out = json_array();
	json_int_t sum = 0;

	for (size_t i = 0; i < n; i++) {
		const json_int_t v = json_integer_value(json_array_get(a, i));

		sum += v;
		json_array_append_new(out, json_integer(v));
	}
	*mean = n ? sum / (json_int_t)n : 0;
	return out;
}

json_t *steady_fio_json(const json_t *run)
{
	const json_t *ss = json_object_get(run, "steadystate"), *win = json_object_get(ss, "window");

	if (!ss)
		return NULL;
	const char *mode = tree_str(ss, "mode");
	const bool pct = !strcmp(tree_str(ss, "limit_unit"), "%"), slope = strstr(mode, "_slope") != NULL;
	const double iv = tree_num(ss, "interval_ns");
	const size_t n = iv > 0 ? (size_t)(tree_num(ss, "duration_ns") / iv) : 0;
	char rule[96], crit[64];
	json_int_t iops_mean, bw_mean, lat_mean;
	snprintf(rule, sizeof(rule), "%s:%f%s", mode, tree_num(ss, "limit"), pct ? "%" : "");
	snprintf(crit, sizeof(crit), "%f%s", tree_num(ss, "criterion"), pct ? "%" : "");
	json_t *iops = fio_samples(win, "iops", n, &iops_mean),
	       *bw = fio_samples(win, "bw_bytes_per_s", n, &bw_mean);
	json_t *data = json_pack("{s:I, s:I}", "bw_mean", bw_mean, "iops_mean", iops_mean);

	if (!strncmp(mode, "lat", 3)) {
		json_t *lat = fio_samples(win, "lat_ns", n, &lat_mean);

		json_object_set_new(data, "lat_mean", json_integer(lat_mean));
		json_object_set_new(data, "lat_ns", lat);
	}
	json_object_set_new(data, "iops", iops);
	json_object_set_new(data, "bw", bw);
	return json_pack("{s:s, s:I, s:i, s:s, s:f, s:f, s:o}", "ss", rule, "duration",
			 (json_int_t)(tree_num(ss, "duration_ns") / 1e9), "attained",
			 json_is_true(json_object_get(ss, "attained")) ? 1 : 0, "criterion", crit,
			 "max_deviation", slope ? 0.0 : tree_num(ss, "max_deviation"), "slope",
			 slope ? tree_num(ss, "slope") : 0.0, "data", data);
}

/* A figure of the judged metric (unit "IOPS", "bytes/s" or "ns"). */
static const char *figure(char *buf, size_t len, double v, const char *unit)
{
	if (!strcmp(unit, "ns"))
		return units_fmt_ns(buf, len, v);
	if (!strcmp(unit, "bytes/s"))
		snprintf(buf, len, "%.2f MiB/s", v / 1048576.0);
	else
		snprintf(buf, len, "%.0f IOPS", v);
	return buf;
}

void steady_text_line(FILE *fp, const json_t *run)
{
	const json_t *ss = json_object_get(run, "steadystate");
	const char *unit, *mode;
	char limit[32], when[32], iv[32], mean[32], value[48];
	bool pct, slope;

	if (!ss)
		return;
	unit = tree_str(ss, "unit");
	mode = tree_str(ss, "mode");
	pct = !strcmp(tree_str(ss, "limit_unit"), "%");
	slope = strstr(mode, "_slope") != NULL;
	if (pct)
		snprintf(limit, sizeof(limit), "%g%%", tree_num(ss, "limit"));
	else
		figure(limit, sizeof(limit), tree_num(ss, "limit"), unit);
	units_fmt_ns(iv, sizeof(iv), tree_num(ss, "interval_ns"));
	fprintf(fp, "    steady state: %s:%s ", mode, limit);
	if (json_is_true(json_object_get(ss, "attained")))
		fprintf(fp, "attained after %s",
			units_fmt_ns(when, sizeof(when), tree_num(ss, "attained_ns")));
	else
		fputs("not attained", fp);
	if (json_is_null(json_object_get(ss, "mean"))) {
		fprintf(fp, ": %.0f of %.0f samples of %s taken\n", tree_num(ss, "samples_taken"),
			tree_num(ss, "duration_ns") / tree_num(ss, "interval_ns"), iv);
		return;
	}
	if (json_is_null(json_object_get(ss, "criterion")))
		snprintf(value, sizeof(value), "none (a mean of 0)");
	else if (pct)
		snprintf(value, sizeof(value), "%.3f %% of the mean", tree_num(ss, "criterion"));
	else
		figure(value, sizeof(value), tree_num(ss, "criterion"), unit);
	fprintf(fp, ": %s %s%s, mean %s, %.0f samples of %s\n", slope ? "slope" : "largest deviation", value,
		slope ? " per interval" : "", figure(mean, sizeof(mean), tree_num(ss, "mean"), unit),
		tree_num(ss, "duration_ns") / tree_num(ss, "interval_ns"), iv);
}
