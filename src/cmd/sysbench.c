/*
 * dbio sysbench [general options] fileio [fileio options] prepare|run|cleanup:
 * sysbench 1.0's command line for its fileio test, unchanged. prepare lays
 * out test_file.0 .. N-1 in the current directory as sysbench does (made
 * with O_EXCL, marked as dbio's: run_kept_make), run makes one ordinary
 * fileio job of the options (sysbench_job) and runs it through the normal
 * runner on those files, and prints sysbench's report followed by dbio's
 * own lines (sysbench_out.c), or dbio's JSON with --format json; cleanup
 * removes the files dbio prepared and nothing else. docs/sysbench.md has
 * the translation of every option.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "cmd/sysbench_int.h"
#include "util/units.h"

#define SB_MAKER "sysbench"

#define OFF(f) offsetof(struct sb_opts, f)

/* The most seconds a duration of dbio's holds (runtime, log_interval: ns). */
#define SB_MAX_SECONDS ((uint64_t)INT64_MAX / 1000000000u)
#define SB_I64	       ((uint64_t)INT64_MAX)

/* sysbench's options that dbio takes, with sysbench's defaults and the
 * most each takes (0: any whole number): what the job's key holds, so
 * that no value is refused in the words of a job key. */
static const struct sb_def {
	const char *name;
	enum { SB_INT, SB_SIZE, SB_BOOL, SB_STR, SB_DOUBLE } type;
	size_t offset;
	const char *def;
	uint64_t max;
} sb_defs[] = {
	{ "threads", SB_INT, OFF(threads), "1", 4096 },
	{ "events", SB_INT, OFF(events), "0", 0 },
	{ "time", SB_INT, OFF(time_s), "10", SB_MAX_SECONDS },
	{ "rate", SB_INT, OFF(rate), "0", SB_I64 },
	{ "report-interval", SB_INT, OFF(report_interval), "0", SB_MAX_SECONDS },
	{ "percentile", SB_INT, OFF(percentile), "95", 100 },
	{ "histogram", SB_BOOL, OFF(histogram), "off", 0 },
	{ "validate", SB_BOOL, OFF(validate), "off", 0 },
	{ "rand-type", SB_STR, OFF(rand_type), "special", 0 },
	{ "rand-seed", SB_INT, OFF(rand_seed), "0", SB_I64 },
	{ "rand-spec-iter", SB_INT, OFF(rand_spec[0]), "12", 0 },
	{ "rand-spec-pct", SB_INT, OFF(rand_spec[1]), "1", 0 },
	{ "rand-spec-res", SB_INT, OFF(rand_spec[2]), "75", 0 },
	{ "rand-pareto-h", SB_DOUBLE, OFF(rand_pareto_h), "0.2", 0 },
	{ "rand-zipfian-exp", SB_DOUBLE, OFF(rand_zipf_exp), "0.8", 0 },
	{ "file-num", SB_INT, OFF(file_num), "128", 0 },
	{ "file-block-size", SB_INT, OFF(block), "16384", 1u << 30 }, /* bs */
	{ "file-total-size", SB_SIZE, OFF(total), "2G", SB_I64 },
	{ "file-test-mode", SB_STR, OFF(test_mode), NULL, 0 },
	{ "file-io-mode", SB_STR, OFF(io_mode), "sync", 0 },
	{ "file-async-backlog", SB_INT, OFF(backlog), "128", 4096 },
	{ "file-extra-flags", SB_STR, OFF(extra_flags), "", 0 },
	{ "file-fsync-freq", SB_INT, OFF(fsync_freq), "100", SB_I64 },
	{ "file-fsync-all", SB_BOOL, OFF(fsync_all), "off", 0 },
	{ "file-fsync-end", SB_BOOL, OFF(fsync_end), "on", 0 },
	{ "file-fsync-mode", SB_STR, OFF(fsync_mode), "fsync", 0 },
	{ "file-merged-requests", SB_INT, OFF(merged), "0", 0 },
	{ "file-rw-ratio", SB_DOUBLE, OFF(rw_ratio), "1.5", 0 },
	/* dbio's own */
	{ "output", SB_STR, OFF(output), NULL, 0 },
	{ "format", SB_STR, OFF(format), "text", 0 },
};

