/*
 * A subcommand's usage (`dbio COMMAND --help`, `dbio help COMMAND`) and
 * the man page's list of its options (`dbio help COMMAND --man`, put in
 * docs/dbio.1 by make docs), both made from the rows its parser reads
 * (opts.h), so neither can lag behind what the command accepts.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/metric.h"
#include "cmd/opts.h"

/* Column of the first character the wrapper must not pass. */
#define WRAP_COLUMNS 80

static bool shown(const struct cmd_opt *o)
{
	return !(o->flags & CMD_OPT_HIDDEN);
}

void cmd_opts_wrap(FILE *fp, const char *text, int col, int indent)
{
	bool first = true;

	for (const char *p = text; *p;) {
		size_t n = strcspn(p, " \n");

		if (*p == ' ' || *p == '\n') {
			if (*p == '\n') {
				fprintf(fp, "\n%*s", indent, "");
				col = indent;
				first = true;
			}
			p++;
			continue;
		}
		if (!first && col + 1 + (int)n >= WRAP_COLUMNS) {
			fprintf(fp, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', fp);
			col++;
		}
		fwrite(p, 1, n, fp);
		col += (int)n;
		first = false;
		p += n;
	}
}

void cmd_opts_metric_names(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int per_op = 1; per_op >= 0; per_op--) {
		bool any = false;

		for (size_t i = 0; i < metric_count && used < len; i++)
			if (metric_per_op(&metric_registry[i]) == per_op) {
				used += (size_t)snprintf(buf + used, len - used, "%s%s",
							 any || !per_op ? ", " : "", metric_registry[i].name);
				any = true;
			}
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, " (%s)",
						 per_op ? "of each op type" : "of the whole run");
	}
}

void cmd_opts_metric_lists(char *buf, size_t len)
{
	char names[768], defaults[128], phased[128];

	cmd_opts_metric_names(names, sizeof(names));
	snprintf(buf, len,
		 "%s; default %s; %s when every job has phases (kv, import, meta); elapsed when every job "
		 "has number_ios and is not time_based (a fixed amount of work)",
		 names, metric_names(defaults, sizeof(defaults), ",", true),
		 metric_names_phased(phased, sizeof(phased), ","));
}

/* "--out DIR", "--progress=line|none", "--keep", "--help, -h". */
static void label(const struct cmd_opt *o, char *buf, size_t len)
{
	switch (o->kind) {
	case CMD_OPT_VALUE:
		snprintf(buf, len, "%s %s", o->name, o->value);
		break;
	case CMD_OPT_EQ:
		snprintf(buf, len, "%s=%s", o->name, o->value);
		break;
	case CMD_OPT_OPTEQ:
		/* "--threads=N", "--validate[=on|off]" */
		snprintf(buf, len, "%s%s%s", o->name, !strncmp(o->value, "[=", 2) ? "" : "=", o->value);
		break;
	case CMD_OPT_ATTACHED:
		snprintf(buf, len, "%s[%s]", o->name, o->value);
		break;
	case CMD_OPT_FLAG:
	case CMD_OPT_HELP:
		snprintf(buf, len, "%s%s%s", o->name, o->alias ? ", " : "", o->alias ? o->alias : "");
		break;
	}
}

/* The usage line: the operands, then a [--name VALUE] per row. */
static void usage_line(FILE *fp, const struct cmd_opts *spec)
{
	int indent = (int)strlen("usage: dbio ") + (int)strlen(spec->name) + 1;
	int col = indent;

	fprintf(fp, "usage: dbio %s%s%s", spec->name, *spec->operands ? " " : "", spec->operands);
	col += (int)strlen(spec->operands) - !*spec->operands;
	for (const struct cmd_opt *const *t = spec->tables; *t; t++)
		for (const struct cmd_opt *o = *t; o->name; o++) {
			bool req = o->flags & CMD_OPT_REQUIRED;
			char item[128], l[96];

			if (!shown(o) || o->kind == CMD_OPT_HELP)
				continue;
			label(o, l, sizeof(l));
			snprintf(item, sizeof(item), "%s%s%s%s", req ? "" : "[", l,
				 o->flags & CMD_OPT_REPEAT ? " ..." : "", req ? "" : "]");
			if (col + 1 + (int)strlen(item) >= WRAP_COLUMNS) {
				fprintf(fp, "\n%*s", indent, "");
				col = indent;
			} else {
				fputc(' ', fp);
				col++;
			}
			fputs(item, fp);
			col += (int)strlen(item);
		}
	fputc('\n', fp);
}

