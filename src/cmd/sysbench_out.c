/*
 * sysbench 1.0.20's report of a fileio run, with its labels, units and
 * layout, its account of the run before it starts (sysbench_print_mode)
 * and the report computed from dbio's result of the run (the JSON tree),
 * then with --dbio-lines dbio's own lines: the latency of each kind of
 * operation apart, CPU time, and what dbio counted differently. sysbench
 * counts a periodic fsync as an event of its own and the syncs at the end
 * as none; its latency is that of every event. dbio keeps no per-thread
 * counts in a result, so the threads' spread is 0.00 for one thread and
 * n/a for more.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/sysbench_int.h"
#include "result/result.h"
#include "stats/hist.h"
#include "util/units.h"

static const char *const sync_ops[] = { "fsync", "fdatasync" };

static const json_t *op_of(const json_t *run, const char *op)
{
	return json_object_get(json_object_get(run, "ops"), op);
}

static double count_of(const json_t *run, const char *op)
{
	return json_number_value(json_object_get(op_of(run, op), "count"));
}

static double bytes_of(const json_t *run, const char *op)
{
	return json_number_value(json_object_get(op_of(run, op), "bytes"));
}

void sysbench_print_flags(const struct sb_opts *o)
{
	sb_log(o, 3, "Extra file open flags: %s%s%s%s", !o->osync && !o->odsync && !o->direct ? "(none)" : "",
	       o->osync ? "sync " : "", o->odsync ? "dsync " : "", o->direct ? "directio" : "");
}

char *sb_size(char *buf, size_t len, double value)
{
	static const char mods[] = "KMGT";
	unsigned i = 0;

	for (; i < sizeof(mods) - 1 && value >= 1024; i++)
		value /= 1024;
	if (i)
		snprintf(buf, len, "%.5g%ci", value, mods[i - 1]);
	else
		snprintf(buf, len, "%.5g", value);
	return buf;
}

void sysbench_print_mode(const struct sb_opts *o)
{
	char each[32], total[32], block[32];
	const bool random = o->mode->name[0] == 'r';

	sb_log(o, 3, "Running the test with following options:");
	sb_log(o, 3, "Number of threads: %llu", (unsigned long long)o->threads);
	if (o->rate)
		sb_log(o, 3, "Target transaction rate: %llu/sec", (unsigned long long)o->rate);
	if (o->report_interval)
		sb_log(o, 3, "Report intermediate results every %llu second(s)",
		       (unsigned long long)o->report_interval);
	if (o->validate)
		sb_log(o, 3, "Validation checks: on.\n");
	if (o->rand_seed)
		sb_log(o, 3, "Initializing random number generator from seed (%llu).\n",
		       (unsigned long long)o->rand_seed);
	else
		sb_log(o, 3, "Initializing random number generator from current time\n");
	sb_log(o, 3, "%s", "");
	sysbench_print_flags(o);
	sb_log(o, 3, "%llu files, %sB each", (unsigned long long)o->file_num,
	       sb_size(each, sizeof(each), (double)o->file_size));
	sb_log(o, 3, "%sB total file size",
	       sb_size(total, sizeof(total), (double)(o->file_size * o->file_num)));
	sb_log(o, 3, "Block size %sB", sb_size(block, sizeof(block), (double)o->block));
	if (random) {
		sb_log(o, 3, "Number of IO requests: %llu", (unsigned long long)o->events);
		sb_log(o, 3, "Read/Write ratio for combined random IO test: %2.2f", o->rw_ratio);
	}
	if (o->fsync_freq)
		sb_log(o, 3, "Periodic FSYNC enabled, calling fsync() each %llu requests.",
		       (unsigned long long)o->fsync_freq);
	if (o->fsync_end)
		sb_log(o, 3, "Calling fsync() at the end of test, Enabled.");
	if (o->fsync_all)
		sb_log(o, 3, "Calling fsync() after each write operation.");
	sb_log(o, 3, "Using %s I/O mode",
	       !strcmp(o->io_mode, "sync")    ? "synchronous"
	       : !strcmp(o->io_mode, "async") ? "asynchronous"
					      : "fast mmaped");
	if (o->validate)
		sb_log(o, 3, "Using checksums validation.");
	sb_log(o, 3, "Doing %s test", o->mode->doing);
}

/* The latencies of every event (reads, writes and syncs) in one histogram;
 * false when the result holds none. */
