/*
 * dbio sysinfo [DIR...]: the environment a result records, on its own —
 * host, kernel, CPU, memory, writeback settings, and for each directory the
 * filesystem and the block devices under it (through partitions,
 * device-mapper and loop devices).
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "result/result.h"
#include "sys/sysinfo.h"

static int sysinfo_main(int argc, char **argv)
{
	json_t *out, *targets;
	char *text;
	int ndirs = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			printf("usage: dbio sysinfo [DIR...]\n\n"
			       "Print, as JSON, what every result records about the machine (kernel, CPU,\n"
			       "memory, swap, vm.dirty_* writeback settings, transparent huge pages) and, for\n"
			       "each DIR (default: the current directory), its filesystem, mount options,\n"
			       "block size, free space and the block devices under it with their model,\n"
			       "scheduler, queue settings and write cache.\n");
			return 0;
		}
		if (!strncmp(argv[i], "--", 2)) {
			cmd_error("sysinfo: '%s': unknown option: expected directories or --help", argv[i]);
			return 2;
		}
		ndirs++;
	}
	/* sysinfo_target describes a missing directory by its nearest
	 * ancestor, which is right for the scratch directory a run will make
	 * but would answer a mistyped DIR with facts about another filesystem
	 * (often /). Asked by name, a directory must be there. */
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			cmd_error("sysinfo: %s: %s", argv[i], strerror(errno));
			return 2;
		}
	}
	out = json_pack("{s:o, s:[]}", "system", sysinfo_host(NULL), "targets");
	if (!out) {
		cmd_error("sysinfo: out of memory");
		return 1;
	}
	targets = json_object_get(out, "targets");
	for (int i = 1; i < argc; i++)
		json_array_append_new(targets, sysinfo_target(NULL, argv[i]));
	if (!ndirs)
		json_array_append_new(targets, sysinfo_target(NULL, "."));
	text = result_dumps(out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (text)
		puts(text);
	free(text);
	json_decref(out);
	return text ? 0 : 1;
}

const struct cmd cmd_sysinfo = {
	.name = "sysinfo",
	.summary = "the machine, filesystems and devices that results record, as JSON",
	.main = sysinfo_main,
};
