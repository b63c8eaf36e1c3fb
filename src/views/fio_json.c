/*
 * fio's JSON of a dbio result; see fio_json.h. The result's jobs become
 * fio's jobs, each with its runs merged: counts, bytes and elapsed time
 * added, histograms merged bucket by bucket, so the percentiles are
 * dbio's own (nearest rank, within 1/256). dbio's op types map to fio's
 * directions: read to read, write to write, fsync, fdatasync and
 * sync_file_range to sync, trim to trim. The shape follows what fio
 * 3.33 prints (stat.c: show_thread_status_json, add_ddir_status_json);
 * the meaning of each field is in docs/fio-output.md.
 */
#include "views/fio_json.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/metric.h"
#include "analysis/tree.h"
#include "result/result.h"
#include "stats/hist.h"
#include "stats/moments.h"
#include "stats/opstats.h"
#include "views/steady.h"

/* The fio whose JSON shape this is, in "fio version". */
#define FIO_JSON_SHAPE "fio-3.33"

/* fio's default percentile_list, used unless the job sets its own. */
static const double fio_default_pcts[] = { 1,  5,  10, 20, 30,	 40,   50,    60,   70,
					   80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

#define FIO_MAX_PCTS 32

/* fio's directions, in its order, and the dbio op types each gathers. */
enum fio_dir { FIO_READ, FIO_WRITE, FIO_TRIM, FIO_SYNC, FIO_MIXED, FIO_NDIRS };

static const struct fio_dir_def {
	const char *name;
	enum op_type ops[3];
	size_t nops;
} fio_dirs[FIO_NDIRS] = {
	[FIO_READ] = { "read", { OP_READ }, 1 },
	[FIO_WRITE] = { "write", { OP_WRITE }, 1 },
	[FIO_TRIM] = { "trim", { OP_TRIM }, 1 },
	[FIO_SYNC] = { "sync", { OP_FSYNC, OP_FDATASYNC, OP_SYNC_FILE_RANGE }, 3 },
	/* unified_rw_reporting: fio's reads, writes and trims as one */
	[FIO_MIXED] = { "mixed", { OP_READ, OP_WRITE, OP_TRIM }, 3 },
};

/* fio's latency distribution: a latency below 1 µs is counted in ns, below
 * 1 ms in µs, else in ms, under the first bound above it (">=2000" past
 * the last bound of ms). */
static const uint64_t fio_lat_bounds[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000 };
#define FIO_LAT_NU 10 /* bounds of latency_ns and latency_us */
#define FIO_LAT_M  12 /* entries of latency_ms: the 11 bounds and ">=2000" */

/* What a job's runs add up to, and the histograms, too big for the stack. */
struct fio_job_sums {
	uint64_t elapsed_ns;
	double user_s, sys_s;
	uint64_t ctx, majf, minf;
	bool partial;
	bool coe;	    /* continue_on_error: the runs have errors */
	uint64_t total_err; /* their errors gone on after */
	int first_error;    /* the errno of the first, 0 for none */
	uint64_t bytes[FIO_NDIRS];
	bool queued; /* a queued engine: the runs have a submission latency */
	struct hist dir[FIO_NDIRS];
	struct moments slat[FIO_NDIRS], tlat[FIO_NDIRS]; /* a queued engine's slat and lat */
	struct hist tmp;
	double pcts[FIO_MAX_PCTS];
	size_t npcts;
};

static uint64_t num_u64(const json_t *obj, const char *key)
{
	double v = tree_num(obj, key);

	return v > 0 ? (uint64_t)v : 0;
}

/* Milliseconds, as fio gives runtimes: rounded, at least 1 when ns is not 0. */
static uint64_t ns_to_ms(uint64_t ns)
{
	uint64_t ms = (ns + 500000) / 1000000;

	return ns && !ms ? 1 : ms;
}

/* An option's value as fio prints one: text; numbers in dbio's units
 * (bytes, nanoseconds); true and false as 1 and 0; a list joined with ':'.
 * NULL for what has no text form, or out of memory. */
static json_t *option_text(const json_t *v)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *mem;
	json_t *e, *out;

	if (json_is_string(v))
		return json_string(json_string_value(v));
	if (json_is_boolean(v))
		return json_string(json_is_true(v) ? "1" : "0");
	if (!json_is_number(v) && !json_is_array(v))
		return NULL;
	mem = open_memstream(&buf, &len);
	if (!mem)
		return NULL;
	if (json_is_integer(v))
		fprintf(mem, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		fprintf(mem, "%.10g", json_real_value(v));
	json_array_foreach (v, i, e) {
		json_t *t = option_text(e);

		fprintf(mem, "%s%s", i ? ":" : "", t ? json_string_value(t) : "");
		json_decref(t);
	}
	fclose(mem);
	out = buf ? json_string(buf) : NULL;
	free(buf);
	return out;
}

/* Every option of a job entry (its options), as text. */
static json_t *options_json(const json_t *opts)
{
	json_t *o = json_object(), *v;
	const char *key;

	json_object_foreach ((json_t *)opts, key, v)
		json_object_set_new(o, key, option_text(v));
	return o;
}

/* The keys (but the name) that every job has with the same value: fio's
 * global options, which a job's own then repeat. */
static json_t *global_options(const json_t *jobs)
{
	const json_t *first = json_object_get(json_array_get(jobs, 0), "options");
	json_t *global = json_object(), *v, *job;
	const char *key;
	size_t j;

	json_object_foreach ((json_t *)first, key, v) {
		bool same = strcmp(key, "name") != 0;

		json_array_foreach (jobs, j, job)
			same = same && json_equal(v, json_object_get(json_object_get(job, "options"), key));
		if (same)
			json_object_set_new(global, key, option_text(v));
	}
	return global;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The job's percentile_list, sorted as fio sorts it, or fio's default. */
static void job_pcts(const json_t *job, struct fio_job_sums *s)
{
	const json_t *list = tree_get(job, "options.percentile_list"), *p;
	size_t i;

	s->npcts = 0;
	json_array_foreach (list, i, p)
		if (json_is_number(p) && s->npcts < FIO_MAX_PCTS)
			s->pcts[s->npcts++] = json_number_value(p);
	if (!s->npcts) {
		s->npcts = sizeof(fio_default_pcts) / sizeof(fio_default_pcts[0]);
		memcpy(s->pcts, fio_default_pcts, sizeof(fio_default_pcts));
	}
	qsort(s->pcts, s->npcts, sizeof(s->pcts[0]), cmp_double);
}

/* m += the latency of a result that o holds (count, mean, stddev, min,
 * max), when o is there. */
static void moments_add_json(struct moments *m, const json_t *o)
{
	struct moments one;

	if (!num_u64(o, "count"))
		return;
	moments_set(&one, num_u64(o, "count"), tree_num(o, "mean"), tree_num(o, "stddev"), num_u64(o, "min"),
		    num_u64(o, "max"));
	moments_merge(m, &one);
}

/* Add up the job's runs into s: times, usage, bytes and the histograms of
 * each direction. */
static void job_sums(const json_t *job, struct fio_job_sums *s)
{
	const json_t *run;
	size_t r;

	s->elapsed_ns = 0;
	s->user_s = s->sys_s = 0;
	s->ctx = s->majf = s->minf = 0;
	s->partial = s->queued = s->coe = false;
	s->total_err = 0;
	s->first_error = 0;
	json_array_foreach (json_object_get(job, "runs"), r, run) {
		const json_t *ru = json_object_get(run, "rusage");
		const json_t *errs = json_object_get(run, "errors");

		s->elapsed_ns += num_u64(run, "elapsed_ns");
		s->user_s += tree_num(ru, "user_s");
		s->sys_s += tree_num(ru, "sys_s");
		s->ctx += num_u64(ru, "nvcsw") + num_u64(ru, "nivcsw");
		s->majf += num_u64(ru, "majflt");
		s->minf += num_u64(ru, "minflt");
		s->partial = s->partial || json_is_true(json_object_get(run, "partial"));
		s->queued = s->queued || json_object_get(run, "submission");
		s->coe = s->coe || errs;
		s->total_err += num_u64(errs, "total");
		if (!s->first_error && json_object_get(errs, "first_errno"))
			s->first_error = !strcmp(tree_str(errs, "first_errno"), "EIO") ? EIO : EILSEQ;
	}
	for (int d = 0; d < FIO_NDIRS; d++) {
		hist_init(&s->dir[d]);
		moments_init(&s->slat[d]);
		moments_init(&s->tlat[d]);
		s->bytes[d] = 0;
		for (size_t k = 0; k < fio_dirs[d].nops; k++) {
			const char *op = op_type_name(fio_dirs[d].ops[k]);

			metric_job_hist(job, op, &s->dir[d], &s->tmp);
			json_array_foreach (json_object_get(job, "runs"), r, run) {
				const json_t *q = json_object_get(
					json_object_get(json_object_get(run, "submission"), "ops"), op);

				s->bytes[d] +=
					num_u64(json_object_get(json_object_get(run, "ops"), op), "bytes");
				moments_add_json(&s->slat[d], json_object_get(q, "slat_ns"));
				moments_add_json(&s->tlat[d], json_object_get(q, "total_lat_ns"));
			}
		}
	}
}

/* fio's latency object of h (NULL: nothing recorded): min, max, mean,
 * stddev, N, and with pcts the percentiles, with plus the bins too, as
 * fio gives them only when there are samples. */
static json_t *lat_obj(uint64_t n, uint64_t min, uint64_t max, double mean, double stddev)
{
	return json_pack("{s:I, s:I, s:f, s:f, s:I}", "min", (json_int_t)(n ? min : 0), "max",
			 (json_int_t)(n ? max : 0), "mean", n ? mean : 0.0, "stddev", n ? stddev : 0.0, "N",
			 (json_int_t)n);
}

/* fio's latency object of a latency kept without its histogram (slat, lat). */
static json_t *moments_fio(const struct moments *m)
{
	return lat_obj(m->count, m->min, m->max, moments_mean(m), moments_stddev(m));
}

static json_t *lat_json(const struct hist *h, const struct fio_job_sums *s, bool pcts, bool plus)
{
	uint64_t n = h ? h->count : 0;
	json_t *o =
		lat_obj(n, n ? h->min : 0, n ? h->max : 0, n ? hist_mean(h) : 0.0, n ? hist_stddev(h) : 0.0);
	char key[64];

	if (!o || !n || !pcts)
		return o;
	json_t *p = json_object();

	for (size_t i = 0; i < s->npcts; i++) {
		snprintf(key, sizeof(key), "%f", s->pcts[i]);
		json_object_set_new(p, key, json_integer((json_int_t)hist_percentile(h, s->pcts[i])));
	}
	json_object_set_new(o, "percentile", p);
	if (plus) {
		json_t *bins = json_object();

		for (unsigned i = 0; i < HIST_NBUCKETS; i++)
			if (h->buckets[i]) {
				snprintf(key, sizeof(key), "%llu", (unsigned long long)hist_bucket_mid(i));
				json_object_set_new(bins, key, json_integer((json_int_t)h->buckets[i]));
			}
		json_object_set_new(o, "bins", bins);
	}
	return o;
}

/* fio's read, write or trim object. dbio's latency of an I/O is fio's
 * clat. A queued engine's slat (from the start of the batch that carried
 * the I/O to the end of its submit) and lat (slat + clat of the same
 * I/O) are fio's too; a synchronous engine has no slat, as fio's sync
 * engines show it empty, and its lat is its clat. */
static json_t *rw_json(const struct fio_job_sums *s, int d, bool plus)
{
	const struct hist *h = &s->dir[d];
	double secs = h->count ? (double)s->elapsed_ns / 1e9 : 0;
	uint64_t bw_bytes = secs > 0 ? (uint64_t)((double)s->bytes[d] / secs) : 0;
	json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:f, s:I, s:I, s:i, s:i}", "io_bytes",
			      (json_int_t)s->bytes[d], "io_kbytes", (json_int_t)(s->bytes[d] >> 10),
			      "bw_bytes", (json_int_t)bw_bytes, "bw", (json_int_t)(bw_bytes / 1024), "iops",
			      secs > 0 ? (double)h->count / secs : 0.0, "runtime",
			      (json_int_t)(h->count ? ns_to_ms(s->elapsed_ns) : 0), "total_ios",
			      (json_int_t)h->count, "short_ios", 0, "drop_ios", 0);

	if (!o)
		return NULL;
	json_object_set_new(o, "slat_ns", moments_fio(&s->slat[d]));
	json_object_set_new(o, "clat_ns", lat_json(h, s, true, plus));
	json_object_set_new(o, "lat_ns", s->queued ? moments_fio(&s->tlat[d]) : lat_json(h, s, false, false));
	/* fio's per-interval bandwidth and IOPS samples: dbio takes none, and
	 * fio prints these zeros for a job without samples. */
	json_object_update_new(o, json_pack("{s:i, s:i, s:f, s:f, s:f, s:i, s:i, s:i, s:f, s:f, s:i}",
					    "bw_min", 0, "bw_max", 0, "bw_agg", 0.0, "bw_mean", 0.0, "bw_dev",
					    0.0, "bw_samples", 0, "iops_min", 0, "iops_max", 0, "iops_mean",
					    0.0, "iops_stddev", 0.0, "iops_samples", 0));
	return o;
}

