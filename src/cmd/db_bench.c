/*
 * dbio db_bench --benchmarks=fillseq,readrandom --num=N --value_size=100
 * --threads=T --db=DIR ...: RocksDB's db_bench command line (its flags,
 * its names, its defaults where dbio has the benchmark) made into one kv
 * job of benchmarks= (workload/kv_bench.c) on kv_engine=rocksdb (or
 * --kv_engine=leveldb), run through the normal runner, and printed as
 * db_bench prints: a line per benchmark ("fillseq      :       5.757
 * micros/op 173670 ops/sec 0.576 seconds 100000 operations;   19.2 MB/s")
 * and, with --histogram=1, each benchmark's latencies. docs/workloads.md
 * says what differs (--threads: a database per thread).
 */
#include <math.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "util/safepath.h"
#include "util/termesc.h"

struct dbb_args {
	struct run_args run; /* first: jobrun's rows point into it */
	const char *flag[24];
};

/* db_bench's flags that dbio takes, the job key each becomes, db_bench's
 * default (NULL: the key's own) and what it means here. A rocksdb flag's
 * default is given to kv_engine=rocksdb alone (leveldb refuses its keys). */
/* X(index, name, key, default, help, rocksdb, boolean) per flag, so that the
 * option rows below are made of the same literals (a C initializer of
 * static storage cannot read another array's elements). */
#define DBB_FLAGS(X)                                                                                                                                                                                   \
	X(0, "--benchmarks", "benchmarks", "fillseq,readrandom",                                                                                                                                       \
	  "comma-separated db_bench benchmarks, run in order: fillseq, fillrandom, fillsync, overwrite, readseq, readrandom, deleterandom, seekrandom, readwhilewriting (default fillseq,readrandom)", \
	  false, false)                                                                                                                                                                                \
	X(1, "--num", "records", "1000000", "key/values to place in the database (default 1000000)", false,                                                                                            \
	  false)                                                                                                                                                                                       \
	X(2, "--reads", "lookups", NULL, "read operations (default: --num)", false, false)                                                                                                             \
	X(3, "--value_size", "value_size", "100", "bytes of each value (default 100)", false, false)                                                                                                   \
	X(4, "--batch_size", "batch", "1", "puts per write batch (default 1)", false, false)                                                                                                           \
	X(5, "--threads", "numjobs", "1",                                                                                                                                                              \
	  "threads, each on a database of its own (db_bench's share one); with readwhilewriting its readers, on one database",                                                                         \
	  false, false)                                                                                                                                                                                \
	X(6, "--db", "directory", NULL,                                                                                                                                                                \
	  "the directory the database is made in (required; made when its parent is there)", false, false)                                                                                             \
	X(7, "--sync", "sync_each_batch", "0", "1: every write batch synced (default 0)", false, true)                                                                                                 \
	X(8, "--write_buffer_size", "write_buffer_size", NULL, "memtable bytes", false, false)                                                                                                         \
	X(9, "--cache_size", "cache_size", NULL, "block cache bytes (default 8 MiB)", false, false)                                                                                                    \
	X(10, "--compression_type", "compression_type", NULL,                                                                                                                                          \
	  "none, snappy (default), zlib, bzip2, lz4, lz4hc, zstd", false, false)                                                                                                                       \
	X(11, "--max_background_jobs", "max_background_jobs", NULL,                                                                                                                                    \
	  "flush and compaction threads (default 2)", false, false)                                                                                                                                    \
	X(12, "--disable_wal", "disable_wal", NULL, "1: no WAL", false, true)                                                                                                                          \
	X(13, "--use_fsync", "use_fsync", NULL, "1: fsync instead of fdatasync", false, true)                                                                                                          \
	X(14, "--histogram", NULL, "0",                                                                                                                                                                \
	  "1: each benchmark's own latencies in microseconds, as db_bench prints them", false, true)                                                                                                   \
	X(15, "--kv_engine", "kv_engine", "rocksdb", "dbio's: rocksdb (default) or leveldb", false, false)                                                                                             \
	X(16, "--statistics", "statistics", "0",                                                                                                                                                       \
	  "1: RocksDB's statistics, and with them the engine's write amplification (default 0)", true, true)                                                                                           \
	X(17, "--enable_pipelined_write", "enable_pipelined_write", "1",                                                                                                                               \
	  "RocksDB's pipelined writes of WAL and memtable (default 1)", true, true)                                                                                                                    \
	X(18, "--delayed_write_rate", "delayed_write_rate", "8388608",                                                                                                                                 \
	  "bytes/s let through while RocksDB slows writes (default 8388608)", true, false)                                                                                                             \
	X(19, "--table_cache_numshardbits", "table_cache_numshardbits", "4",                                                                                                                           \
	  "the table cache's 2^N shards (default 4)", true, false)                                                                                                                                     \
	X(20, "--hard_pending_compaction_bytes_limit", "hard_pending_compaction_bytes_limit",                                                                                                          \
	  "137438953472", "compaction debt in bytes that stops writes (default 128 GiB)", true, false)                                                                                                 \
	X(21, "--pin_top_level_index_and_filter", "pin_top_level_index_and_filter", "0",                                                                                                               \
	  "1: the top level of a partitioned index and filter pinned in the cache (default 0)", true, true)

