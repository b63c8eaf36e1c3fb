/*
 * repeat=auto's judgement: after each run of a job, whether its headline
 * figure is known well enough — the half-width of the 95 % confidence
 * interval of its mean over the complete runs within a target percentage
 * of that mean — and, when the runs stop, the record of why in the job's
 * result entry ("repeat_auto", docs/results.md). Computed from the result
 * tree only, as compare is.
 */
#ifndef DBIO_ANALYSIS_REPEAT_H
#define DBIO_ANALYSIS_REPEAT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The headline figure of a job entry's complete runs. */
struct repeat_judgement {
	const char *figure; /* "elapsed" (s), or "ops/s" (every op type together) when time_based */
	size_t n;	    /* complete runs */
	double mean, ci95;  /* of the per-run figures; ci95 0 for n < 2 */
	double ci_pct;	    /* ci95 / |mean| * 100; infinite when the mean is 0 or n < 2 */
};

/* Judge job (a jobs[] entry) as its runs stand. */
void repeat_judge(const json_t *job, struct repeat_judgement *j);

/* Why repeat=auto stopped, as the result's repeat_auto.stopped says it. */
enum repeat_stop {
	REPEAT_STOP_CI,	  /* "ci": within repeat_ci */
	REPEAT_STOP_MAX,  /* "repeat_max": that many runs */
	REPEAT_STOP_TIME, /* "repeat_time": the time since the first run began */
};

/* Set job's "repeat_auto": the runs, why they stopped, the judgement and
 * the caps (target_pct, max runs, time_ns; 0: none), and a sentence
 * saying so ("text") for the report. 0 or -ENOMEM. */
int repeat_record(json_t *job, enum repeat_stop why, const struct repeat_judgement *j, double target_pct,
		  unsigned long long max, unsigned long long time_ns);

#endif
