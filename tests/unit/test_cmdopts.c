/*
 * Unit tests for the subcommands' option tables (src/cmd/opts.h): the one
 * parser (values as --name VALUE and --name=VALUE, flags, a repeated
 * option, operands, "--", refusals) and the usage and man page made from
 * the same rows — fed two tables, one a row longer, both texts change
 * with the table; and every command of the registry that reads its own
 * command line has a table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cmd/cmd.h"
#include "cmd/opts.h"

struct t_args {
	const char *out;
	bool wide;
	const char *ops[4];
	size_t nops;
	const char *files[8];
	size_t nfiles;
};

static int t_operand(const struct cmd_opts *spec, void *args, char *arg)
{
	struct t_args *a = args;

	(void)spec;
	a->files[a->nfiles++] = arg;
	return 0;
}

static int t_op(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	struct t_args *a = args;

	(void)spec;
	(void)o;
	if (!strcmp(val, "bad"))
		return 2;
	a->ops[a->nops++] = val;
	return 0;
}

static const struct cmd_opt rows_a[] = {
	{ .name = "--out",
	  .value = "DIR",
	  .offset = offsetof(struct t_args, out),
	  .help = "where to write",
	  .flags = CMD_OPT_REQUIRED },
	{ .name = "--wide",
	  .kind = CMD_OPT_FLAG,
	  .offset = offsetof(struct t_args, wide),
	  .help = "one piece" },
	{ .name = "--op", .value = "LIST", .parse = t_op, .help = "op types", .flags = CMD_OPT_REPEAT },
	{ 0 },
};
static const struct cmd_opt rows_extra[] = {
	{ .name = "--extra", .value = "N", .parse = t_op, .help = "a row only the second table has" },
	{ 0 },
};
static const struct cmd_opt *const tables_a[] = { rows_a, cmd_opts_help_h, NULL };
static const struct cmd_opt *const tables_b[] = { rows_a, rows_extra, cmd_opts_help_h, NULL };

static const struct cmd_opts spec_a = {
	.name = "t",
	.subject = "t",
	.operands = "FILE...",
	.about = "About t.\n",
	.tail = "Exit status: 0.\n",
	.tables = tables_a,
	.operand = t_operand,
};

static char *usage_of(const struct cmd_opts *spec, bool man)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	if (man)
		cmd_opts_man(fp, spec);
	else
		cmd_opts_usage(fp, spec);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static int parse(const struct cmd_opts *spec, struct t_args *a, int argc, char **argv)
{
	*a = (struct t_args){ 0 };
	return cmd_opts_parse(spec, argc, argv, a);
}

static void test_cmdopts_values_flags_operands(void **state)
{
	char *argv[] = { "t", "a.json", "--out", "d", "--wide", "--op=read", "--op", "write", "-x", NULL };
	struct t_args a;

	(void)state;
	assert_int_equal(parse(&spec_a, &a, 9, argv), 0);
	assert_string_equal(a.out, "d");
	assert_true(a.wide);
	assert_int_equal(a.nops, 2);
	assert_string_equal(a.ops[0], "read");
	assert_string_equal(a.ops[1], "write");
	assert_int_equal(a.nfiles, 2); /* "-x" is a name, as before the tables */
	assert_string_equal(a.files[0], "a.json");
	assert_string_equal(a.files[1], "-x");
}

static void test_cmdopts_double_dash_ends_options(void **state)
{
	char *argv[] = { "t", "--out=d", "--", "--wide", "--", NULL };
	struct t_args a;

	(void)state;
	assert_int_equal(parse(&spec_a, &a, 5, argv), 0);
	assert_false(a.wide);
	assert_int_equal(a.nfiles, 2);
	assert_string_equal(a.files[0], "--wide");
	assert_string_equal(a.files[1], "--");
}

static void test_cmdopts_refusals(void **state)
{
	char *missing[] = { "t", "--out", NULL };
	char *flag_value[] = { "t", "--wide=1", NULL };
	char *unknown[] = { "t", "--ouf=d", NULL };
	char *bad[] = { "t", "--op", "bad", "--out", NULL };
	char *extra[] = { "t", "--extra", "1", NULL };
	struct t_args a;

	(void)state;
	assert_int_equal(parse(&spec_a, &a, 2, missing), 2);
	assert_int_equal(parse(&spec_a, &a, 2, flag_value), 2);
	assert_int_equal(parse(&spec_a, &a, 2, unknown), 2);
	assert_int_equal(parse(&spec_a, &a, 4, bad), 2); /* the callback's refusal, before --out's */
	assert_int_equal(parse(&spec_a, &a, 3, extra), 2);
	assert_non_null(cmd_opts_find(&spec_a, "-h", 2));
	assert_null(cmd_opts_find(&spec_a, "--extra", 7));
}