#define NDEFS (sizeof(sb_defs) / sizeof(sb_defs[0]))

const struct sb_mode sb_modes[] = {
	{ "seqwr", "write", "sequential write (creation)", true },
	{ "seqrewr", "write", "sequential rewrite", true },
	{ "seqrd", "read", "sequential read", false },
	{ "rndrd", "randread", "random read", false },
	{ "rndwr", "randwrite", "random write", true },
	{ "rndrw", "randrw", "random r/w", true },
	{ NULL, NULL, NULL, false },
};

static void sb_usage(void)
{
	printf("usage: dbio sysbench [options] fileio [options] prepare|run|cleanup\n\n"
	       "sysbench 1.0's fileio test with its own command line: prepare lays out\n"
	       "test_file.0 .. N-1 in the current directory (marked as dbio's), run measures\n"
	       "them and prints sysbench's report followed by dbio's lines, cleanup removes\n"
	       "them. General options: --threads, --time, --events, --rate, --percentile,\n"
	       "--histogram, --rand-type and the other --rand-* (sysbench's fileio draws\n"
	       "uniformly whatever they say, and so does dbio). fileio options: --file-num,\n"
	       "--file-block-size, --file-total-size, --file-test-mode (seqwr seqrewr seqrd\n"
	       "rndrd rndwr rndrw), --file-io-mode (sync async mmap), --file-async-backlog,\n"
	       "--file-extra-flags (sync dsync direct), --file-fsync-freq, --file-fsync-all,\n"
	       "--file-fsync-end, --file-fsync-mode (fsync fdatasync), --file-rw-ratio,\n"
	       "--file-merged-requests=0. dbio's own: --output FILE (dbio's JSON result),\n"
	       "--format text|json. docs/sysbench.md translates each option to dbio's keys.\n");
}

/* The accepted option names, for the refusal of another. */
static void accepted(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NDEFS && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s--%s", i ? ", " : "", sb_defs[i].name);
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const on[] = { "on", "true", "yes", "1" }, *const off[] = { "off", "false", "no",
										       "0" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(v, on[i]))
			return *out = true, 0;
		if (!strcasecmp(v, off[i]))
			return *out = false, 0;
	}
	return -EINVAL;
}

/* Set option d to v (a default, or the user's); 2 after the message. */
static int set_value(struct sb_opts *o, const struct sb_def *d, const char *v)
{
	char *field = (char *)o + d->offset;
	static const char *const expected[] = { "a whole number", "a size (4096, 16K, 2G)", "on or off", "",
						"a finite number, 0 or more" };
	char *end;
	int rc = 0;

	switch (d->type) {
	case SB_INT:
		rc = units_parse_u64(v, (uint64_t *)(void *)field);
		break;
	case SB_SIZE:
		rc = units_parse_size(v, (uint64_t *)(void *)field);
		break;
	case SB_BOOL:
		rc = parse_bool(v, (bool *)(void *)field);
		break;
	case SB_STR:
		*(const char **)(void *)field = v;
		break;
	case SB_DOUBLE:
		errno = 0;
		*(double *)(void *)field = strtod(v, &end);
		rc = errno || end == v || *end || !(*(double *)(void *)field >= 0) ||
				     !isfinite(*(double *)(void *)field)
			     ? -EINVAL
			     : 0;
		break;
	}
	if (rc) {
		cmd_error("sysbench: --%s: bad value '%s': expected %s", d->name, v, expected[d->type]);
		return 2;
	}
	if (d->max && (d->type == SB_INT || d->type == SB_SIZE) && *(uint64_t *)(void *)field > d->max) {
		cmd_error("sysbench: --%s: bad value '%s': out of range: expected at most %llu", d->name, v,
			  (unsigned long long)d->max);
		return 2;
	}
	return 0;
}

