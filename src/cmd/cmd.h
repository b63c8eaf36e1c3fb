/*
 * Subcommands: one file each, one const struct cmd in it, one line in the
 * registry (registry.c). main() only dispatches. A command returns the
 * process exit status and is the only place (with main.c) that prints.
 */
#ifndef DBIO_CMD_CMD_H
#define DBIO_CMD_CMD_H

#include <stdbool.h>
#include <stddef.h>

struct cmd_opts;

struct cmd {
	const char *name;
	const char *summary;		    /* one line for `dbio --help` */
	int (*main)(int argc, char **argv); /* argv[0] is the command's name */
	/* Its command line (cmd/opts.h): what main parses, what `dbio help
	 * NAME` prints and the man page lists. NULL for a command that reads
	 * another program's command line by its own rules (bonnie, sysbench). */
	const struct cmd_opts *opts;
};

extern const struct cmd *const cmd_registry[];
extern const unsigned cmd_count;

/* The command named name, or NULL. */
const struct cmd *cmd_find(const char *name);

/* The name of the command closest to the unknown name ("run" for "rnu"),
 * by option_closest_offer's rule (job/option.h), or NULL. */
const char *cmd_closest(const char *name);

/* --op LIST of sweep and compare: 0 when every item of the comma-separated
 * list is an op type's name ("insert", "read"), else the 1-based position
 * of the first that is not; every op type's name into names ("read, write,
 * ..."), for the message. */
int cmd_check_ops(const char *list, char *names, size_t len);

/* The length of METRIC_PHASE_PREFIX ("phase ") when the len bytes at item
 * begin with it (--op "phase index", as the rows are labelled), else 0. */
size_t cmd_phase_prefix(const char *item, size_t len);

/* --op LIST of a command that runs jobs (sweep): as cmd_check_ops, but an
 * item may also be a phase some workload records, bare ("load") or as its
 * rows are labelled ("phase index"). 0, or the 1-based position of the
 * first item that is neither; names as cmd_check_ops'. */
int cmd_check_ops_phases(const char *list, char *names, size_t len);

/* cmd_check_ops of --op LIST of subject ("plot"), with the message
 * "<subject>: --op LIST: item N is not an op type: expected a list of ..."
 * printed; true when the list was refused (exit 2). */
bool cmd_ops_refused(const char *subject, const char *list);

/* Print "dbio: " + message to stderr as one line: control characters in
 * it (newline and tab too, and any a result file brought) are escaped
 * (util/termesc.h). */
void cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The same for what is not an error: progress notes that quote input
 * ("dbio: point 2 of 4: directory=..."). */
void cmd_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Top-level usage and version text, shared by main.c and `dbio help`. */
void cmd_print_usage(void);
void cmd_print_version(void);

#endif
