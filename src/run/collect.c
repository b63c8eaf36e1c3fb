/*
 * The runner's bookkeeping around the threads: handing a thread its files
 * and blocks (run_assign) and, after they joined, merging what each
 * measured into its job's stats (run_collect): histograms and counters by
 * adding buckets, rusage summed, elapsed from the first start to the last
 * end, phases, series, per-directory counts, the probe and the system
 * counters.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "run/run_int.h"
#include "workload/fileio/files.h"

/* Thread t's share of total among n, the shares adding up to total. */
static uint64_t share_of(uint64_t total, uint64_t t, uint64_t n)
{
	const uint64_t q = total / n, r = total % n;

	return q + r * (t + 1) / n - r * t / n;
}

/* Hand thread t of job its files and its slice of the blocks. */
void run_assign(struct worker *w, const struct job *job, struct layout *l, struct wfile *files, unsigned t)
{
	uint64_t bpf, pass_ops, first_file, last_file, io_bytes = fileio_files(job)->where.io_size;

	w->job = job;
	w->index = t;
	w->dirfd = l->dirs[t % l->ndirs].fd;
	w->dir_path = l->dirs[t % l->ndirs].path;
	snprintf(w->prefix, sizeof(w->prefix), "dbio.%s.%u.", job->name, t);
	if (!(job->wl->caps & WORKLOAD_CAP_FILES)) {
		w->ops_per_pass = job->wl->work_items ? job->wl->work_items(job) : 0;
		w->ops_total = w->ops_per_pass;
		return;
	}
	/* fio's region of a file: what its offset leaves (offset_increment);
	 * min_bs is a file workload's only */
	bpf = job_region_bytes(job, fileio_files(job)->layout.share_files ? 0 : t) /
	      fileio_files(job)->where.min_bs;
	pass_ops = fileio_files(job)->layout.size / fileio_files(job)->where.min_bs;
	w->blocks_per_file = bpf;
	if (fileio_files(job)->layout.share_files) {
		uint64_t total = bpf * fileio_files(job)->layout.nrfiles;
		uint64_t lo = total * t / job->numjobs, hi = total * (t + 1) / job->numjobs;

		first_file = lo / bpf;
		last_file = (hi - 1) / bpf;
		w->slice_first = lo - first_file * bpf;
		w->slice_len = hi - lo;
		w->ops_per_pass = pass_ops * (t + 1) / job->numjobs - pass_ops * t / job->numjobs;
		/* in whole blocks, so that the threads' I/Os add up to io_size's */
		io_bytes = share_of(fileio_files(job)->where.io_size / fileio_files(job)->where.min_bs, t,
				    job->numjobs) *
				   fileio_files(job)->where.min_bs +
			   (t + 1 == job->numjobs
				    ? fileio_files(job)->where.io_size % fileio_files(job)->where.min_bs
				    : 0);
	} else if (fileio_files(job)->layout.filename[0]) {
		/* fio's filename: every thread on the same files, each the whole size */
		first_file = 0;
		last_file = fileio_files(job)->layout.nrfiles - 1;
		w->slice_first = 0;
		w->slice_len = bpf * fileio_files(job)->layout.nrfiles;
		w->ops_per_pass = pass_ops;
	} else {
		first_file = (uint64_t)t * fileio_files(job)->layout.nrfiles;
		last_file = first_file + fileio_files(job)->layout.nrfiles - 1;
		w->slice_first = 0;
		w->slice_len = bpf * fileio_files(job)->layout.nrfiles;
		w->ops_per_pass = pass_ops;
	}
	/* As fio, a pass is no more than the region (filesize - offset) holds. */
	if (w->ops_per_pass > w->slice_len)
		w->ops_per_pass = w->slice_len;
	w->io_bytes = io_bytes;
	w->ops_total = job->time_based ? 0 : job_ops_total(job, w->ops_per_pass, io_bytes);
	w->files = files;
	w->nfiles = (size_t)(last_file - first_file + 1);
	for (size_t i = 0; i < w->nfiles; i++) {
		struct layout_file *lf = &l->files[first_file + i];

		files[i] = (struct wfile){ .dirfd = l->dirs[lf->dir].fd,
					   .name = lf->name,
					   .path = lf->path,
					   .fd = -1,
					   .dir = (unsigned)lf->dir };
	}
}

