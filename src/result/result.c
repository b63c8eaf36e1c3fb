/* Building, writing and reading result trees; see result.h. */
#include "result/result.h"
#include "result/result_int.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "job/option.h"
#include "sys/fsinfo.h"
#include "sys/sysinfo.h"
#include "util/atomic.h"
#include "util/clock.h"
#include "util/units.h"

#ifndef DBIO_VERSION
#define DBIO_VERSION "0.0.0"
#endif

static const double std_pcts[] = { 50, 90, 95, 99, 99.9 };
static const char *const std_pct_names[] = { "p50", "p90", "p95", "p99", "p99_9" };

static json_t *iso_time(uint64_t wall_ns)
{
	char buf[64];
	time_t t = (time_t)(wall_ns / 1000000000u);
	struct tm tm;

	gmtime_r(&t, &tm);
	snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (unsigned)(wall_ns / 1000000u % 1000u));
	return json_string(buf);
}

json_t *result_new(int argc, char **argv)
{
	json_t *argv_json = json_array();
	char *line = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&line, &len);

	if (!argv_json || !mem) {
		json_decref(argv_json);
		if (mem)
			fclose(mem);
		free(line);
		return NULL;
	}
	for (int i = 0; i < argc; i++) {
		json_array_append_new(argv_json, json_string(argv[i]));
		fprintf(mem, "%s%s", i ? " " : "", argv[i]);
	}
	fclose(mem);
	json_t *r = json_pack("{s:i, s:{s:s, s:s}, s:s, s:o, s:o, s:b, s:o, s:[]}", "schema_version",
			      RESULT_SCHEMA_VERSION, "tool", "name", "dbio", "version", DBIO_VERSION,
			      "command_line", line ? line : "", "argv", argv_json, "started_at",
			      iso_time(clock_wall_ns()), "partial", 0, "system", sysinfo_host(NULL), "jobs");
	free(line);
	return r;
}

static json_t *option_value(const void *base, const struct option_def *def)
{
	const char *field = (const char *)base + def->offset;
	char buf[4200];

	switch (def->type) {
	case OPT_BOOL:
		return json_boolean(*(const bool *)field);
	case OPT_SIZE:
	case OPT_UINT:
		if (def->word && !*(const uint64_t *)field)
			break; /* "auto" */
		/* fio's READ,WRITE form with two values: "8192,32768" */
		if (def->pair_offset &&
		    *(const uint64_t *)field != *(const uint64_t *)((const char *)base + def->pair_offset))
			break;
		return json_integer((json_int_t) * (const uint64_t *)field);
	case OPT_TIME:
		return json_integer((json_int_t) * (const uint64_t *)field);
	case OPT_PCT_LIST: {
		const struct opt_pcts *p = (const struct opt_pcts *)field;
		json_t *a = json_array();

		for (size_t i = 0; i < p->n; i++)
			json_array_append_new(a, json_real(p->v[i]));
		return a;
	}
	case OPT_INTERVAL:
	case OPT_RANGE:
	case OPT_STR:
	case OPT_ENUM:
		break;
	}
	option_format(base, def, buf, sizeof(buf));
	return json_string(buf);
}

static json_t *targets_json(const struct job *job)
{
	json_t *a = json_array();
	char **dirs = NULL;
	int n = job_split_dirs(job->directory, &dirs);

	for (int i = 0; i < n; i++) {
		json_t *t = sysinfo_target(NULL, dirs[i]);

		if (t)
			json_array_append_new(a, t);
		free(dirs[i]);
	}
	free(dirs);
	return a;
}

/* A run's reads and writes per directory, in the order of the job's
 * targets, each with its throughput over the run's elapsed time (so that
 * the directories' figures add up to the job's), how long it had I/O, and
 * its device's busy time (diskstats io_ticks; null without a device). */