static void test_cmdopts_usage_is_the_table(void **state)
{
	char *got = usage_of(&spec_a, false);

	(void)state;
	assert_string_equal(got, "usage: dbio t FILE... --out DIR [--wide] [--op LIST ...]\n"
				 "\n"
				 "About t.\n"
				 "\n"
				 "  --out DIR   where to write\n"
				 "  --wide      one piece\n"
				 "  --op LIST   op types\n"
				 "  --help, -h  print this usage\n"
				 "\n"
				 "Exit status: 0.\n");
	free(got);
	got = usage_of(&spec_a, true);
	assert_string_equal(got, ".TP\n\\fB\\-\\-out\\fR \\fIDIR\\fR\nwhere to write\n"
				 ".TP\n\\fB\\-\\-wide\\fR\none piece\n"
				 ".TP\n\\fB\\-\\-op\\fR \\fILIST\\fR\nop types\n"
				 ".TP\n\\fB\\-\\-help\\fR, \\fB\\-h\\fR\nprint this usage\n");
	free(got);
}

/* The same command with a row more: the usage line, the usage's entries,
 * the man page's list and the parser all take it. */
static void test_cmdopts_a_row_added_shows_everywhere(void **state)
{
	struct cmd_opts spec_b = spec_a;
	char *argv[] = { "t", "--extra", "7", NULL };
	char *ua, *ub, *ma, *mb;
	struct t_args a;

	(void)state;
	spec_b.tables = tables_b;
	ua = usage_of(&spec_a, false);
	ub = usage_of(&spec_b, false);
	ma = usage_of(&spec_a, true);
	mb = usage_of(&spec_b, true);
	assert_null(strstr(ua, "--extra"));
	assert_null(strstr(ma, "extra"));
	assert_non_null(strstr(ub, "[--op LIST ...] [--extra N]\n"));
	assert_non_null(strstr(ub, "\n  --extra N   a row only the second table has\n"));
	assert_non_null(strstr(mb, ".TP\n\\fB\\-\\-extra\\fR \\fIN\\fR\na row only the second table has\n"));
	assert_int_equal(parse(&spec_b, &a, 3, argv), 0);
	assert_string_equal(a.ops[0], "7");
	free(ua);
	free(ub);
	free(ma);
	free(mb);
}

static void test_cmdopts_help_row_ends_the_parse(void **state)
{
	char *argv[] = { "t", "--out", "d", "-h", "--nosuch", NULL };
	struct t_args a;

	(void)state;
	fflush(stdout);
	assert_int_equal(parse(&spec_a, &a, 5, argv), -1); /* --nosuch is not looked at */
}

/* --name and --name=VALUE (sysbench's forms): the row's parse gets NULL
 * for the bare name, the value after '='; a following word is an
 * operand, not the value; the usage shows "--v[=on|off]" and "--n=N". */
static int t_store(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	struct t_args *a = args;

	(void)spec;
	(void)o;
	a->ops[a->nops++] = val ? val : "(bare)";
	return 0;
}

static const struct cmd_opt rows_eq[] = {
	{ .name = "--v", .kind = CMD_OPT_OPTEQ, .value = "[=on|off]", .parse = t_store, .help = "a switch" },
	{ .name = "--n", .kind = CMD_OPT_OPTEQ, .value = "N", .parse = t_store, .help = "a number" },
	{ 0 },
};
static const struct cmd_opt *const tables_eq[] = { rows_eq, NULL };
static const struct cmd_opts spec_eq = {
	.name = "t",
	.subject = "t",
	.operands = "WORD",
	.tables = tables_eq,
	.operand = t_operand,
};

static void test_cmdopts_opteq(void **state)
{
	char *argv[] = { "t", "--v", "off", "--n=3", "--v=", NULL };
	struct t_args a;
	char *u, *man;

	(void)state;
	assert_int_equal(parse(&spec_eq, &a, 5, argv), 0);
	assert_int_equal(a.nops, 3);
	assert_string_equal(a.ops[0], "(bare)");
	assert_string_equal(a.ops[1], "3");
	assert_string_equal(a.ops[2], "");
	assert_int_equal(a.nfiles, 1);
	assert_string_equal(a.files[0], "off");
	u = usage_of(&spec_eq, false);
	man = usage_of(&spec_eq, true);
	assert_non_null(strstr(u, "[--v[=on|off]] [--n=N]"));
	assert_non_null(strstr(man, "\\fB\\-\\-v\\fR[=on|off]\\fR\n"));
	assert_non_null(strstr(man, "\\fB\\-\\-n\\fR=\\fIN\\fR\n"));
	free(u);
	free(man);
}

/* getopt-style letters (short_opts), as bonnie reads bonnie++'s: a value
 * attached or next, flags combined, a value attached to the last of them,
 * an optional value only when attached; an unknown letter, a missing value
 * refused; "--name" rows as in any table. */
struct l_args {
	const char *dir, *size, *opt_val;
	bool quiet, sync, opt_seen;
	const char *out;
};

