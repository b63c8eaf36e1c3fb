/*
 * Pacing a file worker's I/O as fio does: rate and rate_iops (a cap per
 * direction, linear or Poisson), thinktime (a pause after every
 * thinktime_blocks I/Os or thinktime_iotime of I/O, partly spun), and
 * rate_min and rate_iops_min (a floor that fails the job). fileio's two
 * loops ask before each I/O how long the rate makes them wait, tell after
 * each what they issued and completed, and pause when a pause is due; the
 * waits happen before an I/O is issued and its clock starts, so no
 * latency includes them (fio takes its start time after its rate wait
 * too). A queued loop drains what is in flight before it waits, as fio's
 * inline mode does; with io_submit_mode=offload a rate wait does not, as
 * fio's offload: it reaps completions as they come until its time
 * (pace_queue_pause). fio's flow (flow.h) is asked in the same places.
 *
 * Everything is set up in prepare (pace_init); the calls of the loop do
 * not allocate. The arithmetic (pace_rate_wait_ns, pace_issued,
 * pace_think_due, pace_floor_missed) takes the time as an argument, so
 * that unit tests drive it with made-up clocks.
 */
#ifndef DBIO_WORKLOAD_PACE_H
#define DBIO_WORKLOAD_PACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "job/job.h"
#include "stats/opstats.h"
#include "util/err.h"
#include "util/rng.h"
#include "workload/fileio/flow.h"

/* What the queued loop waits for before it fills again (struct pace's
 * pause). */
enum pace_pause { PACE_GO, PACE_RATE, PACE_THINK };

struct fileio_conf;

struct pace {
	const struct job *job;
	const struct fileio_conf *conf; /* its thinktime and rate keys */
	bool on;			/* any of the four below */
	bool gate;			/* rate or flow: the loop asks before each I/O */
	bool rate;			/* a cap in some direction */
	bool think;			/* thinktime */
	bool floor;			/* rate_min or rate_iops_min */
	bool switch_dir[2];		/* a direction ahead of its rate may give way to the other */
	uint64_t epoch_ns;		/* the start of the thread's I/O, or of its measured phase */
	uint64_t issued;		/* reads and writes issued since the epoch */
	uint64_t completed;		/* and completed */
	/* The rate, per direction ([0] reads, [1] writes). */
	uint64_t bps[2];	/* 0: no cap */
	uint64_t rate_bytes[2]; /* issued, plus rate_ignore_thinktime's credit */
	uint64_t next_ns[2];	/* after the epoch: when the next I/O may be issued */
	uint64_t poisson_ns[2]; /* rate_process=poisson: the sum of the gaps so far */
	struct rng rng;		/* poisson's gaps */
	/* thinktime */
	uint64_t think_last;   /* the count at the last pause */
	uint64_t think_due_at; /* the count when the pause now due was decided */
	uint64_t think_io_ns;  /* when the I/O since the last pause began (thinktime_iotime) */
	bool think_by_blocks;  /* thinktime_blocks counts (not only thinktime_iotime) */
	/* rate_min, rate_iops_min: the last look, per direction; check_ns 0: none yet */
	uint64_t check_ns[2], check_bytes[2], check_ops[2];
	const atomic_int *stop, *job_stop; /* the worker's stop flags, for the waits */
	/* fio's flow: the thread's flow (NULL: none), its I/Os let through,
	 * whether it has joined, and whether the next I/O has passed the
	 * check already (a queued loop then waits for the rate only) */
	struct flow *flow;
	uint64_t flow_ios;
	bool flow_joined, flow_passed;
	bool flow_held; /* the last pace_queue_wait_ns was the flow's */
	/* The queued loop: the pause due (enum pace_pause), and until when
	 * PACE_RATE waits; io_submit_mode=offload (a rate pause does not
	 * wait for what is in flight) */
	int pause;
	uint64_t pause_until;
	bool offload;
};

/* What rate_min or rate_iops_min found short. */
struct pace_miss {
	int dir;	    /* 0 reads, 1 writes */
	bool iops;	    /* rate_iops_min (else rate_min) */
	uint64_t want, got; /* bytes or I/Os per second */
	uint64_t window_ns; /* over this long */
};

/* Set p up for job's thread: seed draws Poisson's gaps; stop and job_stop
 * end the waits early. p->on is false when the job paces nothing. */
void pace_init(struct pace *p, const struct job *job, uint64_t seed, const atomic_int *stop,
	       const atomic_int *job_stop);

/* The thread's flow (fio's flow=), from the runner; NULL or a job without
 * flow= leaves p without one. The thread joins it at its first pace_start
 * and leaves it with pace_leave_flow (cleanup), as fio's threads. */