static const struct dbb_flag {
	const char *name, *key, *def, *help;
	bool rocksdb;
	bool boolean; /* gflags' bool: true, false, yes, no ... (dbb_bools) */
} flags[] = {
#define FLAG(i, name, key, def, help, rocksdb, boolean) { name, key, def, help, rocksdb, boolean },
	DBB_FLAGS(FLAG)
#undef FLAG
};

#define NFLAGS	   (sizeof(flags) / sizeof(flags[0]))
#define BENCHMARKS 0  /* flags[] index of --benchmarks */
#define NUM	   1  /* of --num */
#define VALUE_SIZE 3  /* of --value_size */
#define THREADS	   5  /* of --threads */
#define DB	   6  /* of --db */
#define HISTOGRAM  14 /* of --histogram */
#define KV_ENGINE  15 /* of --kv_engine */

#define BUILTIN_NAME "(dbio db_bench)" /* the job file's name in its errors */

static const struct cmd_opt dbb_rows[] = {
#define ROW(i, name, key, def, help, rocksdb, boolean)                                                       \
	{ name, NULL, CMD_OPT_EQ, "VALUE", offsetof(struct dbb_args, flag) + (i) * sizeof(const char *),     \
	  NULL, help, NULL,	  0 },
	DBB_FLAGS(ROW)
#undef ROW
		{ NULL, NULL, 0, NULL, 0, NULL, NULL, NULL, 0 },
};

_Static_assert(NFLAGS == sizeof(dbb_rows) / sizeof(dbb_rows[0]) - 1, "a row per flag");
_Static_assert(NFLAGS <= sizeof(((struct dbb_args *)0)->flag) / sizeof(const char *), "room for every flag");

static const struct cmd_opt *const dbb_tables[] = { dbb_rows,	   jobrun_format_rows,
						    jobrun_rows,   jobrun_not_sweep_rows,
						    cmd_opts_help, NULL };

static const struct cmd_opts cmd_db_bench_opts = {
	.name = "db_bench",
	.subject = "db_bench",
	.operands = "--db=DIR [--benchmarks=LIST] [--num=N] [--value_size=N] [--threads=N] ...",
	.about = "RocksDB's db_bench, with its flags: one kv job (workload=kv benchmarks=LIST,\n"
		 "kv_engine=rocksdb) in DIR, printed as db_bench prints its results, one line per\n"
		 "benchmark, and with --histogram=1 the latencies of each. Keys are 16 bytes, values\n"
		 "--value_size bytes of seeded random data (incompressible: db_bench's are half\n"
		 "compressible). Unlike db_bench, each of --threads has a database of its own.\n"
		 "As db_bench: --benchmarks= runs none; a bool flag takes 1, 0, true, false, t,\n"
		 "f, yes, no, y or n (any case); DIR is made when its parent is there.\n",
	.tables = dbb_tables,
};

/* Flag i's value: the one given, else db_bench's default (NULL: none). */
static const char *dbb_value(const struct dbb_args *a, size_t i)
{
	return a->flag[i] ? a->flag[i] : flags[i].def;
}

/* v as a message may show it: its control characters escaped (a newline
 * would start a line of its own), cut to len. */
static const char *shown(const char *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s", v);
	termesc_fix(buf, len);
	return buf;
}

/* gflags' spellings of a bool, any case: "1" or "0" for v, NULL for
 * another (db_bench: "illegal value '2' specified for bool flag"). */
static const char *dbb_bool(const char *v)
{
	static const char *const yes[] = { "1", "t", "true", "y", "yes" }, *const no[] = { "0", "f", "false",
											   "n", "no" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(v, yes[i]))
			return "1";
		if (!strcasecmp(v, no[i]))
			return "0";
	}
	return NULL;
}

