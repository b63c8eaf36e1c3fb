/*
 * A run's phases (workload=kv, import, oltp, postgres ...): each phase's
 * elapsed time, ops and rusage, its figures (kv's write amplification
 * among them), and the whole run's amplification over the phases.
 */
#include <string.h>

#include "result/result_int.h"
#include "stats/usage.h"

/* A kv phase's write amplification: each <way>_write_bytes figure over
 * user_bytes, the key and value bytes the phase put, as <way>_write_amp
 * (workload/kv_amp.c makes the figures; none without user bytes). */
static void add_write_amp(json_t *fig)
{
	const double user = json_number_value(json_object_get(fig, "user_bytes"));
	json_t *amps = json_object(), *v;
	const char *name;
	char amp[64];

	json_object_foreach (fig, name, v) {
		const size_t len = strlen(name), tail = strlen("_write_bytes");

		if (user > 0 && len > tail && len - tail < sizeof(amp) - 10 &&
		    !strcmp(name + len - tail, "_write_bytes")) {
			snprintf(amp, sizeof(amp), "%.*s_write_amp", (int)(len - tail), name);
			json_object_set_new(amps, amp, json_real(json_number_value(v) / user));
		}
	}
	json_object_update(fig, amps); /* not while walking fig */
	json_decref(amps);
}

/* A kv run's write amplification over all its phases, for the views'
 * whole-run rows (analysis/metric.c's engine_amp ...): the phases' bytes
 * put, written each way, and compaction and stall seconds summed, and
 * the amplifications of the sums. NULL when no phase put bytes. */
static json_t *run_write_amp(const json_t *phases)
{
	static const char *const sums[] = { "user_bytes",	  "engine_write_bytes", "fs_write_bytes",
					    "device_write_bytes", "compaction_s",	"stall_s" };
	json_t *fig = json_object(), *ph;
	size_t i;

	json_array_foreach (phases, i, ph) {
		const json_t *f = json_object_get(ph, "figures");

		for (size_t k = 0; k < sizeof(sums) / sizeof(sums[0]); k++)
			if (json_is_number(json_object_get(f, sums[k])))
				json_object_set_new(
					fig, sums[k],
					json_real(json_number_value(json_object_get(fig, sums[k])) +
						  json_number_value(json_object_get(f, sums[k]))));
	}
	if (!(json_number_value(json_object_get(fig, "user_bytes")) > 0)) {
		json_decref(fig);
		return NULL;
	}
	add_write_amp(fig);
	return fig;
}

void result_add_phases(json_t *run, const struct run_stats *st)
{
	json_t *phases = json_array();

	for (unsigned i = 0; i < st->nphases; i++)
		json_array_append_new(
			phases, json_pack("{s:s, s:I, s:I, s:f, s:o}", "name", st->phases[i].name,
					  "elapsed_ns", (json_int_t)st->phases[i].elapsed_ns, "ops",
					  (json_int_t)st->phases[i].ops, "ops_per_s",
					  st->phases[i].elapsed_ns ? (double)st->phases[i].ops * 1e9 /
									     (double)st->phases[i].elapsed_ns
								   : 0.0,
					  "rusage",
					  result_usage_json(&st->phases[i].usage, st->phases[i].elapsed_ns)));
	json_object_set_new(run, "phases", phases);
	for (unsigned i = 0; i < st->nphases; i++)
		if (st->phases[i].nfigures) {
			json_t *fig = json_object();

			for (unsigned f = 0; f < st->phases[i].nfigures; f++)
				json_object_set_new(fig, st->phases[i].figures[f].name,
						    json_real(st->phases[i].figures[f].value));
			add_write_amp(fig);
			json_object_set_new(json_array_get(phases, i), "figures", fig);
		}
	json_t *amp = run_write_amp(phases);

	if (amp)
		json_object_set_new(run, "figures", amp);
}
