/*
 * fio's pacing of a file worker: rate, thinktime and the rate floor; see
 * pace.h. The arithmetic follows fio's backend.c and io_u.c (usec_for_io,
 * rate_ddir, handle_thinktime, check_min_rate), in nanoseconds.
 */
#include "workload/fileio/pace.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "util/clock.h"
#include "util/sleep.h"
#include "util/units.h"
#include "workload/fileio/keys.h"
#include "workload/workload.h"
#include "workload/fileio/files.h"

#define NS_PER_S	1000000000ull
#define FLOOR_SETTLE_NS (2 * NS_PER_S) /* fio's settle time before rate_min is checked */

void pace_init(struct pace *p, const struct job *job, uint64_t seed, const atomic_int *stop,
	       const atomic_int *job_stop)
{
	const bool mixed =
		fileio_files(job)->layout.rw == RW_RANDRW || fileio_files(job)->layout.rw == RW_READWRITE;

	memset(p, 0, sizeof(*p));
	p->job = job;
	p->conf = fileio_conf(job);
	p->stop = stop;
	p->job_stop = job_stop;
	for (int d = 0; d < 2; d++) {
		p->bps[d] = fileio_files(job)->pacing.rate_bps[d];
		p->rate |= p->bps[d] != 0;
		p->floor |= fileio_files(job)->pacing.rate_min_bps[d] ||
			    fileio_files(job)->pacing.rate_min_iops[d];
	}
	p->think = p->conf->thinktime_ns != 0;
	p->on = p->rate || p->think || p->floor;
	p->gate = p->rate;
	p->offload = p->conf->offload;
	/* fio gives way to the other direction when it has a share of the mix */
	p->switch_dir[0] = mixed && fileio_files(job)->layout.rwmixread < 100;
	p->switch_dir[1] = mixed && fileio_files(job)->layout.rwmixread > 0;
	p->think_by_blocks = !p->conf->thinktime_iotime_ns || job_is_set(job, "thinktime_blocks");
	rng_seed(&p->rng, seed);
}

void pace_attach_flow(struct pace *p, struct flow *flow)
{
	p->flow = fileio_files(p->job)->pacing.flow ? flow : NULL;
	p->gate = p->rate || p->flow;
	p->on |= p->flow != NULL;
}

void pace_leave_flow(struct pace *p)
{
	if (p->flow_joined)
		flow_leave(p->flow, p->flow_ios, fileio_files(p->job)->pacing.flow);
	p->flow_joined = false;
}

void pace_start(struct pace *p, uint64_t now)
{
	if (p->flow && !p->flow_joined) {
		flow_join(p->flow, fileio_files(p->job)->pacing.flow);
		p->flow_joined = true;
	}
	p->epoch_ns = now;
	p->issued = p->completed = 0;
	p->think_last = p->think_due_at = 0;
	p->think_io_ns = now;
	for (int d = 0; d < 2; d++)
		p->rate_bytes[d] = p->next_ns[d] = p->poisson_ns[d] = p->check_ns[d] = 0;
}

uint64_t pace_rate_wait_ns(struct pace *p, enum op_type *op, uint64_t now)
{
	const uint64_t t = now > p->epoch_ns ? now - p->epoch_ns : 0;
	int d = *op == OP_WRITE;

	if (p->next_ns[d] <= t)
		return 0;
	if (p->switch_dir[d]) {
		if (p->next_ns[!d] <= t) {
			*op = d ? OP_READ : OP_WRITE;
			return 0;
		}
		if (p->next_ns[!d] < p->next_ns[d]) {
			*op = d ? OP_READ : OP_WRITE;
			d = !d;
		}
	}
	return p->next_ns[d] - t;
}

/* bytes at bps take this long. */
static uint64_t bytes_ns(uint64_t bytes, uint64_t bps)
{
	return (uint64_t)((unsigned __int128)bytes * NS_PER_S / bps);
}