/* Every value given: no control character in it, a bool flag's as gflags
 * reads it (made "1" or "0"). 0, or 2 after printing why. */
static int dbb_values(struct dbb_args *a)
{
	char buf[512];

	for (size_t i = 0; i < NFLAGS; i++) {
		const char *v = a->flag[i], *b;

		if (!v)
			continue;
		if (termesc_needed(v)) {
			cmd_error("db_bench: %s=%s: a control character in the value: expected text",
				  flags[i].name, shown(v, buf, sizeof(buf)));
			return 2;
		}
		if (!flags[i].boolean)
			continue;
		if (!(b = dbb_bool(v))) {
			cmd_error(
				"db_bench: %s=%s: illegal value '%s' specified for bool flag '%s': expected 1, 0, true, false, t, f, yes, no, y or n (any case, as db_bench's flags)",
				flags[i].name, v, v, flags[i].name + 2);
			return 2;
		}
		a->flag[i] = b;
	}
	return 0;
}

/* --db's name: none of the characters a job file reads as its own (the
 * directory reaches the runner through one), so that no message is about
 * a job file the user never wrote. 0, or 2 after printing why. */
static int dbb_db_name(const char *path)
{
	const char *bad = strpbrk(path, "#;:$[]");

	if (!*path) {
		cmd_error("db_bench: --db=: empty: expected a directory");
		return 2;
	}
	if (bad || path[0] == ' ' || path[strlen(path) - 1] == ' ') {
		char what[8] = "blanks";

		if (bad)
			snprintf(what, sizeof(what), "'%c'", *bad);
		cmd_error(
			"db_bench: --db=%s: %s: dbio takes no '#', ';', ':', '$', '[' or ']' in a directory name, nor blanks around it (its job files read them as a comment, a list of directories, a variable)",
			path, what);
		return 2;
	}
	return 0;
}

/* --db made, as db_bench makes it (RocksDB's CreateDirIfMissing): its last
 * directory only, when it is not there, with mkdirat in the directory the
 * walk holds (util/safepath.h: no symlink of another user on the way), so
 * nothing is followed at the last component; a symlink or anything but a
 * directory there is refused. 0, or the exit status after printing why. */
static int dbb_make_db(const char *path)
{
	struct safepath sp;
	struct dbio_err err = { 0 };
	int rc, status = 0;

	rc = safepath_resolve("db_bench: --db", path, &sp, &err);
	if (rc == DBIO_EUNSAFE) {
		cmd_error("%s", err.msg);
		status = 2;
	} else if (rc) {
		cmd_error(
			"db_bench: --db=%s: %s (db_bench makes the last directory of the path, not its parents)",
			path, strerror(-rc));
		status = 2;
	} else if (sp.via_link) { /* a dangling one too: mkdirat would make its target */
		cmd_error(
			"db_bench: --db=%s: a symbolic link: refusing to follow it (give the directory it points to)",
			path);
		status = 2;
	} else if (sp.fd >= 0 && !S_ISDIR(sp.st.st_mode)) {
		cmd_error("db_bench: --db=%s: not a directory", path);
		status = 2;
	} else if (sp.fd < 0 && mkdirat(sp.dirfd, sp.leaf, 0755)) {
		cmd_error("db_bench: --db=%s: cannot create the directory: %s", path, strerror(errno));
		status = 1;
	}
	safepath_release(&sp);
	return status;
}

/* The job file of the command line, into buf: 0, or 2 after printing why.
 * The series is on a 1 s grid (log_interval), as kv's own grid of a point
 * per batch would be a point per put at db_bench's --batch_size=1. */
static int dbb_jobfile(const struct dbb_args *a, char *buf, size_t len)
{
	const char *engine = a->flag[KV_ENGINE] ? a->flag[KV_ENGINE] : flags[KV_ENGINE].def;
	const bool rww = strstr(dbb_value(a, BENCHMARKS), "readwhilewriting") != NULL;
	char err[512];
	size_t used = (size_t)snprintf(buf, len,
				       "[db_bench]\nworkload=kv\npercentile_list=50:75:99:99.9:99.99\n"
				       "log_interval=1s\n");

	if (!a->flag[DB]) {
		cmd_error("db_bench: --db: needed: the directory to make the database in");
		return 2;
	}
	for (size_t i = 0; i < NFLAGS && used < len; i++) {
		const char *v = a->flag[i] ? a->flag[i] : flags[i].def;

		if (!a->flag[i] && flags[i].rocksdb && strcmp(engine, "rocksdb"))
			continue; /* another engine's default */
		if (flags[i].key && v && strpbrk(v, "\n[]")) {
			cmd_error("db_bench: %s: bad value '%s'", flags[i].name, shown(v, err, sizeof(err)));
			return 2;
		}
		if (i == THREADS && rww) /* db_bench's threads of readwhilewriting share one database */
			used += (size_t)snprintf(buf + used, len - used, "readers=%s\nnumjobs=1\n", v);
		else if (flags[i].key && v)
			used += (size_t)snprintf(buf + used, len - used, "%s=%s\n", flags[i].key, v);
	}
	return 0;
}

