/*
 * Private to cmd/sysbench*.c: sysbench fileio's options as `dbio sysbench`
 * parsed them, the dbio job they make (sysbench_job.c) and sysbench's
 * report of a run (sysbench_out.c).
 */
#ifndef DBIO_CMD_SYSBENCH_INT_H
#define DBIO_CMD_SYSBENCH_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

struct sb_opts {
	const char *test, *command; /* "fileio"; prepare, run or cleanup */
	uint64_t threads, events, time_s, rate, report_interval, percentile, rand_seed, rand_spec[3];
	bool histogram, validate;
	const char *rand_type;
	double rand_pareto_h, rand_zipf_exp;
	uint64_t file_num, block, total, backlog, fsync_freq, merged;
	bool fsync_all, fsync_end;
	const char *test_mode, *io_mode, *extra_flags, *fsync_mode;
	double rw_ratio;
	const char *output, *format; /* dbio's */
	/* derived by the checks */
	uint64_t file_size;	    /* total / file_num */
	const struct sb_mode *mode; /* NULL: none given (prepare, cleanup) */
	bool direct, osync, odsync;
	uint64_t requests; /* --events: the reads and writes among the first events */
};

/* A --file-test-mode and its rw. */
struct sb_mode {
	const char *name, *rw, *doing; /* doing: sysbench's "Doing <doing> test" */
	bool writes;
};

extern const struct sb_mode sb_modes[]; /* ends with a NULL name */

/* Check the modes, flags and rand-type of o and derive what the job
 * needs; 2 after printing the message, else 0. */
int sysbench_check_modes(struct sb_opts *o);

/* The job file of a run (one job, on test_file.N of the current
 * directory), allocated; NULL when out of memory. */
char *sysbench_job(const struct sb_opts *o);

/* sysbench's "Extra file open flags:" line. */
void sysbench_print_flags(const struct sb_opts *o);

/* sysbench's report of a run from its result, then dbio's lines. */
void sysbench_print_run(const struct sb_opts *o, const json_t *result);

#endif