void pace_issued(struct pace *p, enum op_type op, uint64_t bytes)
{
	const int d = op == OP_WRITE;

	p->issued++;
	p->flow_passed = false;
	if (!p->bps[d])
		return;
	p->rate_bytes[d] += bytes;
	if (p->conf->rate_process == FILEIO_RATE_POISSON) {
		/* a gap of the rate's mean times -ln(u), u uniform in (0, 1] */
		const double u = 1.0 - (double)(rng_next(&p->rng) >> 11) * 0x1p-53;

		p->poisson_ns[d] += (uint64_t)((double)bytes_ns(bytes, p->bps[d]) * -log(u));
		p->next_ns[d] = p->poisson_ns[d];
	} else {
		p->next_ns[d] = bytes_ns(p->rate_bytes[d], p->bps[d]);
	}
}

bool pace_think_due(struct pace *p, uint64_t now)
{
	const uint64_t b = p->conf->thinktime_blocks_type == FILEIO_THINK_ISSUE ? p->issued : p->completed;
	bool due = false;

	if (p->conf->thinktime_iotime_ns) {
		if (now - p->think_io_ns >= p->conf->thinktime_iotime_ns)
			due = true;
		else if (!p->think_by_blocks)
			return false;
	}
	if (b >= p->think_last + p->conf->thinktime_blocks)
		due = true;
	if (due)
		p->think_due_at = b; /* as fio, counted before the queue drains */
	return due;
}

bool pace_sleep(const struct pace *p, uint64_t until)
{
	return sleep_until_ns(until, p->stop, p->job_stop);
}

/* Held back by the flow: fio's flow_sleep, or a yield when it is 0. */
static void flow_pause(struct pace *p, uint64_t now, uint64_t deadline)
{
	const uint64_t t = p->conf->flow_sleep_ns;

	if (t)
		pace_sleep(p, t < deadline - now ? now + t : deadline);
	else
		sched_yield();
}

uint64_t pace_queue_wait_ns(struct pace *p, enum op_type *op, uint64_t now)
{
	p->flow_held = false;
	if (p->flow && !p->flow_passed) {
		if (!flow_go(p->flow, &p->flow_ios, fileio_files(p->job)->pacing.flow)) {
			p->flow_held = true;
			if (!p->conf->flow_sleep_ns)
				sched_yield();
			return p->conf->flow_sleep_ns ? p->conf->flow_sleep_ns : 1;
		}
		p->flow_passed = true;
	}
	return p->rate ? pace_rate_wait_ns(p, op, now) : 0;
}

bool pace_queue_pause(struct pace *p, struct engine *e, unsigned inflight, bool busy, enum op_type last_op,
		      uint64_t *now, uint64_t deadline)
{
	const uint64_t until = p->pause_until < deadline ? p->pause_until : deadline;

	e->reap_until = 0;
	if (!inflight) {
		/* Drained, as fio before a pause: no latency runs through it. */
		if (p->pause == PACE_THINK && !busy) {
			*now = pace_think(p, last_op, *now, deadline);
		} else if (!busy) {
			pace_sleep(p, until);
			*now = clock_now_ns();
		}
		p->pause = PACE_GO;
		return true;
	}
	if (!p->offload || p->pause != PACE_RATE || p->flow_held || busy)
		return false;
	if (*now >= until)
		p->pause = PACE_GO; /* the schedule's time, whatever is in flight */
	else
		e->reap_until = until;
	return false;
}

bool pace_rate_wait(struct pace *p, enum op_type *op, uint64_t *now, uint64_t deadline)
{
	uint64_t wait;
	bool ok;

	while (p->flow && !flow_go(p->flow, &p->flow_ios, fileio_files(p->job)->pacing.flow)) {
		if (*now >= deadline || (p->stop && atomic_load(p->stop)) ||
		    (p->job_stop && atomic_load(p->job_stop)))
			return false;
		flow_pause(p, *now, deadline);
		*now = clock_now_ns();
	}
	if (!p->rate || !(wait = pace_rate_wait_ns(p, op, *now)))
		return true;
	if (*now >= deadline)
		return false;
	ok = pace_sleep(p, wait < deadline - *now ? *now + wait : deadline);
	*now = clock_now_ns();
	return ok && *now < deadline;
}

/* rate_ignore_thinktime: the bytes the rate would have allowed during a
 * pause of total_ns count as done, less one block when the pause is longer
 * than one I/O's time, so that the next I/O goes at once (fio's rule). */