void pace_attach_flow(struct pace *p, struct flow *flow);
void pace_leave_flow(struct pace *p);

/* Start (again) at now: when the thread starts its I/O, and when its ramp
 * ends (fio resets its rate and counters then). */
void pace_start(struct pace *p, uint64_t now);

/* Before an I/O of direction *op (OP_READ or OP_WRITE) at now: 0 when it
 * may go, else how long to wait first. A direction ahead of its rate gives
 * way to the other when the job mixes both and the other is not ahead
 * (*op then names it), as fio's rate_ddir; when both are ahead, *op is the
 * one due first and the wait is until then. After the wait the I/O goes
 * without asking again. */
uint64_t pace_rate_wait_ns(struct pace *p, enum op_type *op, uint64_t now);

/* An I/O of op and bytes was issued: count it, and move its direction's
 * next time on by the rate. */
void pace_issued(struct pace *p, enum op_type op, uint64_t bytes);

/* Whether a thinktime pause is due now, with p->issued and p->completed
 * as they are: thinktime_blocks of them (thinktime_blocks_type says which)
 * since the last, or thinktime_iotime since it ended. */
bool pace_think_due(struct pace *p, uint64_t now);

/* Pause as thinktime says, after an I/O of op at now (a queued loop has
 * drained first): spin thinktime_spin, sleep the rest of thinktime, never
 * past deadline; with rate_ignore_thinktime, credit op's rate with the
 * pause. Returns the clock after it. */
uint64_t pace_think(struct pace *p, enum op_type op, uint64_t now, uint64_t deadline);

/* The queued loop before an I/O of *op at now: 0 when it may go, else how
 * long to wait before asking again (the queue drained first). The flow is
 * asked first (a thread held back waits flow_sleep, or 1 ns after a
 * yield: p->flow_held is then true), then the rate (pace_rate_wait_ns). */
uint64_t pace_queue_wait_ns(struct pace *p, enum op_type *op, uint64_t now);

struct engine;

/* The queued loop with p->pause due, before it fills, with inflight I/Os
 * in flight (busy: stopping, or a full queue). Drained, it pauses (the
 * rate's wait, or thinktime; none when stopping: busy with nothing in
 * flight), sets *now and returns
 * true: go round again. With inflight and io_submit_mode=offload, a rate
 * pause does not wait for them, as fio's offload: it ends at its time
 * (false: fill now), and until then the engine's reap returns at that
 * time (e->reap_until) so completions are reaped as they come. Else
 * false: reap, fill nothing. */
bool pace_queue_pause(struct pace *p, struct engine *e, unsigned inflight, bool busy, enum op_type last_op,
		      uint64_t *now, uint64_t deadline);

/* Sleep until the CLOCK_MONOTONIC time until; false when a stop flag was
 * raised first. */
bool pace_sleep(const struct pace *p, uint64_t until);

/* A synchronous loop before an I/O of *op at *now: wait while the flow
 * holds the thread back (flow_sleep each time, or a yield), then for the
 * rate (pace_rate_wait_ns; *op may change), never past deadline, and set
 * *now to the clock after. False when the wait ran into deadline or a
 * stop. */
bool pace_rate_wait(struct pace *p, enum op_type *op, uint64_t *now, uint64_t deadline);

/* fio's check of rate_min and rate_iops_min at now, from the measured
 * phase's stats (of reads and writes): none in the first 2 s, then every
 * rate_cycle the rate over the last window of each direction that has
 * done I/O against its floor. True, with *miss filled, when one is short. */
bool pace_floor_missed(struct pace *p, const struct op_stats *stats, uint64_t now, struct pace_miss *miss);

/* "rate_iops_min=100 not met: reads at 12 IOPS over the last 1.00 s"
 * into buf, for the worker's error. */
void pace_miss_text(const struct pace_miss *m, char *buf, size_t len);

struct worker;

/* pace_floor_missed on w's stats at now; when a floor is missed, the
 * worker's error says so, its job stops, and the result is -EIO (fio's
 * error too). Else 0. */
int pace_floor_check(struct pace *p, struct worker *w, uint64_t now);

/* The validation of a file job's keys of pacing and threads, once its
 * engine is known: job_validate_pacing, fio's steady state
 * (job_validate_steady), and the queued engines' batch keys refused for
 * an engine that keeps one I/O in flight. DBIO_EINPUT naming the key. */
int pace_validate(struct job *job, struct dbio_err *err);

/* For a file workload whose loop is not fileio's (oltp): refuse the keys
 * that pace fileio's loop (rate and its kin, thinktime and its kin,
 * startdelay and the queued engines' batch keys), naming the workload. */
int pace_refuse(const struct job *job, struct dbio_err *err);

#endif