static int collect_probe(struct run_probe *rp, const struct probe *p)
{
	rp->kind = p->job->probe;
	rp->lat = malloc(sizeof(*rp->lat));
	rp->stalls = malloc((p->nstalls ? p->nstalls : 1) * sizeof(*rp->stalls));
	if (!rp->lat || !rp->stalls)
		return -ENOMEM;
	*rp->lat = p->lat;
	memcpy(rp->stalls, p->stalls, p->nstalls * sizeof(*rp->stalls));
	rp->nstalls = p->nstalls;
	rp->stalls_dropped = p->stalls_dropped;
	rp->error = p->error;
	return 0;
}
/* The busy time of the device under directory dirfd over the run: the
 * growth of its io_ticks (/proc/diskstats: milliseconds with I/O in
 * flight) from the sampler's first sample (the gate) to its last (the
 * threads' end). Several directories on one device share its figure. */
static void target_busy(struct target_io *t, const struct sampler *s, int dirfd)
{
	struct stat st;

	if (s->nsamples < 2 || fstat(dirfd, &st))
		return;
	for (unsigned k = 0; k < s->ndev; k++)
		if (s->major[k] == major(st.st_dev) && s->minor[k] == minor(st.st_dev)) {
			const uint64_t a = s->samples[0].disk[k].ms_io,
				       b = s->samples[s->nsamples - 1].disk[k].ms_io;

			t->busy_ns = b > a ? (b - a) * 1000000ull : 0;
			t->busy_known = true;
		}
}

_Static_assert(PHASE_MAX_FIGURES == sizeof(((struct run_phase *)0)->figures) / sizeof(struct run_figure),
	       "a phase's figures: as many in struct run_phase as in struct phase");

/* Phase p's own latencies added to r's (made on the first): 0 or -ENOMEM. */
static int collect_phase_lat(struct run_phase *r, const struct phase *p)
{
	if (!p->lat)
		return 0;
	if (!r->lat) {
		if (!(r->lat = malloc(sizeof(*r->lat))))
			return -ENOMEM;
		op_stats_init(r->lat);
		r->lat_op = p->lat_op;
	}
	op_stats_merge(r->lat, p->lat);
	return 0;
}

static int collect_phases(struct run_stats *st, const struct worker *w, bool first)
{
	int rc = 0;

	for (unsigned i = 0; i < w->nphases && i < WORKLOAD_MAX_PHASES; i++) {
		const struct phase *p = &w->phases[i];
		struct run_phase *r = &st->phases[i];

		if (first || i >= st->nphases) {
			r->name = p->name;
			r->usage = p->usage;
			r->ops = p->ops;
			r->start_ns = p->start_ns;
			r->end_ns = p->end_ns;
			for (unsigned f = 0; f < p->nfigures; f++)
				r->figures[f] =
					(struct run_figure){ p->figures[f].name, p->figures[f].value };
			r->nfigures = p->nfigures;
		} else {
			for (unsigned f = 0; f < r->nfigures && f < p->nfigures; f++)
				r->figures[f].value += p->figures[f].value;
			usage_add(&r->usage, &p->usage);
			r->ops += p->ops;
			r->start_ns = p->start_ns < r->start_ns ? p->start_ns : r->start_ns;
			r->end_ns = p->end_ns > r->end_ns ? p->end_ns : r->end_ns;
		}
		r->elapsed_ns = r->end_ns - r->start_ns;
		if (!rc)
			rc = collect_phase_lat(r, p);
	}
	if (w->nphases > st->nphases)
		st->nphases = w->nphases;
	return rc;
}
static int collect_series(struct run_stats *st, struct run_slot *slots, size_t nthreads, size_t started)
{
	struct series *first = &slots[0].w.series;

	if (!series_on(first))
		return 0;
	if (first->interval_ns) {
		st->series = calloc(1, sizeof(*st->series));
		if (!st->series || series_init(st->series, first->interval_ns, 0, first->npoints + 1))
			return -ENOMEM;
		st->nseries = 1;
		st->series->origin_ns = first->origin_ns;
		for (size_t t = 0; t < started; t++)
			if (series_merge(st->series, &slots[t].w.series))
				return -ENOMEM;
		return 0;
	}
	st->series = calloc(nthreads, sizeof(*st->series));
	if (!st->series)
		return -ENOMEM;
	for (size_t t = 0; t < nthreads; t++) {
		st->series[t] = slots[t].w.series; /* ownership moves */
		memset(&slots[t].w.series, 0, sizeof(slots[t].w.series));
	}
	st->nseries = nthreads;
	return 0;
}

