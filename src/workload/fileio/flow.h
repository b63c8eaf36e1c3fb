/*
 * fio's flow control (flow, flow_id, flow_sleep): the jobs of one flow_id
 * share a count of the I/Os they issued, and before each I/O a thread whose
 * share of that count is above its share of the flow's weight waits
 * instead (fio's flow.c, fio 3.33's semantics). The runner makes one
 * struct flow per flow_id of a group that runs together (run/thread.c);
 * each thread of a job with flow= joins it when it starts its I/O and
 * leaves it, taking its count and weight away, when it is done, as fio's
 * threads do. The count is atomic; a job without flow= never looks at it.
 */
#ifndef DBIO_WORKLOAD_FLOW_H
#define DBIO_WORKLOAD_FLOW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct flow {
	uint64_t id;		     /* flow_id */
	atomic_uint_fast64_t ios;    /* I/Os let through, from 1 (fio's flow_counter) */
	atomic_uint_fast64_t weight; /* the flow= of every thread joined */
};

/* f empty, for flow_id id. */
void flow_init(struct flow *f, uint64_t id);

/* A thread of weight starts its I/O / is done after *mine I/Os. */
void flow_join(struct flow *f, uint64_t weight);
void flow_leave(struct flow *f, uint64_t mine, uint64_t weight);

/* Before an I/O of a thread of weight that issued *mine: true (and both
 * counts one more) when its share of the flow's I/Os, *mine over the
 * flow's, is not above its share of the weight, as fio's
 * flow_threshold_exceeded; false when it must wait. */
bool flow_go(struct flow *f, uint64_t *mine, uint64_t weight);

#endif