/* fio's latency_ns, latency_us and latency_ms of the reads, writes and
 * trims: the percentage of them under each bound, a bucket counted by its
 * middle value; fio shows a share that rounds below 0.01 as 0.01. */
static void lat_dist(json_t *o, const struct fio_job_sums *s)
{
	static const char *const names[] = { "latency_ns", "latency_us", "latency_ms" };
	uint64_t counts[3][FIO_LAT_M] = { { 0 } }, total = 0;
	char key[16];

	for (int d = FIO_READ; d <= FIO_TRIM; d++) {
		total += s->dir[d].count;
		for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
			uint64_t c = s->dir[d].buckets[i], v = hist_bucket_mid(i);
			int unit = v < 1000 ? 0 : v < 1000000 ? 1 : 2;
			int k = 0, nk = unit == 2 ? FIO_LAT_M - 1 : FIO_LAT_NU;

			if (!c)
				continue;
			v /= unit == 0 ? 1 : unit == 1 ? 1000 : 1000000;
			while (k < nk && v >= fio_lat_bounds[k])
				k++;
			counts[unit][k] += c;
		}
	}
	for (int unit = 0; unit < 3; unit++) {
		json_t *dist = json_object();
		int nk = unit == 2 ? FIO_LAT_M : FIO_LAT_NU;

		for (int k = 0; k < nk; k++) {
			double pct = total ? 100.0 * (double)counts[unit][k] / (double)total : 0.0;

			if (k < FIO_LAT_M - 1)
				snprintf(key, sizeof(key), "%llu", (unsigned long long)fio_lat_bounds[k]);
			else
				snprintf(key, sizeof(key), ">=%llu",
					 (unsigned long long)fio_lat_bounds[k - 1]);
			json_object_set_new(dist, key, json_real(counts[unit][k] && pct < 0.01 ? 0.01 : pct));
		}
		json_object_set_new(o, names[unit], dist);
	}
}