/* The threads of job j (slots[base ..]) into stats[j]. */
static int collect_job(struct run_group *g, size_t j, size_t base, struct dbio_err *err)
{
	const struct job *job = &g->jobs[j];
	struct run_stats *st = &g->stats[j];
	uint64_t first = UINT64_MAX, last = 0;
	size_t ran = g->started <= base ? 0 : g->started - base;
	int rc = 0;

	if (ran > job->numjobs)
		ran = job->numjobs;
	for (size_t t = 0; t < ran; t++) {
		const struct run_slot *s = &g->slots[base + t];
		const struct worker *w = &s->w;

		if (s->rc)
			rc = dbio_err_set_lines(err, s->rc, "%s",
						w->err.msg); /* made by dbio_err_set: escaped */
		for (int op = 0; op < OP_NTYPES; op++)
			op_stats_merge(&st->ops[op], &w->stats[op]);
		st->sched.run_ns += s->sched.run_ns;
		st->sched.wait_ns += s->sched.wait_ns;
		st->sched.timeslices += s->sched.timeslices;
		st->sched_wall_ns += s->sched_wall_ns;
		for (size_t d = 0; w->tio && d < st->ntargets; d++) {
			struct target_io *sum = &st->targets[d];

			for (int k = 0; k < 2; k++) {
				sum->ops[k] += w->tio[d].ops[k];
				sum->bytes[k] += w->tio[d].bytes[k];
			}
			if (w->tio[d].last_ns > sum->last_ns)
				sum->last_ns = w->tio[d].last_ns;
		}
		hist_merge(&st->slat_ns, &w->slat_ns);
		queue_lat_merge(&st->qlat, &w->qlat);
		usage_add(&st->usage, &w->usage);
		st->disk_bytes += w->disk_bytes;
		if (w->lat_depth && (!st->lat_depth_min || w->lat_depth < st->lat_depth_min))
			st->lat_depth_min = w->lat_depth;
		if (w->lat_depth > st->lat_depth_max)
			st->lat_depth_max = w->lat_depth;
		if (w->db_engine) {
			st->db_engine = w->db_engine;
			st->db_version = w->db_version;
			st->db_assertions = w->db_assertions;
		}
		if (w->durable.on)
			st->durable = w->durable;
		if (w->ioerr.total && !st->ioerr.total) {
			memcpy(st->ioerr.first, w->ioerr.first, sizeof(st->ioerr.first));
			st->ioerr.first_kind = w->ioerr.first_kind;
		}
		st->ioerr.total += w->ioerr.total;
		for (int k = 0; k < IOERR_KINDS; k++)
			st->ioerr.by_kind[k] += w->ioerr.by_kind[k];
		if (collect_phases(st, w, t == 0))
			rc = dbio_err_set(err, -ENOMEM, "out of memory for the phases' latencies");
		if (w->start_ns && w->start_ns < first)
			first = w->start_ns;
		if (w->end_ns > last)
			last = w->end_ns;
	}
	st->elapsed_ns = last > first ? last - first : 0;
	st->measured_start_ns = last > first ? first : 0;
	for (size_t d = 0; d < st->ntargets; d++) {
		st->targets[d].elapsed_ns =
			st->targets[d].last_ns > first ? st->targets[d].last_ns - first : 0;
		target_busy(&st->targets[d], &g->sampler, g->layouts[j].dirs[d].fd);
	}
	if (g->probes[j].stalls && collect_probe(&st->probe, &g->probes[j]))
		rc = dbio_err_set(err, -ENOMEM, "out of memory for the probe");
	if (sampler_copy(&st->counters, &g->sampler))
		rc = dbio_err_set(err, -ENOMEM, "out of memory for the system counters");
	if (collect_series(st, &g->slots[base], job->numjobs, ran))
		rc = dbio_err_set(err, -ENOMEM, "out of memory for the time series");
	if (run_steady_collect(g, j))
		rc = dbio_err_set(err, -ENOMEM, "out of memory for the steady state");
	return rc;
}

int run_collect(struct run_group *g, struct dbio_err *err)
{
	size_t base = 0;
	int rc = 0;

	for (size_t j = 0; j < g->n; j++) {
		if (collect_job(g, j, base, err))
			rc = err->code;
		base += g->jobs[j].numjobs;
	}
	return rc;
}
