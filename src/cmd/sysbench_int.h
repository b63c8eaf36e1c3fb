/*
 * Private to cmd/sysbench*.c: sysbench 1.0.20's command line for fileio
 * as its table of options reads it (sysbench_opts.c), the values sysbench
 * makes of it, the dbio job they make (sysbench_job.c) and sysbench's
 * report of a run (sysbench_out.c).
 */
#ifndef DBIO_CMD_SYSBENCH_INT_H
#define DBIO_CMD_SYSBENCH_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "cmd/opts.h"

/* sysbench's version whose fileio dbio follows, in its banner. */
#define SB_VERSION "1.0.20"

/* Each option of the table, by its index in sb_args.raw. */
enum sb_opt {
	SB_THREADS,
	SB_EVENTS,
	SB_TIME,
	SB_FORCED_SHUTDOWN,
	SB_STACK,
	SB_RATE,
	SB_REPORT_INTERVAL,
	SB_CHECKPOINTS,
	SB_DEBUG,
	SB_VALIDATE,
	SB_VERSION_OPT,
	SB_CONFIG_FILE,
	SB_TX_RATE,
	SB_MAX_REQUESTS,
	SB_MAX_TIME,
	SB_NUM_THREADS,
	SB_RAND_TYPE,
	SB_RAND_SPEC_ITER,
	SB_RAND_SPEC_PCT,
	SB_RAND_SPEC_RES,
	SB_RAND_SEED,
	SB_RAND_PARETO_H,
	SB_VERBOSITY,
	SB_PERCENTILE,
	SB_HISTOGRAM,
	SB_FILE_NUM,
	SB_FILE_BLOCK,
	SB_FILE_TOTAL,
	SB_FILE_MODE,
	SB_FILE_IO_MODE,
	SB_FILE_BACKLOG,
	SB_FILE_FLAGS,
	SB_FILE_FSYNC_FREQ,
	SB_FILE_FSYNC_ALL,
	SB_FILE_FSYNC_END,
	SB_FILE_FSYNC_MODE,
	SB_FILE_MERGED,
	SB_FILE_RW_RATIO,
	SB_NOPTS
};

/* The command line as given: what cmd_opts_parse fills. */
struct sb_args {
	const char *raw[SB_NOPTS];   /* each option's value; NULL: not given; sb_bare: --name alone */
	const char *test, *command;  /* the words, as sysbench takes them (--test= sets test) */
	const char *extra;	     /* a third word, which sysbench refuses */
	bool test_opt;		     /* --test= was given (deprecated) */
	char invalid[256];	     /* the first option sysbench calls invalid, "" when none */
	const char *output, *format; /* dbio's own: --output FILE, --format text|json */
	bool dbio_lines;	     /* dbio's own: --dbio-lines */
};

/* The value of an option given alone (--validate): a bool's "on". */
extern const char sb_bare[];

extern const struct cmd_opts cmd_sysbench_opts;

/* The values sysbench makes of the command line. */
struct sb_opts {
	const char *command;
	int verbosity;
	uint64_t threads, events, time_s, rate, report_interval, percentile, rand_seed;
	bool histogram, validate, debug;
	uint64_t file_num, block, total, backlog, fsync_freq;
	bool fsync_all, fsync_end;
	const char *test_mode, *io_mode, *fsync_mode;
	bool osync, odsync, direct;
	double rw_ratio;
	const char *output, *format;
	bool dbio_lines;
	/* derived */
	uint64_t file_size;	    /* total / file_num, as sysbench: the size each file must have */
	uint64_t file_bytes;	    /* what prepare writes of each: file_size in whole blocks */
	const struct sb_mode *mode; /* NULL: none given (prepare, cleanup) */
	uint64_t requests;	    /* --events: the reads and writes among the first events */
};

/* A --file-test-mode and its rw. */
struct sb_mode {
	const char *name, *rw, *doing; /* doing: sysbench's "Doing <doing> test" */
	bool writes;
};

extern const struct sb_mode sb_modes[]; /* ends with a NULL name */

/* sysbench's log line at level (0 FATAL, 1 ALERT, 2 WARNING, 3 NOTICE,
 * 5 DEBUG) on standard output, when o's --verbosity shows it. */
void sb_log(const struct sb_opts *o, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The values of a, checked as sysbench checks them, with its banner and
 * messages, into o: 0, or the exit status after the message (1 for what
 * sysbench refuses, 2 for what dbio refuses, -1 after help or
 * --version). */
int sysbench_resolve(struct sb_args *a, struct sb_opts *o);

/* sysbench's `fileio help`: its options with their defaults. */
void sysbench_fileio_help(void);

/* dbio's checks of what sysbench takes but dbio runs otherwise or not:
 * 2 after the message, else 0. */
int sysbench_check_dbio(struct sb_opts *o);

/* The job file of a run (one job, on names, test_file.N of the current
 * directory), allocated; NULL when out of memory. */
char *sysbench_job(const struct sb_opts *o, char *const *names);

/* The job of prepare --validate: the n names written whole in blocks,
 * each with dbio's verify header (sysbench's checksum and offset);
 * allocated, NULL when out of memory. */
char *sysbench_validate_job(const struct sb_opts *o, char *const *names, size_t n);

/* sysbench's size: 16384 as "16Ki", 8388608 as "8Mi" (its %.5g). */
char *sb_size(char *buf, size_t len, double value);

/* sysbench's "Extra file open flags:" line. */
void sysbench_print_flags(const struct sb_opts *o);

/* sysbench's account of the run before it starts. */
void sysbench_print_mode(const struct sb_opts *o);

/* sysbench's report of a run from its result (dbio's lines after it with
 * --dbio-lines). */
void sysbench_print_run(const struct sb_opts *o, const json_t *result);

#endif
