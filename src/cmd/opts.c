/*
 * The one parser of subcommands' command lines: a command's table of
 * options (opts.h) applied to its argv. The usage and the man page's
 * lists are made from the same rows (opts_doc.c).
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "job/option.h"

const struct cmd_opt cmd_opts_help[] = {
	{ .name = "--help", .kind = CMD_OPT_HELP, .help = "print this usage" },
	{ 0 },
};

const struct cmd_opt cmd_opts_help_h[] = {
	{ .name = "--help", .alias = "-h", .kind = CMD_OPT_HELP, .help = "print this usage" },
	{ 0 },
};

/* Each row of spec in order, with fn(row, ctx); stops at a true return
 * and returns that row. */
static const struct cmd_opt *each_row(const struct cmd_opts *spec,
				      bool (*fn)(const struct cmd_opt *o, void *ctx), void *ctx)
{
	for (const struct cmd_opt *const *t = spec->tables; *t; t++)
		for (const struct cmd_opt *o = *t; o->name; o++)
			if (fn(o, ctx))
				return o;
	return NULL;
}

struct name_len {
	const char *name;
	size_t len;
};

static bool row_named(const struct cmd_opt *o, void *ctx)
{
	const struct name_len *n = ctx;

	return (strlen(o->name) == n->len && !strncmp(o->name, n->name, n->len)) ||
	       (o->alias && strlen(o->alias) == n->len && !strncmp(o->alias, n->name, n->len));
}

const struct cmd_opt *cmd_opts_find(const struct cmd_opts *spec, const char *name, size_t len)
{
	struct name_len n = { name, len };

	return each_row(spec, row_named, &n);
}

static bool offer_row(const struct cmd_opt *o, void *ctx)
{
	if (!(o->flags & CMD_OPT_HIDDEN))
		option_closest_offer(ctx, o->name);
	return false;
}

/* The names of the rows that are shown, "--a, --b or --c", into buf. */
struct name_list {
	char *buf;
	size_t len, count, at;
};

static bool count_row(const struct cmd_opt *o, void *ctx)
{
	struct name_list *l = ctx;

	l->count += !(o->flags & CMD_OPT_HIDDEN);
	return false;
}

static bool list_row(const struct cmd_opt *o, void *ctx)
{
	struct name_list *l = ctx;
	size_t used = strlen(l->buf);

	if (o->flags & CMD_OPT_HIDDEN)
		return false;
	l->at++;
	snprintf(l->buf + used, l->len - used, "%s%s",
		 l->at == 1	     ? ""
		 : l->at == l->count ? " or "
				     : ", ",
		 o->name);
	return false;
}

/* "<subject>: '--colour': unknown option (did you mean '--color'?):
 * expected --out, ... or --help"; "expected directories or --help" for
 * a command whose only option is --help. */
static int refuse_unknown(const struct cmd_opts *spec, const char *arg)
{
	size_t n = strcspn(arg, "=");
	char name[128], names[512] = "", guess[160] = "";
	struct name_list l = { names, sizeof(names), 0, 0 };
	struct option_closest c;

	snprintf(name, sizeof(name), "%.*s", (int)n, arg);
	c = (struct option_closest){ .name = name };
	each_row(spec, offer_row, &c);
	if (c.best && strlen(name) > 2) /* a letter is not a misspelling of another */
		snprintf(guess, sizeof(guess), " (did you mean '%s'?)", c.best);
	if (spec->operand_noun)
		snprintf(names, sizeof(names), "%s or ", spec->operand_noun);
	l.buf += strlen(names);
	l.len -= strlen(names);
	each_row(spec, count_row, &l);
	each_row(spec, list_row, &l);
	cmd_error("%s: '%s': unknown option%s: expected %s", spec->subject, name, guess, names);
	return 2;
}

