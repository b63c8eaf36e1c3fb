/*
 * A subcommand's command line as one table: each option a row (name,
 * target, help), read by one parser (cmd_opts_parse, opts.c), from which
 * `dbio help COMMAND` and the man page's list of the command's options
 * are generated (cmd_opts_usage, cmd_opts_man, opts_doc.c) — so the
 * three cannot disagree. A command's table lives in its own file.
 */
#ifndef DBIO_CMD_OPTS_H
#define DBIO_CMD_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cmd_opts;

enum cmd_opt_kind {
	CMD_OPT_VALUE, /* --name VALUE or --name=VALUE */
	CMD_OPT_FLAG,  /* --name alone: sets a bool */
	CMD_OPT_EQ,    /* --name=VALUE only (--progress=line) */
	CMD_OPT_OPTEQ, /* --name or --name=VALUE (sysbench's forms): parse gets NULL for --name */
	CMD_OPT_HELP,  /* --help: prints the usage; the parse ends */
	/* A letter of a getopt-style table (cmd_opts.short_opts) whose value
	 * is optional and only attached (getopt's "f::": -f, -f20); the parse
	 * is given NULL when there is none. */
	CMD_OPT_ATTACHED,
};

/* Row flags. */
#define CMD_OPT_NONEMPTY 1u /* an empty value is "needs a value" */
#define CMD_OPT_HIDDEN	 2u /* parsed, left out of the usage and the man page */
#define CMD_OPT_REQUIRED 4u /* shown without [ ] in the usage line */
#define CMD_OPT_REPEAT	 8u /* given more than once ("..." in the usage line); parse collects */

struct cmd_opt {
	const char *name;  /* "--out" */
	const char *alias; /* another spelling ("-h"), or NULL */
	enum cmd_opt_kind kind;
	const char *value; /* the value's name in the usage ("DIR", "svg|png"); NULL for a flag */
	size_t offset;	   /* of the target in the command's args: const char * (value), bool (flag) */
	/* Set the target from value instead of storing it: 0, or 2 after
	 * printing why the value is refused (the exit status). */
	int (*parse)(const struct cmd_opts *spec, const struct cmd_opt *o, const char *value, void *args);
	const char *help; /* what it does, one paragraph, wrapped when printed */
	/* Text generated after help (the metric names of --metric), or NULL. */
	void (*help_more)(char *buf, size_t len);
	unsigned flags;
};

struct cmd_opts {
	const char *name;     /* the command: "plot" */
	const char *subject;  /* the subject of its messages: "plot", "command line" */
	const char *operands; /* after the name in the usage line: "RESULT.json [MORE.json...]" */
	/* What the operands are, first in the list of an unknown option's
	 * message ("directories"); NULL: not named there. */
	const char *operand_noun;
	const char *synopsis; /* further usage lines (each a whole line, "\n"-ended), or NULL */
	const char *about;    /* the paragraphs between the usage and the options */
	const char *tail;     /* after the options: exit statuses, notes */
	/* The rows, NULL-terminated list of tables (a table ends at a row
	 * without a name): the command's own and those it shares (jobrun's). */
	const struct cmd_opt *const *tables;
	/* An argument that is not an option (or any after "--"): 0, or 2
	 * after printing why it is refused. NULL: refused as unexpected. */
	int (*operand)(const struct cmd_opts *spec, void *args, char *arg);
	/* An option no row names, at argv[*i] (it may take argv[*i + 1]):
	 * 0, 1 or 2. NULL: refused as unknown, with the closest name. */
	int (*unknown)(const struct cmd_opts *spec, void *args, int argc, char **argv, int *i);
	/* Printed for --help instead of the usage made from the rows, for a
	 * command that reads another program's command line (bonnie,
	 * sysbench) and passes its own options on; NULL for the others. */
	void (*print_usage)(void);
	/* getopt-style letters, as the programs bonnie mirrors read them: a
	 * row named "-d" takes its value attached or as the next argument
	 * (-d/tmp, -d /tmp), flags combine (-qb, -qd /tmp), an unknown letter
	 * is refused naming it; "--name" rows are read as in other tables. */
	bool short_opts;
};

/* The --help row (a table of its own, last in a command's list): alone,
 * and with -h too. */
extern const struct cmd_opt cmd_opts_help[];
extern const struct cmd_opt cmd_opts_help_h[];

/* Parse argv[1..argc) by spec into args. "--" ends the options: every
 * argument after it is an operand. Returns 0, -1 after printing the usage
 * for --help, or the exit status (2, 1 out of memory) after printing the
 * error: "<subject>: --out: needs a value", "<subject>: '--colour':
 * unknown option (did you mean '--color'?): expected --out, ... or
 * --help". */
int cmd_opts_parse(const struct cmd_opts *spec, int argc, char **argv, void *args);

/* The row of spec called name (or by its alias), or NULL. */
const struct cmd_opt *cmd_opts_find(const struct cmd_opts *spec, const char *name, size_t len);

/* `dbio COMMAND --help`: the usage line made from the rows, the further
 * usage lines, about, one entry per row (help wrapped before column 80),
 * the tail. */
void cmd_opts_usage(FILE *fp, const struct cmd_opts *spec);

/* The man page's list of the command's options (roff: .TP per row), for
 * `dbio help COMMAND --man` and make docs. */
void cmd_opts_man(FILE *fp, const struct cmd_opts *spec);

/* s as roff text: backslashes and dashes escaped, a leading dot or quote
 * kept from being a request. */
void cmd_opts_roff(FILE *fp, const char *s);

/* Write text to fp word by word, lines broken before column 80; col is
 * where the cursor is, each further line indented by indent. "\n" in text
 * breaks the line. */
void cmd_opts_wrap(FILE *fp, const char *text, int col, int indent);

/* The metric names for a --metric row's help_more: "iops, bw, ... (of
 * each op type), elapsed, ... (of the whole run)". */
void cmd_opts_metric_names(char *buf, size_t len);

/* The same for a --metric LIST row: the names, "; default iops,bw,p99;
 * elapsed,... when every job has phases (kv, import, meta)". */
void cmd_opts_metric_lists(char *buf, size_t len);

#endif