/* The column where the rows' help begins: past the longest label, at
 * most 21 (a longer label puts its help on the next line). */
static int help_column(const struct cmd_opts *spec)
{
	int w = 0;

	for (const struct cmd_opt *const *t = spec->tables; *t; t++)
		for (const struct cmd_opt *o = *t; o->name; o++) {
			char l[96];

			label(o, l, sizeof(l));
			if (shown(o) && (int)strlen(l) + 4 > w && strlen(l) + 4 <= 21)
				w = (int)strlen(l) + 4;
		}
	return w ? w : 21;
}

/* A row's whole help: help, then what help_more makes. */
static void row_help(const struct cmd_opt *o, char *buf, size_t len)
{
	char more[1024] = "";

	if (o->help_more)
		o->help_more(more, sizeof(more));
	snprintf(buf, len, "%s%s%s", o->help, more[0] ? " " : "", more);
}

void cmd_opts_usage(FILE *fp, const struct cmd_opts *spec)
{
	int w = help_column(spec);

	usage_line(fp, spec);
	if (spec->synopsis)
		fputs(spec->synopsis, fp);
	fputc('\n', fp);
	if (spec->about)
		fprintf(fp, "%s\n", spec->about);
	for (const struct cmd_opt *const *t = spec->tables; *t; t++)
		for (const struct cmd_opt *o = *t; o->name; o++) {
			char l[96], help[2048];

			if (!shown(o))
				continue;
			label(o, l, sizeof(l));
			row_help(o, help, sizeof(help));
			fprintf(fp, "  %s", l);
			if ((int)strlen(l) + 4 > w)
				fprintf(fp, "\n%*s", w, "");
			else
				fprintf(fp, "%*s", w - 2 - (int)strlen(l), "");
			cmd_opts_wrap(fp, help, w, w);
			fputc('\n', fp);
		}
	if (spec->tail)
		fprintf(fp, "\n%s", spec->tail);
}

void cmd_opts_roff(FILE *fp, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", fp);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", fp);
		else if (*s == '-')
			fputs("\\-", fp);
		else
			fputc(*s, fp);
	}
}

void cmd_opts_man(FILE *fp, const struct cmd_opts *spec)
{
	for (const struct cmd_opt *const *t = spec->tables; *t; t++)
		for (const struct cmd_opt *o = *t; o->name; o++) {
			char help[2048];

			if (!shown(o))
				continue;
			row_help(o, help, sizeof(help));
			fputs(".TP\n\\fB", fp);
			cmd_opts_roff(fp, o->name);
			if (o->alias) {
				fputs("\\fR, \\fB", fp);
				cmd_opts_roff(fp, o->alias);
			}
			if (o->value) {
				fputs(o->kind == CMD_OPT_EQ ? "\\fR=\\fI"
				      : o->kind == CMD_OPT_OPTEQ
					      ? (!strncmp(o->value, "[=", 2) ? "\\fR" : "\\fR=\\fI")
				      : o->kind == CMD_OPT_ATTACHED ? "\\fR[\\fI"
								    : "\\fR \\fI",
				      fp);
				cmd_opts_roff(fp, o->value);
				if (o->kind == CMD_OPT_ATTACHED)
					fputs("\\fR]", fp);
			}
			fputs("\\fR\n", fp);
			cmd_opts_roff(fp, help);
			fputc('\n', fp);
		}
}
