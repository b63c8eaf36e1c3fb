/*
 * The metric registry and the lookups on it; see metric.h. Reading the
 * metrics from a result tree is figure.c.
 */
#include "analysis/metric.h"

#include <errno.h>
#include <string.h>

#include "analysis/tree.h"
#include "stats/opstats.h"

#define MIB (1.0 / 1048576)

/* The order is the summaries' (docs/result.schema.json lists them so):
 * per op type iops … max, then per run elapsed … nivcsw; block counts and
 * the series' worst intervals are not summarised. */
/* clang-format off */
const struct metric metric_registry[] = {
	{ .name = "iops", .label = "throughput", .column = "ops/s", .unit = "ops/s", .better = METRIC_BETTER_HIGHER,
	  .scope = METRIC_PER_OP, .run_path = "iops", .summary_key = "iops", .scale = 1, .decimals = 1, .by_default = true },
	{ .name = "bw", .label = "bandwidth", .column = "MiB/s", .unit = "MiB/s", .better = METRIC_BETTER_HIGHER,
	  .scope = METRIC_PER_OP_BYTES, .run_path = "bw_bytes", .summary_key = "bw_bytes", .scale = MIB, .decimals = 2,
	  .by_default = true },
	{ .name = "lat_mean", .label = "mean latency", .column = "lat mean", .unit = "ns", .better = METRIC_BETTER_LOWER,
	  .scope = METRIC_PER_OP, .run_path = "lat_ns.mean", .summary_key = "lat_mean_ns", .scale = 1 },
	{ .name = "p50", .label = "p50 latency", .column = "lat p50", .unit = "ns", .better = METRIC_BETTER_LOWER,
	  .scope = METRIC_PER_OP, .run_path = "lat_ns.p50", .summary_key = "lat_p50_ns", .scale = 1 },
	{ .name = "p95", .label = "p95 latency", .column = "lat p95", .unit = "ns", .better = METRIC_BETTER_LOWER,
	  .scope = METRIC_PER_OP, .run_path = "lat_ns.p95", .summary_key = "lat_p95_ns", .scale = 1 },
	{ .name = "p99", .label = "p99 latency", .column = "lat p99", .unit = "ns", .better = METRIC_BETTER_LOWER,
	  .scope = METRIC_PER_OP, .run_path = "lat_ns.p99", .summary_key = "lat_p99_ns", .scale = 1, .by_default = true },
	{ .name = "p99_9", .label = "p99.9 latency", .column = "lat p99.9", .unit = "ns", .better = METRIC_BETTER_LOWER,
	  .scope = METRIC_PER_OP, .run_path = "lat_ns.p99_9", .summary_key = "lat_p99_9_ns", .scale = 1 },
	{ .name = "max", .label = "max latency", .column = "lat max", .unit = "ns", .better = METRIC_BETTER_LOWER,
	  .scope = METRIC_PER_OP, .run_path = "lat_ns.max", .summary_key = "lat_max_ns", .scale = 1 },
	{ .name = "elapsed", .label = "elapsed time", .column = "elapsed", .unit = "ns", .better = METRIC_BETTER_LOWER,
	  .scope = METRIC_PER_RUN, .run_path = "elapsed_ns", .summary_key = "elapsed_ns", .scale = 1,
	  .by_default_phases = true },
	{ .name = "user", .label = "user CPU time", .column = "user s", .unit = "s", .better = METRIC_BETTER_LOWER,
	  .scope = METRIC_PER_RUN, .run_path = "rusage.user_s", .summary_key = "user_s", .scale = 1, .decimals = 2,
	  .by_default_phases = true },
	{ .name = "sys", .label = "system CPU time", .column = "sys s", .unit = "s", .better = METRIC_BETTER_LOWER,
	  .scope = METRIC_PER_RUN, .run_path = "rusage.sys_s", .summary_key = "sys_s", .scale = 1, .decimals = 2,
	  .by_default_phases = true },
	/* workload=postgres: the server's processes' CPU over each phase
	 * (/proc/<pid>/stat utime and stime, reaped children's included),
	 * which user and sys — dbio's own, the client's — leave out. */
	{ .name = "pg_user", .label = "PostgreSQL server user CPU time", .column = "server user s", .unit = "s",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "figures.server_user_s", .scale = 1,
	  .decimals = 2, .sum_phases = true },
	{ .name = "pg_sys", .label = "PostgreSQL server sys CPU time", .column = "server sys s", .unit = "s",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "figures.server_sys_s", .scale = 1,
	  .decimals = 2, .sum_phases = true },
	/* A busier CPU is not worse by itself: the same work in less time
	 * keeps it busier. */
	{ .name = "cpu", .label = "CPU use", .column = "cpu %", .unit = "%", .better = METRIC_BETTER_NONE,
	  .scope = METRIC_PER_RUN, .run_path = "rusage.cpu_pct", .summary_key = "cpu_pct", .scale = 1, .decimals = 1,
	  .by_default_phases = true },
	{ .name = "majflt", .label = "major faults", .column = "major faults", .unit = "faults",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "rusage.majflt", .summary_key = "majflt",
	  .scale = 1, .by_default_phases = true },
	{ .name = "minflt", .label = "minor faults", .column = "minor faults", .unit = "faults",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "rusage.minflt", .summary_key = "minflt",
	  .scale = 1, .by_default_phases = true },
	{ .name = "nvcsw", .label = "voluntary switches", .column = "vol. switches", .unit = "switches",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "rusage.nvcsw", .summary_key = "nvcsw",
	  .scale = 1 },
	{ .name = "nivcsw", .label = "involuntary switches", .column = "invol. switches", .unit = "switches",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "rusage.nivcsw", .summary_key = "nivcsw",
	  .scale = 1 },
	/* getrusage's block input and output operations: what the kernel
	 * read from and wrote to storage for the run, in 512-byte blocks;
	 * not summarised (figures across repeats come from the runs). */
	{ .name = "blocks_in", .label = "blocks read (512 bytes each)", .column = "blocks in", .unit = "blocks",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "rusage.inblock", .scale = 1 },
	{ .name = "blocks_out", .label = "blocks written (512 bytes each)", .column = "blocks out",
	  .unit = "blocks", .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "rusage.oublock",
	  .scale = 1 },
	/* The time the worst and the second-worst whole interval of the run's
	 * series took (log_interval, or a kv job's batches). */
	{ .name = "worst", .label = "worst interval", .column = "worst interval", .unit = "ns",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "series.worst.0.duration_ns", .scale = 1 },
	{ .name = "worst2", .label = "second-worst interval", .column = "2nd-worst interval", .unit = "ns",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "series.worst.1.duration_ns", .scale = 1 },
	/* A kv phase's write amplification three ways (workload/kv_amp.c,
	 * result.c's add_write_amp): bytes written per byte put, by the
	 * engine's account, through the process's syscalls and by the device;
	 * and the engine's compaction and write-stall time. Phase figures:
	 * found in a phase's row, absent elsewhere; not shown unless asked
	 * for (--metric), as most jobs have none. */
	{ .name = "engine_amp", .label = "engine write amplification", .column = "engine amp", .unit = "x",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "figures.engine_write_amp", .scale = 1,
	  .decimals = 2 },
	{ .name = "fs_amp", .label = "filesystem write amplification", .column = "fs amp", .unit = "x",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "figures.fs_write_amp", .scale = 1,
	  .decimals = 2 },
	{ .name = "device_amp", .label = "device write amplification", .column = "device amp", .unit = "x",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "figures.device_write_amp", .scale = 1,
	  .decimals = 2 },
	{ .name = "compaction_s", .label = "compaction time", .column = "compaction s", .unit = "s",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "figures.compaction_s", .scale = 1,
	  .decimals = 3 },
	{ .name = "stall_s", .label = "write-stall time", .column = "stall s", .unit = "s",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "figures.stall_s", .scale = 1,
	  .decimals = 3 },
	/* dbio crash (runs[].durability): what a power cut lost of what the
	 * workload saw acknowledged, beside the speed it was bought with. */
	{ .name = "lost_max", .label = "acknowledged lost, worst state", .column = "lost max",
	  .unit = "ops", .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN,
	  .run_path = "durability.acknowledged_lost.max", .scale = 1, .by_default_durable = true },
	{ .name = "loss_states", .label = "crash states with losses", .column = "loss states", .unit = "states",
	  .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN, .run_path = "durability.states_with_losses",
	  .scale = 1, .by_default_durable = true },
	{ .name = "lost_total", .label = "acknowledged lost, all states", .column = "lost total",
	  .unit = "ops", .better = METRIC_BETTER_LOWER, .scope = METRIC_PER_RUN,
	  .run_path = "durability.acknowledged_lost.total", .scale = 1 },
	{ .name = "crash_states", .label = "crash states checked", .column = "crash states", .unit = "states",
	  .better = METRIC_BETTER_NONE, .scope = METRIC_PER_RUN, .run_path = "durability.states", .scale = 1,
	  .by_default_durable = true },
};
/* clang-format on */

