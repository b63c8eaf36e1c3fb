/*
 * What dbio crash found (issue 28): the crash states a workload's run on the
 * power-cut layer was cut into and checked, and what each lost of what the
 * workload saw acknowledged. Plain data: the workload fills it
 * (workload/kv_durable.c,
 * workload/fileio/durable.c), the runner merges it into struct run_stats, the
 * result writes it as a job run's "durability".
 */
#ifndef DBIO_STATS_DURABLE_H
#define DBIO_STATS_DURABLE_H

#include <stdbool.h>
#include <stdint.h>

struct durable_tally {
	bool on;	     /* the run was checked (dbio crash) */
	char setting[96];    /* the durability setting in force: "sqlite synchronous=FULL" */
	uint64_t states;     /* crash states checked */
	uint64_t points;     /* of them, at a durability point (an fsync's return) */
	uint64_t acks;	     /* of them, right after an acknowledgement, chosen at random */
	uint64_t lossy;	     /* states that lost an acknowledged operation */
	uint64_t lost;	     /* acknowledged operations lost, over all states */
	uint64_t lost_max;   /* the most one state lost */
	uint64_t not_opened; /* states where the engine would not open */
	uint64_t integrity;  /* states whose integrity check failed (sqlite) */
	uint64_t torn;	     /* records found with a bad checksum, over all states */
	uint64_t acked;	     /* operations acknowledged at the end of the run */
	/* fileio (unit "block"): its random cuts follow writes, not
	 * acknowledgements, and what was written is judged too: the blocks
	 * written by the end, and of those written before a cut the ones whose
	 * last write the cut lost, acknowledged or not (the most in one state,
	 * over all). kv leaves unit empty: records, cuts after commits. */
	char unit[16];
	uint64_t written, wlost, wlost_max;
	/* The first acknowledged operation lost: its key, the sequence of its
	 * acknowledged write, and the cut ("fsync 12", "ack 37"). */
	bool first_set;
	uint64_t first_key, first_seq;
	char first_cut[32];
	char first_why[160]; /* "missing", "an older value", "a bad checksum", the engine's error */
	char model[16];	     /* the crash model: "lose", "reorder", "torn512", "torn4k" */
	/* The injected fault ("eio-fsync@3", "" none), whether it hit and
	 * what, whether the workload saw an error (a put or commit failed)
	 * and its text, and the states checked after it hit. */
	char fault[48];
	bool fault_hit, fault_seen;
	char fault_what[128];
	char fault_error[160];
	uint64_t after_states, after_lossy, after_lost_max;
};

#endif
