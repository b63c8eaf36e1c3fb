/* The counter registry and the figures made from it; see counter.h. */
#include "analysis/counter.h"

#include <string.h>

#include "analysis/tree.h"
#include "result/result.h"
#include "stats/opstats.h"

/* Where the filesystem's own device's counters are (disk[0]). */
#define DEV "disk.0."

const struct counter counter_registry[] = {
	{ "device_flushes", "device flushes", "flushes", DEV "flush_ios", 1, COUNTER_PER_OP,
	  "Flush requests the filesystem's device completed (/proc/diskstats, kernels since 5.5): each "
	  "fsync or fdatasync that reaches a device with a volatile write cache costs one or more.",
	  0 },
	{ "device_writes", "device writes", "I/Os", DEV "write_ios", 1, COUNTER_PER_OP,
	  "Write requests the device completed, after merging.", 0 },
	{ "device_reads", "device reads", "I/Os", DEV "read_ios", 1, COUNTER_PER_OP,
	  "Read requests the device completed, after merging: 0 when the page cache served the job.", 0 },
	{ "sectors_written", "sectors written", "sectors", DEV "write_bytes", 1.0 / 512, COUNTER_PER_OP,
	  "512-byte sectors written to the device: above the job's own bytes for metadata, journal and "
	  "read-modify-write.",
	  0 },
	{ "sectors_read", "sectors read", "sectors", DEV "read_bytes", 1.0 / 512, COUNTER_PER_OP,
	  "512-byte sectors read from the device.", 0 },
	{ "write_merges", "device write merges", "merges", DEV "write_merges", 1, COUNTER_PER_OP,
	  "Adjacent writes the block layer merged into one request.", 0 },
	{ "device_discards", "device discards", "discards", DEV "discard_ios", 1, COUNTER_PER_OP,
	  "Discard (trim) requests the device completed (kernels since 4.18).", 0 },
	{ "device_queue_time", "time in the device queue", "ms", DEV "queue_ms", 1, COUNTER_PER_OP,
	  "Time the device's requests were in flight, summed over the requests (diskstats' weighted time).",
	  0 },
	{ "device_busy", "device busy", "%", DEV "busy_ms", 1000, COUNTER_PCT_TIME,
	  "Share of the run's time the device had a request in flight.", 0 },
	{ "page_faults", "page faults", "faults", "vmstat.pgfault", 1, COUNTER_PER_OP,
	  "Page faults of the whole machine (/proc/vmstat pgfault).", 0 },
	{ "major_faults", "major faults", "faults", "vmstat.pgmajfault", 1, COUNTER_PER_OP,
	  "Page faults that read from storage.", 0 },
	{ "reclaim_scans_kswapd", "pages scanned by kswapd", "pages", "vmstat.pgscan_kswapd", 1,
	  COUNTER_PER_OP, "Pages the background reclaimer scanned: memory was short.", 0 },
	{ "reclaim_scans_direct", "pages scanned in direct reclaim", "pages", "vmstat.pgscan_direct", 1,
	  COUNTER_PER_OP,
	  "Pages scanned by tasks that had to reclaim memory themselves before they could allocate.", 0 },
	{ "reclaim_steals", "pages reclaimed", "pages", "vmstat.pgsteal_kswapd", 1, COUNTER_PER_OP,
	  "Pages kswapd freed.", 0 },
	{ "reclaim_throttled", "reclaim throttling", "events", "vmstat.pgscan_direct_throttle", 1,
	  COUNTER_PER_OP, "Times direct reclaim was throttled.", 0 },
	{ "alloc_stalls", "allocation stalls", "stalls", "vmstat.allocstall", 1, COUNTER_PER_OP,
	  "Allocations that entered direct reclaim (every zone's allocstall).", 0 },
	{ "compaction_stalls", "compaction stalls", "stalls", "vmstat.compact_stall", 1, COUNTER_PER_OP,
	  "Allocations that waited for memory compaction.", 0 },
	{ "pages_dirtied", "pages dirtied", "pages", "vmstat.nr_dirtied", 1, COUNTER_PER_OP,
	  "Page-cache pages made dirty.", 0 },
	{ "pages_written", "pages written back", "pages", "vmstat.nr_written", 1, COUNTER_PER_OP,
	  "Dirty pages written back.", 0 },
	{ "refaults", "page-cache refaults", "pages", "vmstat.workingset_refault_file", 1, COUNTER_PER_OP,
	  "File pages read again soon after they were evicted: the cache was too small for the working set.",
	  0 },
	{ "io_pressure", "io pressure (some)", "%", "pressure.io.some_us", 1, COUNTER_PCT_TIME,
	  "Share of the time some task waited for I/O (PSI).", 0 },
	{ "io_pressure_full", "io pressure (full)", "%", "pressure.io.full_us", 1, COUNTER_PCT_TIME,
	  "Share of the time every non-idle task waited for I/O at once (PSI).", 0 },
	{ "memory_pressure", "memory pressure (some)", "%", "pressure.memory.some_us", 1, COUNTER_PCT_TIME,
	  "Share of the time some task waited for memory: reclaim, refaults, throttling (PSI).", 0 },
	{ "memory_pressure_full", "memory pressure (full)", "%", "pressure.memory.full_us", 1,
	  COUNTER_PCT_TIME, "Share of the time every non-idle task waited for memory at once (PSI).", 0 },
	{ "cpu_pressure", "cpu pressure (some)", "%", "pressure.cpu.some_us", 1, COUNTER_PCT_TIME,
	  "Share of the time some runnable task waited for a CPU (PSI).", 0 },
	{ "process_write_bytes", "bytes dbio sent to storage", "bytes", "process_io.write_bytes", 1,
	  COUNTER_PER_OP,
	  "Bytes the process that ran the job caused to be written to storage (/proc/self/io).", 0 },
	{ "process_read_bytes", "bytes dbio read from storage", "bytes", "process_io.read_bytes", 1,
	  COUNTER_PER_OP, "Bytes read from storage for the process (/proc/self/io).", 0 },
	{ "cancelled_writes", "writes cancelled", "bytes", "process_io.cancelled_write_bytes", 1,
	  COUNTER_PER_OP,
	  "Bytes written to the page cache and dropped (truncated, removed) before they reached storage.",
	  0 },
	{ "cgroup_reclaim_scans", "cgroup pages scanned", "pages", "cgroup.memory_stat.pgscan", 1,
	  COUNTER_PER_OP, "mem_limit: pages the job's cgroup scanned to stay under its limit (cgroup v2).",
	  0 },
	{ "cgroup_major_faults", "cgroup major faults", "faults", "cgroup.memory_stat.pgmajfault", 1,
	  COUNTER_PER_OP, "mem_limit: major faults of the job's cgroup.", 0 },
	{ "cgroup_refaults", "cgroup refaults", "pages", "cgroup.memory_stat.workingset_refault_file", 1,
	  COUNTER_PER_OP,
	  "mem_limit: file pages the job's cgroup read again after evicting them (cgroup v2).", 0 },
	{ "io_wait", "I/O wait", "%", "sched.blocked_ns", 1, COUNTER_PCT_THREADS,
	  "Share of the job's threads' time off a CPU and not waiting for one: blocked in the kernel, on I/O "
	  "for a synchronous engine (their wall-clock time less schedstat's run and wait times).",
	  0 },
	{ "time_user", "time in dbio (user)", "ns", "rusage.user_s", 1e9, COUNTER_PER_OP,
	  "CPU time of the threads in user space: dbio's own work (and a database library's) per operation.",
	  0.01 },
	{ "time_kernel", "time in the kernel on a CPU", "ns", "rusage.sys_s", 1e9, COUNTER_PER_OP,
	  "CPU time of the threads in system calls and faults per operation.", 0.01 },
	{ "time_blocked", "time blocked", "ns", "sched.blocked_ns", 1, COUNTER_PER_OP,
	  "Time the threads were blocked (waiting on the device, a lock or a sleep) per operation.", 0 },
	{ "cpu_wait", "waiting for a CPU", "ns", "sched.wait_ns", 1, COUNTER_PER_OP,
	  "Time the job's threads were runnable but not running (schedstat).", 0 },
	{ "device_time", "time on the device", "ns", "trace.disk.0.device_ns", 1, COUNTER_PER_OP,
	  "trace=block: the filesystem's device's requests' time from issue to completion (bpftrace on "
	  "block_rq_issue and block_rq_complete), summed, per operation: the part of an operation's "
	  "latency the device took.",
	  0 },
	{ "device_wait", "waiting on the device", "%", "trace.disk.0.device_ns", 1, COUNTER_PCT_THREADS,
	  "trace=block: the device's request time as a share of the threads' time: I/O wait measured at "
	  "the device (over 100 % when several requests are in flight at once).",
	  0 },
	{ "traced_requests", "block requests (traced)", "requests", "trace.disk.0.requests", 1,
	  COUNTER_PER_OP,
	  "trace=block: requests the block layer issued to the filesystem's device (flushes included), "
	  "seen by bpftrace.",
	  0 },
	{ "cpu_run", "time on a CPU", "ns", "sched.run_ns", 1, COUNTER_PER_OP,
	  "Time the job's threads ran on a CPU (schedstat): user and system time.", 0 },
};