static int l_optional(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	struct l_args *a = args;

	(void)spec;
	(void)o;
	a->opt_seen = true;
	a->opt_val = val;
	return 0;
}

static const struct cmd_opt rows_l[] = {
	{ .name = "-d", .value = "DIR", .offset = offsetof(struct l_args, dir), .help = "dir" },
	{ .name = "-s", .value = "SIZE", .offset = offsetof(struct l_args, size), .help = "size" },
	{ .name = "-q", .kind = CMD_OPT_FLAG, .offset = offsetof(struct l_args, quiet), .help = "quiet" },
	{ .name = "-b", .kind = CMD_OPT_FLAG, .offset = offsetof(struct l_args, sync), .help = "sync" },
	{ .name = "-f", .kind = CMD_OPT_ATTACHED, .value = "SIZE", .parse = l_optional, .help = "optional" },
	{ .name = "--out", .value = "FILE", .offset = offsetof(struct l_args, out), .help = "out" },
	{ 0 },
};
static const struct cmd_opt *const tables_l[] = { rows_l, cmd_opts_help, NULL };
static const struct cmd_opts spec_l = {
	.name = "l",
	.subject = "l",
	.operands = "",
	.tables = tables_l,
	.short_opts = true,
};

static int parse_l(struct l_args *a, int argc, char **argv)
{
	*a = (struct l_args){ 0 };
	return cmd_opts_parse(&spec_l, argc, argv, a);
}

static void test_cmdopts_letters(void **state)
{
	char *apart[] = { "l", "-d", "/x", "-s", "64:8k", "--out", "o.json", NULL };
	char *joined[] = { "l", "-d/x", "-qbs64", "-f", NULL };
	char *attached[] = { "l", "-f20", "-qd", "/y", NULL };
	char *unknown[] = { "l", "-qQ", NULL };
	char *missing[] = { "l", "-q", "-s", NULL };
	char *operand[] = { "l", "extra", NULL };
	char *got;
	struct l_args a;

	(void)state;
	assert_int_equal(parse_l(&a, 7, apart), 0);
	assert_string_equal(a.dir, "/x");
	assert_string_equal(a.size, "64:8k");
	assert_string_equal(a.out, "o.json");
	assert_int_equal(parse_l(&a, 4, joined), 0);
	assert_string_equal(a.dir, "/x");
	assert_true(a.quiet && a.sync);
	assert_string_equal(a.size, "64");
	assert_true(a.opt_seen);
	assert_null(a.opt_val); /* -f alone: no value, the next argument not taken */
	assert_int_equal(parse_l(&a, 4, attached), 0);
	assert_string_equal(a.opt_val, "20");
	assert_true(a.quiet);
	assert_string_equal(a.dir, "/y");
	assert_int_equal(parse_l(&a, 2, unknown), 2);
	assert_int_equal(parse_l(&a, 3, missing), 2);
	assert_int_equal(parse_l(&a, 2, operand), 2);
	got = usage_of(&spec_l, false);
	assert_non_null(strstr(got, "usage: dbio l [-d DIR] [-s SIZE] [-q] [-b] [-f[SIZE]] [--out FILE]\n"));
	free(got);
	got = usage_of(&spec_l, true);
	assert_non_null(strstr(got, ".TP\n\\fB\\-f\\fR[\\fISIZE\\fR]\\fR\noptional\n"));
	free(got);
}

/* Every command parses by a table, named as itself (sysbench's and
 * bonnie's tables are sysbench 1.0.20's and bonnie++ 2.00a's options). */
static void test_cmdopts_every_command_has_a_table(void **state)
{
	(void)state;
	for (unsigned i = 0; i < cmd_count; i++) {
		const struct cmd *c = cmd_registry[i];

		assert_non_null(c->opts);
		assert_string_equal(c->opts->name, c->name);
		assert_non_null(c->opts->tables);
	}
}

static void test_cmdopts_closest_command(void **state)
{
	(void)state;
	assert_string_equal(cmd_closest("rnu"), "run");
	assert_string_equal(cmd_closest("swep"), "sweep");
	assert_string_equal(cmd_closest("compar"), "compare");
	assert_null(cmd_closest("frob"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmdopts_values_flags_operands),
		cmocka_unit_test(test_cmdopts_double_dash_ends_options),
		cmocka_unit_test(test_cmdopts_refusals),
		cmocka_unit_test(test_cmdopts_usage_is_the_table),
		cmocka_unit_test(test_cmdopts_a_row_added_shows_everywhere),
		cmocka_unit_test(test_cmdopts_help_row_ends_the_parse),
		cmocka_unit_test(test_cmdopts_letters),
		cmocka_unit_test(test_cmdopts_every_command_has_a_table),
		cmocka_unit_test(test_cmdopts_closest_command),
		cmocka_unit_test(test_cmdopts_opteq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