const size_t metric_count = sizeof(metric_registry) / sizeof(metric_registry[0]);

static const struct metric *find_n(const char *name, size_t len)
{
	for (size_t i = 0; i < metric_count; i++)
		if (strlen(metric_registry[i].name) == len && !strncmp(metric_registry[i].name, name, len))
			return &metric_registry[i];
	return NULL;
}

const struct metric *metric_find(const char *name)
{
	return find_n(name, strlen(name));
}

bool metric_per_op(const struct metric *m)
{
	return m->scope != METRIC_PER_RUN;
}

bool metric_in_ns(const struct metric *m)
{
	return !strcmp(m->unit, "ns");
}

const char *metric_op(const struct metric *m, size_t k)
{
	if (!metric_per_op(m))
		return k ? NULL : "all";
	return k < OP_NTYPES ? op_type_name((enum op_type)k) : NULL;
}

/* Which metrics a list of names holds. */
enum names_of { NAMES_ALL, NAMES_DEFAULT, NAMES_DEFAULT_PHASES };

static char *names_of(char *buf, size_t len, const char *sep, enum names_of which)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < metric_count && used < len; i++) {
		const struct metric *m = &metric_registry[i];
		int n;

		if ((which == NAMES_DEFAULT && !m->by_default) ||
		    (which == NAMES_DEFAULT_PHASES && !m->by_default_phases))
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? sep : "", m->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

char *metric_names(char *buf, size_t len, const char *sep, bool defaults_only)
{
	return names_of(buf, len, sep, defaults_only ? NAMES_DEFAULT : NAMES_ALL);
}

/* A job entry that went through phases (kv, import, meta: a database's
 * or a metadata workload's run). */
static bool phased(const json_t *job)
{
	return metric_job_phase(job, 0) != NULL;
}

/* A job entry that did a fixed amount of work, number_ios I/Os per thread
 * and not time_based (S4's sysbench --events form, whose figure is the
 * time it took). */
static bool fixed_work(const json_t *job)
{
	const json_t *o = json_object_get(job, "options");

	return json_integer_value(json_object_get(o, "number_ios")) > 0 &&
	       !json_is_true(json_object_get(o, "time_based"));
}

/* A job entry some run of which has the server's CPU (workload=postgres
 * with its own cluster). */
static bool has_server_cpu(const json_t *job)
{
	const json_t *run, *ph;
	size_t r, p;

	json_array_foreach (json_object_get(job, "runs"), r, run)
		json_array_foreach (json_object_get(run, "phases"), p, ph)
			if (json_is_number(tree_get(ph, "figures.server_user_s")))
				return true;
	return false;
}

/* A job entry some run of which was checked on the power-cut layer. */
static bool crashed(const json_t *job)
{
	const json_t *run;
	size_t r;

	json_array_foreach (json_object_get(job, "runs"), r, run)
		if (json_is_object(json_object_get(run, "durability")))
			return true;
	return false;
}

/* Whether every job entry of every result that ran is one that is, and
 * there is at least one. */
static bool every_job(const json_t *const *results, size_t n, bool (*is)(const json_t *job))
{
	size_t jobs = 0;

	for (size_t f = 0; f < n; f++) {
		const json_t *job;
		size_t i;

		json_array_foreach (json_object_get(results[f], "jobs"), i, job) {
			if (json_object_get(job, "skipped"))
				continue;
			if (!is(job))
				return false;
			jobs++;
		}
	}
	return jobs > 0;
}

size_t metric_defaults(const json_t *const *results, size_t n, const struct metric **out, size_t max)
{
	const bool all_phased = every_job(results, n, phased);
	size_t k = 0;

	if (!all_phased && every_job(results, n, fixed_work) && max) {
		out[k++] = metric_find("elapsed");
		return k;
	}
	for (size_t i = 0; i < metric_count && k < max; i++)
		if (all_phased ? metric_registry[i].by_default_phases : metric_registry[i].by_default)
			out[k++] = &metric_registry[i];
	if (all_phased && every_job(results, n, has_server_cpu))
		for (size_t i = 0; i < metric_count && k < max; i++)
			if (metric_registry[i].sum_phases)
				out[k++] = &metric_registry[i];
	if (every_job(results, n, crashed))
		for (size_t i = 0; i < metric_count && k < max; i++)
			if (metric_registry[i].by_default_durable)
				out[k++] = &metric_registry[i];
	return k;
}

char *metric_names_phased(char *buf, size_t len, const char *sep)
{
	return names_of(buf, len, sep, NAMES_DEFAULT_PHASES);
}

int metric_parse_list(const char *subject, const char *list, const struct metric **out, size_t max,
		      struct dbio_err *err)
{
	size_t n = 0;

	if (!list) {
		for (size_t i = 0; i < metric_count && n < max; i++)
			if (metric_registry[i].by_default)
				out[n++] = &metric_registry[i];
		return (int)n;
	}
	for (const char *p = list;;) {
		size_t len = strcspn(p, ",");
		const struct metric *m = find_n(p, len);

		if (!m) {
			char names[512];

			return dbio_err_set(err, DBIO_EINPUT,
					    "%s: --metric %s: '%.*s' is not a metric: expected a list of %s",
					    subject, list, (int)len, p,
					    metric_names(names, sizeof(names), ", ", false));
		}
		if (n == max)
			return dbio_err_set(err, DBIO_EINPUT, "%s: --metric %s: more than %zu metrics",
					    subject, list, max);
		out[n++] = m;
		if (!p[len])
			return (int)n;
		p += len + 1;
	}
}

static bool entry_ok(const struct metric *m)
{
	if (!m->name || !*m->name ||
	    strspn(m->name, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(m->name))
		return false;
	if (find_n(m->name, strlen(m->name)) != m)
		return false; /* a second entry of the same name */
	if (!m->label || !*m->label || !m->column || !*m->column || !m->unit || !*m->unit)
		return false;
	if (m->better != METRIC_BETTER_NONE && m->better != METRIC_BETTER_HIGHER &&
	    m->better != METRIC_BETTER_LOWER)
		return false;
	if (m->scope != METRIC_PER_OP && m->scope != METRIC_PER_OP_BYTES && m->scope != METRIC_PER_RUN)
		return false;
	if (!m->run_path || !*m->run_path || (m->summary_key && !*m->summary_key))
		return false;
	return m->scale > 0 && m->decimals >= 0 && m->decimals <= 6;
}

int metric_registry_check(const char **bad)
{
	for (size_t i = 0; i < metric_count; i++)
		if (!entry_ok(&metric_registry[i])) {
			*bad = metric_registry[i].name ? metric_registry[i].name : "(unnamed)";
			return -EINVAL;
		}
	return 0;
}