const size_t counter_count = sizeof(counter_registry) / sizeof(counter_registry[0]);

const char *counter_per_op(const json_t *run, double *ops)
{
	const json_t *all = json_object_get(run, "ops");
	const char *most = NULL;
	double best = 0;

	*ops = 0;
	for (int t = 0; t < OP_NTYPES; t++) {
		const char *name = op_type_name((enum op_type)t);
		double n = tree_num(json_object_get(all, name), "count");

		if (!op_is_data((enum op_type)t) || n <= 0)
			continue;
		*ops += n;
		if (n > best) {
			best = n;
			most = name;
		}
	}
	return most;
}

bool counter_of_run(const struct counter *c)
{
	return !strncmp(c->path, "sched.", 6) || !strncmp(c->path, "rusage.", 7) ||
	       !strncmp(c->path, "trace.", 6);
}

/* raw (already scaled) as counter c's figure of run: per op, or a share
 * of the time; false when the run lacks what it is divided by. */
static bool normalise(const struct counter *c, const json_t *run, const json_t *total, double raw,
		      double *value)
{
	double ops, secs;

	if (c->norm == COUNTER_PCT_THREADS) {
		const double wall = tree_num(json_object_get(run, "sched"), "wall_ns");

		if (wall <= 0)
			return false;
		*value = raw / wall * 100;
		return true;
	}
	if (c->norm == COUNTER_PCT_TIME) {
		secs = tree_num(total, "duration_ns") / 1e9;
		if (secs <= 0)
			return false;
		*value = raw / 1e6 / secs * 100;
		return true;
	}
	if (!counter_per_op(run, &ops))
		return false;
	*value = raw / ops;
	return true;
}