static bool events_hist(const json_t *run, struct hist *h)
{
	static const char *const ops[] = { "read", "write", "fsync", "fdatasync" };
	struct hist *one = malloc(sizeof(*one));
	bool any = false;

	hist_init(h);
	for (size_t i = 0; one && i < sizeof(ops) / sizeof(ops[0]); i++) {
		const json_t *op = op_of(run, ops[i]);

		if (op && count_of(run, ops[i]) > 0 && !result_hist_load(op, one)) {
			hist_merge(h, one);
			any = true;
		}
	}
	free(one);
	return any;
}

/* sysbench's --histogram: a line for each bucket that holds any. */
static void print_histogram(const struct hist *h)
{
	uint64_t most = 0;

	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		most = h->buckets[i] > most ? h->buckets[i] : most;
	printf("Latency histogram (values are in milliseconds)\n"
	       "       value  ------------- distribution ------------- count\n");
	for (unsigned i = 0; most && i < HIST_NBUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		int width = (int)((double)h->buckets[i] * 40.0 / (double)most + 0.5);

		printf("%12.3f |%-40.*s %llu\n", (double)hist_bucket_mid(i) / 1e6, width,
		       "****************************************", (unsigned long long)h->buckets[i]);
	}
	printf(" \n");
}

/* sysbench's --report-interval lines, from dbio's series of the run
 * (log_interval): printed after the run, not while it runs, and without the
 * interval's percentile, which the series does not keep (n/a). */
static void print_intervals(const struct sb_opts *o, const json_t *run)
{
	const json_t *points = json_object_get(json_object_get(run, "series"), "points"), *p;
	size_t i;

	json_array_foreach (points, i, p) {
		const json_t *ops = json_object_get(p, "ops");
		const double secs = json_number_value(json_object_get(p, "duration_ns")) / 1e9;
		double syncs = 0;

		if (secs < 0.5 * (double)o->report_interval)
			continue; /* the tail of the run, shorter than an interval */
		for (size_t k = 0; k < 2; k++)
			syncs += json_number_value(
				json_object_get(json_object_get(ops, sync_ops[k]), "count"));
		printf("[ %.0fs ] reads: %4.2f MiB/s writes: %4.2f MiB/s fsyncs: %4.2f/s latency (ms,%llu%%): n/a\n",
		       json_number_value(json_object_get(p, "end_ns")) / 1e9,
		       json_number_value(json_object_get(json_object_get(ops, "read"), "bytes")) / 1048576.0 /
			       secs,
		       json_number_value(json_object_get(json_object_get(ops, "write"), "bytes")) /
			       1048576.0 / secs,
		       syncs / secs, (unsigned long long)o->percentile);
	}
}

/* dbio's lines after sysbench's: each operation's latency apart. */
static void print_dbio(const json_t *run, double secs, double end_syncs)
{
	static const char *const ops[] = { "read", "write", "fsync", "fdatasync" };
	const json_t *ru = json_object_get(run, "rusage");

	printf("dbio:\n    latency (ms) by operation:     count        avg        p50        p99      p99.9        max\n");
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		const json_t *lat = json_object_get(op_of(run, ops[i]), "lat_ns");

		if (count_of(run, ops[i]) <= 0)
			continue;
		printf("        %-22s %10.0f %10.3f %10.3f %10.3f %10.3f %10.3f\n", ops[i],
		       count_of(run, ops[i]), json_number_value(json_object_get(lat, "mean")) / 1e6,
		       json_number_value(json_object_get(lat, "p50")) / 1e6,
		       json_number_value(json_object_get(lat, "p99")) / 1e6,
		       json_number_value(json_object_get(lat, "p99_9")) / 1e6,
		       json_number_value(json_object_get(lat, "max")) / 1e6);
	}
	printf("    syncs at the end (not events): %.0f\n", end_syncs);
	printf("    CPU time, s:                   user %.3f, system %.3f (%.0f %% of one CPU)\n",
	       json_number_value(json_object_get(ru, "user_s")),
	       json_number_value(json_object_get(ru, "sys_s")),
	       secs > 0 ? 100.0 *
				  (json_number_value(json_object_get(ru, "user_s")) +
				   json_number_value(json_object_get(ru, "sys_s"))) /
				  secs
			: 0.0);
}

