/*
 * dbio help: usage, the version and engines, and the job-key reference
 * generated from the option tables of the build (text, Markdown for
 * docs/options.md, roff for the man page, JSON Schema for the result
 * schema), so they can never disagree; and fio's keys and engines as dbio
 * takes them (text, Markdown for docs/fio-keys.md), from the same tables
 * and plan/fio_keys.h.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "engine/engine.h"
#include "plan/fio_keys.h"
#include "plan/plan.h"
#include "result/result.h"
#include "stats/hist.h"
#include "util/built.h"
#include "views/counters.h"
#include "views/table.h"
#include "workload/workload.h"

#ifndef DBIO_VERSION
#define DBIO_VERSION "0.0.0"
#endif

void cmd_print_usage(void)
{
	printf("usage: dbio <command> [arguments]\n\n"
	       "dbio measures what a kernel, filesystem, block size, I/O scheduler or set of\n"
	       "disks does to database I/O.\n\n"
	       "commands:\n");
	for (unsigned i = 0; i < cmd_count; i++)
		printf("  %-10s %s\n", cmd_registry[i]->name, cmd_registry[i]->summary);
	printf("\n"
	       "  dbio run                      the default suite (about a minute) in ./dbio-scratch\n"
	       "  dbio run JOBFILE...           the jobs of fio-style job files\n"
	       "  dbio run --KEY=VALUE...       one job from the command line\n"
	       "  dbio help options             every job key, its default and accepted values\n"
	       "  dbio help fio-keys            fio's job keys and engines: which dbio honours, why not\n"
	       "  dbio help metrics             the figures --metric names in compare, matrix, sweep\n"
	       "  dbio help counters            the kernel's counters every run records, per operation\n"
	       "  dbio --version                version, and the engines and workloads of this build\n\n"
	       "See dbio(1) and docs/ for the result format and examples.\n");
}

void cmd_print_version(void)
{
	char list[1024];

	printf("dbio %s\n", DBIO_VERSION);
	printf("engines:\n");
	for (size_t i = 0; i < engine_count; i++)
		printf("  %-9s %s\n", engine_registry[i]->name, engine_registry[i]->summary);
	workload_list(list, sizeof(list));
	printf("workloads: %s\n", list);
	for (size_t i = 0; i < workload_count; i++)
		if (workload_registry[i]->choices) {
			workload_registry[i]->choices(list, sizeof(list));
			printf("  %s\n", list);
		}
	if (built_missing_list(list, sizeof(list)))
		printf("left out of this build (install the package and build again): %s\n", list);
	else
		printf("left out of this build: nothing\n");
	printf("mpi: %s\n", built_mpi());
	printf("clock: CLOCK_MONOTONIC, %.1f ns per read (timed over 1,000,000 reads now)\n",
	       engine_clock_cost_ns(1000000));
	printf("latency histogram: log-linear, %u sub-buckets per power of two, percentiles within 1/%u "
	       "(%.2f %%), %zu KiB per histogram\n",
	       HIST_SUB_COUNT, 2 * HIST_SUB_COUNT, 100.0 / (2 * HIST_SUB_COUNT), sizeof(struct hist) / 1024);
}

/* The heading of table t: whom its keys belong to. */
static void heading(const struct plan_table *t, char *buf, size_t len)
{
	switch (t->scope) {
	case OPTION_SCOPE_JOB:
		snprintf(buf, len, "Keys of every job");
		break;
	case OPTION_SCOPE_FILES: {
		char owners[256];

		plan_owners(t->table->defs[0].name, owners, sizeof(owners));
		snprintf(buf, len, "Keys of %s", owners);
		break;
	}
	case OPTION_SCOPE_WORKLOAD:
		snprintf(buf, len, "Keys of workload=%s", t->owner);
		break;
	case OPTION_SCOPE_ENGINE:
		snprintf(buf, len, "Keys of ioengine=%s", t->owner);
		break;
	case OPTION_SCOPE_PART:
		snprintf(buf, len, "Keys of workload=%s with %s=%s", t->part_of, t->part_key, t->owner);
		break;
	}
}

