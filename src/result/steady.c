/*
 * A run's steady state (fio's steadystate) in the result tree: the rule,
 * whether and when it was attained, the criterion with its unit and the
 * samples of the last window, oldest first. Written by result_add_run;
 * the views read it back (views/steady.c).
 */
#include <jansson.h>
#include <stdio.h>

#include "result/result_int.h"
#include "stats/steady.h"

/* The unit of the judged metric's samples. */
static const char *const metric_units[STEADY_NMETRICS] = { "IOPS", "bytes/s", "ns" };

static json_t *samples_json(const struct steady_window *w, int metric)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < steady_count(w); i++)
		json_array_append_new(a, json_integer((json_int_t)steady_at(w, metric, i)));
	return a;
}

/* A figure of the judgement, or null before the window was full. */
static json_t *judged(const struct steady_window *w, double v)
{
	return w->judged ? json_real(v) : json_null();
}

json_t *result_steady_json(const struct job *job, const struct run_stats *st)
{
	const struct steady_window *w = &st->steady;
	const char *unit = metric_units[w->rule.metric];
	char criterion_unit[48];

	snprintf(criterion_unit, sizeof(criterion_unit), "%s%s", w->rule.pct ? "%" : unit,
		 w->rule.slope ? " per interval" : "");
	json_t *o = json_pack(
		"{s:s, s:f, s:s, s:I, s:I, s:I, s:b, s:o, s:I, s:I, s:o, s:s, s:s, s:o, s:o, s:o}", "mode",
		steady_mode_name(&w->rule), "limit", w->rule.limit, "limit_unit", w->rule.pct ? "%" : unit,
		"duration_ns", (json_int_t)result_key_u64(job, "steadystate_duration"), "ramp_ns",
		(json_int_t)result_key_u64(job, "steadystate_ramp_time"), "interval_ns",
		(json_int_t)result_key_u64(job, "steadystate_check_interval"), "attained", w->attained,
		"attained_ns", w->attained ? json_integer((json_int_t)st->steady_end_ns) : json_null(),
		"samples_from_ns", (json_int_t)st->steady_samples_ns, "samples_taken", (json_int_t)w->taken,
		"criterion", w->judged && w->criterion_ok ? json_real(w->criterion) : json_null(),
		"criterion_unit", criterion_unit, "unit", unit, "mean", judged(w, w->mean), "max_deviation",
		judged(w, w->deviation), "slope", judged(w, w->slope));

	if (o)
		json_object_set_new(o, "window",
				    json_pack("{s:o, s:o, s:o}", "iops", samples_json(w, STEADY_IOPS),
					      "bw_bytes_per_s", samples_json(w, STEADY_BW), "lat_ns",
					      samples_json(w, STEADY_LAT)));
	return o;
}
