/*
 * dbio help: usage, the version and engines, and the job-key reference
 * generated from the option table (text, Markdown for docs/options.md, or
 * roff for the man page), so the three can never disagree.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "engine/engine.h"
#include "job/option.h"
#include "stats/hist.h"
#include "util/built.h"
#include "workload/workload.h"

#ifndef DBIO_VERSION
#define DBIO_VERSION "0.0.0"
#endif

void cmd_print_usage(void)
{
	printf("usage: dbio <command> [arguments]\n\n"
	       "dbio measures what a kernel, filesystem, block size, I/O scheduler or set of\n"
	       "disks does to database I/O.\n\n"
	       "commands:\n");
	for (unsigned i = 0; i < cmd_count; i++)
		printf("  %-10s %s\n", cmd_registry[i]->name, cmd_registry[i]->summary);
	printf("\n"
	       "  dbio run                      the default suite (about a minute) in ./dbio-scratch\n"
	       "  dbio run JOBFILE...           the jobs of fio-style job files\n"
	       "  dbio run --KEY=VALUE...       one job from the command line\n"
	       "  dbio help options             every job key, its default and accepted values\n"
	       "  dbio --version                version, and the engines and workloads of this build\n\n"
	       "See dbio(1) and docs/ for the result format and examples.\n");
}

void cmd_print_version(void)
{
	char list[512];

	printf("dbio %s\n", DBIO_VERSION);
	printf("engines:\n");
	for (size_t i = 0; i < engine_count; i++)
		printf("  %-8s %s\n", engine_registry[i]->name, engine_registry[i]->summary);
	workload_list(list, sizeof(list));
	printf("workloads: %s\n", list);
	if (built_missing_list(list, sizeof(list)))
		printf("left out of this build (install the package and build again): %s\n", list);
	else
		printf("left out of this build: nothing\n");
	printf("clock: CLOCK_MONOTONIC, %.1f ns per read (timed over 1,000,000 reads now)\n",
	       engine_clock_cost_ns(1000000));
	printf("latency histogram: log-linear, %u sub-buckets per power of two, percentiles within 1/%u "
	       "(%.2f %%), %zu KiB per histogram\n",
	       HIST_SUB_COUNT, 2 * HIST_SUB_COUNT, 100.0 / (2 * HIST_SUB_COUNT), sizeof(struct hist) / 1024);
}

static void print_default(const struct option_def *def, char *buf, size_t len)
{
	struct job job;

	job_defaults(&job, "job");
	option_format(&job, def, buf, len);
	if (def->type == OPT_TIME && strcmp(buf, "0"))
		snprintf(buf, len, "%s", def->def);
}

static void options_text(void)
{
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *def = &option_table[i];
		char dflt[256], acc[512];

		print_default(def, dflt, sizeof(dflt));
		option_accepted(def, acc, sizeof(acc));
		printf("%s=%s%s\n    %s\n    accepts %s\n", def->name, dflt[0] ? dflt : "(empty)",
		       def->dbio_own ? "   [dbio's own key]" : "", def->help, acc);
		if (def->type == OPT_ENUM)
			for (const struct opt_enum *e = def->values; e->name; e++)
				if (e->help)
					printf("      %-10s %s\n", e->name, e->help);
		putchar('\n');
	}
}

static void options_markdown(void)
{
	printf("# Job keys\n\n"
	       "Generated from dbio's option table by `dbio help options --markdown`; do not edit.\n"
	       "Every key works in a job file (`key=value`, a bare `key` for 1 on booleans) and on\n"
	       "the command line (`--key=value`). Keys marked *dbio* are dbio's own; the others\n"
	       "have fio's name and meaning. In result files, sizes are in bytes and durations in\n"
	       "nanoseconds.\n\n");
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *def = &option_table[i];
		char dflt[256], acc[512];

		print_default(def, dflt, sizeof(dflt));
		option_accepted(def, acc, sizeof(acc));
		printf("## `%s`%s\n\n%s\n\n- default: `%s`\n- accepts: %s\n", def->name,
		       def->dbio_own ? " (dbio)" : "", def->help, dflt[0] ? dflt : "(empty)", acc);
		if (def->type == OPT_ENUM)
			for (const struct opt_enum *e = def->values; e->name; e++)
				if (e->help)
					printf("  - `%s`: %s\n", e->name, e->help);
		putchar('\n');
	}
}

static void roff_escaped(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

static void options_man(void)
{
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *def = &option_table[i];
		char dflt[256], acc[512];

		print_default(def, dflt, sizeof(dflt));
		option_accepted(def, acc, sizeof(acc));
		printf(".TP\n.B %s\n", def->name);
		roff_escaped(def->help);
		printf("\nDefault: ");
		roff_escaped(dflt[0] ? dflt : "(empty)");
		printf(". Accepts ");
		roff_escaped(acc);
		printf(".%s\n", def->dbio_own ? " (dbio's own key.)" : "");
	}
}

static int help_main(int argc, char **argv)
{
	if (argc < 2) {
		cmd_print_usage();
		return 0;
	}
	if (!strcmp(argv[1], "options")) {
		const char *fmt = argc > 2 ? argv[2] : "--text";

		if (!strcmp(fmt, "--text"))
			options_text();
		else if (!strcmp(fmt, "--markdown"))
			options_markdown();
		else if (!strcmp(fmt, "--man"))
			options_man();
		else {
			cmd_error("help options: '%s': unknown format: expected --text, --markdown or --man",
				  fmt);
			return 2;
		}
		return 0;
	}
	const struct cmd *cmd = cmd_find(argv[1]);

	if (!strcmp(argv[1], "help")) {
		cmd_print_usage();
		return 0;
	}
	if (!cmd) {
		cmd_error("help: '%s': unknown topic: expected a command name or 'options'", argv[1]);
		return 2;
	}
	char *sub[] = { argv[1], "--help", NULL };

	return cmd->main(2, sub);
}

const struct cmd cmd_help = {
	.name = "help",
	.summary = "usage of dbio or of a command; `dbio help options` lists the job keys",
	.main = help_main,
};