bool counter_value(const struct counter *c, const json_t *run, double *value)
{
	const json_t *total = tree_get(run, "counters.total"), *v;

	if (!total)
		return false;
	v = counter_of_run(c) ? tree_get(run, c->path) : tree_get(total, c->path);
	if (!json_is_number(v))
		return false;
	return normalise(c, run, total, json_number_value(v) * c->scale, value);
}

bool counter_step(const struct counter *c, const json_t *run, double *step)
{
	const json_t *total = tree_get(run, "counters.total");

	if (!total)
		return false;
	return normalise(c, run, total, c->step * c->scale, step);
}

void counter_annotate(json_t *job)
{
	json_t *runs = json_object_get(job, "runs"), *run;
	size_t i;

	json_array_foreach (runs, i, run) {
		json_t *counters = json_object_get(run, "counters"), *per;
		const char *name;
		double ops, v;

		if (!counters)
			continue;
		name = counter_per_op(run, &ops);
		per = json_pack("{s:f}", "ops", ops);
		if (per && name)
			json_object_set_new(per, "per", json_string(name));
		for (size_t k = 0; per && k < counter_count; k++)
			if (counter_value(&counter_registry[k], run, &v))
				json_object_set_new(per, counter_registry[k].name, json_real(v));
		result_settle(per);
		json_object_set_new(counters, "per_op", per);
	}
}

int counter_registry_check(const char **bad)
{
	for (size_t i = 0; i < counter_count; i++) {
		const struct counter *c = &counter_registry[i];

		*bad = c->name ? c->name : "(a row without a name)";
		if (!c->name || !c->label || !c->unit || !c->path || !c->meaning || !(c->scale > 0))
			return -1;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(counter_registry[j].name, c->name))
				return -1;
	}
	return 0;
}
