/*
 * sysbench 1.0.20's command line for fileio as one table of options (the
 * parser, `dbio help sysbench` and the man page read it), and the values
 * sysbench makes of it, in its order and with its messages: the general
 * options (with the deprecated --num-threads, --max-requests, --max-time,
 * --tx-rate and --test=), the banner, the test and command, the options
 * it calls invalid, then fileio's. sysbench's forms only: --name=VALUE
 * and a bare --name (a bool's "on", anything else's "no value"); a word
 * after an option is the test or the command, as in sysbench.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/cmd.h"
#include "cmd/sysbench_int.h"

const char sb_bare[] = "";

enum sb_type { T_INT, T_SIZE, T_BOOL, T_STR, T_LIST, T_DOUBLE };

/* Each option: sysbench's type and default (NULL: none); its name is
 * its row's (NAME). */
static const struct sb_def {
	enum sb_type type;
	const char *def;
} defs[SB_NOPTS] = {
	[SB_THREADS] = { T_INT, "1" },
	[SB_EVENTS] = { T_INT, "0" },
	[SB_TIME] = { T_INT, "10" },
	[SB_FORCED_SHUTDOWN] = { T_STR, "off" },
	[SB_STACK] = { T_SIZE, "64K" },
	[SB_RATE] = { T_INT, "0" },
	[SB_REPORT_INTERVAL] = { T_INT, "0" },
	[SB_CHECKPOINTS] = { T_LIST, "" },
	[SB_DEBUG] = { T_BOOL, "off" },
	[SB_VALIDATE] = { T_BOOL, "off" },
	[SB_VERSION_OPT] = { T_BOOL, "off" },
	[SB_CONFIG_FILE] = { T_STR, NULL },
	[SB_TX_RATE] = { T_INT, "0" },
	[SB_MAX_REQUESTS] = { T_INT, "0" },
	[SB_MAX_TIME] = { T_INT, "0" },
	[SB_NUM_THREADS] = { T_INT, "1" },
	[SB_RAND_TYPE] = { T_STR, "special" },
	[SB_RAND_SPEC_ITER] = { T_INT, "12" },
	[SB_RAND_SPEC_PCT] = { T_INT, "1" },
	[SB_RAND_SPEC_RES] = { T_INT, "75" },
	[SB_RAND_SEED] = { T_INT, "0" },
	[SB_RAND_PARETO_H] = { T_DOUBLE, "0.2" },
	[SB_VERBOSITY] = { T_INT, "3" },
	[SB_PERCENTILE] = { T_INT, "95" },
	[SB_HISTOGRAM] = { T_BOOL, "off" },
	[SB_FILE_NUM] = { T_INT, "128" },
	[SB_FILE_BLOCK] = { T_SIZE, "16384" },
	[SB_FILE_TOTAL] = { T_SIZE, "2G" },
	[SB_FILE_MODE] = { T_STR, NULL },
	[SB_FILE_IO_MODE] = { T_STR, "sync" },
	[SB_FILE_BACKLOG] = { T_INT, "128" },
	[SB_FILE_FLAGS] = { T_LIST, "" },
	[SB_FILE_FSYNC_FREQ] = { T_INT, "100" },
	[SB_FILE_FSYNC_ALL] = { T_BOOL, "off" },
	[SB_FILE_FSYNC_END] = { T_BOOL, "on" },
	[SB_FILE_FSYNC_MODE] = { T_STR, "fsync" },
	[SB_FILE_MERGED] = { T_INT, "0" },
	[SB_FILE_RW_RATIO] = { T_DOUBLE, "1.5" },
};

/* Options of sysbench's database drivers: sysbench takes them with any
 * test, and fileio does nothing with them; so does dbio. */
static const char *const db_opts[] = {
	"db-driver",   "db-ps-mode",	      "db-debug",	  "mysql-host",
	"mysql-port",  "mysql-socket",	      "mysql-user",	  "mysql-password",
	"mysql-db",    "mysql-ssl",	      "mysql-ssl-cipher", "mysql-compression",
	"mysql-debug", "mysql-ignore-errors", "mysql-dry-run",	  "pgsql-host",
	"pgsql-port",  "pgsql-user",	      "pgsql-password",	  "pgsql-db",
	NULL,
};