static json_t *run_targets_json(const struct job *job, const struct run_stats *st)
{
	json_t *a = json_array();
	char **dirs = NULL;
	int n = job_split_dirs(job->directory, &dirs);
	const double secs = (double)st->elapsed_ns / 1e9;

	for (size_t d = 0; d < st->ntargets; d++) {
		const struct target_io *t = &st->targets[d];
		json_t *o = json_pack("{s:s, s:I, s:o}", "directory", (int)d < n ? dirs[d] : "?",
				      "elapsed_ns", (json_int_t)t->elapsed_ns, "busy_ns",
				      t->busy_known ? json_integer((json_int_t)t->busy_ns) : json_null());

		for (int k = 0; k < 2; k++)
			json_object_set_new(o, k ? "write" : "read",
					    json_pack("{s:I, s:I, s:f, s:f}", "count", (json_int_t)t->ops[k],
						      "bytes", (json_int_t)t->bytes[k], "iops",
						      secs > 0 ? (double)t->ops[k] / secs : 0.0, "bw_bytes",
						      secs > 0 ? (double)t->bytes[k] / secs : 0.0));
		json_array_append_new(a, o);
	}
	for (int i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	return a;
}

/* What the reader must know to trust the figures. */
static json_t *warnings_json(const struct job *job)
{
	json_t *a = json_array();
	struct hostinfo h;

	if (!job->eng)
		return a; /* databases: their size is reported, not predicted */
	if (job->engine_warning)
		json_array_append_new(a, json_string(job->engine_warning));
	if (!result_key_u64(job, "direct") && hostinfo_read(&h) == 0) {
		uint64_t data = result_key_u64(job, "filesize") * result_key_u64(job, "nrfiles") *
				(result_key_u64(job, "share_files") ? 1 : job->numjobs);
		uint64_t mem = job->mem_limit ? job->mem_limit : h.mem_total_bytes;
		char d[32], m[32], need[32], half[32];

		if (data < 2 * mem) {
			char *text = NULL;

			units_fmt_bytes(d, sizeof(d), data);
			units_fmt_bytes(m, sizeof(m), mem);
			units_fmt_bytes(need, sizeof(need), 2 * mem);
			units_fmt_bytes(half, sizeof(half), data / 2);
			if (asprintf(
				    &text,
				    "page cache: the job's %s of files is less than twice the memory it may use (%s: %s), so buffered I/O measures the page cache as much as the storage; use direct=1, at least %s of files, or a mem_limit of at most %s",
				    d, job->mem_limit ? "mem_limit" : "RAM", m, need, half) >= 0)
				json_array_append_new(a, json_string(text));
			free(text);
		}
	}
	return a;
}

static json_t *hist_json(const struct hist *h)
{
	json_t *buckets = json_array();

	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		if (h->buckets[i])
			json_array_append_new(buckets,
					      json_pack("[I, I]", (json_int_t)i, (json_int_t)h->buckets[i]));
	return json_pack("{s:s, s:i, s:s, s:o}", "scheme", "log-linear", "sub_bucket_bits", HIST_SUB_BITS,
			 "unit", "ns", "buckets", buckets);
}

json_t *result_op_json(const struct op_stats *s, const struct opt_pcts *pcts, uint64_t elapsed_ns)
{
	const struct hist *h = &s->lat_ns;
	double secs = (double)elapsed_ns / 1e9;
	json_t *lat = json_pack("{s:I, s:f, s:I, s:f}", "min", (json_int_t)(h->count ? h->min : 0), "mean",
				hist_mean(h), "max", (json_int_t)h->max, "stddev", hist_stddev(h));
	json_t *extra = json_object();

	for (size_t i = 0; i < sizeof(std_pcts) / sizeof(std_pcts[0]); i++)
		json_object_set_new(lat, std_pct_names[i],
				    json_integer((json_int_t)hist_percentile(h, std_pcts[i])));
	for (size_t i = 0; i < pcts->n; i++) {
		char key[32];

		snprintf(key, sizeof(key), "%.15g", pcts->v[i]);
		json_object_set_new(extra, key, json_integer((json_int_t)hist_percentile(h, pcts->v[i])));
	}
	json_object_set_new(lat, "percentiles", extra);
	return json_pack("{s:I, s:I, s:f, s:f, s:o, s:o}", "count", (json_int_t)h->count, "bytes",
			 (json_int_t)s->bytes, "iops", secs > 0 ? (double)h->count / secs : 0.0, "bw_bytes",
			 secs > 0 ? (double)s->bytes / secs : 0.0, "lat_ns", lat, "lat_hist", hist_json(h));
}

/* The data operations of a point (reads, writes, inserts, lookups, updates). */
static uint64_t rw_count(const struct series_point *p)
{
	uint64_t n = 0;

	for (int t = 0; t < OP_NTYPES; t++)
		if (op_is_data(t))
			n += p->op[t].count;
	return n;
}

/* Is a worse than b? Time grid: fewer data operations in a whole
 * interval. Count and batch grids: an interval that took longer. */
static bool worse(const struct series *s, const struct series_point *a, const struct series_point *b)
{
	if (s->interval_ns)
		return rw_count(a) < rw_count(b);
	return a->duration_ns > b->duration_ns;
}

static bool whole(const struct series *s, const struct series_point *p)
{
	if (s->manual)
		return true; /* every batch is whole */
	return s->interval_ns ? p->duration_ns == s->interval_ns : rw_count(p) == s->interval_ops;
}

/* The injected fault of dbio crash: what it was and hit, whether the
 * workload saw an error, what the states after it lost. */
static json_t *fault_json(const struct durable_tally *d)
{
	json_t *o = json_pack("{s:s, s:b, s:b, s:I, s:I, s:I}", "fault", d->fault, "hit", d->fault_hit,
			      "seen", d->fault_seen, "states_after", (json_int_t)d->after_states,
			      "states_after_with_losses", (json_int_t)d->after_lossy, "lost_after_max",
			      (json_int_t)d->after_lost_max);

	if (o && d->fault_hit)
		json_object_set_new(o, "what", json_string(d->fault_what));
	if (o && d->fault_error[0])
		json_object_set_new(o, "error", json_string(d->fault_error));
	return o;
}

/* dbio crash's findings (stats/durable.h): the section's own version, the
 * setting and crash model, the states and what they lost, the first lost
 * operation, the injected fault. */
static json_t *durable_json(const struct durable_tally *d)
{
	json_t *o = json_pack("{s:i, s:s, s:s, s:I, s:I, s:I, s:I, s:{s:I, s:I}, s:I, s:I, s:I, s:I}",
			      "version", 2, "setting", d->setting, "model", d->model[0] ? d->model : "lose",
			      "states", (json_int_t)d->states, "at_durability_points", (json_int_t)d->points,
			      "after_acknowledgements", (json_int_t)d->acks, "states_with_losses",
			      (json_int_t)d->lossy, "acknowledged_lost", "max", (json_int_t)d->lost_max,
			      "total", (json_int_t)d->lost, "not_opened", (json_int_t)d->not_opened,
			      "integrity_failed", (json_int_t)d->integrity, "torn_records",
			      (json_int_t)d->torn, "acknowledged", (json_int_t)d->acked);

	if (o && d->first_set)
		json_object_set_new(o, "first_lost",
				    json_pack("{s:I, s:I, s:s, s:s}", "key", (json_int_t)d->first_key,
					      "sequence", (json_int_t)d->first_seq, "cut", d->first_cut,
					      "why", d->first_why));
	if (o && d->fault[0])
		json_object_set_new(o, "fault", fault_json(d));
	if (o && d->unit[0])
		json_object_update_new(o, json_pack("{s:s, s:s, s:I, s:{s:I, s:I}}", "unit", d->unit,
						    "random_cuts_after", "writes", "written",
						    (json_int_t)d->written, "written_lost", "max",
						    (json_int_t)d->wlost_max, "total", (json_int_t)d->wlost));
	return o;
}

static json_t *point_json(const struct series_point *p, int thread)
{
	json_t *ops = json_object();
	json_t *pt;

	for (int t = 0; t < OP_NTYPES; t++) {
		const struct series_op *o = &p->op[t];

		if (!o->count)
			continue;
		json_object_set_new(ops, op_type_name(t),
				    json_pack("{s:I, s:I, s:f, s:I}", "count", (json_int_t)o->count, "bytes",
					      (json_int_t)o->bytes, "lat_mean_ns",
					      (double)o->lat_sum_ns / (double)o->count, "lat_max_ns",
					      (json_int_t)o->lat_max_ns));
	}
	pt = json_pack("{s:I, s:I, s:o}", "end_ns", (json_int_t)p->end_ns, "duration_ns",
		       (json_int_t)p->duration_ns, "ops", ops);
	if (thread >= 0)
		json_object_set_new(pt, "thread", json_integer(thread));
	return pt;
}

static json_t *series_json(const struct run_stats *st)
{
	const struct series *first = &st->series[0];
	const struct series_point *worst[2] = { NULL, NULL };
	int worst_thread[2] = { -1, -1 };
	size_t worst_index[2] = { 0, 0 };
	json_t *points = json_array(), *w = json_array();
	bool truncated = false;

	for (size_t k = 0; k < st->nseries; k++) {
		const struct series *s = &st->series[k];
		int thread = first->interval_ns ? -1 : (int)k;

		truncated |= s->truncated;
		for (size_t i = 0; i < s->npoints; i++) {
			const struct series_point *p = &s->points[i];

			json_array_append_new(points, point_json(p, thread));
			if (!whole(s, p))
				continue;
			if (!worst[0] || worse(s, p, worst[0])) {
				worst[1] = worst[0], worst_thread[1] = worst_thread[0],
				worst_index[1] = worst_index[0];
				worst[0] = p, worst_thread[0] = thread, worst_index[0] = i;
			} else if (!worst[1] || worse(s, p, worst[1])) {
				worst[1] = p, worst_thread[1] = thread, worst_index[1] = i;
			}
		}
	}
	for (int k = 0; k < 2 && worst[k]; k++) {
		json_t *e =
			json_pack("{s:I, s:I, s:I, s:I}", "index", (json_int_t)worst_index[k], "end_ns",
				  (json_int_t)worst[k]->end_ns, "duration_ns",
				  (json_int_t)worst[k]->duration_ns, "count", (json_int_t)rw_count(worst[k]));

		if (worst_thread[k] >= 0)
			json_object_set_new(e, "thread", json_integer(worst_thread[k]));
		json_array_append_new(w, e);
	}
	json_t *out = json_pack("{s:s, s:b, s:o, s:o}", "grid",
				first->interval_ns ? "time"
				: first->manual	   ? "batch"
						   : "ops",
				"truncated", truncated, "points", points, "worst", w);

	if (first->interval_ns)
		json_object_set_new(out, "interval_ns", json_integer((json_int_t)first->interval_ns));
	else if (!first->manual)
		json_object_set_new(out, "interval_ops", json_integer((json_int_t)first->interval_ops));
	return out;
}

/* The threads' times: on a CPU, waiting for one, and the rest of their
 * wall-clock time, blocked (in I/O, on a lock, asleep). */
static json_t *sched_json(const struct run_stats *st)
{
	const uint64_t busy = st->sched.run_ns + st->sched.wait_ns;

	return json_pack("{s:I, s:I, s:I, s:I, s:I}", "run_ns", (json_int_t)st->sched.run_ns, "wait_ns",
			 (json_int_t)st->sched.wait_ns, "timeslices", (json_int_t)st->sched.timeslices,
			 "wall_ns", (json_int_t)st->sched_wall_ns, "blocked_ns",
			 (json_int_t)(st->sched_wall_ns > busy ? st->sched_wall_ns - busy : 0));
}

/* Each phase's own latencies (kv's benchmarks=), as ops.<type> has the
 * run's, into the phases[] entries result_add_phases made. */
static void phase_lats(json_t *phases, const struct run_stats *st, const struct opt_pcts *pcts)
{
	for (unsigned i = 0; i < st->nphases; i++) {
		json_t *ph = json_array_get(phases, i);

		if (!ph || !st->phases[i].lat)
			continue;
		json_object_set_new(ph, "lat_op", json_string(op_type_name(st->phases[i].lat_op)));
		json_object_set_new(ph, "lat",
				    result_op_json(st->phases[i].lat, pcts, st->phases[i].elapsed_ns));
	}
}

/* min, mean, max and the standard percentiles of h, in ns. */
static json_t *lat_summary_json(const struct hist *h)
{
	json_t *lat = json_pack("{s:I, s:f, s:I}", "min", (json_int_t)(h->count ? h->min : 0), "mean",
				hist_mean(h), "max", (json_int_t)h->max);

	for (size_t i = 0; i < sizeof(std_pcts) / sizeof(std_pcts[0]); i++)
		json_object_set_new(lat, std_pct_names[i],
				    json_integer((json_int_t)hist_percentile(h, std_pcts[i])));
	return lat;
}

/* A latency without its histogram: count, min, mean, max, stddev. */
static json_t *moments_json(const struct moments *m)
{
	return json_pack("{s:I, s:I, s:f, s:I, s:f}", "count", (json_int_t)m->count, "min",
			 (json_int_t)(m->count ? m->min : 0), "mean", moments_mean(m), "max",
			 (json_int_t)m->max, "stddev", moments_stddev(m));
}

/* A queued engine's slat and lat (slat + clat) of each op type that completed I/Os. */
static json_t *queue_lat_json(const struct queue_lat *q)
{
	json_t *o = json_object();

	for (int t = 0; t < OP_NTYPES; t++)
		if (q->lat[t].count)
			json_object_set_new(o, op_type_name(t),
					    json_pack("{s:o, s:o}", "slat_ns", moments_json(&q->slat[t]),
						      "total_lat_ns", moments_json(&q->lat[t])));
	return o;
}

static json_t *probe_json(const struct job *job, const struct run_probe *p)
{
	const struct hist *h = p->lat;
	json_t *stalls = json_array();
	json_t *lat = lat_summary_json(h);
	for (size_t i = 0; i < p->nstalls; i++)
		json_array_append_new(stalls, json_pack("{s:I, s:I}", "t_ns", (json_int_t)p->stalls[i].t_ns,
							"lat_ns", (json_int_t)p->stalls[i].lat_ns));
	json_t *o = json_pack("{s:s, s:I, s:I, s:I, s:o, s:o, s:I}", "kind",
			      p->kind == PROBE_WRITE ? "write" : "read", "interval_ns",
			      (json_int_t)job->probe_interval_ns, "stall_ns", (json_int_t)job->probe_stall_ns,
			      "count", (json_int_t)h->count, "lat_ns", lat, "stalls", stalls,
			      "stalls_dropped", (json_int_t)p->stalls_dropped);

	if (p->error)
		json_object_set_new(o, "error", json_string(strerror(-p->error)));
	return o;
}

/* The database a workload drove: its engine, its files' bytes at the end,
 * its library's version and whether that was built with assertions. */
static json_t *database_json(const struct run_stats *st)
{
	json_t *db =
		json_pack("{s:s, s:I}", "engine", st->db_engine, "disk_bytes", (json_int_t)st->disk_bytes);

	if (db && st->db_version)
		json_object_set_new(db, "version", json_string(st->db_version));
	if (db && st->db_version && st->db_assertions >= 0)
		json_object_set_new(db, "assertions", json_boolean(st->db_assertions));
	return db;
}

/* exec_prerun and exec_postrun: the command, its exit status and where
 * its output went, of those that ran. */
static json_t *exec_json(const struct job *job, const struct run_stats *st)
{
	const struct run_exec *recs[] = { &st->prerun, &st->postrun };
	const char *modes[] = { "prerun", "postrun" };
	json_t *o = json_object();
	char out[160];

	for (size_t i = 0; o && i < 2; i++)
		if (recs[i]->ran) {
			snprintf(out, sizeof(out), "%s.%s.txt", job->name, modes[i]);
			json_object_set_new(o, modes[i],
					    json_pack("{s:s, s:i, s:s}", "command", recs[i]->command,
						      "status", recs[i]->status, "output", out));
		}
	return o;
}

/* A run's exec (exec_prerun, exec_postrun) and memory (mem_limit), when
 * it has them. */
static void run_extras(json_t *run, const struct job *job, const struct run_stats *st)
{
	if (st->prerun.ran || st->postrun.ran)
		json_object_set_new(run, "exec", exec_json(job, st));
	if (st->mem_limit_bytes)
		json_object_set_new(run, "memory",
				    json_pack("{s:I, s:I}", "limit_bytes", (json_int_t)st->mem_limit_bytes,
					      "peak_bytes", (json_int_t)st->mem_peak_bytes));
}

/* continue_on_error: the I/O errors the job went on after, by errno, and
 * the first one's message (fio's total_err and first_error). */
static json_t *io_errors_json(const struct io_errors *e)
{
	json_t *by = json_object(), *o;

	for (int k = 0; k < IOERR_KINDS; k++)
		if (e->by_kind[k])
			json_object_set_new(by, io_errors_name(k), json_integer((json_int_t)e->by_kind[k]));
	o = json_pack("{s:I, s:o}", "total", (json_int_t)e->total, "by_errno", by);
	if (o && e->total) {
		json_object_set_new(o, "first", json_string(e->first));
		json_object_set_new(o, "first_errno", json_string(io_errors_name(e->first_kind)));
	}
	return o;
}

int result_add_run(json_t *result, size_t index, const struct job *job, const struct run_stats *st)
{
	json_t *jobs = json_object_get(result, "jobs");
	json_t *entry = json_array_get(jobs, index);

	if (!entry) {
		json_t *opts = json_object();

		/* The keys that are the job's: its own, its workload's, its
		 * engine's (a key two tables share is written once). */
		for (size_t t = 0; t < job->nkeys; t++) {
			const struct job_keys *k = &job->keys[t];

			for (size_t d = 0; k->applies && d < k->table->count; d++)
				json_object_set_new(opts, k->table->defs[d].name,
						    option_value(job_keys_base(job, k), &k->table->defs[d]));
		}
		char brief[1024];

		job_brief(job, brief, sizeof(brief));
		entry = json_pack("{s:s, s:s, s:I, s:b, s:o, s:o, s:o, s:[]}", "name", job->name, "brief",
				  brief, "group", (json_int_t)job->groupid, "starts_group", job->starts_group,
				  "options", opts, "targets", targets_json(job), "warnings",
				  warnings_json(job), "runs");
		if (!entry)
			return -ENOMEM;
		result_settle(entry);
		if (json_array_append_new(jobs, entry))
			return -ENOMEM;
	}
	json_t *ops = json_object();
	for (int t = 0; t < OP_NTYPES; t++)
		if (op_always_reported(t) || st->ops[t].lat_ns.count)
			json_object_set_new(ops, op_type_name(t),
					    result_op_json(&st->ops[t], &job->percentiles, st->elapsed_ns));
	json_t *rusage = result_usage_json(&st->usage, st->elapsed_ns);
	json_t *run = json_pack("{s:o, s:I, s:b, s:i, s:o, s:o}", "started_at", iso_time(st->started_wall_ns),
				"elapsed_ns", (json_int_t)st->elapsed_ns, "partial", st->partial, "threads",
				(int)st->threads, "ops", ops, "rusage", rusage);

	if (run)
		run_extras(run, job, st);
	if (run && st->nphases) {
		result_add_phases(run, st);
		phase_lats(json_object_get(run, "phases"), st, &job->percentiles);
	}
	if (run && st->lat_depth_max)
		json_object_set_new(run, "latency_target",
				    json_pack("{s:I, s:I, s:f, s:i, s:i}", "target_ns",
					      (json_int_t)result_key_u64(job, "latency_target"), "window_ns",
					      (json_int_t)result_key_u64(job, "latency_window"), "percentile",
					      strtod(result_key_text(job, "latency_percentile"), NULL),
					      "depth_min", (int)st->lat_depth_min, "depth_max",
					      (int)st->lat_depth_max));
	if (run && st->wall.at_ns) /* stonewall_s: this process's figures (docs/mpi.md) */
		json_object_set_new(run, "stonewall",
				    json_pack("{s:I, s:b, s:I, s:I, s:I, s:I, s:f, s:f}", "at_ns",
					      (json_int_t)st->wall.at_ns, "wearout", st->wall.wearout, "ops",
					      (json_int_t)st->wall.ops, "bytes", (json_int_t)st->wall.bytes,
					      "passed_ns", (json_int_t)st->wall.told_ns, "target_ops",
					      (json_int_t)st->wall.target_ops, "bw_bytes",
					      (double)st->wall.bytes * 1e9 / (double)st->wall.at_ns, "iops",
					      (double)st->wall.ops * 1e9 / (double)st->wall.at_ns));
	if (run && strcmp(result_key_text(job, "continue_on_error"), "none") &&
	    strcmp(result_key_text(job, "continue_on_error"), "0"))
		json_object_set_new(run, "errors", io_errors_json(&st->ioerr));
	if (run && st->db_engine)
		json_object_set_new(run, "database", database_json(st));
	if (run && st->durable.on)
		json_object_set_new(run, "durability", durable_json(&st->durable));
	if (run && st->slat_ns.count) {
		json_t *lat = lat_summary_json(&st->slat_ns);
		json_t *sub = json_pack("{s:I, s:o, s:o}", "count", (json_int_t)st->slat_ns.count, "lat_ns",
					lat, "ops", queue_lat_json(&st->qlat));

		json_object_set_new(run, "submission", sub);
	}
	if (run && st->probe.kind != PROBE_NONE && st->probe.lat)
		json_object_set_new(run, "probe", probe_json(job, &st->probe));
	if (run && st->counters.nsamples >= 2)
		json_object_set_new(run, "counters", result_counters_json(&st->counters));
	if (run && st->trace)
		json_object_set_new(run, "trace", result_trace_json(st->trace, &st->counters));
	if (run && (st->sched.run_ns || st->sched.wait_ns))
		json_object_set_new(run, "sched", sched_json(st));
	if (run && st->steady.n)
		json_object_set_new(run, "steadystate", result_steady_json(job, st));
	if (run && st->nseries)
		json_object_set_new(run, "series", series_json(st));
	if (run && st->ntargets)
		json_object_set_new(run, "targets", run_targets_json(job, st));
	if (!run)
		return -ENOMEM;
	result_settle(run);
	if (json_array_append_new(json_object_get(entry, "runs"), run))
		return -ENOMEM;
	return 0;
}

int result_add_skipped(json_t *result, size_t index, const struct job *job, const char *why)
{
	struct run_stats none;
	json_t *entry;
	int rc;

	run_stats_init(&none);
	none.started_wall_ns = clock_wall_ns();
	if ((rc = result_add_run(result, index, job, &none)))
		return rc;
	entry = json_array_get(json_object_get(result, "jobs"), index);
	return json_object_set_new(entry, "skipped", json_string(why)) ? -ENOMEM : 0;
}

void result_settle(json_t *v)
{
	const char *key;
	json_t *member;
	size_t i;

	if (json_is_real(v)) {
		char text[40];

		snprintf(text, sizeof(text), "%.*g", RESULT_REAL_DIGITS, json_real_value(v));
		json_real_set(v, strtod(text, NULL));
	} else if (json_is_object(v)) {
		json_object_foreach (v, key, member)
			result_settle(member);
	} else if (json_is_array(v)) {
		json_array_foreach (v, i, member)
			result_settle(member);
	}
}

void result_finish(json_t *result, bool partial, const char *error)
{
	const char *key;
	json_t *member;

	/* jobs[] was settled run by run: not walked again at every point of
	 * a sweep. */
	json_object_foreach (result, key, member)
		if (strcmp(key, "jobs"))
			result_settle(member);
	json_object_set_new(result, "finished_at", iso_time(clock_wall_ns()));
	json_object_set_new(result, "partial", json_boolean(partial));
	/* A resumed sweep's result still holds what stopped it last time. */
	if (error)
		json_object_set_new(result, "error", json_string(error));
	else
		json_object_del(result, "error");
}

char *result_dump(const json_t *result)
{
	return result_dumps(result,
			    JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(RESULT_REAL_DIGITS));
}

int result_write(const json_t *result, const char *path, struct dbio_err *err)
{
	char *text = result_dump(result), *line = NULL;
	int rc;

	if (!text || asprintf(&line, "%s\n", text) < 0) {
		free(text);
		return dbio_err_set(err, -ENOMEM, "%s: cannot write: out of memory", path);
	}
	rc = atomic_write(path, line, strlen(line), err);
	free(line);
	free(text);
	return rc;
}

/* The largest magnitude of a figure a run can make: 1e18 ns is 31 years,
 * 1e18 bytes an exabyte; a count or a rate beyond it was written by hand. */
#define RESULT_MAX_FIGURE 1e18

/* Where negative figures are a run's own: a steady-state's slope and
 * criterion, its mean deviation. Under "options" are the job's keys, as
 * the plan parsed them (nice=-5), not figures a run measured. */
static bool figure_signed(const char *key)
{
	return !strcmp(key, "steadystate") || !strcmp(key, "options");
}

/* Every number under v a figure a run can make: not negative (but under
 * a key of figure_signed), at most RESULT_MAX_FIGURE in size. path holds
 * v's JSON path (len bytes of room, used of them taken). 0 or DBIO_EINPUT. */
static int check_figures(const json_t *v, char *path, size_t len, size_t used, bool sign_ok, const char *name,
			 struct dbio_err *err)
{
	const char *key;
	json_t *e;
	size_t i;
	int rc = 0;

	if (json_is_number(v)) {
		double x = json_number_value(v);
		char val[64];

		if ((x >= 0 || sign_ok) && x <= RESULT_MAX_FIGURE && x >= -RESULT_MAX_FIGURE)
			return 0;
		if (json_is_integer(v))
			snprintf(val, sizeof(val), "%lld", (long long)json_integer_value(v));
		else
			snprintf(val, sizeof(val), "%g", x);
		return dbio_err_set(err, DBIO_EINPUT,
				    "%s: %s is %s: not a figure a run makes (expected from 0 to 1e18)", name,
				    path, val);
	}
	json_object_foreach ((json_t *)v, key, e) {
		int n = snprintf(path + used, len - used, "%s%s", used ? "." : "", key);

		if (n < 0 || (size_t)n >= len - used)
			n = (int)(len - used - 1);
		rc = check_figures(e, path, len, used + (size_t)n,
				   sign_ok || (json_is_object(v) && figure_signed(key)), name, err);
		path[used] = '\0';
		if (rc)
			return rc;
	}
	json_array_foreach (v, i, e) {
		int n = snprintf(path + used, len - used, "[%zu]", i);

		if (n < 0 || (size_t)n >= len - used)
			n = (int)(len - used - 1);
		rc = check_figures(e, path, len, used + (size_t)n, sign_ok, name, err);
		path[used] = '\0';
		if (rc)
			return rc;
	}
	return 0;
}

int result_check(const json_t *r, const char *name, struct dbio_err *err)
{
	char path[512] = "";

	const json_t *version = json_object_get(r, "schema_version");
	const json_t *tool = json_object_get(json_object_get(r, "tool"), "name");

	if (!json_is_object(r) || !version)
		return dbio_err_set(err, DBIO_EINPUT, "%s: not a dbio result: no schema_version", name);
	if (!json_is_string(tool))
		return dbio_err_set(err, DBIO_EINPUT, "%s: not a dbio result: no tool.name", name);
	if (strcmp(json_string_value(tool), "dbio"))
		return dbio_err_set(err, DBIO_EINPUT, "%s: not a dbio result: tool.name is '%s', not 'dbio'",
				    name, json_string_value(tool));
	if (!json_is_integer(version) || json_integer_value(version) < 1)
		return dbio_err_set(err, DBIO_EINPUT,
				    "%s: not a dbio result: schema_version is not a whole number >= 1", name);
	if (json_integer_value(version) > RESULT_SCHEMA_VERSION)
		return dbio_err_set(
			err, DBIO_EINPUT,
			"%s: schema_version %lld is newer than this dbio's (%d): read it with a newer dbio",
			name, (long long)json_integer_value(version), RESULT_SCHEMA_VERSION);
	if (!json_is_array(json_object_get(r, "jobs")))
		return dbio_err_set(err, DBIO_EINPUT, "%s: not a dbio result: no jobs array", name);
	return check_figures(r, path, sizeof(path), 0, false, name, err);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RESULT_FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define RESULT_FREE_AT_EXIT 1
#endif
#endif

void result_release_at_exit(json_t *r)
{
#ifdef RESULT_FREE_AT_EXIT
	json_decref(r);
#else
	(void)r;
#endif
}
