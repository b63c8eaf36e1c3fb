/*
 * The plan: from job files and --key=value options to validated jobs. It is
 * the one place that knows every option table of the build — the job's own
 * (job/option.h) and each engine's and workload's (their .options) — so it
 * makes jobs with all of them (plan_job_init), parses job files into
 * jobsets (plan_jobfile_parse), and validates a job (plan_validate): it
 * resolves the job's workload and engine, refuses keys that belong to
 * another workload or engine, and runs the checks of the job, its
 * workload and its engine. Nothing here writes anywhere.
 */
#ifndef DBIO_PLAN_PLAN_H
#define DBIO_PLAN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "job/job.h"
#include "job/option.h"
#include "util/err.h"

/* One table of keys and whom they belong to. */
struct plan_table {
	enum option_scope scope;
	const char
		*owner; /* the workload's or engine's name, a part's value; NULL for the job's own tables */
	const struct option_table *table;
	/* OPTION_SCOPE_PART: the workload ("kv") and its key that chooses
	 * the part ("kv_engine"); NULL otherwise */
	const char *part_of, *part_key;
};

/* The i-th table of the build: the keys of every job, the file keys, then
 * each workload's and each engine's own keys, in registry order, then each
 * part's of each workload (workload_ops.part_at). false past the last. */
bool plan_table_at(size_t i, struct plan_table *t);

/* A job named name with every table of the build and every key at its
 * default. 0 or -ENOMEM; job_release frees it either way. */
int plan_job_init(struct job *job, const char *name);

/* The def named name in any table of the build (the first), or NULL; the
 * same name in two tables has the same type (plan_check). */
const struct option_def *plan_find(const char *name);

/* The longest name a key may have, and whether key has the shape of one:
 * 1 to PLAN_KEY_MAX letters, digits, '_' and '-', the first a letter or
 * '_'. Only a key-shaped key is quoted in a message: other text (a line
 * of a file that is no job file) is described by PLAN_NOT_A_KEY. */
#define PLAN_KEY_MAX 64
#define PLAN_NOT_A_KEY                                                                                       \
	"not a key: expected '[section]', 'key=value' or a bare key of letters, digits, '_' and '-' (the text is not shown: it may be from a file that is no job file)"
bool plan_key_shaped(const char *key);

/* job_set, but a key of a part this build left out is refused with the
 * package that brings it back, and a key of fio's that dbio does not
 * honour with fio_keys' reason ("<where>: key 'rate': fio key dbio does
 * not honour yet: caps the job's bandwidth"), instead of as unknown. */
int plan_set(struct job *job, const char *key, const char *value, const struct job_origin *origin,
	     struct dbio_err *err);

/* fio's metadata engines (filecreate, filestat, filedelete, dircreate,
 * dirstat, dirdelete): a job with one of them as ioengine becomes a meta
 * job of one measured phase over nrfiles files or directories per thread
 * (workload=meta, meta_files, meta_phases, meta_kind, as if given where
 * ioengine was); its file keys are spent. 0 (also for any other job), or
 * DBIO_EINPUT for such an engine on a workload other than fileio. */
int plan_fio_meta(struct job *job, struct dbio_err *err);

/* The i-th of those engines, with its meta_phases and meta_kind; false past
 * the last. */
bool plan_fio_meta_at(size_t i, const char **engine, const char **phase, const char **kind);

/* Refuse job's ioengine, which is not one of engines ("psync, sync, ..."):
 * with fio_keys' reason when it is fio's ("'rdma' is fio's RDMA network
 * engine; dbio's engines are ..."), else as job_fail_choice. */
int plan_engine_refusal(const struct job *job, const char *engines, struct dbio_err *err);

/* The closest key of the build to an unknown name, or NULL. */
const char *plan_suggest(const char *name);

/* "workload=kv", "workload=kv and import", "ioengine=io_uring", "the file
 * workloads (fileio, oltp)": whom the key named name belongs to, into buf;
 * "" for a key of every job. */
const char *plan_owners(const char *name, char *buf, size_t len);

