/*
 * One result out of every rank's (mpi.h's mpi_merge): runs merged as the
 * runner merges threads — histograms by adding buckets, counts and bytes
 * summed — with the rates taken over the aggregate time, and the ranks
 * section beside the jobs. Pure JSON work, no MPI: the unit tests call it
 * with results made by hand, and rank 0 calls it after the gather.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metric.h"
#include "mpi/mpi.h"
#include "result/result.h"

/* The parts of a run that describe one host's run, not the ranks' sum. */
static const char *const per_host[] = { "series", "targets", "phases",	       "steadystate",
					"probe",  "memory",  "latency_target", "counters_rank" };

static const char *const rusage_reals[] = { "user_s", "sys_s" };
static const char *const rusage_ints[] = { "majflt", "minflt", "nvcsw", "nivcsw", "inblock", "oublock" };

/* Rank part p's span of run `run` of job `job`: [start, end) in ns from the
 * start barrier. false when it has none (the rank noted no such run). */
static bool span_of(const struct mpi_part *p, size_t job, size_t run, uint64_t *start, uint64_t *end)
{
	size_t i;
	const json_t *s;

	json_array_foreach (p->spans, i, s) {
		if ((size_t)json_integer_value(json_array_get(s, 0)) != job ||
		    (size_t)json_integer_value(json_array_get(s, 1)) != run)
			continue;
		*start = (uint64_t)json_integer_value(json_array_get(s, 2));
		*end = (uint64_t)json_integer_value(json_array_get(s, 3));
		return true;
	}
	return false;
}

/* {min, mean, max, stddev} of v[0..n), the standard deviation over the
 * ranks themselves (population: every rank is there). */
static json_t *spread_json(const double *v, size_t n)
{
	double lo = n ? v[0] : 0, hi = lo, sum = 0, sq = 0, mean;

	for (size_t i = 0; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
		sum += v[i];
	}
	mean = n ? sum / (double)n : 0;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	return json_pack("{s:f, s:f, s:f, s:f}", "min", lo, "mean", mean, "max", hi, "stddev",
			 n ? sqrt(sq / (double)n) : 0.0);
}

/* The job's percentile_list, read back from the keys of an op entry's
 * lat_ns.percentiles ("99.5": written with %.15g, read back exactly). */
static void pcts_of(const json_t *op, struct opt_pcts *pcts)
{
	const char *key;
	json_t *v;

	pcts->n = 0;
	json_object_foreach (json_object_get(json_object_get(op, "lat_ns"), "percentiles"), key, v)
		if (pcts->n < OPT_MAX_PCTS)
			pcts->v[pcts->n++] = strtod(key, NULL);
}

/* ops.<name> of runs[0..n) added into one entry over elapsed_ns. */
static json_t *merge_op(json_t *const *runs, size_t n, const char *name, uint64_t elapsed_ns,
			struct dbio_err *err)
{
	struct op_stats *sum = malloc(sizeof(*sum));
	struct hist *h = malloc(sizeof(*h));
	struct opt_pcts pcts = { .n = 0 };
	json_t *out = NULL;

	if (!sum || !h) {
		dbio_err_set(err, -ENOMEM, "merging the ranks: out of memory");
		goto out_free;
	}
	op_stats_init(sum);
	for (size_t i = 0; i < n; i++) {
		const json_t *op = json_object_get(json_object_get(runs[i], "ops"), name);

		if (!op)
			continue;
		if (!pcts.n)
			pcts_of(op, &pcts);
		if (result_hist_load(op, h)) {
			dbio_err_set(err, DBIO_EFORMAT, "merging the ranks: ops.%s: not a histogram", name);
			goto out_free;
		}
		hist_merge(&sum->lat_ns, h);
		sum->bytes += (uint64_t)json_integer_value(json_object_get(op, "bytes"));
	}
	if (!(out = result_op_json(sum, &pcts, elapsed_ns)))
		dbio_err_set(err, -ENOMEM, "merging the ranks: out of memory");
out_free:
	free(h);
	free(sum);
	return out;
}