/* Every key of every table, in order, with its default as text. */
static void each_key(void (*fn)(const struct plan_table *t, const struct option_def *def, const char *dflt),
		     void (*head)(const struct plan_table *t))
{
	struct plan_table t;
	struct job job;

	if (plan_job_init(&job, "job")) {
		job_release(&job);
		return;
	}
	for (size_t i = 0; plan_table_at(i, &t); i++) {
		if (head)
			head(&t);
		for (size_t d = 0; d < t.table->count; d++) {
			const struct option_def *def = &t.table->defs[d];
			char dflt[256];

			option_format(job_keys_base(&job, &job.keys[i]), def, dflt, sizeof(dflt));
			if (def->type == OPT_TIME && strcmp(dflt, "0"))
				snprintf(dflt, sizeof(dflt), "%s", def->def);
			fn(&t, def, dflt);
		}
	}
	job_release(&job);
}

static void text_head(const struct plan_table *t)
{
	char h[512];

	heading(t, h, sizeof(h));
	printf("== %s ==\n\n", h);
}

static void text_key(const struct plan_table *t, const struct option_def *def, const char *dflt)
{
	char acc[512];

	(void)t;
	option_accepted(def, acc, sizeof(acc));
	printf("%s=%s%s\n    %s\n    accepts %s\n", def->name, dflt[0] ? dflt : "(empty)",
	       def->dbio_own ? "   [dbio's own key]" : "", def->help, acc);
	if (def->type == OPT_ENUM)
		for (const struct opt_enum *e = def->values; e->name; e++)
			if (e->help)
				printf("      %-10s %s\n", e->name, e->help);
	putchar('\n');
}

static void markdown_head(const struct plan_table *t)
{
	char h[512];

	heading(t, h, sizeof(h));
	printf("## %s\n\n", h);
}

static void markdown_key(const struct plan_table *t, const struct option_def *def, const char *dflt)
{
	char acc[512];

	(void)t;
	option_accepted(def, acc, sizeof(acc));
	printf("### `%s`%s\n\n%s\n\n- default: `%s`\n- accepts: %s\n", def->name,
	       def->dbio_own ? " (dbio)" : "", def->help, dflt[0] ? dflt : "(empty)", acc);
	if (def->type == OPT_ENUM)
		for (const struct opt_enum *e = def->values; e->name; e++)
			if (e->help)
				printf("  - `%s`: %s\n", e->name, e->help);
	putchar('\n');
}

static void options_markdown(void)
{
	printf("# Job keys\n\n"
	       "Generated from dbio's option tables by `dbio help options --markdown`; do not edit.\n"
	       "Every key works in a job file (`key=value`, a bare `key` for 1 on booleans) and on\n"
	       "the command line (`--key=value`). Keys marked *dbio* are dbio's own; the others\n"
	       "have fio's name and meaning. In result files, sizes are in bytes and durations in\n"
	       "nanoseconds.\n\n"
	       "A key belongs to every job, to the workloads that do file I/O, to one workload or\n"
	       "to one I/O engine, as the headings say. A key given for a job that is not its own\n"
	       "(`--records` for a fileio job, `--hipri` with ioengine=psync) is refused, naming\n"
	       "whom it belongs to; one given for several jobs at once (in `[global]`, or on the\n"
	       "command line over job files) only has to be some job's own.\n\n");
	each_key(markdown_key, markdown_head);
}

