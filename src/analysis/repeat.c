/* repeat=auto's judgement of a job's runs; see repeat.h. */
#include "analysis/repeat.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/tree.h"
#include "stats/summary.h"
#include "util/units.h"

/* The headline figure of one run: its elapsed seconds, or when
 * time_based (whose elapsed is the runtime) its ops/s of every op type. */
static bool headline(const json_t *run, bool rate, double *v)
{
	const double ns = tree_num(run, "elapsed_ns");
	const json_t *op;
	const char *name;
	double count = 0;

	if (!(ns > 0))
		return false;
	if (!rate) {
		*v = ns / 1e9;
		return true;
	}
	json_object_foreach ((json_t *)json_object_get(run, "ops"), name, op)
		count += tree_num(op, "count");
	*v = count * 1e9 / ns;
	return true;
}

void repeat_judge(const json_t *job, struct repeat_judgement *j)
{
	const bool rate = json_is_true(json_object_get(json_object_get(job, "options"), "time_based"));
	const json_t *runs = json_object_get(job, "runs"), *run;
	double *x = calloc(json_array_size(runs) + 1, sizeof(*x));
	struct summary s = { 0 };
	size_t n = 0, i;

	json_array_foreach (runs, i, run)
		if (x && !json_is_true(json_object_get(run, "partial")) && headline(run, rate, &x[n]))
			n++;
	summary_of(x, n, &s);
	free(x);
	*j = (struct repeat_judgement){ .figure = rate ? "ops/s" : "elapsed", .n = n, .mean = s.mean };
	j->ci95 = n >= 2 ? s.ci95 : 0;
	j->ci_pct = n >= 2 && s.mean != 0 ? s.ci95 / fabs(s.mean) * 100 : INFINITY;
}

static const char *const stop_names[] = {
	[REPEAT_STOP_CI] = "ci",
	[REPEAT_STOP_MAX] = "repeat_max",
	[REPEAT_STOP_TIME] = "repeat_time",
};

int repeat_record(json_t *job, enum repeat_stop why, const struct repeat_judgement *j, double target_pct,
		  unsigned long long max, unsigned long long time_ns)
{
	char text[320], ci[64], cap[96], t[32];
	json_t *rec;

	if (isfinite(j->ci_pct))
		snprintf(ci, sizeof(ci), "±%.1f %%", j->ci_pct);
	else
		snprintf(ci, sizeof(ci), "not known");
	if (why == REPEAT_STOP_CI)
		snprintf(cap, sizeof(cap), "within repeat_ci=%g %%", target_pct);
	else if (why == REPEAT_STOP_MAX)
		snprintf(cap, sizeof(cap), "at repeat_max=%llu, above repeat_ci=%g %%", max, target_pct);
	else
		snprintf(cap, sizeof(cap), "repeat_time=%s after the first began, above repeat_ci=%g %%",
			 units_fmt_ns(t, sizeof(t), (double)time_ns), target_pct);
	snprintf(text, sizeof(text),
		 "repeat=auto: stopped after %zu runs: the 95 %% CI of %s is %s of its mean, %s", j->n,
		 j->figure, ci, cap);
	rec = json_pack("{s:I, s:s, s:s, s:f, s:f, s:f, s:I, s:f, s:s}", "runs", (json_int_t)j->n, "stopped",
			stop_names[why], "figure", j->figure, "mean", j->mean, "ci95", j->ci95, "target_pct",
			target_pct, "repeat_max", (json_int_t)max, "repeat_time_s", (double)time_ns / 1e9,
			"text", text);
	if (!rec)
		return -ENOMEM;
	json_object_set_new(rec, "ci_pct", isfinite(j->ci_pct) ? json_real(j->ci_pct) : json_null());
	return json_object_set_new(job, "repeat_auto", rec) ? -ENOMEM : 0;
}
