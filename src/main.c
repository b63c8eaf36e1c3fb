/* dbio: a storage benchmark for database workloads. Dispatch only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "mpi/mpi.h"
#include "util/fault.h"

/* DBIO_FAULT, the test hook of util/fault.h: installed before any command
 * runs, and said on stderr so that nobody takes its figures for the
 * device's. 0, or 2 for a malformed value. */
static int install_faults(void)
{
	const char *spec = getenv(FAULT_ENV);
	struct dbio_err err = { 0 };

	if (!spec || !*spec)
		return 0;
	if (fault_install(spec, &err)) {
		cmd_error("%s", err.msg);
		return dbio_exit_status(err.code);
	}
	fprintf(stderr, "dbio: warning: %s=%s: injecting faults (a test hook)\n", FAULT_ENV, spec);
	return 0;
}

int main(int argc, char **argv)
{
	const struct cmd *cmd;
	int rc;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cmd_print_usage();
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		cmd_print_version();
		return 0;
	}
	if ((rc = install_faults()))
		return rc;
	cmd = cmd_find(argv[1]);
	if (!cmd) {
		const char *guess = cmd_closest(argv[1]);

		if (guess)
			cmd_error("'%s': unknown command (did you mean '%s'?)", argv[1], guess);
		else
			cmd_error("'%s': unknown command (`dbio --help` lists the commands)", argv[1]);
		return 2;
	}
	/* Under mpirun only run and sweep know to share the work between
	 * ranks: another command would run once per rank in the same place. */
	if (strcmp(cmd->name, "run") && strcmp(cmd->name, "sweep") && mpi_launched()) {
		cmd_error(
			"%s: started by an MPI launcher: only `dbio run` and `dbio sweep` run as MPI ranks (docs/mpi.md)",
			cmd->name);
		return 2;
	}
	return cmd->main(argc - 1, argv + 1);
}