static void roff_escaped(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

static void man_head(const struct plan_table *t)
{
	char h[512];

	heading(t, h, sizeof(h));
	printf(".SS ");
	roff_escaped(h);
	putchar('\n');
}

static void man_key(const struct plan_table *t, const struct option_def *def, const char *dflt)
{
	char acc[512];

	(void)t;
	option_accepted(def, acc, sizeof(acc));
	printf(".TP\n.B %s\n", def->name);
	roff_escaped(def->help);
	printf("\nDefault: ");
	roff_escaped(dflt[0] ? dflt : "(empty)");
	printf(". Accepts ");
	roff_escaped(acc);
	printf(".%s\n", def->dbio_own ? " (dbio's own key.)" : "");
}

/* A key's values, each alone or with fio's ":TEXT" after it, as a
 * pattern; takes values. */
static void enum_pattern(json_t *o, json_t *values)
{
	char re[1024] = "^(";
	size_t used = 2, i;
	json_t *v;

	json_array_foreach (values, i, v) {
		int n = snprintf(re + used, sizeof(re) - used, "%s%s", i ? "|" : "", json_string_value(v));

		if (n > 0 && (size_t)n < sizeof(re) - used)
			used += (size_t)n;
	}
	snprintf(re + used, sizeof(re) - used, ")(:.+)?$");
	json_object_set_new(o, "pattern", json_string(re));
	json_decref(values);
}

/* The JSON Schema of a key's value in a result's options. */
static json_t *key_schema(const struct option_def *def)
{
	static const char *const units[] = {
		[OPT_SIZE] = " In results: bytes.", [OPT_TIME] = " In results: nanoseconds."
	};
	const char *unit = def->type == OPT_SIZE || def->type == OPT_TIME ? units[def->type] : "";
	char owners[256], desc[2048];
	json_t *o = json_object(), *values;

	plan_owners(def->name, owners, sizeof(owners));
	snprintf(desc, sizeof(desc), "Job key %s (%s%s%s): %s%s", def->name, owners[0] ? owners : "every job",
		 def->dbio_own ? "; " : "", def->dbio_own ? "dbio's own" : "", def->help, unit);
	switch (def->type) {
	case OPT_STR:
		json_object_set_new(o, "type", json_string("string"));
		json_object_set_new(o, "maxLength", json_integer((json_int_t)def->size - 1));
		break;
	case OPT_BOOL:
		json_object_set_new(o, "type", json_string("boolean"));
		break;
	case OPT_UINT:
	case OPT_SIZE:
	case OPT_TIME:
		json_object_set_new(o, "type", json_string("integer"));
		json_object_set_new(o, "minimum", json_integer((json_int_t)def->min));
		if (def->max && def->max != OPT_MAX)
			json_object_set_new(o, "maximum", json_integer((json_int_t)def->max));
		if (def->pair_offset) { /* or fio's READ,WRITE pair of two sizes */
			json_object_set_new(o, "type", json_pack("[s, s]", "integer", "string"));
			json_object_set_new(o, "pattern", json_string("^[0-9]+,[0-9]+$"));
		}
		if (def->word) { /* or its word: repeat=auto */
			char pattern[64];

			snprintf(pattern, sizeof(pattern), "^%s$", def->word);
			json_object_set_new(o, "type", json_pack("[s, s]", "integer", "string"));
			json_object_set_new(o, "pattern", json_string(pattern));
		}
		break;
	case OPT_ENUM:
		json_object_set_new(o, "type", json_string("string"));
		values = json_array();
		for (const struct opt_enum *e = def->values; e->name; e++)
			if (e->help)
				json_array_append_new(values, json_string(e->name));
		if (def->suffix_size)
			enum_pattern(o, values); /* fio's VALUE:TEXT */
		else
			json_object_set_new(o, "enum", values);
		break;
	case OPT_PCT_LIST:
		json_object_set_new(o, "type", json_string("array"));
		json_object_set_new(o, "maxItems", json_integer(OPT_MAX_PCTS));
		json_object_set_new(o, "items",
				    json_pack("{s:s, s:i, s:i, s:s}", "type", "number", "exclusiveMinimum", 0,
					      "maximum", 100, "description", "A percentile (percent)."));
		break;
	case OPT_INTERVAL:
		json_object_set_new(o, "type", json_string("string"));
		json_object_set_new(o, "pattern", json_string("^(0|[1-9][0-9]*ns|[1-9][0-9]*ops)$"));
		break;
	case OPT_RANGE:
		json_object_set_new(o, "type", json_string("string"));
		json_object_set_new(o, "pattern", json_string("^[1-9][0-9]*(-[1-9][0-9]*)?$"));
		break;
	}
	json_object_set_new(o, "description", json_string(desc));
	return o;
}

/* The options object of a result's job entry, for docs/result.schema.json
 * (scripts/schema-options puts it there): every key of the build, the keys
 * of every job required. */
static void options_schema(void)
{
	json_t *props = json_object(), *required = json_array(), *o;
	struct plan_table t;
	char *text;

	for (size_t i = 0; plan_table_at(i, &t); i++)
		for (size_t d = 0; d < t.table->count; d++) {
			const struct option_def *def = &t.table->defs[d];

			if (json_object_get(props, def->name))
				continue; /* a key two workloads share: one schema */
			json_object_set_new(props, def->name, key_schema(def));
			if (t.scope == OPTION_SCOPE_JOB)
				json_array_append_new(required, json_string(def->name));
		}
	o = json_pack("{s:s, s:s, s:o, s:o, s:b}", "type", "object", "description",
		      "The job's keys with their resolved values, defaults included: those of every job, and "
		      "those of its workload and engine (the file keys for a workload that does file I/O). "
		      "Sizes in bytes, durations in nanoseconds, booleans as true/false, choices as their "
		      "names. docs/options.md describes each key.",
		      "required", required, "properties", props, "additionalProperties", 0);
	text = result_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (text)
		puts(text);
	free(text);
	json_decref(o);
}

/* One row of `dbio help fio-keys`: a key or engine of fio's and what dbio
 * does with it. */
struct compat_row {
	const char *name;
	const char *reason; /* why dbio refuses it; NULL: honoured */
	char owners[128];   /* honoured: whom it belongs to ("ioengine=io_uring"), or "" */
	bool noop;	    /* honoured by being accepted: it changes nothing dbio measures */
};

static int compat_by_name(const void *a, const void *b)
{
	return strcmp(((const struct compat_row *)a)->name, ((const struct compat_row *)b)->name);
}

/* rows[0..n) sorted by name, a name that two tables share once. */
static size_t compat_sort(struct compat_row *rows, size_t n)
{
	size_t kept = 0;

	qsort(rows, n, sizeof(*rows), compat_by_name);
	for (size_t i = 0; i < n; i++)
		if (!kept || strcmp(rows[kept - 1].name, rows[i].name))
			rows[kept++] = rows[i];
	return kept;
}

/* fio's job keys, sorted: every key of the build's tables that is fio's
 * (not dbio_own) as honoured, every row of fio_keys as refused. NULL when
 * out of memory. */
static struct compat_row *compat_keys(size_t *n)
{
	struct compat_row *rows;
	struct plan_table t;
	size_t cap = fio_key_count;

	for (size_t i = 0; plan_table_at(i, &t); i++)
		cap += 2 * t.table->count; /* a key and its alias */
	if (!(rows = calloc(cap, sizeof(*rows))))
		return NULL;
	*n = 0;
	for (size_t i = 0; plan_table_at(i, &t); i++)
		for (size_t d = 0; d < t.table->count; d++) {
			const struct option_def *def = &t.table->defs[d];

			if (def->dbio_own)
				continue;
			rows[*n].name = def->name;
			rows[*n].noop = def->fio_noop;
			plan_owners(def->name, rows[*n].owners, sizeof(rows[*n].owners));
			(*n)++;
			if (option_alias_of(def->name)) {
				/* fio's other name: the same key */
				rows[*n] = rows[*n - 1];
				rows[*n].name = option_alias_of(def->name);
				(*n)++;
			}
		}
	for (size_t i = 0; i < fio_key_count; i++)
		rows[(*n)++] = (struct compat_row){ .name = fio_keys[i].name, .reason = fio_keys[i].reason };
	*n = compat_sort(rows, *n);
	return rows;
}

/* fio's I/O engines, sorted: those of this build as honoured (dbio's
 * engines have fio's names), fio_engines as refused. NULL when out of
 * memory. */
static struct compat_row *compat_engines(size_t *n)
{
	const char *engine, *phase, *kind;
	size_t nmeta = 0;
	struct compat_row *rows;

	while (plan_fio_meta_at(nmeta, &engine, &phase, &kind))
		nmeta++;
	if (!(rows = calloc(engine_count + nmeta + fio_engine_count, sizeof(*rows))))
		return NULL;
	*n = 0;
	for (size_t i = 0; i < engine_count; i++)
		rows[(*n)++].name = engine_registry[i]->name;
	for (size_t i = 0; plan_fio_meta_at(i, &engine, &phase, &kind); i++) {
		rows[*n].name = engine;
		snprintf(rows[*n].owners, sizeof(rows[*n].owners),
			 "workload=meta (meta_phases=%s meta_kind=%s)", phase, kind);
		(*n)++;
	}
	for (size_t i = 0; i < fio_engine_count; i++)
		rows[(*n)++] =
			(struct compat_row){ .name = fio_engines[i].name, .reason = fio_engines[i].reason };
	*n = compat_sort(rows, *n);
	return rows;
}

static size_t compat_honoured(const struct compat_row *rows, size_t n)
{
	size_t honoured = 0;

	for (size_t i = 0; i < n; i++)
		honoured += !rows[i].reason;
	return honoured;
}

static const char *compat_status(const struct compat_row *row)
{
	return row->noop ? "accepted, changes nothing dbio measures" : "honoured";
}

/* " (fio's other name for rw)" for an alias's row, else "". */
static const char *compat_alias(const struct compat_row *row)
{
	static char buf[96];
	const char *name = option_canonical(row->name);

	if (name == row->name)
		return "";
	snprintf(buf, sizeof(buf), " (fio's other name for %s)", name);
	return buf;
}

/* s as the text of a Markdown table cell. */
static void markdown_cell(const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", stdout);
		else if (*s == '>')
			fputs("&gt;", stdout);
		else if (*s == '|')
			fputs("\\|", stdout);
		else
			putchar(*s);
	}
}