/* Store a row's value: the raw string, sb_bare for --name alone. */
static int store(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	(void)spec;
	*(const char **)(void *)((char *)args + o->offset) = val ? val : sb_bare;
	return 0;
}

static int store_test(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	struct sb_args *a = args;

	(void)spec;
	(void)o;
	a->test_opt = true;
	a->test = val && *val ? val : NULL;
	return 0;
}

static int dbio_value(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	if (!val || !*val) {
		cmd_error("%s: %s: needs a value", spec->subject, o->name);
		return 2;
	}
	*(const char **)(void *)((char *)args + o->offset) = val;
	return 0;
}

static int sb_operand(const struct cmd_opts *spec, void *args, char *arg)
{
	struct sb_args *a = args;

	(void)spec;
	if (!a->test)
		a->test = arg;
	else if (!a->command)
		a->command = arg;
	else if (!a->extra)
		a->extra = arg;
	return 0;
}

/* An option no row names: a database driver's (taken, as sysbench takes
 * it), or one sysbench calls invalid once it knows the test. */
static int sb_unknown(const struct cmd_opts *spec, void *args, int argc, char **argv, int *i)
{
	struct sb_args *a = args;
	const char *arg = argv[*i] + 2;
	size_t n = strcspn(arg, "=");

	(void)spec;
	(void)argc;
	for (const char *const *d = db_opts; *d; d++)
		if (strlen(*d) == n && !strncmp(*d, arg, n))
			return 0;
	if (!a->invalid[0])
		snprintf(a->invalid, sizeof(a->invalid), "%s", argv[*i]);
	return 0;
}

#define R(id, flag, val, text)                                                                               \
	[id] = { .name = flag,                                                                               \
		 .kind = CMD_OPT_OPTEQ,                                                                      \
		 .value = val,                                                                               \
		 .offset = offsetof(struct sb_args, raw) + (id) * sizeof(const char *),                      \
		 .parse = store,                                                                             \
		 .help = text }