/* rusage of the merged run: each rank's summed, cpu_pct over elapsed_ns. */
static json_t *merge_rusage(json_t *const *runs, size_t n, uint64_t elapsed_ns)
{
	json_t *u = json_object();
	double cpu = 0;

	for (size_t f = 0; f < sizeof(rusage_reals) / sizeof(rusage_reals[0]); f++) {
		double v = 0;

		for (size_t i = 0; i < n; i++)
			v += json_number_value(
				json_object_get(json_object_get(runs[i], "rusage"), rusage_reals[f]));
		json_object_set_new(u, rusage_reals[f], json_real(v));
		cpu += v;
	}
	json_object_set_new(u, "cpu_pct",
			    json_real(elapsed_ns ? cpu / ((double)elapsed_ns / 1e9) * 100 : 0.0));
	for (size_t f = 0; f < sizeof(rusage_ints) / sizeof(rusage_ints[0]); f++) {
		json_int_t v = 0;

		for (size_t i = 0; i < n; i++)
			v += json_integer_value(
				json_object_get(json_object_get(runs[i], "rusage"), rusage_ints[f]));
		json_object_set_new(u, rusage_ints[f], json_integer(v));
	}
	return u;
}

/* One rank's figures of a run: when it ran and, per op type, its count,
 * bytes and rates over its own elapsed_ns. */
static json_t *rank_run_json(int rank, const json_t *run, uint64_t start, uint64_t end)
{
	json_t *ops = json_object();
	const char *name;
	json_t *op;

	json_object_foreach (json_object_get(run, "ops"), name, op)
		json_object_set_new(ops, name,
				    json_pack("{s:O, s:O, s:O, s:O}", "count", json_object_get(op, "count"),
					      "bytes", json_object_get(op, "bytes"), "iops",
					      json_object_get(op, "iops"), "bw_bytes",
					      json_object_get(op, "bw_bytes")));
	json_t *out = json_pack("{s:i, s:I, s:I, s:O, s:b, s:o}", "rank", rank, "start_ns", (json_int_t)start,
				"end_ns", (json_int_t)end, "elapsed_ns", json_object_get(run, "elapsed_ns"),
				"partial", json_is_true(json_object_get(run, "partial")), "ops", ops);
	const json_t *wall = json_object_get(run, "stonewall");

	if (out && wall) /* stonewall_s: what the rank had done at it, when it passed it */
		json_object_set_new(out, "stonewall",
				    json_pack("{s:O, s:O, s:O, s:O}", "ops", json_object_get(wall, "ops"),
					      "bytes", json_object_get(wall, "bytes"), "passed_ns",
					      json_object_get(wall, "passed_ns"), "target_ops",
					      json_object_get(wall, "target_ops")));
	return out;
}

/* Per op type of the merged ops, the spread of iops and bw_bytes over
 * the ranks, and of their elapsed_ns. */
static json_t *across_json(json_t *const *runs, size_t n, const json_t *ops)
{
	double *v = calloc(n ? n : 1, sizeof(*v));
	json_t *across = json_object(), *per_op = json_object();
	const char *name;
	json_t *op;

	if (!v)
		return NULL;
	json_object_foreach ((json_t *)ops, name, op) {
		json_t *o = json_object();

		for (int f = 0; f < 2; f++) {
			const char *key = f ? "bw_bytes" : "iops";

			for (size_t i = 0; i < n; i++)
				v[i] = json_number_value(json_object_get(
					json_object_get(json_object_get(runs[i], "ops"), name), key));
			json_object_set_new(o, key, spread_json(v, n));
		}
		json_object_set_new(per_op, name, o);
	}
	for (size_t i = 0; i < n; i++)
		v[i] = (double)json_integer_value(json_object_get(runs[i], "elapsed_ns"));
	json_object_set_new(across, "elapsed_ns", spread_json(v, n));
	json_object_set_new(across, "ops", per_op);
	free(v);
	return across;
}