/* An error of the job file, told by the flag it came from: "(dbio
 * db_bench):6: key 'records': bad value 'abc': ..." becomes "db_bench:
 * --num=abc: bad value 'abc': ...", the line and job names of the hidden
 * job file left out. */
static void dbb_error(const struct dbb_args *a, const char *msg)
{
	const char *rest = msg, *key, *end;
	size_t len = strlen(msg), klen;
	const char *const job = " (job 'db_bench')";

	if (!strncmp(msg, BUILTIN_NAME ":", strlen(BUILTIN_NAME ":")) &&
	    (rest = strstr(msg + strlen(BUILTIN_NAME ":"), ": ")))
		rest += 2;
	else
		rest = msg;
	if (len >= strlen(job) && !strcmp(msg + len - strlen(job), job))
		len -= strlen(job);
	if (!strncmp(rest, "key '", 5) && (end = strstr(key = rest + 5, "': "))) {
		klen = (size_t)(end - key);
		for (size_t i = 0; i < NFLAGS; i++) {
			const char *v = a->flag[i] ? a->flag[i] : flags[i].def;

			if (flags[i].key && strlen(flags[i].key) == klen &&
			    !strncmp(flags[i].key, key, klen)) {
				rest = end + 3;
				cmd_error("db_bench: %s=%s: %.*s", flags[i].name, v ? v : "",
					  (int)(msg + len - rest), rest);
				return;
			}
		}
	}
	cmd_error("db_bench: %.*s", (int)(msg + len - rest), rest);
}

static double fig(const json_t *ph, const char *name)
{
	return json_number_value(json_object_get(json_object_get(ph, "figures"), name));
}

/* --histogram=1: the latencies of phase ph (its own: kv_bench.c keeps
 * them apart from the run's op types), in microseconds, as db_bench's
 * histogram prints its summary and percentiles, under db_bench's word for
 * the operation ("write", "read", "seek", "delete"). */
static void print_histogram(const json_t *ph, const char *what)
{
	const json_t *op = json_object_get(ph, "lat"), *lat = json_object_get(op, "lat_ns");
	const json_t *pct = json_object_get(lat, "percentiles");
	const char *const at[] = { "50", "75", "99", "99.9", "99.99" };
	const char *const label[] = { "P50", "P75", "P99", "P99.9", "P99.99" };

	if (!lat)
		return;
	printf("Microseconds per %s:\n", what);
	printf("Count: %.0f Average: %.4f  StdDev: %.2f\n", json_number_value(json_object_get(op, "count")),
	       json_number_value(json_object_get(lat, "mean")) / 1e3,
	       json_number_value(json_object_get(lat, "stddev")) / 1e3);
	/* db_bench keeps whole microseconds (its clock's), so its Min and Max
	 * are whole and its interpolated Median lies between them */
	const double min = floor(json_number_value(json_object_get(lat, "min")) / 1e3),
		     max = floor(json_number_value(json_object_get(lat, "max")) / 1e3),
		     median = json_number_value(json_object_get(lat, "p50")) / 1e3;

	printf("Min: %.0f  Median: %.4f  Max: %.0f\n", min,
	       median < min   ? min
	       : median > max ? max
			      : median,
	       max);
	printf("Percentiles:");
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		printf(" %s: %.2f", label[i], json_number_value(json_object_get(pct, at[i])) / 1e3);
	printf("\n------------------------------------------------------\n");
}

/* db_bench's word for a benchmark's operation, in its histogram's title. */
static const char *bench_word(const char *name)
{
	return !strcmp(name, "deleterandom") ? "delete"
	       : !strcmp(name, "seekrandom") ? "seek"
	       : !strncmp(name, "read", 4)   ? "read"
					     : "write";
}