static void compat_text(const char *what, const struct compat_row *rows, size_t n)
{
	int width = 0;

	/* wide enough for most names; a longer one pushes its line out */
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(rows[i].name) > width && strlen(rows[i].name) <= 24)
			width = (int)strlen(rows[i].name);
	printf("== fio's %s: %zu honoured, %zu refused ==\n\n", what, compat_honoured(rows, n),
	       n - compat_honoured(rows, n));
	for (size_t i = 0; i < n; i++)
		if (rows[i].reason)
			printf("%-*s  refused: %s\n", width, rows[i].name, rows[i].reason);
		else
			printf("%-*s  %s%s%s%s\n", width, rows[i].name, compat_status(&rows[i]),
			       rows[i].owners[0] ? " by " : "", rows[i].owners, compat_alias(&rows[i]));
	putchar('\n');
}

static void compat_markdown(const char *what, const char *column, const struct compat_row *rows, size_t n)
{
	printf("## %s\n\n%zu honoured, %zu refused.\n\n| %s | in dbio |\n|---|---|\n", what,
	       compat_honoured(rows, n), n - compat_honoured(rows, n), column);
	for (size_t i = 0; i < n; i++) {
		printf("| `%s` | ", rows[i].name);
		if (rows[i].reason) {
			fputs("refused: ", stdout);
			markdown_cell(rows[i].reason);
		} else {
			printf("%s%s", compat_status(&rows[i]), rows[i].owners[0] ? " by " : "");
			markdown_cell(rows[i].owners);
			fputs(compat_alias(&rows[i]), stdout);
		}
		fputs(" |\n", stdout);
	}
	putchar('\n');
}