/* stonewall_s: the merged run's stonewall (all ranks' work at it, summed,
 * over stonewall_s: IOR's stonewall rate) and the entry's: the spread of
 * the ranks' work at it (IOR's "stonewalling pairs accessed min/max/avg")
 * and the wear-out, from the stonewall to the last rank's end. */
static void merge_wall(json_t *const *runs, size_t n, uint64_t last_end_ns, json_t *merged, json_t *entry)
{
	json_t *wall = json_deep_copy(json_object_get(merged, "stonewall"));
	const double at_ns = (double)json_integer_value(json_object_get(wall, "at_ns"));
	double *v = calloc(n ? n : 1, sizeof(*v));
	json_int_t ops = 0, bytes = 0, passed = 0;

	if (!wall || !v || at_ns <= 0) {
		json_decref(wall);
		free(v);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const json_t *w = json_object_get(runs[i], "stonewall");
		const json_int_t p = json_integer_value(json_object_get(w, "passed_ns"));

		v[i] = (double)json_integer_value(json_object_get(w, "ops"));
		ops += json_integer_value(json_object_get(w, "ops"));
		bytes += json_integer_value(json_object_get(w, "bytes"));
		passed = p > passed ? p : passed;
	}
	json_object_set_new(wall, "ops", json_integer(ops));
	json_object_set_new(wall, "bytes", json_integer(bytes));
	json_object_set_new(wall, "passed_ns", json_integer(passed));
	json_object_set_new(wall, "iops", json_real((double)ops * 1e9 / at_ns));
	json_object_set_new(wall, "bw_bytes", json_real((double)bytes * 1e9 / at_ns));
	json_object_set_new(merged, "stonewall", wall);
	json_object_set_new(entry, "stonewall",
			    json_pack("{s:o, s:I}", "ops", spread_json(v, n), "wearout_ns",
				      (json_int_t)(last_end_ns > at_ns ? last_end_ns - (uint64_t)at_ns : 0)));
	free(v);
}

/* Merge run k of job j over the ranks into merged (rank 0's copy), and
 * return its entry of ranks.jobs[j].runs. */
static json_t *merge_run(const struct mpi_part *parts, size_t n, size_t j, size_t k, json_t *merged,
			 struct dbio_err *err)
{
	json_t **runs = calloc(n, sizeof(*runs)), *per_rank = json_array(), *ops = json_object(),
	       *entry = NULL;
	uint64_t first = UINT64_MAX, last = 0, longest = 0, threads = 0;
	bool partial = false;
	size_t m = 0;

	if (!runs)
		goto out;
	for (size_t i = 0; i < n; i++) {
		json_t *run = json_array_get(
			json_object_get(json_array_get(json_object_get(parts[i].result, "jobs"), j), "runs"),
			k);
		uint64_t start = 0, end = 0;

		if (!run) {
			partial = true; /* this rank stopped before the run */
			continue;
		}
		runs[m++] = run;
		if (span_of(&parts[i], j, k, &start, &end)) {
			first = start < first ? start : first;
			last = end > last ? end : last;
		}
		longest = (uint64_t)json_integer_value(json_object_get(run, "elapsed_ns")) > longest
				  ? (uint64_t)json_integer_value(json_object_get(run, "elapsed_ns"))
				  : longest;
		threads += (uint64_t)json_integer_value(json_object_get(run, "threads"));
		partial |= json_is_true(json_object_get(run, "partial"));
		json_array_append_new(per_rank, rank_run_json(parts[i].rank, run, start, end));
	}
	/* the aggregate time: the first rank's start to the last rank's end */
	const uint64_t elapsed = last > first ? last - first : longest;
	const char *name;
	json_t *op;