/* The op type whose latencies are a benchmark's operations as db_bench
 * times them: a write's whole batch (the put and its write), a read's get,
 * seek or step (kv_bench.c). */
static const char *bench_op(const char *name)
{
	if (!strncmp(name, "fill", 4) || !strcmp(name, "overwrite") || !strcmp(name, "deleterandom"))
		return "batch";
	return "lookup";
}

/* db_bench's lines about the data, and its line of dashes. */
static void print_head(double value_bytes, double entries, bool assertions)
{
	printf("Keys:       16 bytes each\nValues:     %.0f bytes each (seeded random: not compressible)\n",
	       value_bytes);
	printf("Entries:    %.0f\n", entries);
	if (assertions)
		printf("WARNING: Assertions are enabled; benchmarks unnecessarily slow\n");
	printf("------------------------------------------------\n");
}

static void print_results(const json_t *result, const struct jobset *set, const struct run_args *ra)
{
	const json_t *job = json_array_get(json_object_get(result, "jobs"), 0);
	const json_t *run = json_array_get(json_object_get(job, "runs"), 0);
	const json_t *db = json_object_get(run, "database"), *opts = json_object_get(job, "options");
	const double threads = json_number_value(json_object_get(run, "threads"));
	/* value_size as the result gives it: "100" (the front end gives one size) */
	const double kv = 16 + strtod(json_string_value(json_object_get(opts, "value_size")) ?: "0", NULL);
	size_t i;
	json_t *ph;

	/* ra is the run_args that lead struct dbb_args */
	const struct dbb_args *a = (const struct dbb_args *)ra;
	const bool histogram = a->flag[HISTOGRAM] && strcmp(a->flag[HISTOGRAM], "0");

	(void)set;
	printf("%-11s version %s\n", json_string_value(json_object_get(db, "engine")) ?: "?",
	       json_string_value(json_object_get(db, "version")) ?: "?");
	print_head(kv - 16, json_number_value(json_object_get(opts, "records")),
		   json_is_true(json_object_get(db, "assertions")));
	json_array_foreach (json_object_get(run, "phases"), i, ph) {
		const char *name = json_string_value(json_object_get(ph, "name"));
		const double ops = json_number_value(json_object_get(ph, "ops")) ?: 1;
		const double secs = json_number_value(json_object_get(ph, "elapsed_ns")) / 1e9;
		const bool reads = !strcmp(bench_op(name), "lookup");
		/* db_bench's bytes: keys and values put or found; none for seeks and deletes */
		const double bytes = !strcmp(name, "seekrandom")    ? 0
				     : reads			    ? fig(ph, "found") * kv
				     : strcmp(name, "deleterandom") ? fig(ph, "user_bytes")
								    : 0;
		char extra[160] = "";
		size_t used = 0;

		if (bytes > 0 && secs > 0)
			used += (size_t)snprintf(extra, sizeof(extra), " %6.1f MB/s",
						 bytes / 1048576.0 / secs);
		if (reads && strcmp(name, "readseq"))
			snprintf(extra + used, sizeof(extra) - used, " (%.0f of %.0f found)",
				 fig(ph, "found"), ops);
		else if (!strcmp(name, "fillsync")) /* db_bench's num / 1000, which it says */
			snprintf(extra + used, sizeof(extra) - used, " (%.0f ops)",
				 floor(json_number_value(json_object_get(opts, "records")) / 1000));
		/* readwhilewriting's threads are its readers (the writer is not counted, as in db_bench) */
		const double readers = fig(ph, "readers") > 0 ? fig(ph, "readers") : threads;

		printf("%-12s : %11.3f micros/op %ld ops/sec %.3f seconds %.0f operations;%s\n", name,
		       secs * 1e6 * readers / ops, (long)(secs > 0 ? ops / secs : 0), secs, ops, extra);
		if (histogram)
			print_histogram(ph, bench_word(name));
	}
	if (threads > 1)
		printf("(%.0f threads, each on a database of its own: db_bench's threads share one)\n",
		       threads);
}

static int db_bench_run(int argc, char **argv);

/* The flag called name (without its dashes, len bytes), or NULL. */
static const struct dbb_flag *flag_named(const char *name, size_t len)
{
	for (size_t i = 0; i < NFLAGS; i++)
		if (strlen(flags[i].name + 2) == len && !strncmp(flags[i].name + 2, name, len))
			return &flags[i];
	return NULL;
}