/* `dbio help fio-keys`: fio's keys and engines, which dbio honours (with
 * fio's name and meaning) and why it refuses the others. */
static int fio_keys_main(int markdown)
{
	struct compat_row *keys, *engines;
	size_t nkeys = 0, nengines = 0;
	char list[512];

	keys = compat_keys(&nkeys);
	engines = compat_engines(&nengines);
	if (!keys || !engines) {
		free(keys);
		free(engines);
		cmd_error("help fio-keys: %s", strerror(ENOMEM));
		return 1;
	}
	engine_list(list, sizeof(list));
	if (markdown) {
		printf("# fio's keys and engines in dbio\n\n"
		       "Generated from dbio's option tables and src/plan/fio_keys.c by\n"
		       "`dbio help fio-keys --markdown`; do not edit. [fio.md](fio.md) says how dbio\n"
		       "reads fio's job files.\n\n");
		compat_markdown("Job keys", "key", keys, nkeys);
		compat_markdown("I/O engines", "ioengine", engines, nengines);
	} else {
		printf("dbio reads fio's job files. A key or ioengine it honours has fio's name and\n"
		       "meaning; a job that gives one it refuses is not run, and the reason says why.\n"
		       "The engines of this build: %s.\n\n",
		       list);
		compat_text("job keys", keys, nkeys);
		compat_text("I/O engines", engines, nengines);
	}
	free(keys);
	free(engines);
	return 0;
}

