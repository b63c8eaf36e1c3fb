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
#include "cmd/opts.h"
#include "sys/sysinfo.h"

struct sysinfo_args {
	char **dirs; /* argc entries */
	int ndirs;
};

/* A directory: an operand. */
static int sysinfo_operand(const struct cmd_opts *spec, void *args, char *arg)
{
	struct sysinfo_args *a = args;

	(void)spec;
	a->dirs[a->ndirs++] = arg;
	return 0;
}

static const struct cmd_opt *const sysinfo_tables[] = { cmd_opts_help, NULL };

static const struct cmd_opts cmd_sysinfo_opts = {
	.name = "sysinfo",
	.subject = "sysinfo",
	.operands = "[DIR...]",
	.operand_noun = "directories",
	.about = "Print, as JSON, what every result records about the machine (kernel, CPU,\n"
		 "memory, swap, vm.dirty_* writeback settings, transparent huge pages) and, for\n"
		 "each DIR (default: the current directory), its filesystem, mount options,\n"
		 "block size, free space and the block devices under it with their model,\n"
		 "scheduler, queue settings and write cache.\n",
	.tables = sysinfo_tables,
	.operand = sysinfo_operand,
};

static int sysinfo_main(int argc, char **argv)
{
	struct sysinfo_args a = { 0 };
	json_t *out, *targets;
	char *text;
	int rc;

	if (!(a.dirs = calloc((size_t)argc, sizeof(*a.dirs)))) {
		cmd_error("sysinfo: out of memory");
		return 1;
	}
	if ((rc = cmd_opts_parse(&cmd_sysinfo_opts, argc, argv, &a))) {
		free(a.dirs);
		return rc < 0 ? 0 : rc;
	}
	/* sysinfo_target describes a missing directory by its nearest
	 * ancestor, which is right for the scratch directory a run will make
	 * but would answer a mistyped DIR with facts about another filesystem
	 * (often /). Asked by name, a directory must be there. */
	for (int i = 0; i < a.ndirs; i++) {
		struct stat st;

		if (stat(a.dirs[i], &st)) {
			cmd_error("sysinfo: %s: %s", a.dirs[i], strerror(errno));
			free(a.dirs);
			return 2;
		}
	}
	out = json_pack("{s:o, s:[]}", "system", sysinfo_host(NULL), "targets");
	if (!out) {
		cmd_error("sysinfo: out of memory");
		free(a.dirs);
		return 1;
	}
	targets = json_object_get(out, "targets");
	for (int i = 0; i < a.ndirs; i++)
		json_array_append_new(targets, sysinfo_target(NULL, a.dirs[i]));
	if (!a.ndirs)
		json_array_append_new(targets, sysinfo_target(NULL, "."));
	text = json_dumps(out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (text)
		puts(text);
	free(text);
	json_decref(out);
	free(a.dirs);
	return text ? 0 : 1;
}

const struct cmd cmd_sysinfo = {
	.name = "sysinfo",
	.summary = "the machine, filesystems and devices that results record, as JSON",
	.main = sysinfo_main,
	.opts = &cmd_sysinfo_opts,
};