/* fio's latency_target figures of a job, from its last run: the depth
 * found (fio's latency_depth; the deepest of the threads), the target in
 * ns and the window in µs, as fio writes them, the percentile. */
static void latency_target_json(json_t *o, const json_t *job)
{
	const json_t *runs = json_object_get(job, "runs");
	const json_t *lt = json_object_get(json_array_get(runs, json_array_size(runs) - 1), "latency_target");

	if (!lt)
		return;
	json_object_update_new(o, json_pack("{s:I, s:I, s:f, s:I}", "latency_depth",
					    (json_int_t)tree_num(lt, "depth_max"), "latency_target",
					    (json_int_t)tree_num(lt, "target_ns"), "latency_percentile",
					    tree_num(lt, "percentile"), "latency_window",
					    (json_int_t)(tree_num(lt, "window_ns") / 1000)));
}

/* One of fio's jobs: the job entry with its runs merged. */
static json_t *fio_job(const json_t *job, struct fio_job_sums *s, bool plus)
{
	json_t *o;

	job_pcts(job, s);
	job_sums(job, s);
	/* fio's groupid is the result's group (absent before dbio recorded it) */
	o = json_pack("{s:s, s:I, s:i, s:o}", "jobname", tree_str(job, "name"), "groupid",
		      json_integer_value(json_object_get(job, "group")), "error", s->partial ? 1 : 0,
		      "job options", options_json(json_object_get(job, "options")));
	if (!o)
		return NULL;
	if (s->coe) { /* as fio prints them with continue_on_error */
		json_object_set_new(o, "total_err", json_integer((json_int_t)s->total_err));
		json_object_set_new(o, "first_error", json_integer(s->first_error));
	}
	/* unified_rw_reporting: mixed gives fio's "mixed" alone, both after the others */
	const char *unified = tree_str(json_object_get(job, "options"), "unified_rw_reporting");

	if (strcmp(unified, "mixed")) {
		for (int d = FIO_READ; d <= FIO_TRIM; d++)
			json_object_set_new(o, fio_dirs[d].name, rw_json(s, d, plus));
		json_object_set_new(o, "sync",
				    json_pack("{s:I, s:o}", "total_ios", (json_int_t)s->dir[FIO_SYNC].count,
					      "lat_ns", lat_json(&s->dir[FIO_SYNC], s, true, plus)));
	}
	if (!strcmp(unified, "mixed") || !strcmp(unified, "both"))
		json_object_set_new(o, "mixed", rw_json(s, FIO_MIXED, plus));

	double secs = (double)s->elapsed_ns / 1e9;

	json_object_update_new(o,
			       json_pack("{s:I, s:f, s:f, s:I, s:I, s:I}", "job_runtime",
					 (json_int_t)ns_to_ms(s->elapsed_ns), "usr_cpu",
					 secs > 0 ? s->user_s / secs * 100.0 : 0.0, "sys_cpu",
					 secs > 0 ? s->sys_s / secs * 100.0 : 0.0, "ctx", (json_int_t)s->ctx,
					 "majf", (json_int_t)s->majf, "minf", (json_int_t)s->minf));
	lat_dist(o, s);
	latency_target_json(o, job);
	/* fio's object of the job's (last) run, as fio runs a job once */
	json_t *ss = steady_fio_json(json_array_get(json_object_get(job, "runs"),
						    json_array_size(json_object_get(job, "runs")) - 1));

	if (ss)
		json_object_set_new(o, "steadystate", ss);
	return o;
}

