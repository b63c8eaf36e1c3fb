/*
 * libFuzzer target: a result file through `dbio sweep --resume`'s argv
 * handling (cmd/resume.c). The input is a result file's text; its first
 * byte also picks one of a few real command lines to resume it with. The
 * file is loaded and checked as a resume does (result_check,
 * jobrun_resume_check), its argv parsed as a sweep's command line, and
 * jobrun_resume_take decides what the resume takes from it. Whatever the
 * file holds, what may name a path must come from the real command line
 * (abort otherwise): the job files, every key of free text and its
 * --vary, --force, --series-csv, and --output, which is the file itself;
 * the jobs built from what was taken have the command line's directory.
 * Nothing runs and nothing is written.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_int.h"
#include "job/option.h"
#include "plan/plan.h"
#include "result/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_FILE "fuzz.json"

static void usage(void)
{
}

/* The real command lines a resume may be given, after --resume FILE. */
static char *const lines[][4] = {
	{ NULL },
	{ "--directory=/tmp", NULL },
	{ "--directory=/tmp", "--series-csv=/tmp/fuzz-series.csv", NULL },
	{ "--directory=/tmp", "--force", "--format=json", NULL },
};

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Whether "--key[=value]" names a key whose value is free text, or none
 * this build knows: what jobrun_resume_take must take from now only. */
static bool text_arg(const char *arg)
{
	char name[128];
	const struct option_def *def;

	if (!strncmp(arg, "--", 2))
		arg += 2;
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="), arg);
	def = plan_find(name);
	return !def || def->type == OPT_STR;
}

static bool now_has_key(const struct run_args *now, const char *key)
{
	for (size_t i = 0; i < now->nkeys; i++)
		if (!strcmp(now->keys[i], key))
			return true;
	return false;
}

/* What a successful take must hold, whatever the file said. */
static void check_taken(const struct run_args *rec, const struct run_args *now)
{
	if (!same(rec->output, FUZZ_FILE) || !same(rec->series_csv, now->series_csv) ||
	    rec->opts.force != now->opts.force || rec->nfiles != now->nfiles)
		abort();
	for (size_t i = 0; i < rec->nfiles; i++)
		if (strcmp(rec->files[i], now->files[i]))
			abort();
	for (size_t i = 0; i < rec->nkeys; i++)
		if (text_arg(rec->keys[i]) && !now_has_key(now, rec->keys[i]))
			abort();
	for (size_t i = 0; i < rec->nvary; i++)
		if (text_arg(rec->vary[i]))
			abort(); /* no line above varies a text key */
}

/* The jobs built from what was taken work in now's directory only. */
static void check_jobs(const struct run_args *rec, const struct run_args *now)
{
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	bool suite = false;

	if (!jobrun_build(rec, NULL, 0, &set, &suite, &err)) {
		const char *want = now->nkeys ? "/tmp" : NULL;

		for (size_t j = 0; want && j < set.njobs; j++)
			if (strcmp(set.jobs[j].directory, want))
				abort();
	}
	jobset_release(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_args now = { 0 }, rec = { 0 };
	struct dbio_err err = { 0 };
	json_error_t jerr;
	char *nowv[8] = { "sweep", "--resume", FUZZ_FILE }, **argv = NULL, note[4400], cmd[8192];
	int nowc = 3, argc = 0;
	json_t *r;

	if (size < 1)
		return 0;
	for (size_t i = 0; lines[data[0] % 4][i]; i++)
		nowv[nowc++] = lines[data[0] % 4][i];
	r = json_loadb((const char *)data + 1, size - 1, JSON_REJECT_DUPLICATES, &jerr);
	if (!r)
		return 0;
	if (result_check(r, FUZZ_FILE, &err) || jobrun_resume_check(r, FUZZ_FILE, &argc, &argv, &err))
		goto out;
	if (jobrun_parse_args(nowc, nowv, true, usage, &now) ||
	    jobrun_parse_args(argc, argv, true, usage, &rec))
		goto out;
	if (!jobrun_resume_take(FUZZ_FILE, &rec, &now, note, sizeof(note), &err)) {
		check_taken(&rec, &now);
		jobrun_resume_command(&rec, FUZZ_FILE, cmd, sizeof(cmd));
		check_jobs(&rec, &now);
	}
out:
	jobrun_args_release(&rec);
	jobrun_args_release(&now);
	free(argv);
	json_decref(r);
	return 0;
}