static void credit_pause(struct pace *p, int d, uint64_t total_ns)
{
	const uint64_t bs = fileio_files(p->job)->where.min_bs_rw[d], bps = p->bps[d];
	const uint64_t missed = (uint64_t)((unsigned __int128)bps * total_ns / NS_PER_S);

	if (bytes_ns(bs, bps) <= total_ns)
		p->rate_bytes[d] += missed > bs ? missed - bs : 0;
	else
		p->rate_bytes[d] += missed;
	p->poisson_ns[d] += total_ns;
}

uint64_t pace_think(struct pace *p, enum op_type op, uint64_t now, uint64_t deadline)
{
	const uint64_t room = deadline > now ? deadline - now : 0;
	uint64_t t = now, left = p->conf->thinktime_spin_ns < room ? p->conf->thinktime_spin_ns : room;

	if (left)
		t = sleep_spin_until_ns(now + left, p->stop, p->job_stop);
	left = p->conf->thinktime_ns > t - now ? p->conf->thinktime_ns - (t - now) : 0;
	if (deadline <= t)
		left = 0;
	else if (left > deadline - t)
		left = deadline - t;
	if (left) {
		pace_sleep(p, t + left);
		t = clock_now_ns();
	}
	if (p->conf->rate_ignore_thinktime && p->bps[op == OP_WRITE] && t > now)
		credit_pause(p, op == OP_WRITE, t - now);
	p->think_last = p->think_due_at;
	p->think_io_ns = t;
	return t;
}

bool pace_floor_missed(struct pace *p, const struct op_stats *stats, uint64_t now, struct pace_miss *miss)
{
	const struct job *job = p->job;

	if (now - p->epoch_ns < FLOOR_SETTLE_NS)
		return false;
	for (int d = 0; d < 2; d++) {
		const struct op_stats *s = &stats[d ? OP_WRITE : OP_READ];
		const uint64_t bytes = s->bytes, ops = s->lat_ns.count;

		if (!bytes || (!fileio_files(job)->pacing.rate_min_bps[d] &&
			       !fileio_files(job)->pacing.rate_min_iops[d]))
			continue;
		if (p->check_ns[d]) {
			const uint64_t spent = now - p->check_ns[d];
			const bool by_bytes = fileio_files(job)->pacing.rate_min_bps[d] != 0;
			const uint64_t want = by_bytes ? fileio_files(job)->pacing.rate_min_bps[d]
						       : fileio_files(job)->pacing.rate_min_iops[d];

			if (spent < p->conf->rate_cycle_ns || !spent)
				continue;
			const uint64_t delta = by_bytes ? bytes - p->check_bytes[d] : ops - p->check_ops[d];
			const uint64_t got = (uint64_t)((unsigned __int128)delta * NS_PER_S / spent);

			if (got < want) {
				*miss = (struct pace_miss){ .dir = d,
							    .iops = !by_bytes,
							    .want = want,
							    .got = got,
							    .window_ns = spent };
				return true;
			}
		}
		p->check_ns[d] = now;
		p->check_bytes[d] = bytes;
		p->check_ops[d] = ops;
	}
	return false;
}

void pace_miss_text(const struct pace_miss *m, char *buf, size_t len)
{
	char want[32], got[32], window[32];
	const char *dir = m->dir ? "writes" : "reads";

	units_fmt_ns(window, sizeof(window), (double)m->window_ns);
	if (m->iops) {
		snprintf(buf, len, "rate_iops_min=%llu not met: %s at %llu IOPS over the last %s",
			 (unsigned long long)m->want, dir, (unsigned long long)m->got, window);
		return;
	}
	units_fmt_bytes(want, sizeof(want), m->want);
	units_fmt_bytes(got, sizeof(got), m->got);
	snprintf(buf, len, "rate_min=%s/s not met: %s at %s/s over the last %s", want, dir, got, window);
}

