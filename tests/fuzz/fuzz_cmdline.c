/*
 * libFuzzer target: the command line of `dbio run` and `dbio sweep`. The
 * input is split at newlines into arguments (the first byte chooses run or
 * sweep); they are parsed and the jobset built and validated as `dbio run`
 * does before it runs anything. Nothing runs and nothing is written.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_int.h"
#include "plan/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void usage(void)
{
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *argv[65];
	int argc = 1;
	struct run_args a = { 0 };
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	bool suite = false, sweep;

	if (size < 1)
		return 0;
	sweep = data[0] & 1;
	if (!(text = malloc(size)))
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	argv[0] = sweep ? "sweep" : "run";
	for (char *p = text, *nl; argc < 64; p = nl + 1) {
		argv[argc++] = p;
		if (!(nl = strchr(p, '\n')))
			break;
		*nl = '\0';
	}
	argv[argc] = NULL;
	/* a job file named on the line is read, never written */
	if (jobrun_parse_args(argc, argv, sweep, usage, &a) == 0)
		jobrun_build(&a, NULL, 0, &set, &suite, &err);
	jobset_release(&set);
	jobrun_args_release(&a);
	free(text);
	return 0;
}