/* One "--name[=value]" (or dbio's "--output FILE"); 2 after the message. */
static int parse_option(struct sb_opts *o, int argc, char **argv, int *i)
{
	const char *arg = argv[*i] + 2, *eq = strchr(arg, '=');
	const size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	char names[2048];

	for (size_t k = 0; k < NDEFS; k++) {
		const struct sb_def *d = &sb_defs[k];

		if (strlen(d->name) != n || strncmp(d->name, arg, n))
			continue;
		if (eq)
			return set_value(o, d, eq + 1);
		if (d->type == SB_BOOL)
			return set_value(o, d, "on");
		if (d->offset == OFF(output) || d->offset == OFF(format)) {
			if (*i + 1 < argc)
				return set_value(o, d, argv[++*i]);
		}
		cmd_error("sysbench: --%s: needs a value (--%s=VALUE)", d->name, d->name);
		return 2;
	}
	accepted(names, sizeof(names));
	cmd_error("sysbench: --%.*s: not an option dbio takes; accepted: %s", (int)n, arg, names);
	return 2;
}

/* The words and options of argv; 0, -1 after help, or 2 after the message. */
static int parse_args(int argc, char **argv, struct sb_opts *o)
{
	memset(o, 0, sizeof(*o));
	for (size_t k = 0; k < NDEFS; k++)
		if (sb_defs[k].def && set_value(o, &sb_defs[k], sb_defs[k].def))
			return 2;
	for (int i = 1; i < argc; i++) {
		int rc;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "help")) {
			sb_usage();
			return -1;
		}
		if (!strncmp(argv[i], "--", 2)) {
			if ((rc = parse_option(o, argc, argv, &i)))
				return rc;
		} else if (!o->test) {
			o->test = argv[i];
		} else if (!o->command) {
			o->command = argv[i];
		} else {
			cmd_error("sysbench: '%s': one command only (prepare, run or cleanup), after '%s'",
				  argv[i], o->command);
			return 2;
		}
	}
	if (!o->test || strcmp(o->test, "fileio")) {
		cmd_error(
			"sysbench: %s%s%s: dbio runs sysbench's fileio test only: dbio sysbench [options] fileio [options] prepare|run|cleanup",
			o->test ? "'" : "no test", o->test ? o->test : "", o->test ? "'" : "");
		return 2;
	}
	if (!o->command ||
	    (strcmp(o->command, "prepare") && strcmp(o->command, "run") && strcmp(o->command, "cleanup"))) {
		cmd_error("sysbench: fileio: %s%s%s: expected prepare, run or cleanup", o->command ? "'" : "",
			  o->command ? o->command : "no command", o->command ? "'" : "");
		return 2;
	}
	return 0;
}

/* Values that sysbench takes but dbio cannot honour, and values neither
 * takes; 2 after the message. */
static int check_options(struct sb_opts *o)
{
	if (!o->file_num || !o->block || !o->threads) {
		cmd_error("sysbench: --%s: must be at least 1", !o->file_num ? "file-num"
								: !o->block  ? "file-block-size"
									     : "threads");
		return 2;
	}
	o->file_size = o->total / o->file_num;
	if (!o->file_size || o->file_size % o->block) {
		cmd_error(
			"sysbench: --file-total-size / --file-num = %llu bytes a file: not a multiple of --file-block-size (%llu bytes), which dbio needs",
			(unsigned long long)o->file_size, (unsigned long long)o->block);
		return 2;
	}
	if (o->validate) {
		cmd_error(
			"sysbench: --validate: refused: dbio does not check the data it reads back (fio's verify keys are not honoured yet)");
		return 2;
	}
	if (o->merged) {
		cmd_error(
			"sysbench: --file-merged-requests: refused: dbio does not merge requests (only 0, sysbench's default, is taken)");
		return 2;
	}
	if (strcmp(o->format, "text") && strcmp(o->format, "json")) {
		cmd_error("sysbench: --format: bad value '%s': expected text or json", o->format);
		return 2;
	}
	return sysbench_check_modes(o);
}

/* test_file.0 .. N-1, sysbench's names; NULL when out of memory. */
static char **file_names(const struct sb_opts *o)
{
	char **names = calloc(o->file_num, sizeof(*names));

	for (uint64_t i = 0; names && i < o->file_num; i++)
		if (asprintf(&names[i], "test_file.%llu", (unsigned long long)i) < 0) {
			for (uint64_t k = 0; k < i; k++)
				free(names[k]);
			free(names);
			return NULL;
		}
	return names;
}