/*
 * Resolve and check job before anything is written: the workload (and, for
 * a workload that lays out files, the I/O engine) must be in the build, and
 * every key given for this job alone must be the job's, its workload's or
 * its engine's; then the job's own checks, its workload's validate and its
 * engine's check, which may complete derived values (filesize from size
 * ...). Marks the tables that apply (job_keys.applies) and sets job->wl,
 * eng, wl_conf and eng_conf. 0 or DBIO_EINPUT with a message naming where
 * the offending key was given.
 */
int plan_validate(struct job *job, struct dbio_err *err);

/* After every job of set is validated: a key given for several jobs at
 * once ([global], or the command line over job files) must apply to at
 * least one of them. 0 or DBIO_EINPUT naming the key, where it was given
 * and whom it belongs to. */
int plan_check_shared(const struct jobset *set, struct dbio_err *err);

/*
 * Split set into the groups that run together, as fio does: a job starts a
 * new group when it says stonewall (the first job of every job file after
 * the first has it implied by plan_jobfile_parse) or when its wait_for
 * names the only job of the group running when it comes; wait_for naming a
 * job of an earlier group changes nothing. Sets starts_group and groupid
 * (stonewall and new_group count up). Refused, DBIO_EINPUT: wait_for
 * naming no job before this one, or a job that runs beside others (dbio
 * starts jobs only at a group's start), and two jobs of one name in one
 * group (their files would be one).
 */
int plan_groups(struct jobset *set, struct dbio_err *err);

/* Jobs of later groups that name the files of an earlier job (fio's
 * filename= after a stonewall) work on the files it wrote: set
 * files_for_later and files_from_earlier (plan/carry.c; plan_groups calls
 * it). 0, or DBIO_EINPUT for such a maker with repeat > 1. */
int plan_carry_files(struct jobset *set, struct dbio_err *err);

/* What fio's thread keys need of the whole jobset (plan_groups calls it):
 * each job's thread_base, the number of its first thread counting every
 * thread of the jobs before it (fio's thread_number - 1, by which
 * cpus_allowed_policy=split hands out CPUs), and exitall_any, whether any
 * job says exitall (in fio a switch of the whole run). */
void plan_threads(struct jobset *set);

/* Check the tables of the build: names unique within a table, a name in
 * two tables of one type, every default parses. 0 or -EINVAL with the
 * offending key in err; for the unit tests. */
int plan_check(struct dbio_err *err);

/*
 * fio's substitutions in a job file's value, into out[len]: ${NAME}
 * becomes the environment's NAME (an unset one is refused, where fio would
 * make it empty); $ncpus, $pagesize and $mb_memory the machine's
 * (configured CPUs, page size in bytes, RAM in MiB); a value with one of
 * those words and + - * / % in it is computed as fio computes it with bc,
 * and so is a value starting with a parenthesised expression, its unit
 * kept: "(4*1024)k" is "4096k". 0, or DBIO_EINPUT naming where and key.
 */
int plan_expand(const char *key, const char *value, const struct job_origin *origin, char *out, size_t len,
		struct dbio_err *err);

/* Parse an INI job file into set, as fio reads one: [global] sections
 * apply to the jobs after them; ';' or '#' begins a comment anywhere on a
 * line; "include FILE" reads FILE's keys into the section (FILE relative
 * to the working directory, else to the job file's); values expanded by
 * plan_expand; the first job of a file after the first has stonewall set.
 * 0 or DBIO_EINPUT with "<file>:<line>: ..." in err; every key the build
 * does not know is listed, one line each, not only the first. */
int plan_jobfile_parse(struct jobset *set, const char *path, struct dbio_err *err);

/* The same from a string; name stands for the file name in messages. */
int plan_jobfile_parse_string(struct jobset *set, const char *text, const char *name, struct dbio_err *err);

/* The resolved plan of set as text, for ranks of an MPI job to compare
 * (plan/describe.c): one line per fact, "<subject>\t<value>\n" (the value
 * with backslash, tab and newline escaped): the number of jobs, each job's
 * name and group, and the value of every key that applies to it, but
 * those a rank may set for itself (plan_key_per_rank) and a randseed drawn
 * from the clock (randrepeat=0). */
void plan_describe(FILE *out, const struct jobset *set);

/* Whether a rank of an MPI job may give key name a value of its own: it
 * paces the same work (rate*, thinktime*) or places it on the host's CPUs
 * and memory (cpus_allowed, cpumask, numa_*). */
bool plan_key_per_rank(const char *name);

#endif