int pace_floor_check(struct pace *p, struct worker *w, uint64_t now)
{
	struct pace_miss miss;
	char text[192];

	if (!pace_floor_missed(p, w->stats, now, &miss))
		return 0;
	pace_miss_text(&miss, text, sizeof(text));
	atomic_store(w->job_stop, 1);
	return dbio_err_set(&w->err, -EIO, "job '%s' thread %u: %s", w->job->name, w->index, text);
}

/* fio's fix-ups of the batch keys against iodepth (fio's init.c). */
static void fix_batches(const struct job *job, struct fileio_conf *c)
{
	if (!c->iodepth_batch_submit || c->iodepth_batch_submit > fileio_files(job)->layout.iodepth)
		c->iodepth_batch_submit = fileio_files(job)->layout.iodepth;
	if (!c->iodepth_low || c->iodepth_low > fileio_files(job)->layout.iodepth)
		c->iodepth_low = fileio_files(job)->layout.iodepth;
	/* Neither given: dbio takes every completion there is; fio's default
	 * is iodepth_batch_complete_min, which it is when min is given. */
	if (!job_is_set(job, "iodepth_batch_complete_max") && !job_is_set(job, "iodepth_batch_complete_min"))
		c->iodepth_batch_complete_max = fileio_files(job)->layout.iodepth;
	else if (c->iodepth_batch_complete_max < c->iodepth_batch_complete_min)
		c->iodepth_batch_complete_max = c->iodepth_batch_complete_min;
}

/* io_submit_mode into offload. */
static int parse_submit_mode(const struct job *job, struct fileio_conf *c, struct dbio_err *err)
{
	c->offload = !strcmp(c->io_submit_mode, "offload");
	if (!c->offload && strcmp(c->io_submit_mode, "inline"))
		return job_fail(job, "io_submit_mode", err, "bad value '%s': expected inline or offload",
				c->io_submit_mode);
	return 0;
}

/* The keys of the queued engines' loop. */
static const char *const batch_keys[] = { "iodepth_batch_submit", "iodepth_batch_complete_min",
					  "iodepth_batch_complete_max", "iodepth_low" };

int pace_validate(struct job *job, struct dbio_err *err)
{
	char queued[128];
	int rc = job_validate_pacing(job, err);

	if (!rc)
		rc = parse_submit_mode(job, fileio_conf(job), err);
	if (!rc)
		fix_batches(job, fileio_conf(job));
	if (!rc)
		rc = job_validate_steady(job, err);
	if (rc || (job->eng->caps & ENGINE_CAP_QUEUE))
		return rc;
	for (size_t k = 0; k < sizeof(batch_keys) / sizeof(batch_keys[0]); k++) {
		if (!job_is_set(job, batch_keys[k]))
			continue;
		engine_list_queued(queued, sizeof(queued));
		return job_fail(
			job, batch_keys[k], err,
			"belongs to the engines that queue (%s%s); this job is ioengine=%s, which keeps one I/O in flight",
			queued[0] ? "ioengine=" : "none in this build: see dbio --version", queued,
			job->eng->name);
	}
	return 0;
}

int pace_refuse(const struct job *job, struct dbio_err *err)
{
	static const char *const keys[] = {
		"thinktime",	    "thinktime_spin", "thinktime_blocks", "thinktime_blocks_type",
		"thinktime_iotime", "rate",	      "rate_iops",	  "rate_min",
		"rate_iops_min",    "rate_process",   "rate_cycle",	  "rate_ignore_thinktime",
		"startdelay",	    "flow",	      "flow_id",	  "flow_sleep",
	};

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (job_is_set(job, keys[k]))
			return job_fail(job, keys[k], err,
					"not for workload=%s (yet): only workload=fileio paces its I/O",
					job->wl->name);
	for (size_t k = 0; k < sizeof(batch_keys) / sizeof(batch_keys[0]); k++)
		if (job_is_set(job, batch_keys[k]))
			return job_fail(job, batch_keys[k], err,
					"not for workload=%s (yet): only workload=fileio queues its I/O",
					job->wl->name);
	if (!strcmp(fileio_conf(job)->io_submit_mode, "offload")) /* oltp does not parse it */
		return job_fail(job, "io_submit_mode", err,
				"offload is not for workload=%s (yet): only workload=fileio paces its I/O",
				job->wl->name);
	return 0;
}