static const struct cmd_opt rows[] = {
	R(SB_THREADS, "--threads", "N",
	  "number of threads to use [1]; each a dbio thread of the one job (numjobs)"),
	R(SB_EVENTS, "--events", "N",
	  "limit for total number of events [0]: reads, writes and periodic fsyncs"),
	R(SB_TIME, "--time", "N", "limit for total execution time in seconds [10] (the job's runtime)"),
	R(SB_FORCED_SHUTDOWN, "--forced-shutdown", "STRING",
	  "seconds to wait after the --time limit before forcing shutdown, or 'off' [off]; dbio takes off only: its threads stop at --time"),
	R(SB_STACK, "--thread-stack-size", "SIZE",
	  "size of stack per thread [64K]; dbio takes 64K only: it sizes its threads' stacks itself"),
	R(SB_RATE, "--rate", "N",
	  "average transactions rate, 0 for unlimited [0] (rate_iops, shared by the threads)"),
	R(SB_REPORT_INTERVAL, "--report-interval", "N",
	  "report intermediate statistics every N seconds, 0 disables [0]; dbio prints the lines after the run, from its series"),
	R(SB_CHECKPOINTS, "--report-checkpoints", "[LIST,...]",
	  "dump full statistics and reset the counters at these seconds []; refused when given: dbio's counters run through the whole run"),
	R(SB_DEBUG, "--debug", "[=on|off]",
	  "print more debugging info [off]; refused on: dbio does not print each request"),
	R(SB_VALIDATE, "--validate", "[=on|off]",
	  "perform validation checks [off]: each block written carries its checksum and offset, each block read is checked (dbio's verify), prepare writes such blocks"),
	R(SB_VERSION_OPT, "--version", "[=on|off]", "print the version and exit [off]"),
	R(SB_CONFIG_FILE, "--config-file", "FILENAME",
	  "file of command line options; refused: give the options on the command line"),
	R(SB_TX_RATE, "--tx-rate", "N", "deprecated alias for --rate [0]"),
	R(SB_MAX_REQUESTS, "--max-requests", "N", "deprecated alias for --events [0]"),
	R(SB_MAX_TIME, "--max-time", "N", "deprecated alias for --time [0]"),
	R(SB_NUM_THREADS, "--num-threads", "N", "deprecated alias for --threads [1]"),
	R(SB_RAND_TYPE, "--rand-type", "STRING",
	  "random numbers distribution {uniform,gaussian,special,pareto} [special]; sysbench's fileio draws its offsets uniformly whatever it says, and so does dbio"),
	R(SB_RAND_SPEC_ITER, "--rand-spec-iter", "N",
	  "iterations of the special distribution [12] (not used by fileio)"),
	R(SB_RAND_SPEC_PCT, "--rand-spec-pct", "N",
	  "percentage of 'special' values [1] (not used by fileio)"),
	R(SB_RAND_SPEC_RES, "--rand-spec-res", "N",
	  "percentage of 'special' values to use [75] (not used by fileio)"),
	R(SB_RAND_SEED, "--rand-seed", "N",
	  "seed for the random numbers, 0: the current time [0] (randseed)"),
	R(SB_RAND_PARETO_H, "--rand-pareto-h", "N",
	  "h of the pareto distribution [0.2] (not used by fileio)"),
	R(SB_VERBOSITY, "--verbosity", "N",
	  "verbosity level, 0 (only critical messages) to 4 [3]; 5 (debug) is refused: dbio does not print each request"),
	R(SB_PERCENTILE, "--percentile", "N",
	  "percentile of the latency statistics (1-100), 0 disables [95]"),
	R(SB_HISTOGRAM, "--histogram", "[=on|off]", "print the latency histogram in the report [off]"),
	R(SB_FILE_NUM, "--file-num", "N", "number of files to create [128]"),
	R(SB_FILE_BLOCK, "--file-block-size", "N",
	  "block size to use in all IO operations [16384] (K, M, G, T suffixes, as sysbench)"),
	R(SB_FILE_TOTAL, "--file-total-size", "SIZE", "total size of files to create [2G]"),
	R(SB_FILE_MODE, "--file-test-mode", "STRING",
	  "test mode {seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw}"),
	R(SB_FILE_IO_MODE, "--file-io-mode", "STRING",
	  "file operations mode {sync,async,mmap} [sync] (psync, libaio, mmap)"),
	R(SB_FILE_BACKLOG, "--file-async-backlog", "N",
	  "number of asynchronous operations to queue per thread [128] (iodepth)"),
	R(SB_FILE_FLAGS, "--file-extra-flags", "[LIST,...]",
	  "additional flags to open files with {sync,dsync,direct} []"),
	R(SB_FILE_FSYNC_FREQ, "--file-fsync-freq", "N",
	  "do fsync() of every file after this number of requests of all threads, 0: none [100] (fsync_scope=job)"),
	R(SB_FILE_FSYNC_ALL, "--file-fsync-all", "[=on|off]", "do fsync() after each write operation [off]"),
	R(SB_FILE_FSYNC_END, "--file-fsync-end", "[=on|off]",
	  "do fsync() at the end of test [on] (end_fsync)"),
	R(SB_FILE_FSYNC_MODE, "--file-fsync-mode", "STRING",
	  "which method to use for synchronization {fsync, fdatasync} [fsync]"),
	R(SB_FILE_MERGED, "--file-merged-requests", "N",
	  "merge at most this number of IO requests [0]; dbio takes 0 only: it does not merge"),
	R(SB_FILE_RW_RATIO, "--file-rw-ratio", "N", "reads/writes ratio for combined test [1.5] (rwmixread)"),
	{ .name = "--test",
	  .kind = CMD_OPT_OPTEQ,
	  .value = "fileio",
	  .parse = store_test,
	  .help = "deprecated: the test's name, as the word fileio" },
	{ .name = "--output",
	  .kind = CMD_OPT_VALUE,
	  .value = "FILE",
	  .offset = offsetof(struct sb_args, output),
	  .parse = dbio_value,
	  .help = "dbio's own: write dbio's JSON result of the run to FILE (for dbio compare, report, plot)" },
	{ .name = "--format",
	  .kind = CMD_OPT_VALUE,
	  .value = "text|json",
	  .offset = offsetof(struct sb_args, format),
	  .parse = dbio_value,
	  .help = "dbio's own: text (sysbench's report, the default) or json (dbio's result on standard output)" },
	{ .name = "--dbio-lines",
	  .kind = CMD_OPT_FLAG,
	  .offset = offsetof(struct sb_args, dbio_lines),
	  .help = "dbio's own: after sysbench's report, dbio's lines: each op type's latency, CPU time" },
	{ 0 },
};

