/*
 * Private to cmd/: what `dbio run` and `dbio sweep` share — their command
 * line, building a jobset from job files and --key=value options, running
 * a jobset's groups with their repeats into a result, and writing the
 * outputs.
 */
#ifndef DBIO_CMD_CMD_INT_H
#define DBIO_CMD_CMD_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "cmd/opts.h"
#include "job/job.h"
#include "run/run.h"
#include "util/err.h"

/* What goes to standard output. jobrun prints the JSON and CSV; the others
 * through the show callback of jobrun_execute (run: text, fio's JSON). */
enum out_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_CSV, FORMAT_FIO_JSON, FORMAT_FIO_JSON_PLUS };

/* The columns of `dbio run --format=csv` (a row per job and op type). */
#define JOBRUN_CSV_METRICS "iops,bw,lat_mean,p50,p95,p99,p99_9,max,cpu,elapsed,user,sys"

struct run_args {
	const char **files;
	size_t nfiles;
	char **keys; /* "--key[=value]" job keys, in order: beside job files, defaults the files' keys
			override, as fio's */
	size_t nkeys;
	char **sets; /* --set "key=value": over the job files' keys */
	size_t nsets;
	char **dashed; /* fio's single-dash options made "--name=x" (owned) */
	size_t ndashed;
	char **vary; /* sweep: "key=list" */
	size_t nvary;
	const char *output;
	const char *series_csv;
	const char *resume;
	const char *metrics;
	const char *ops;	  /* sweep --op: the op types the table shows; NULL: all */
	const char *builtin;	  /* jobs of a command (sync): job-file text used instead of files */
	const char *builtin_name; /* its name in messages */
	int progress;		  /* -1: when stderr is a terminal */
	enum out_format format;
	bool format_set;	  /* --format was given */
	bool wide;		  /* --wide: the closing table in one piece, however wide */
	bool quiet;		  /* no progress lines on stderr (sysbench's output is sysbench's) */
	const char *sections[64]; /* fio's --section NAME, each (argv's) */
	size_t nsections;
	bool parse_only;     /* fio's --parse-only: the jobs built and checked, none run */
	bool readonly;	     /* fio's --readonly: a job that would write is refused */
	bool warnings_fatal; /* fio's --warnings-fatal: taken, changes nothing */
	struct run_opts opts;
	const char *
		agg_bw_name; /* run --bandwidth-log[=NAME]: NAME ("agg"); opts.agg_bw then points at agg_bw */
	struct run_agg_bw agg_bw;
	struct mpi_world *mpi; /* under MPI, else NULL: cmd/run.c and cmd/sweep.c join and leave it
				* (mpi/mpi.h); the rest uses opts.coord, its coordinator */
	/* jobrun_execute: called with the finished result before it is shown
	 * or written (dbio crash puts the user's directory back in its jobs'
	 * options, not the layer's mount); NULL: none */
	void (*amend)(json_t *result, void *arg);
	void *amend_arg;
};

/* The options every command that runs jobs takes (--output, --series-csv,
 * --progress, --keep, --force, --wide, --help: rows of cmd/opts.h), those
 * only sweep takes as refused by the others (hidden), and --format
 * text|json (a command's own --format row may take more). */
extern const struct cmd_opt jobrun_rows[];
extern const struct cmd_opt jobrun_not_sweep_rows[];
extern const struct cmd_opt jobrun_format_rows[];

/* The parse callback of --format text|json|csv into a->format. */
int jobrun_parse_format(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args);

/* Parse argv[1..argc) of a command that runs jobs by spec's rows (of
 * jobrun_rows and its own): an argument that is not an option is a job
 * file, an option no row names a job key ("--bs=4k", "--bs 4k", a bare
 * "--direct"). Returns 0, -1 after printing the usage for --help, or an
 * exit status (2) after printing the error. */
int jobrun_parse(const struct cmd_opts *spec, int argc, char **argv, struct run_args *a);

/* jobrun_parse with the rows of a command whose usage is its own
 * (--help calls usage): jobrun_format_rows, jobrun_rows and the refused
 * sweep options. sweep is false: sweep parses by its own rows
 * (jobrun_parse); the flag stays until bonnie's and sysbench's calls,
 * which another change edits, drop it. */
int jobrun_parse_args(int argc, char **argv, bool sweep, void (*usage)(void), struct run_args *a);

void jobrun_args_release(struct run_args *a);