/* gflags' other spellings of a flag made "--name=value" (dbio's one
 * form), into out[0..argc) (owned strings in *owned, freed by the caller):
 * one dash (-num=10), a bool alone (--histogram: true) or negated
 * (--nohistogram: false), and a value in the next argument (--num 10).
 * Returns how many arguments out holds. */
static int gflags_forms(int argc, char **argv, char **out, char **owned, size_t *nowned)
{
	int n = 0;

	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i], *name;
		const struct dbb_flag *f;

		if (i == 0 || arg[0] != '-' || !strcmp(arg, "-") || !strcmp(arg, "--")) {
			out[n++] = argv[i];
			continue;
		}
		name = arg + (arg[1] == '-' ? 2 : 1);
		if (strchr(name, '=') || !name[0]) {
			if (arg[1] != '-' && asprintf(&owned[*nowned], "-%s", arg) >= 0)
				arg = owned[(*nowned)++];
			out[n++] = (char *)arg;
			continue;
		}
		f = flag_named(name, strlen(name));
		if (!f && !strncmp(name, "no", 2) && (f = flag_named(name + 2, strlen(name + 2))) &&
		    !f->boolean)
			f = NULL;
		if (f && f->boolean &&
		    asprintf(&owned[*nowned], "%s=%s", f->name,
			     f == flag_named(name, strlen(name)) ? "true" : "false") >= 0)
			out[n++] = owned[(*nowned)++];
		else if (f && !f->boolean && i + 1 < argc &&
			 asprintf(&owned[*nowned], "%s=%s", f->name, argv[i + 1]) >= 0) {
			out[n++] = owned[(*nowned)++];
			i++;
		} else if (arg[1] != '-' && asprintf(&owned[*nowned], "-%s", arg) >= 0) {
			out[n++] = owned[(*nowned)++];
		} else {
			out[n++] = argv[i];
		}
	}
	return n;
}

static int db_bench_main(int argc, char **argv)
{
	char **gv = calloc((size_t)argc + 2, sizeof(char *)),
	     **owned = calloc((size_t)argc + 1, sizeof(char *));
	size_t nowned = 0;
	int status;

	if (!gv || !owned) {
		free(gv);
		free(owned);
		cmd_error("db_bench: out of memory");
		return 1;
	}
	gv[0] = argv[-1]; /* "dbio": jobrun_execute records the whole command line */
	argc = gflags_forms(argc, argv, gv + 1, owned, &nowned);
	status = db_bench_run(argc, gv + 1);
	while (nowned)
		free(owned[--nowned]);
	free(owned);
	free(gv);
	return status;
}

static int db_bench_run(int argc, char **argv)
{
	struct dbb_args a = { 0 };
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	static char text[4096];
	bool suite;
	int rc, status;

	status = cmd_opts_parse(&cmd_db_bench_opts, argc, argv, &a);
	if (status) {
		status = status < 0 ? 0 : status;
		goto out;
	}
	if ((status = dbb_values(&a)) || (status = dbb_jobfile(&a, text, sizeof(text))) ||
	    (status = dbb_db_name(a.flag[DB])))
		goto out;
	jobrun_progress(&a.run);
	a.run.builtin = text;
	a.run.builtin_name = BUILTIN_NAME;
	rc = jobrun_build(&a.run, NULL, 0, &set, &suite, &err);
	if (!rc && (status = dbb_make_db(a.flag[DB])))
		goto out;
	if (!rc) /* here too, before jobrun_execute's own, to say the flag */
		rc = jobrun_check(&a.run, &set, &err);
	if (rc) {
		dbb_error(&a, err.msg);
		status = rc == DBIO_EUNSAFE ? 2 : dbio_exit_status(rc);
		goto out;
	}
	if (a.flag[BENCHMARKS] &&
	    !a.flag[BENCHMARKS][0]) { /* --benchmarks=: db_bench runs none, and says so by its head alone */
		print_head(strtod(dbb_value(&a, VALUE_SIZE), NULL), strtod(dbb_value(&a, NUM), NULL), false);
		goto out;
	}
	status = jobrun_execute(&a.run, &set, argc + 1, argv - 1, print_results);
out:
	jobset_release(&set);
	jobrun_args_release(&a.run);
	return status;
}

const struct cmd cmd_db_bench = {
	.name = "db_bench",
	.summary = "RocksDB's db_bench command line: its benchmarks on rocksdb or leveldb, its result lines",
	.main = db_bench_main,
	.opts = &cmd_db_bench_opts,
};