/* The man page's COUNTERS list, from the counter registry. */
static void counters_man(void)
{
	char unit[64];

	for (size_t i = 0; i < counter_count; i++) {
		const struct counter *c = &counter_registry[i];

		counters_unit(c, unit, sizeof(unit));
		printf(".TP\n.B %s\n", c->name);
		cmd_opts_roff(stdout, c->label);
		printf(", ");
		cmd_opts_roff(stdout, unit);
		printf(": ");
		cmd_opts_roff(stdout, c->meaning);
		printf("\n");
	}
}

static int help_topic(const char *topic, const char *fmt)
{
	if (!strcmp(topic, "options")) {
		if (!strcmp(fmt, "--text"))
			each_key(text_key, text_head);
		else if (!strcmp(fmt, "--markdown"))
			options_markdown();
		else if (!strcmp(fmt, "--man"))
			each_key(man_key, man_head);
		else if (!strcmp(fmt, "--schema"))
			options_schema();
		else {
			cmd_error(
				"help options: '%s': unknown format: expected --text, --markdown, --man or --schema",
				fmt);
			return 2;
		}
		return 0;
	}
	if (!strcmp(topic, "metrics")) {
		if (strcmp(fmt, "--text") && strcmp(fmt, "--markdown")) {
			cmd_error("help metrics: '%s': unknown format: expected --text or --markdown", fmt);
			return 2;
		}
		table_metrics(stdout, !strcmp(fmt, "--markdown"));
		return 0;
	}
	if (!strcmp(topic, "counters")) {
		if (strcmp(fmt, "--text") && strcmp(fmt, "--markdown") && strcmp(fmt, "--man")) {
			cmd_error("help counters: '%s': unknown format: expected --text, --markdown or --man",
				  fmt);
			return 2;
		}
		if (!strcmp(fmt, "--man"))
			counters_man();
		else
			counters_print(stdout,
				       !strcmp(fmt, "--markdown") ? COUNTERS_MARKDOWN : COUNTERS_TEXT);
		return 0;
	}
	if (!strcmp(topic, "fio-keys")) {
		if (strcmp(fmt, "--text") && strcmp(fmt, "--markdown")) {
			cmd_error("help fio-keys: '%s': unknown format: expected --text or --markdown", fmt);
			return 2;
		}
		return fio_keys_main(!strcmp(fmt, "--markdown"));
	}
	const struct cmd *cmd = cmd_find(topic);

	if (!strcmp(topic, "help") && strcmp(fmt, "--man")) {
		cmd_print_usage();
		return 0;
	}
	if (!cmd) {
		cmd_error(
			"help: '%s': unknown topic: expected a command name, 'options', 'fio-keys', 'metrics' or 'counters'",
			topic);
		return 2;
	}
	if (cmd->opts && !strcmp(fmt, "--man")) {
		cmd_opts_man(stdout, cmd->opts); /* the man page's list (make docs) */
		return 0;
	}
	if (cmd->opts) {
		cmd_opts_usage(stdout, cmd->opts);
		return 0;
	}
	char *sub[] = { (char *)topic, "--help", NULL };

	return cmd->main(2, sub);
}