/* The jobset of the job files, the default suite or the command-line job,
 * with the --key=value options applied to every job, then extra[] (key=value
 * strings, for a sweep point), and every job validated. *suite tells
 * whether the default suite was chosen. */
int jobrun_build(const struct run_args *a, char *const *extra, size_t nextra, struct jobset *set, bool *suite,
		 struct dbio_err *err);

/* Under MPI (a->mpi), after a jobset is built with status rc: the ranks
 * agree that every one built it, each gets its directories (rank<r>),
 * only rank 0 keeps --output and --series-csv, and the runner agrees at
 * every phase. Returns the agreed status (the first failing rank's error
 * in err); after a failure the caller removes the ranks' directories
 * (run_coord_dirs_remove, on every rank). */
int jobrun_mpi_prepare(struct run_args *a, struct jobset *set, int rc, struct dbio_err *err);

/* Under MPI, after the runs: the ranks' directories removed, every rank's
 * result merged into *result at rank 0. true when this rank is done: not
 * rank 0 (its figures are in rank 0's), or the merge failed (printed, the
 * status in *rc). */
bool jobrun_mpi_gather(const struct run_args *a, json_t **result, int *rc, struct dbio_err *err);

/* Check output paths can be written and the targets are safe; writes nothing. */
int jobrun_check(const struct run_args *a, const struct jobset *set, struct dbio_err *err);

/* Run every group of set with its repeats, appending jobs[base + j] to
 * result and summarising each. Returns 0 or the first error. */
int jobrun_jobs(const struct jobset *set, const struct run_args *a, json_t *result, size_t base,
		struct dbio_err *err);

/* Write --output and --series-csv; the first failure is recorded in err
 * and printed. Returns 0 or that failure. */
int jobrun_write_outputs(const struct run_args *a, const json_t *result, bool partial);

/* Check set's targets, run it into a new result recording argv (argv[0]
 * "dbio"), print it as JSON or through show, write --output and
 * --series-csv, and return the exit status. Used by run and sync. */
int jobrun_execute(const struct run_args *a, const struct jobset *set, int argc, char **argv,
		   void (*show)(const json_t *result, const struct jobset *set, const struct run_args *a));

/* sweep --resume (cmd/resume.c). A result file is input: nothing in it
 * may make dbio read or write a path the real command line did not name.
 *
 * jobrun_resume_load: the result file at path, loaded whole (result_load_whole)
 * and fit to resume (jobrun_resume_check); *result is the caller's.
 * jobrun_resume_check: r fit to resume (argv a `dbio sweep` command line
 * of strings, sweep's counts consistent with jobs[]); its argv from
 * "sweep" on into *argc, *argv (the array the caller's to free, the
 * strings borrowed from r). 0 or DBIO_EINPUT with "sweep: <path>: cannot
 * resume: …" in err. */
int jobrun_resume_load(const char *path, json_t **result, int *argc, char ***argv, struct dbio_err *err);
int jobrun_resume_check(const json_t *r, const char *path, int *argc, char ***argv, struct dbio_err *err);

/* rec, parsed from the file's argv, checked against now, this command
 * line: what may name a path (job files, keys of free text and their
 * --vary, --force) must be the same in both, in the same order; now may
 * hold nothing else but --series-csv (and --format, --progress). rec's
 * --series-csv becomes now's (a note in note[0..notelen) when the file
 * had one and now has none), its --output path. 0 or DBIO_EINPUT with
 * the message, naming path, the argument and why, in err. */
int jobrun_resume_take(const char *path, struct run_args *rec, const struct run_args *now, char *note,
		       size_t notelen, struct dbio_err *err);

/* The command that resumes the sweep of a into path: "dbio sweep --resume
 * PATH" and what a resume takes only from its command line; into buf. */
const char *jobrun_resume_command(const struct run_args *a, const char *path, char *buf, size_t len);

/* Show the runner's progress on stderr as --progress says (default: when
 * stderr is a terminal). */
void jobrun_progress(struct run_args *a);

/* The exit status after rc: 128 + signal when interrupted. */
int jobrun_status(int rc);

/* The exit status of a command whose result is complete and written: 0,
 * even when a stop signal came after it (the file says "partial": false
 * and stands; a script's `dbio run && next` goes on), saying so on stderr:
 * "dbio: interrupted by SIGINT after the result was complete: it stands". */
int jobrun_complete_status(void);

#endif