void sysbench_print_run(const struct sb_opts *o, const json_t *result)
{
	const json_t *run = json_array_get(
		json_object_get(json_array_get(json_object_get(result, "jobs"), 0), "runs"), 0);
	const double secs = json_number_value(json_object_get(run, "elapsed_ns")) / 1e9;
	const double reads = count_of(run, "read"), writes = count_of(run, "write");
	double syncs = 0, end_syncs = 0, events;
	struct hist *h = malloc(sizeof(*h));

	if (json_is_true(json_object_get(result, "partial"))) {
		/* as sysbench: a failed run ends with its FATAL line, no report
		 * (dbio's words, on standard error, say which block and why) */
		const char *why = json_string_value(json_object_get(result, "error"));

		free(h);
		why = why ? why : "the run stopped";
		sb_log(o, 0, "%.*s, exiting...", (int)strcspn(why, "\n"), why);
		return;
	}
	if (!run || secs <= 0 || !h || o->verbosity < 3) {
		free(h); /* an error is dbio's message; below 3 sysbench prints no report */
		return;
	}
	for (size_t i = 0; i < 2; i++)
		syncs += count_of(run, sync_ops[i]);
	/* sysbench's syncs at the end: each thread's, of every file, not events */
	if (o->mode->writes && o->fsync_end && !o->fsync_all && writes > 0)
		end_syncs = (double)(o->threads * o->file_num);
	events = reads + writes + (o->fsync_all ? 0 : syncs - end_syncs);
	if (!events_hist(run, h))
		hist_init(h);
	if (o->report_interval)
		print_intervals(o, run);
	/* sysbench's info level: which limit ended the run */
	sb_log(o, 4, "%s limit exceeded, exiting...",
	       o->events && events >= (double)o->events ? "Event" : "Time");
	sb_log(o, 4, "Done.\n");
	if (o->histogram)
		print_histogram(h);
	printf("\nFile operations:\n    reads/s:                      %4.2f\n    writes/s:                     %4.2f\n"
	       "    fsyncs/s:                     %4.2f\n\n"
	       "Throughput:\n    read, MiB/s:                  %4.2f\n    written, MiB/s:               %4.2f\n\n",
	       reads / secs, writes / secs, syncs / secs, bytes_of(run, "read") / 1048576.0 / secs,
	       bytes_of(run, "write") / 1048576.0 / secs);
	printf("General statistics:\n    total time:                          %.4fs\n"
	       "    total number of events:              %.0f\n\n",
	       secs, events);
	printf("Latency (ms):\n         min: %39.2f\n         avg: %39.2f\n         max: %39.2f\n",
	       h->count ? (double)h->min / 1e6 : 0.0, hist_mean(h) / 1e6, (double)h->max / 1e6);
	if (o->percentile)
		printf("        %3lluth percentile: %27.2f\n", (unsigned long long)o->percentile,
		       (double)hist_percentile(h, (double)o->percentile) / 1e6);
	else
		printf("         percentile stats:               disabled\n");
	printf("         sum: %39.2f\n\n", (double)h->sum / 1e6);
	/* one thread: no spread; dbio keeps no count of each thread's events */
	printf("Threads fairness:\n    events (avg/stddev):           %.4f/%s\n"
	       "    execution time (avg/stddev):   %.4f/%s\n\n",
	       events / (double)o->threads, o->threads == 1 ? "0.00" : "n/a",
	       (double)h->sum / 1e9 / (double)o->threads, o->threads == 1 ? "0.00" : "n/a");
	if (o->dbio_lines)
		print_dbio(run, secs, end_syncs);
	free(h);
}