/* sysbench's name of option id ("threads"). */
#define NAME(id) (rows[id].name + 2)

static const struct cmd_opt *const tables[] = { rows, cmd_opts_help_h, NULL };

const struct cmd_opts cmd_sysbench_opts = {
	.name = "sysbench",
	.subject = "sysbench",
	.operands = "[OPTIONS] fileio [OPTIONS] prepare|run|cleanup|help",
	.about = "sysbench 1.0.20's fileio test with its own command line, options and output:\n"
		 "prepare lays out test_file.0 .. N-1 in the current directory (marked as\n"
		 "dbio's), run measures them with one ordinary dbio job and prints sysbench's\n"
		 "report, cleanup removes them. Options take sysbench's forms: --name=VALUE, or\n"
		 "--name alone for on; the options of sysbench's database drivers (--db-*,\n"
		 "--mysql-*, --pgsql-*) are taken and do nothing, as in sysbench's fileio.\n"
		 "docs/sysbench.md translates each option to dbio's job keys.\n",
	.tail = "Exit status: 0; 1 for what sysbench refuses (its messages); 2 for what dbio\n"
		"refuses of what sysbench takes (dbio's message, naming why).\n",
	.tables = tables,
	.operand = sb_operand,
	.unknown = sb_unknown,
};

void sb_log(const struct sb_opts *o, int level, const char *fmt, ...)
{
	static const char *const prefix[] = { "FATAL: ", "ALERT: ", "WARNING: ", "", "", "DEBUG: " };
	va_list ap;

	if (level > o->verbosity)
		return;
	fputs(prefix[level], stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* An option's value: given, else its default. */
static const char *value_of(const struct sb_args *a, enum sb_opt id)
{
	return a->raw[id] ? a->raw[id] : defs[id].def;
}

/* sysbench's INT: a whole string of digits that fits an int; "" and a
 * bare --name are 0. Refused with sysbench's words (1). */
static int get_int(const struct sb_args *a, enum sb_opt id, long *out)
{
	const char *v = value_of(a, id);
	char *end;

	*out = 0;
	if (!v || !*v)
		return 0;
	errno = 0;
	*out = strtol(v, &end, 10);
	if (*end || errno || *out > INT_MAX || *out < INT_MIN) {
		fprintf(stderr, "Invalid value for the '%s' option: '%s'\n", NAME(id), v);
		return 1;
	}
	return 0;
}

/* sysbench's SIZE: leading digits, then K, M, G or T (any case) for
 * that power of 1024; anything else after the digits is 0, as are no
 * digits. 2 when it overflows 64 bits (sysbench wraps). */
static int get_size(const struct sb_args *a, enum sb_opt id, uint64_t *out)
{
	static const char mods[] = "KMGT";
	const char *v = value_of(a, id), *p = v ? v : "";
	unsigned __int128 x = 0;

	for (; *p >= '0' && *p <= '9'; p++)
		if ((x = x * 10 + (unsigned)(*p - '0')) > INT64_MAX)
			break;
	if (x <= INT64_MAX && *p && p != v) {
		const char *m = strchr(mods, *p >= 'a' && *p <= 'z' ? *p - 32 : *p);

		for (int i = 0; m && *m && i <= m - mods; i++)
			x *= 1024;
		x = m && *m ? x : 0;
	}
	if (x > INT64_MAX) {
		cmd_error("sysbench: --%s=%s: refused: more than 2^63-1 bytes", NAME(id), v);
		return 2;
	}
	*out = (uint64_t)x;
	return 0;
}

/* sysbench's BOOL: on, true, 1 or bare for on; off, false, 0 for off;
 * anything else makes the option invalid (false, *on untouched). */
static bool get_bool(struct sb_args *a, enum sb_opt id, bool *on)
{
	const char *v = value_of(a, id);

	if (v == sb_bare || !strcmp(v, "on") || !strcmp(v, "true") || !strcmp(v, "1"))
		return *on = true, true;
	if (!strcmp(v, "off") || !strcmp(v, "false") || !strcmp(v, "0"))
		return *on = false, true;
	if (!a->invalid[0])
		snprintf(a->invalid, sizeof(a->invalid), "--%s=%s", NAME(id), v);
	return false;
}

/* sysbench's STRING: NULL when not given or given empty. */
static const char *get_str(const struct sb_args *a, enum sb_opt id)
{
	const char *v = value_of(a, id);

	return v && *v ? v : NULL;
}

/* A whole number that dbio needs to be 0 or more (sysbench casts a
 * negative one to unsigned): 2 after the message. */
static int unsigned_of(enum sb_opt id, long v, uint64_t *out)
{
	if (v < 0) {
		cmd_error("sysbench: --%s=%ld: refused: dbio takes 0 or more (sysbench makes %lu of it)",
			  NAME(id), v, (unsigned long)(unsigned)v);
		return 2;
	}
	*out = (uint64_t)v;
	return 0;
}

/* A deprecated alias given above its default wins, with sysbench's
 * warning: into *v. */
static int alias(const struct sb_opts *o, const struct sb_args *a, enum sb_opt old, enum sb_opt now,
		 long floor, long *v)
{
	long x;

	if (get_int(a, old, &x))
		return 1;
	if (x > floor) {
		sb_log(o, 2, "--%s is deprecated, use --%s instead", NAME(old), NAME(now));
		*v = x;
		return 0;
	}
	return get_int(a, now, v);
}

/* `sysbench fileio help` prints sysbench's own words for its options
 * (typo included: a script may grep them); what dbio makes of each is in
 * the rows above, for `dbio help sysbench`. NULL: the row's help is
 * sysbench's. */
static const char *const sysbench_words[SB_NOPTS] = {
	[SB_FILE_BLOCK] = "block size to use in all IO operations [16384]",
	[SB_FILE_IO_MODE] = "file operations mode {sync,async,mmap} [sync]",
	[SB_FILE_BACKLOG] = "number of asynchronous operatons to queue per thread [128]",
	[SB_FILE_FLAGS] = "list of additional flags to use to open files {sync,dsync,direct} []",
	[SB_FILE_FSYNC_FREQ] = "do fsync() after this number of requests (0 - don't use fsync()) [100]",
	[SB_FILE_FSYNC_END] = "do fsync() at the end of test [on]",
	[SB_FILE_MERGED] = "merge at most this number of IO requests if possible (0 - don't merge) [0]",
	[SB_FILE_RW_RATIO] = "reads/writes ratio for combined test [1.5]",
};

void sysbench_fileio_help(void)
{
	size_t most = 0;

	for (int id = SB_FILE_NUM; id <= SB_FILE_RW_RATIO; id++) {
		size_t n =
			strlen(rows[id].name) + strlen(rows[id].value) + !!strncmp(rows[id].value, "[=", 2);

		most = n > most ? n : most;
	}
	printf("fileio options:\n");
	for (int id = SB_FILE_NUM; id <= SB_FILE_RW_RATIO; id++) {
		char label[64];

		snprintf(label, sizeof(label), "%s%s%s", rows[id].name,
			 strncmp(rows[id].value, "[=", 2) ? "=" : "", rows[id].value);
		printf("  %-*s %s\n", (int)most, label,
		       sysbench_words[id] ? sysbench_words[id] : rows[id].help);
	}
	printf("\n");
}

/* sysbench's init(): the general options, before its banner. */
static int resolve_general(struct sb_args *a, struct sb_opts *o)
{
	static const char *const rand_types[] = { "uniform", "gaussian", "special", "pareto", NULL };
	const char *s;
	long v;
	int rc = 0;

	if (alias(o, a, SB_NUM_THREADS, SB_THREADS, 1, &v))
		return 1;
	if (v <= 0) {
		sb_log(o, 0, "Invalid value for --threads: %ld.\n", v);
		return 1;
	}
	o->threads = (uint64_t)v;
	if (alias(o, a, SB_MAX_REQUESTS, SB_EVENTS, 0, &v) || (rc = unsigned_of(SB_EVENTS, v, &o->events)))
		return rc ? rc : 1;
	if (alias(o, a, SB_MAX_TIME, SB_TIME, 0, &v) || (rc = unsigned_of(SB_TIME, v, &o->time_s)))
		return rc ? rc : 1;
	if (!o->events && !o->time_s)
		sb_log(o, 2, "Both event and time limits are disabled, running an endless test");
	s = get_str(a, SB_FORCED_SHUTDOWN);
	if (o->time_s && s && strcasecmp(s, "off")) {
		char *end;

		(void)strtol(s, &end, 10);
		if (end == s || (*end && strcmp(end, "%"))) {
			sb_log(o, 0, "Invalid value for --forced-shutdown: '%s'", s);
			return 1;
		}
	}
	get_bool(a, SB_DEBUG, &o->debug);
	get_bool(a, SB_VALIDATE, &o->validate);
	s = get_str(a, SB_RAND_TYPE);
	for (size_t i = 0; s && rand_types[i]; i++)
		if (!strcmp(s, rand_types[i]))
			s = NULL;
	if (s) {
		sb_log(o, 0, "Invalid random numbers distribution: %s.", s);
		return 1;
	}
	for (int id = SB_RAND_SPEC_ITER; id <= SB_RAND_SEED; id++)
		if (get_int(a, id, &v))
			return 1;
	if ((rc = unsigned_of(SB_RAND_SEED, v, &o->rand_seed)))
		return rc;
	if (alias(o, a, SB_TX_RATE, SB_RATE, 0, &v) || (rc = unsigned_of(SB_RATE, v, &o->rate)))
		return rc ? rc : 1;
	if (get_int(a, SB_REPORT_INTERVAL, &v) ||
	    (rc = unsigned_of(SB_REPORT_INTERVAL, v, &o->report_interval)))
		return rc ? rc : 1;
	if (get_int(a, SB_PERCENTILE, &v))
		return 1;
	if (v < 0 || v > 100) {
		sb_log(o, 0, "Invalid value for --percentile: %ld", v);
		return 1;
	}
	o->percentile = (uint64_t)v;
	get_bool(a, SB_HISTOGRAM, &o->histogram);
	return 0;
}

/* The flags of --file-extra-flags (a list, its items between commas). */
static int resolve_flags(const struct sb_args *a, struct sb_opts *o)
{
	const char *p = get_str(a, SB_FILE_FLAGS);

	for (; p && *p;) {
		size_t n = strcspn(p, ",");

		if (n == 4 && !strncmp(p, "sync", 4)) {
			o->osync = true;
		} else if (n == 5 && !strncmp(p, "dsync", 5)) {
			o->odsync = true;
		} else if (n == 6 && !strncmp(p, "direct", 6)) {
			o->direct = true;
		} else if (n) {
			const char *first = get_str(a, SB_FILE_FLAGS);

			first += strspn(first, ",");
			sb_log(o, 0, "Invalid value for file-extra-flags: %.*s", (int)strcspn(first, ","),
			       first);
			return 1;
		}
		p += n + (p[n] == ',');
	}
	return 0;
}

/* The test mode of a run: 0, or 1 after sysbench's message. */
static int resolve_mode(const struct sb_args *a, struct sb_opts *o)
{
	o->test_mode = get_str(a, SB_FILE_MODE);
	if (strcmp(o->command, "run"))
		return 0;
	if (!o->test_mode) {
		sb_log(o, 0, "Missing required argument: --file-test-mode\n");
		if (o->verbosity >= 3)
			sysbench_fileio_help();
		return 1;
	}
	for (const struct sb_mode *m = sb_modes; m->name; m++)
		if (!strcmp(m->name, o->test_mode))
			o->mode = m;
	if (!o->mode) {
		sb_log(o, 0, "Invalid IO operations mode: %s.", o->test_mode);
		return 1;
	}
	return 0;
}

/* fileio's parse_arguments(), in its order. */
static int resolve_fileio(const struct sb_args *a, struct sb_opts *o)
{
	long v;
	int rc;

	if (get_int(a, SB_FILE_NUM, &v))
		return 1;
	if (v <= 0) {
		sb_log(o, 0, "Invalid value for file-num: %ld", v);
		return 1;
	}
	o->file_num = (uint64_t)v;
	if ((rc = get_size(a, SB_FILE_TOTAL, &o->total)))
		return rc;
	if (!o->total) {
		sb_log(o, 0, "Invalid value for file-total-size: 0");
		return 1;
	}
	o->file_size = o->total / o->file_num;
	if (resolve_mode(a, o))
		return 1;
	o->io_mode = get_str(a, SB_FILE_IO_MODE) ? get_str(a, SB_FILE_IO_MODE) : "sync";
	if (strcmp(o->io_mode, "sync") && strcmp(o->io_mode, "async") && strcmp(o->io_mode, "mmap")) {
		sb_log(o, 0, "unknown I/O mode: %s", o->io_mode);
		return 1;
	}
	if (get_int(a, SB_FILE_MERGED, &v))
		return 1;
	if (v < 0) {
		sb_log(o, 0, "Invalid value for file-merged-requests: %ld.", v);
		return 1;
	}
	if (v > 0) {
		cmd_error(
			"sysbench: --file-merged-requests=%ld: refused: dbio does not merge requests (only 0, sysbench's default, is taken)",
			v);
		return 2;
	}
	if ((rc = get_size(a, SB_FILE_BLOCK, &o->block)))
		return rc;
	if (!o->block || o->block > INT_MAX) {
		sb_log(o, 0, "Invalid value for file-block-size: %d.", (int)o->block);
		return 1;
	}
	if (resolve_flags(a, o) || get_int(a, SB_FILE_FSYNC_FREQ, &v))
		return 1;
	if (v < 0) {
		sb_log(o, 0, "Invalid value for file-fsync-freq: %ld.", v);
		return 1;
	}
	o->fsync_freq = (uint64_t)v;
	if (o->fsync_all) /* --file-fsync-all overrides the other two */
		o->fsync_end = false, o->fsync_freq = 0;
	o->fsync_mode = get_str(a, SB_FILE_FSYNC_MODE) ? get_str(a, SB_FILE_FSYNC_MODE) : "";
	if (strcmp(o->fsync_mode, "fsync") && strcmp(o->fsync_mode, "fdatasync")) {
		sb_log(o, 0, "Invalid fsync mode: %s.", o->fsync_mode);
		return 1;
	}
	o->rw_ratio = strtod(value_of(a, SB_FILE_RW_RATIO), NULL);
	if (o->rw_ratio < 0) {
		sb_log(o, 0, "Invalid value for --file-rw-ratio: %f.", o->rw_ratio);
		return 1;
	}
	if (get_int(a, SB_FILE_BACKLOG, &v) || (rc = unsigned_of(SB_FILE_BACKLOG, v, &o->backlog)))
		return rc ? rc : 1;
	/* prepare writes whole blocks, past the size when it is not one */
	o->file_bytes = (o->file_size + o->block - 1) / o->block * o->block;
	return 0;
}

/* What sysbench takes that dbio does not: 2 after the message naming
 * why, else 0. */
static int refuse_general(const struct sb_args *a, const struct sb_opts *o)
{
	const char *s = get_str(a, SB_FORCED_SHUTDOWN);
	uint64_t stack = 0;

	if (o->time_s && s && strcasecmp(s, "off"))
		cmd_error(
			"sysbench: --forced-shutdown=%s: refused: dbio's threads stop at --time themselves; only off is taken",
			s);
	else if (get_size(a, SB_STACK, &stack) || stack != 65536)
		cmd_error(
			"sysbench: --thread-stack-size=%s: refused: dbio sizes its threads' stacks itself; only 64K is taken",
			value_of(a, SB_STACK));
	else if (get_str(a, SB_CHECKPOINTS))
		cmd_error(
			"sysbench: --report-checkpoints=%s: refused: dbio's counters run through the whole run, they are not reset at checkpoints",
			get_str(a, SB_CHECKPOINTS));
	else if (o->debug || o->verbosity >= 5)
		cmd_error(
			"sysbench: %s: refused: dbio does not print each request as sysbench's debug level does; take --verbosity=4 at most",
			o->debug ? "--debug" : "--verbosity=5");
	else if (a->raw[SB_CONFIG_FILE])
		cmd_error(
			"sysbench: --config-file=%s: refused: dbio reads sysbench's options from the command line only",
			a->raw[SB_CONFIG_FILE]);
	else
		return 0;
	return 2;
}

int sysbench_resolve(struct sb_args *a, struct sb_opts *o)
{
	bool version = false;
	long v;
	int rc;

	memset(o, 0, sizeof(*o));
	o->verbosity = 3;
	if (get_int(a, SB_VERBOSITY, &v))
		return 1;
	/* --format json: standard output is dbio's JSON, sysbench's lines but FATAL are not printed */
	o->verbosity = a->format && !strcmp(a->format, "json") && v > 1 ? 1 : (int)v;
	if (a->test_opt)
		fprintf(stderr,
			"WARNING: the --test option is deprecated. You can pass a script name or path on the command line without any options.\n");
	if (a->extra) {
		fprintf(stderr, "Unrecognized command line argument: %s\n", a->extra);
		return 1;
	}
	if (get_bool(a, SB_VERSION_OPT, &version) && version) {
		printf("sysbench " SB_VERSION " (dbio " DBIO_VERSION "'s sysbench mode)\n");
		return -1;
	}
	if ((rc = resolve_general(a, o)))
		return rc;
	sb_log(o, 3, "sysbench " SB_VERSION " (dbio " DBIO_VERSION "'s sysbench mode)\n");
	if (!a->test || strcmp(a->test, "fileio")) {
		cmd_error(
			"sysbench: %s%s%s: dbio runs sysbench's fileio test only: dbio sysbench [options] fileio [options] prepare|run|cleanup",
			a->test ? "'" : "no test", a->test ? a->test : "", a->test ? "'" : "");
		return 2;
	}
	if (!a->command) {
		fprintf(stderr,
			"The 'fileio' test requires a command argument. See 'sysbench fileio help'\n");
		return 1;
	}
	get_bool(a, SB_FILE_FSYNC_ALL, &o->fsync_all);
	get_bool(a, SB_FILE_FSYNC_END, &o->fsync_end);
	if (a->invalid[0]) {
		fprintf(stderr, "invalid option: %s\n", a->invalid);
		return 1;
	}
	o->command = a->command;
	if (!strcmp(o->command, "help")) {
		sysbench_fileio_help();
		return -1;
	}
	if (strcmp(o->command, "prepare") && strcmp(o->command, "run") && strcmp(o->command, "cleanup")) {
		fprintf(stderr, "Unknown command: %s\n", o->command);
		return 1;
	}
	o->output = a->output;
	o->format = a->format ? a->format : "text";
	o->dbio_lines = a->dbio_lines;
	return (rc = resolve_fileio(a, o)) ? rc : refuse_general(a, o);
}