static void free_names(char **names, uint64_t n)
{
	for (uint64_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int sb_prepare(const struct sb_opts *o, char **names)
{
	struct dbio_err err = { 0 };
	char each[32], total[32];
	uint64_t written = 0;
	double t0 = now_s(), secs;
	int rc;

	units_fmt_bytes(each, sizeof(each), o->file_size);
	units_fmt_bytes(total, sizeof(total), o->file_size * o->file_num);
	printf("%llu files, %s each, %s total\nCreating files for the test...\n",
	       (unsigned long long)o->file_num, each, total);
	sysbench_print_flags(o);
	fflush(stdout);
	/* in blocks, as sysbench writes them: see run_kept_make */
	rc = run_kept_make(".", names, o->file_num, o->file_size, o->block, SB_MAKER, &written, &err);
	secs = now_s() - t0;
	if (rc) {
		cmd_error("sysbench: prepare: %s", err.msg);
		return rc == DBIO_EINPUT || rc == DBIO_EUNSAFE ? 2 : 1;
	}
	printf("%llu bytes written in %.2f seconds (%.2f MiB/sec).\n", (unsigned long long)written, secs,
	       secs > 0 ? (double)written / 1048576.0 / secs : 0.0);
	return 0;
}

static int sb_cleanup(const struct sb_opts *o, char **names)
{
	struct dbio_err err = { 0 };
	size_t removed = 0;
	int rc;

	printf("Removing test files...\n");
	rc = run_kept_remove(".", names, o->file_num, SB_MAKER, &removed, &err);
	if (rc) {
		cmd_error("sysbench: cleanup: %s", err.msg);
		return rc == DBIO_EUNSAFE ? 2 : 1;
	}
	return 0;
}

/* The sysbench options of this run, for the report (show has no context). */
static const struct sb_opts *shown;

static void show(const json_t *result, const struct jobset *set, const struct run_args *a)
{
	(void)set;
	sysbench_print_run(shown, result);
}

static int sb_run(const struct sb_opts *o, int argc, char **argv)
{
	char *fake[6] = { argv[0], "--progress=none", NULL };
	int nfake = 2, status;
	struct run_args args = { 0 };
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	char *text = NULL;
	bool suite;
	int rc;

	if (o->output) {
		fake[nfake++] = "--output";
		fake[nfake++] = (char *)o->output;
	}
	if (!strcmp(o->format, "json"))
		fake[nfake++] = "--format=json";
	if ((status = jobrun_parse_args(nfake, fake, false, sb_usage, &args)))
		goto out;
	if (!(text = sysbench_job(o))) {
		cmd_error("sysbench: out of memory");
		status = 1;
		goto out;
	}
	args.builtin = text;
	args.builtin_name = "(dbio sysbench)";
	/* sysbench works in the current directory among the user's files: dbio
	 * touches only test_file.N, each made by prepare and carrying its mark */
	args.opts.force = true;
	args.opts.adopt = SB_MAKER;
	jobrun_progress(&args);
	if ((rc = jobrun_build(&args, NULL, 0, &set, &suite, &err))) {
		cmd_error("sysbench: %s", err.msg);
		status = dbio_exit_status(rc);
		goto out;
	}
	shown = o;
	status = jobrun_execute(&args, &set, argc + 1, argv - 1, show);
out:
	free(text);
	jobset_release(&set);
	jobrun_args_release(&args);
	return status < 0 ? 0 : status;
}

static int sysbench_main(int argc, char **argv)
{
	struct sb_opts o;
	char **names;
	int status = parse_args(argc, argv, &o);

	if (status)
		return status < 0 ? 0 : status;
	if ((status = check_options(&o)))
		return status;
	if (!strcmp(o.command, "run"))
		return sb_run(&o, argc, argv);
	if (!(names = file_names(&o))) {
		cmd_error("sysbench: out of memory");
		return 1;
	}
	status = !strcmp(o.command, "prepare") ? sb_prepare(&o, names) : sb_cleanup(&o, names);
	free_names(names, o.file_num);
	return status;
}

const struct cmd cmd_sysbench = {
	.name = "sysbench",
	.summary = "sysbench fileio's own command line: prepare, run, cleanup; sysbench's report and dbio's",
	.main = sysbench_main,
};