/* fio's "timestamp" (s), "timestamp_ms" and "time" (ctime's form, local
 * time) of the result's finished_at ("2026-11-30T20:02:51.659Z"). */
static void times_json(json_t *doc, const char *iso)
{
	struct tm tm = { 0 };
	unsigned ms = 0;
	char text[64] = "";
	time_t t = 0;

	if (sscanf(iso, "%d-%d-%dT%d:%d:%d.%uZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
		   &tm.tm_min, &tm.tm_sec, &ms) == 7) {
		tm.tm_year -= 1900;
		tm.tm_mon -= 1;
		t = timegm(&tm);
	}
	if (localtime_r(&t, &tm))
		strftime(text, sizeof(text), "%a %b %e %H:%M:%S %Y", &tm);
	json_object_set_new(doc, "timestamp", json_integer((json_int_t)t));
	json_object_set_new(doc, "timestamp_ms", json_integer((json_int_t)t * 1000 + ms));
	json_object_set_new(doc, "time", json_string(text));
}

json_t *fio_json_new(const json_t *result, bool plus)
{
	const json_t *jobs = json_object_get(result, "jobs"), *job;
	struct fio_job_sums *s = malloc(sizeof(*s));
	json_t *doc = json_object(), *out = json_array(), *global;
	char version[256];
	size_t j;

	if (!s || !doc || !out)
		goto out_free;
	snprintf(version, sizeof(version), "dbio-%s (%s JSON)", tree_str(tree_get(result, "tool"), "version"),
		 FIO_JSON_SHAPE);
	json_object_set_new(doc, "fio version", json_string(version));
	times_json(doc, tree_str(result, "finished_at"));
	global = global_options(jobs);
	if (json_object_size(global))
		json_object_set(doc, "global options", global);
	json_decref(global);
	json_array_foreach (jobs, j, job)
		if (json_array_append_new(out, fio_job(job, s, plus)))
			goto out_free;
	json_object_set_new(doc, "jobs", out);
	json_object_set_new(doc, "disk_util", json_array());
	free(s);
	return doc;

out_free:
	json_decref(out);
	json_decref(doc);
	free(s);
	return NULL;
}

int fio_json_print(FILE *fp, const json_t *result, bool plus)
{
	json_t *doc = fio_json_new(result, plus);
	char *text = doc ? result_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))
			 : NULL;

	json_decref(doc);
	if (!text)
		return -ENOMEM;
	fprintf(fp, "%s\n", text);
	free(text);
	return 0;
}
