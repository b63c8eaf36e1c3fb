/*
 * A run's "counters" object: what the sampler (run/sampler.h) read, as
 * deltas between consecutive samples ("samples", one per interval) and
 * between the first sample (the gate) and the last (the threads' end)
 * ("total"). Levels (dirty and writeback bytes, the cgroup's page cache)
 * are their value at the end of the interval. The fields and their units
 * are in docs/results.md; the per-operation figures made from them are
 * analysis/counter.c's.
 */
#include <stdio.h>

#include "result/result_int.h"

/* b - a of a counter; 0 when it went back (a device removed and added). */
static json_int_t delta(uint64_t a, uint64_t b)
{
	return b >= a ? (json_int_t)(b - a) : 0;
}

/* The change of one device's counters from a to b over dt_ns. */
static json_t *disk_delta(const struct sampler *s, unsigned k, const struct diskstat *a,
			  const struct diskstat *b, uint64_t dt_ns)
{
	char dev[32];
	double ms = (double)dt_ns / 1e6;
	json_t *o;

	snprintf(dev, sizeof(dev), "%u:%u", s->major[k], s->minor[k]);
	o = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f}", "device", dev, "read_ios",
		      delta(a->reads, b->reads), "read_merges", delta(a->reads_merged, b->reads_merged),
		      "read_bytes", delta(a->sectors_read, b->sectors_read) * 512, "write_ios",
		      delta(a->writes, b->writes), "write_merges", delta(a->writes_merged, b->writes_merged),
		      "write_bytes", delta(a->sectors_written, b->sectors_written) * 512, "util_pct",
		      ms > 0 ? (double)delta(a->ms_io, b->ms_io) / ms * 100 : 0.0, "avg_queue",
		      ms > 0 ? (double)delta(a->ms_weighted, b->ms_weighted) / ms : 0.0);
	if (!o || s->basic)
		return o;
	json_object_set_new(o, "name", json_string(s->dev_name[k]));
	json_object_set_new(o, "role", json_string(devstack_role_name(s->dev_role[k])));
	json_object_set_new(o, "read_ms", json_integer(delta(a->ms_reading, b->ms_reading)));
	json_object_set_new(o, "write_ms", json_integer(delta(a->ms_writing, b->ms_writing)));
	json_object_set_new(o, "busy_ms", json_integer(delta(a->ms_io, b->ms_io)));
	json_object_set_new(o, "queue_ms", json_integer(delta(a->ms_weighted, b->ms_weighted)));
	json_object_set_new(o, "in_flight", json_integer((json_int_t)b->in_flight));
	if (b->nfields >= 15) {
		json_object_set_new(o, "discard_ios", json_integer(delta(a->discards, b->discards)));
		json_object_set_new(o, "discard_merges",
				    json_integer(delta(a->discards_merged, b->discards_merged)));
		json_object_set_new(o, "discard_bytes",
				    json_integer(delta(a->sectors_discarded, b->sectors_discarded) * 512));
		json_object_set_new(o, "discard_ms", json_integer(delta(a->ms_discarding, b->ms_discarding)));
	}
	if (b->nfields >= 17) {
		json_object_set_new(o, "flush_ios", json_integer(delta(a->flushes, b->flushes)));
		json_object_set_new(o, "flush_ms", json_integer(delta(a->ms_flushing, b->ms_flushing)));
	}
	return o;
}

static json_t *vm_delta(const struct vmstat *a, const struct vmstat *b)
{
	json_t *o = json_object();

	for (int f = 0; o && f < VM_NFIELDS; f++)
		json_object_set_new(o, procstat_vm_name((enum vm_field)f),
				    json_integer(procstat_vm_is_level((enum vm_field)f)
							 ? (json_int_t)b->v[f]
							 : delta(a->v[f], b->v[f])));
	return o;
}

/* { io, memory, cpu }: each { some_us, full_us } or null where the kernel
 * has no PSI. */
static json_t *psi_delta(const struct pressure *a, const struct pressure *b)
{
	static const char *const names[SAMPLER_NPSI] = { "io", "memory", "cpu" };
	json_t *o = json_object();

	for (int r = 0; o && r < SAMPLER_NPSI; r++) {
		json_t *p = json_null();

		if (a[r].present && b[r].present) {
			p = json_pack("{s:I}", "some_us", delta(a[r].some_us, b[r].some_us));
			if (p && b[r].has_full)
				json_object_set_new(p, "full_us",
						    json_integer(delta(a[r].full_us, b[r].full_us)));
		}
		json_object_set_new(o, names[r], p);
	}
	return o;
}

static json_t *io_delta(const struct taskio *a, const struct taskio *b)
{
	if (!a->present || !b->present)
		return json_null();
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "rchar", delta(a->rchar, b->rchar), "wchar",
			 delta(a->wchar, b->wchar), "syscr", delta(a->syscr, b->syscr), "syscw",
			 delta(a->syscw, b->syscw), "read_bytes", delta(a->read_bytes, b->read_bytes),
			 "write_bytes", delta(a->write_bytes, b->write_bytes), "cancelled_write_bytes",
			 delta(a->cancelled_write_bytes, b->cancelled_write_bytes));
}