	for (size_t i = 0; i < m; i++) /* every type any rank did */
		json_object_foreach (json_object_get(runs[i], "ops"), name, op) {
			json_t *sum =
				json_object_get(ops, name) ? NULL : merge_op(runs, m, name, elapsed, err);

			if (!sum && err->code)
				goto out;
			if (sum)
				json_object_set_new(ops, name, sum);
		}
	for (size_t f = 0; f < sizeof(per_host) / sizeof(per_host[0]); f++)
		json_object_del(merged, per_host[f]);
	json_object_set(merged, "ops", ops);
	json_object_set_new(merged, "rusage", merge_rusage(runs, m, elapsed));
	json_object_set_new(merged, "elapsed_ns", json_integer((json_int_t)elapsed));
	json_object_set_new(merged, "threads", json_integer((json_int_t)threads));
	json_object_set_new(merged, "partial", json_boolean(partial));
	entry = json_pack("{s:I, s:o, s:o}", "elapsed_ns", (json_int_t)elapsed, "ranks", per_rank, "across",
			  across_json(runs, m, ops));
	per_rank = NULL;
	if (entry && json_object_get(merged, "stonewall"))
		merge_wall(runs, m, last, merged, entry);
out:
	if (!entry && !err->code)
		dbio_err_set(err, -ENOMEM, "merging the ranks: out of memory");
	json_decref(per_rank);
	json_decref(ops);
	free(runs);
	return entry;
}

/* One entry per host: its name, its ranks and its system (the first of
 * its ranks' descriptions). */
static json_t *hosts_json(const struct mpi_part *parts, size_t n)
{
	json_t *hosts = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *h = NULL, *e;
		size_t k;

		json_array_foreach (hosts, k, e)
			if (!strcmp(json_string_value(json_object_get(e, "hostname")), parts[i].host))
				h = e;
		if (!h) {
			h = json_pack("{s:s, s:[], s:O}", "hostname", parts[i].host, "ranks", "system",
				      json_object_get(parts[i].result, "system"));
			json_array_append_new(hosts, h);
		}
		json_array_append_new(json_object_get(h, "ranks"), json_integer(parts[i].rank));
	}
	return hosts;
}

void mpi_part_trim(json_t *result)
{
	json_t *job, *run;
	size_t j, k;

	json_array_foreach (json_object_get(result, "jobs"), j, job)
		json_array_foreach (json_object_get(job, "runs"), k, run) {
			for (size_t f = 0; f < sizeof(per_host) / sizeof(per_host[0]); f++)
				json_object_del(run, per_host[f]);
			json_object_del(run, "counters");
		}
}

json_t *mpi_merge(const struct mpi_part *parts, size_t n, char *const *dirs, size_t ndirs,
		  struct dbio_err *err)
{
	json_t *out = json_deep_copy(parts[0].result), *rjobs = json_array(), *entry;
	size_t j;

	if (!out || !rjobs) {
		dbio_err_set(err, -ENOMEM, "merging the ranks: out of memory");
		goto fail;
	}
	json_array_foreach (json_object_get(out, "jobs"), j, entry) {
		json_t *rruns = json_array(), *run;
		size_t k;

		if (j < ndirs && dirs[j])
			json_object_set_new(json_object_get(entry, "options"), "directory",
					    json_string(dirs[j]));
		json_array_foreach (json_object_get(entry, "runs"), k, run) {
			json_t *r = merge_run(parts, n, j, k, run, err);

			if (!r) {
				json_decref(rruns);
				goto fail;
			}
			json_array_append_new(rruns, r);
		}
		metric_summarize(out, j);
		json_array_append_new(rjobs, json_pack("{s:O, s:o}", "name", json_object_get(entry, "name"),
						       "runs", rruns));
	}
	json_object_set_new(
		out, "ranks",
		json_pack("{s:i, s:o, s:o}", "count", (int)n, "hosts", hosts_json(parts, n), "jobs", rjobs));
	return out;
fail:
	json_decref(rjobs);
	json_decref(out);
	return NULL;
}