/* Apply row o, found at argv[*i] (its name len bytes long), to args. */
static int apply_row(const struct cmd_opts *spec, const struct cmd_opt *o, int argc, char **argv, int *i,
		     size_t len, void *args)
{
	const char *arg = argv[*i], *val;

	if (o->kind == CMD_OPT_HELP) {
		if (spec->print_usage)
			spec->print_usage();
		else
			cmd_opts_usage(stdout, spec);
		return -1;
	}
	if (o->kind == CMD_OPT_FLAG) {
		if (arg[len] == '=') {
			cmd_error("%s: %s: takes no value", spec->subject, o->name);
			return 2;
		}
		if (o->parse)
			return o->parse(spec, o, NULL, args);
		*(bool *)((char *)args + o->offset) = true;
		return 0;
	}
	if (arg[len] == '=')
		val = arg + len + 1;
	else if (o->kind == CMD_OPT_OPTEQ)
		return o->parse(spec, o, NULL, args); /* --name alone: the row says what it means */
	else if (o->kind == CMD_OPT_EQ)
		val = NULL; /* --progress=line only */
	else
		val = *i + 1 < argc ? argv[++*i] : NULL;
	if (!val || (!*val && (o->flags & CMD_OPT_NONEMPTY))) {
		cmd_error("%s: %s: needs a value", spec->subject, o->name);
		return 2;
	}
	if (o->parse)
		return o->parse(spec, o, val, args);
	*(const char **)((char *)args + o->offset) = val;
	return 0;
}

/* A getopt-style cluster at argv[*i] ("-qb", "-s64", "-d" DIR): each
 * letter a row of spec; a letter that takes a value takes the rest of the
 * argument, or else the next one. */
static int apply_letters(const struct cmd_opts *spec, int argc, char **argv, int *i, void *args)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const char name[3] = { '-', *p, '\0' };
		const struct cmd_opt *o = cmd_opts_find(spec, name, 2);
		const char *val = p[1] ? p + 1 : NULL;

		if (!o)
			return refuse_unknown(spec, name);
		if (o->kind == CMD_OPT_HELP) {
			cmd_opts_usage(stdout, spec);
			return -1;
		}
		if (o->kind == CMD_OPT_FLAG) {
			int rc = o->parse ? o->parse(spec, o, NULL, args) : 0;

			if (!o->parse)
				*(bool *)((char *)args + o->offset) = true;
			if (rc)
				return rc;
			continue;
		}
		if (!val && o->kind != CMD_OPT_ATTACHED)
			val = *i + 1 < argc ? argv[++*i] : NULL;
		if (!val && o->kind != CMD_OPT_ATTACHED) {
			cmd_error("%s: %s: needs a value", spec->subject, o->name);
			return 2;
		}
		if (o->parse)
			return o->parse(spec, o, val, args);
		*(const char **)((char *)args + o->offset) = val;
		return 0;
	}
	return 0;
}

static int operand(const struct cmd_opts *spec, void *args, char *arg)
{
	if (spec->operand)
		return spec->operand(spec, args, arg);
	cmd_error("%s: '%s': unexpected argument (`dbio %s --help`)", spec->subject, arg, spec->name);
	return 2;
}

int cmd_opts_parse(const struct cmd_opts *spec, int argc, char **argv, void *args)
{
	bool options = true;
	int rc;

	for (int i = 1; i < argc; i++) {
		char *arg = argv[i];
		const struct cmd_opt *o;
		size_t len = strcspn(arg, "=");

		if (options && !strcmp(arg, "--")) {
			options = false;
			continue;
		}
		if (!options || arg[0] != '-' || !arg[1]) {
			rc = operand(spec, args, arg);
		} else if (spec->short_opts && arg[1] != '-') {
			rc = apply_letters(spec, argc, argv, &i, args);
		} else if ((o = cmd_opts_find(spec, arg, len))) {
			rc = apply_row(spec, o, argc, argv, &i, len, args);
		} else if (strncmp(arg, "--", 2)) {
			rc = operand(spec, args, arg); /* "-x": a name, as before */
		} else if (spec->unknown) {
			rc = spec->unknown(spec, args, argc, argv, &i);
		} else {
			rc = refuse_unknown(spec, arg);
		}
		if (rc)
			return rc;
	}
	return 0;
}