/* { memory_stat: { the fields the file had }, io_stat: { … } or null }. */
static json_t *cg_delta(const struct cgstat *a, const struct cgstat *b)
{
	json_t *mem = json_object(), *io = json_null();

	for (int f = 0; mem && f < CG_NFIELDS; f++)
		if (b->found & (1ull << f))
			json_object_set_new(mem, cgstat_name((enum cg_field)f),
					    json_integer(cgstat_is_level((enum cg_field)f)
								 ? (json_int_t)b->v[f]
								 : delta(a->v[f], b->v[f])));
	if (a->io_present && b->io_present)
		io = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "rbytes", delta(a->rbytes, b->rbytes),
			       "wbytes", delta(a->wbytes, b->wbytes), "rios", delta(a->rios, b->rios), "wios",
			       delta(a->wios, b->wios), "dbytes", delta(a->dbytes, b->dbytes), "dios",
			       delta(a->dios, b->dios));
	return json_pack("{s:o, s:o}", "memory_stat", mem, "io_stat", io);
}

static json_t *counters_delta(const struct sampler *s, const struct sample *a, const struct sample *b)
{
	json_t *disks = json_array(), *o;

	for (unsigned k = 0; k < s->ndev; k++)
		json_array_append_new(disks, disk_delta(s, k, &a->disk[k], &b->disk[k], b->t_ns - a->t_ns));
	o = json_pack("{s:I, s:I, s:o, s:I, s:I, s:I, s:I, s:I, s:I}", "t_ns", (json_int_t)b->t_ns,
		      "duration_ns", (json_int_t)(b->t_ns - a->t_ns), "disk", disks, "pgpgin_kb",
		      delta(a->vm.v[VM_PGPGIN], b->vm.v[VM_PGPGIN]), "pgpgout_kb",
		      delta(a->vm.v[VM_PGPGOUT], b->vm.v[VM_PGPGOUT]), "pgmajfault",
		      delta(a->vm.v[VM_PGMAJFAULT], b->vm.v[VM_PGMAJFAULT]), "dirty_bytes",
		      (json_int_t)b->mem.dirty_bytes, "writeback_bytes", (json_int_t)b->mem.writeback_bytes,
		      "cached_bytes", (json_int_t)b->mem.cached_bytes);
	if (!o || s->basic)
		return o;
	json_object_set_new(o, "vmstat", vm_delta(&a->vm, &b->vm));
	json_object_set_new(o, "pressure", psi_delta(a->psi, b->psi));
	json_object_set_new(o, "process_io", io_delta(&a->io, &b->io));
	if (a->cg.present && b->cg.present)
		json_object_set_new(o, "cgroup", cg_delta(&a->cg, &b->cg));
	return o;
}

json_t *result_counters_json(const struct sampler *s)
{
	json_t *samples = json_array();

	for (size_t i = 1; i < s->nsamples; i++)
		json_array_append_new(samples, counters_delta(s, &s->samples[i - 1], &s->samples[i]));
	return json_pack("{s:I, s:o, s:o}", "interval_ns", (json_int_t)s->interval_ns, "samples", samples,
			 "total", counters_delta(s, &s->samples[0], &s->samples[s->nsamples - 1]));
}

/* A log2 histogram's buckets that hold something: [{min, max, count}]. */
static json_t *trace_hist_json(const uint64_t *h)
{
	json_t *a = json_array();

	for (int k = 0; a && k < TRACE_NBUCKETS; k++) {
		const uint64_t lo = k ? 1ull << (k - 1) : 0, hi = k ? 2 * lo - 1 : 0;

		if (h[k])
			json_array_append_new(a, json_pack("{s:I, s:I, s:I}", "min", (json_int_t)lo, "max",
							   (json_int_t)hi, "count", (json_int_t)h[k]));
	}
	return a;
}

/* One device's trace: its totals and each request type it saw. */
static json_t *trace_dev_json(const struct trace_dev *d, const struct sampler *s, unsigned k)
{
	json_t *ops = json_object(), *o;
	uint64_t requests = 0, bytes = 0, device_ns = 0;
	char dev[32];

	for (int t = 0; ops && t < TRACE_NOPS; t++) {
		const struct trace_op_stats *op = &d->op[t];

		if (!op->requests && !op->completed)
			continue;
		requests += op->requests;
		bytes += op->bytes;
		device_ns += op->device_ns;
		json_object_set_new(ops, trace_op_name((enum trace_op)t),
				    json_pack("{s:I, s:I, s:I, s:I, s:o, s:o}", "requests",
					      (json_int_t)op->requests, "bytes", (json_int_t)op->bytes,
					      "completed", (json_int_t)op->completed, "device_ns",
					      (json_int_t)op->device_ns, "size_bytes",
					      trace_hist_json(op->size_hist), "device_lat_ns",
					      trace_hist_json(op->lat_hist)));
	}
	snprintf(dev, sizeof(dev), "%u:%u", d->major, d->minor);
	o = json_pack("{s:s, s:I, s:I, s:I, s:o}", "device", dev, "requests", (json_int_t)requests, "bytes",
		      (json_int_t)bytes, "device_ns", (json_int_t)device_ns, "ops", ops);
	if (o && k < s->ndev && s->major[k] == d->major && s->minor[k] == d->minor)
		json_object_set_new(o, "name", json_string(s->dev_name[k]));
	return o;
}

json_t *result_trace_json(const struct trace_stats *ts, const struct sampler *s)
{
	json_t *disks = json_array();

	for (unsigned k = 0; disks && k < ts->ndev; k++)
		json_array_append_new(disks, trace_dev_json(&ts->dev[k], s, k));
	return json_pack("{s:s, s:o}", "tool", "bpftrace", "disk", disks);
}