/* `dbio help [TOPIC [FORMAT]]`: the topic and the format its words name
 * (the first of each), as `dbio help` has always read them. */
struct help_args {
	const char *topic;
	const char *format; /* "--markdown" …, or a word the topic refuses; NULL: --text */
};

/* TOPIC, then a FORMAT given without dashes (refused by the topic). */
static int help_operand(const struct cmd_opts *spec, void *args, char *arg)
{
	struct help_args *a = args;

	(void)spec;
	if (!a->topic)
		a->topic = arg;
	else if (!a->format)
		a->format = arg;
	return 0;
}

static int help_format(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	struct help_args *a = args;

	(void)spec;
	(void)val;
	if (!a->format)
		a->format = o->name;
	return 0;
}

/* Another --word is a format the topic refuses, by name. */
static int help_unknown(const struct cmd_opts *spec, void *args, int argc, char **argv, int *i)
{
	(void)argc;
	return help_operand(spec, args, argv[*i]);
}

static const struct cmd_opt help_rows[] = {
	{ .name = "--text",
	  .kind = CMD_OPT_FLAG,
	  .parse = help_format,
	  .help = "the reference as text on a terminal (the default)" },
	{ .name = "--markdown",
	  .kind = CMD_OPT_FLAG,
	  .parse = help_format,
	  .help = "options, fio-keys, metrics, counters: as Markdown (docs/options.md, docs/fio-keys.md, the "
		  "table of docs/compare.md, docs/counters.md)" },
	{ .name = "--man",
	  .kind = CMD_OPT_FLAG,
	  .parse = help_format,
	  .help = "options, counters, or a COMMAND: as roff (this page's JOB KEYS and COUNTERS, and each "
		  "command's options)" },
	{ .name = "--schema",
	  .kind = CMD_OPT_FLAG,
	  .parse = help_format,
	  .help = "options: as the JSON Schema of a result's options (docs/result.schema.json)" },
	/* a flag, not CMD_OPT_HELP: `dbio help sweep --help` is sweep's usage */
	{ .name = "--help", .kind = CMD_OPT_FLAG, .parse = help_format, .help = "print this usage" },
	{ 0 },
};

static const struct cmd_opt *const help_tables[] = { help_rows, NULL };

static const struct cmd_opts cmd_help_opts = {
	.name = "help",
	.subject = "help",
	.operands = "[COMMAND|options|fio-keys|metrics|counters]",
	.about = "Without a topic, the usage of dbio. With a COMMAND, its usage (as dbio COMMAND\n"
		 "--help). options: every job key with its default and the values it accepts;\n"
		 "fio-keys: fio's job keys and I/O engines as dbio takes them; metrics: the figures\n"
		 "--metric names; counters: the kernel's counters each run records, as figures per\n"
		 "operation.\n",
	.tables = help_tables,
	.operand = help_operand,
	.unknown = help_unknown,
};

static int help_main(int argc, char **argv)
{
	struct help_args a = { 0 };
	int rc = cmd_opts_parse(&cmd_help_opts, argc, argv, &a);

	if (rc)
		return rc < 0 ? 0 : rc;
	if (!a.topic && a.format && !strcmp(a.format, "--help")) {
		cmd_opts_usage(stdout, &cmd_help_opts);
		return 0;
	}
	if (!a.topic) {
		cmd_print_usage();
		return 0;
	}
	return help_topic(a.topic, a.format ? a.format : "--text");
}

const struct cmd cmd_help = {
	.name = "help",
	.summary = "usage of dbio or of a command; `dbio help options` lists the job keys",
	.main = help_main,
	.opts = &cmd_help_opts,
};
