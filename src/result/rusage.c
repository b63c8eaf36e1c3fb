/*
 * The "rusage" object of a run or of one of its phases: what getrusage
 * counted over elapsed_ns (result.c and phases.c both write it).
 */
#include "result/result_int.h"

json_t *result_usage_json(const struct usage *u, uint64_t elapsed_ns)
{
	double secs = (double)elapsed_ns / 1e9;

	return json_pack("{s:f, s:f, s:f, s:I, s:I, s:I, s:I, s:I, s:I}", "user_s", u->user_s, "sys_s",
			 u->sys_s, "cpu_pct", secs > 0 ? (u->user_s + u->sys_s) / secs * 100.0 : 0.0,
			 "majflt", (json_int_t)u->majflt, "minflt", (json_int_t)u->minflt, "nvcsw",
			 (json_int_t)u->nvcsw, "nivcsw", (json_int_t)u->nivcsw, "inblock",
			 (json_int_t)u->inblock, "oublock", (json_int_t)u->oublock);
}
