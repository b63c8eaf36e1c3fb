/*
 * dbio sync [DIR]: how fast can this filesystem make 8 KiB writes durable,
 * by each method a database can use — the question pg_test_fsync answers.
 * For 1, 2, 8 and 16 writes per sync: write + fdatasync, write + fsync,
 * O_DSYNC, O_SYNC and O_DIRECT + fdatasync, and for comparison write +
 * sync_file_range (writeback only, not durable), each a fileio job that
 * overwrites the same N blocks of a written file for a short time. One
 * table: a row per method, per N the groups (N writes and their sync) per
 * second and the time of one group.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "result/result.h"
#include "util/units.h"

struct method {
	const char *name;
	const char *keys; /* job keys; %u is N where a key needs it */
	bool per_write;	  /* every write is synchronous (no separate sync call) */
};

static const struct method methods[] = {
	{ "write+fdatasync", "fdatasync=%u", false },
	{ "write+fsync", "fsync=%u", false },
	{ "O_DSYNC", "sync=dsync", true },
	{ "O_SYNC", "sync=sync", true },
	{ "O_DIRECT+fdatasync", "direct=1\nfdatasync=%u", false },
	/* Not durable (no metadata, no cache flush): the cost of writeback alone. */
	{ "write+sync_file_range", "sync_file_range=wait_before,write,wait_after:%u", false },
};

static const unsigned writes_per_sync[] = { 1, 2, 8, 16 };

#define NMETHODS (sizeof(methods) / sizeof(methods[0]))
#define NCOUNTS	 (sizeof(writes_per_sync) / sizeof(writes_per_sync[0]))

static const struct cmd_opt *const sync_tables[] = { jobrun_format_rows, jobrun_rows, jobrun_not_sweep_rows,
						     cmd_opts_help, NULL };

static const struct cmd_opts cmd_sync_opts = {
	.name = "sync",
	.subject = "command line",
	.operands = "[DIR] [--runtime=2s] [--KEY=VALUE...]",
	.about = "Measures 8 KiB writes made durable by each method — write+fdatasync,\n"
		 "write+fsync, O_DSYNC, O_SYNC, O_DIRECT+fdatasync — with 1, 2, 8 and 16 writes\n"
		 "per sync, and write+sync_file_range (wait_before,write,wait_after: the data's\n"
		 "writeback alone, not durable) for comparison; each cell overwrites the same\n"
		 "blocks of a written file for --runtime (default 2 s) in DIR (default\n"
		 "./dbio-scratch). Prints one table: per method and count, groups per second and\n"
		 "microseconds per group (a group is the writes and their sync; for O_DSYNC and\n"
		 "O_SYNC every write is synchronous).\n"
		 "Other job keys (--bs=4k, --numjobs=2 …) apply to every cell.\n",
	.tables = sync_tables,
};

/* The job file of every cell, in a static buffer. */
static const char *cells_jobfile(void)
{
	static char text[8192];
	size_t used = 0;

	used += (size_t)snprintf(
		text + used, sizeof(text) - used,
		"[global]\nstonewall\nrw=write\nbs=8k\nprefill=1\ncache=keep\nruntime=2s\ntime_based\n");
	for (size_t m = 0; m < NMETHODS; m++)
		for (size_t c = 0; c < NCOUNTS; c++) {
			char keys[128];

			snprintf(keys, sizeof(keys), methods[m].keys, writes_per_sync[c]);
			used += (size_t)snprintf(text + used, sizeof(text) - used, "[%s-%u]\nsize=%uk\n%s\n",
						 methods[m].name, writes_per_sync[c], writes_per_sync[c] * 8,
						 keys);
		}
	return text;
}

static void print_table(const json_t *result, const struct jobset *set, const struct run_args *a)
{
	const char *dir = set->jobs[0].directory;
	const json_t *jobs = json_object_get(result, "jobs");
	const json_t *target = json_array_get(json_object_get(json_array_get(jobs, 0), "targets"), 0);
	char bs[32];

	units_fmt_bytes(bs, sizeof(bs),
			(uint64_t)json_integer_value(
				json_object_get(json_object_get(json_array_get(jobs, 0), "options"), "bs")));
	printf("%s writes made durable in %s (%s on %s)\n", bs, dir,
	       json_string_value(json_object_get(target, "fs_type")) ?: "?",
	       json_string_value(json_object_get(target, "source")) ?: "?");
	printf("%-22s", "method");
	for (size_t c = 0; c < NCOUNTS; c++) {
		char label[32];

		snprintf(label, sizeof(label), "%u write%s per sync", writes_per_sync[c],
			 writes_per_sync[c] > 1 ? "s" : "");
		printf("  %21s", label);
	}
	printf("\n%-22s", "");
	for (size_t c = 0; c < NCOUNTS; c++)
		printf("  %10s %10s", "groups/s", "us/group");
	putchar('\n');
	for (size_t m = 0; m < NMETHODS; m++) {
		printf("%-22s", methods[m].name);
		for (size_t c = 0; c < NCOUNTS; c++) {
			const json_t *job = json_array_get(jobs, m * NCOUNTS + c);
			const json_t *run = json_array_get(json_object_get(job, "runs"), 0);
			const json_t *w = json_object_get(json_object_get(run, "ops"), "write");
			double writes = json_number_value(json_object_get(w, "count"));
			double secs = (double)json_integer_value(json_object_get(run, "elapsed_ns")) / 1e9;

			if (!run || json_is_true(json_object_get(run, "partial")) || secs <= 0 ||
			    writes <= 0) {
				printf("  %21s", "n/a");
				continue;
			}
			double groups = writes / writes_per_sync[c] / secs;

			printf("  %10.1f %10.1f", groups, 1e6 / groups);
		}
		putchar('\n');
	}
	printf("sync_file_range writes the data back but not the file's metadata, and does not flush\n"
	       "the disk's write cache: it is not durable, and shown for the cost of writeback alone.\n");
}

static int sync_main(int argc, char **argv)
{
	struct run_args args = { 0 };
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	char *dirkey = NULL;
	bool suite;
	int rc, status;

	status = jobrun_parse(&cmd_sync_opts, argc, argv, &args);
	if (status) {
		status = status < 0 ? 0 : status;
		goto out;
	}
	if (args.nfiles > 1) {
		cmd_error("sync: one directory at most, got %zu", args.nfiles);
		status = 2;
		goto out;
	}
	if (args.nfiles) {
		/* DIR is the same as --directory=DIR, applied after the cells' keys. */
		if (asprintf(&dirkey, "--directory=%s", args.files[0]) < 0) {
			status = 1;
			goto out;
		}
		args.keys[args.nkeys++] = dirkey;
		dirkey = NULL;
		args.nfiles = 0;
	}
	jobrun_progress(&args);
	args.builtin = cells_jobfile();
	args.builtin_name = "(dbio sync)";
	rc = jobrun_build(&args, NULL, 0, &set, &suite, &err);
	if (rc) {
		cmd_error("%s", err.msg);
		status = dbio_exit_status(rc);
		goto out;
	}
	status = jobrun_execute(&args, &set, argc + 1, argv - 1, print_table);
out:
	free(dirkey);
	jobset_release(&set);
	jobrun_args_release(&args);
	return status;
}

const struct cmd cmd_sync = {
	.name = "sync",
	.summary = "8 KiB writes made durable by each sync method (what pg_test_fsync measures)",
	.main = sync_main,
	.opts = &cmd_sync_opts,
};
