/*
 * dbio bonnie [bonnie++ 2.00's options]: a bonnie++ user's own command line,
 * run as ordinary dbio jobs, one group each (stonewall), in bonnie++'s order:
 *
 *   block-write   rw=write, bs=CHUNK, size=-s          ("Writing intelligently")
 *   rewrite       rw=rewrite (each block read, then written back)
 *   block-read    rw=read                             ("Reading intelligently")
 *   seeks         rw=randrw rwmixread=90 over one shared file by SEEKERS
 *                 threads, SEEKS blocks in all (io_size)
 *   files-seq     workload=meta, -n NUM*1024 files of MIN..MAX bytes in DIRS
 *                 directories: create, stat (read when MAX > 0), delete
 *   files-random  the same in random order
 *
 * and bonnie++'s text table and CSV line made from the result (with -q the
 * CSV alone on stdout, the table on stderr), so that bon_csv2txt and
 * bon_csv2html read it. --output FILE / --format json give dbio's JSON.
 * Per-char tests (putc/getc) are never run: they time the C library's stdio.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "result/result.h"
#include "util/termesc.h"

#define MIB (1024ull * 1024)

/* bonnie++'s parameters, as given or defaulted. */
struct bonnie {
	const char *dir;
	const char *name; /* -m */
	uint64_t size_mib;
	uint64_t chunk; /* bytes */
	uint64_t seeks, seekers;
	uint64_t files_k; /* -n: files / 1024 */
	uint64_t max_size, min_size, dirs;
	long long ram_mib; /* -r; -1: not given */
	unsigned runs;	   /* -x */
	bool quiet, sync_writes, direct, seed_set;
	unsigned long long seed;
	char size_text[32], files_text[64];
	char name_shown[32]; /* name as the table and the CSV show it: escaped, cut to a CSV field */
};

/* The command's parameters, for the table printer (jobrun_execute's show). */
static struct bonnie conf;

static void bonnie_usage(void)
{
	printf("usage: dbio bonnie [-d DIR] [-s SIZE[:CHUNK[:SEEKS[:SEEKERS]]]] [-n NUM[:MAX[:MIN[:DIRS]]]]\n"
	       "                   [-m NAME] [-r RAM] [-x RUNS] [-u root] [-z SEED] [-q] [-f] [-b] [-D]\n"
	       "                   [--output FILE] [--format text|json] [--force] [--progress=none|line]\n\n"
	       "bonnie++ 2.00's command line, run as dbio jobs in bonnie++'s order: block write,\n"
	       "rewrite, block read and random seeks of a SIZE MiB file (-s, default twice the RAM;\n"
	       "CHUNK bytes a call, default 8192; SEEKS seeks, default 8192, by SEEKERS threads,\n"
	       "default 5, 10 %% of them rewrites), then NUM*1024 files (-n, default 16) of MIN..MAX\n"
	       "bytes in DIRS directories created, read (stat when MAX is 0) and deleted in\n"
	       "sequential and in random order. Prints bonnie++'s table and its CSV line (-q: the\n"
	       "CSV line alone on stdout, the table on stderr), which bon_csv2txt and bon_csv2html\n"
	       "read. -r RAM (MiB) smaller than the machine's memory runs the jobs in a memory\n"
	       "cgroup of that size (mem_limit), so that bonnie++'s rule -s >= 2 * RAM means what\n"
	       "it says; -r 0 skips the rule. -b: fsync after every write (and of the directory\n"
	       "after every create and delete); -D: O_DIRECT for the block write, as bonnie++\n"
	       "2.00 (rewrite, read and seeks reopen the file buffered); -z: the random seed;\n"
	       "-x: runs.\n"
	       "Per-char tests (putc/getc) are not run: they time the C library, not the storage.\n"
	       "docs/bonnie.md translates every option into dbio's job keys.\n");
}

/* A whole number of text with an optional unit suffix: k (x1024), m, g.
 * unit_k: what a bare number is in, as a multiple of the suffix k. */
static int parse_count(const char *text, uint64_t *out, uint64_t bare, uint64_t k, uint64_t m, uint64_t g)
{
	char *end;
	unsigned long long v;

	if (!*text || *text == '-')
		return -1;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || end == text)
		return -1;
	uint64_t mult = !*end			? bare
			: !strcasecmp(end, "k") ? k
			: !strcasecmp(end, "m") ? m
			: !strcasecmp(end, "g") ? g
						: 0;
	if (!mult || v > UINT64_MAX / mult)
		return -1;
	*out = v * mult;
	return 0;
}

/* The colon-separated fields of text, into at most n strings (in buf). */
static size_t split_fields(char *buf, size_t len, const char *text, char **fields, size_t n)
{
	size_t count = 0;

	snprintf(buf, len, "%s", text);
	for (char *p = buf; count < n; count++) {
		fields[count] = p;
		p = strchr(p, ':');
		if (!p) {
			count++;
			break;
		}
		*p++ = '\0';
	}
	return count;
}

static int bad(const char *opt, const char *value, const char *accepted)
{
	cmd_error("bonnie: %s %s: %s", opt, value, accepted);
	return 2;
}

/* One colon-separated field of -s or -n: where it goes, its units (what a
 * bare number, k, m and g multiply by; 0: not allowed), its bounds. */
struct field_rule {
	size_t offset; /* in struct bonnie, of a uint64_t */
	uint64_t bare, k, m, g;
	uint64_t min, max;
	bool pow2;
	const char *accepted;
};

#define B(field) offsetof(struct bonnie, field)

static const struct field_rule s_rules[] = {
	{ B(size_mib), 1, 0, 1, 1024, 0, 1ull << 30, false,
	  "the size is a whole number of MiB, or of GiB with g (64, 2g)" },
	{ B(chunk), 1, 1024, 0, 0, 256, 1048576, true,
	  "the chunk size is a power of two from 256 to 1048576 bytes (or 1k to 1024k)" },
	{ B(seeks), 1, 0, 0, 0, 1, 1ull << 32, false, "the number of seeks is a whole number from 1" },
	{ B(seekers), 1, 0, 0, 0, 1, 1024, false,
	  "the number of seeker processes is a whole number from 1 to 1024" },
};

static const struct field_rule n_rules[] = {
	{ B(files_k), 1, 0, 0, 0, 0, 9765, false,
	  "the number of files is a whole number of 1024s from 0 to 9765 (10^7 files)" },
	{ B(max_size), 1, 1024, MIB, 0, 0, MIB, false,
	  "the largest file size is a number of bytes from 0 to 1048576 (or 1024k, 1m)" },
	{ B(min_size), 1, 1024, MIB, 0, 0, MIB, false,
	  "the smallest file size is a number of bytes from 0 to 1048576 (or 1024k, 1m)" },
	{ B(dirs), 1, 0, 0, 0, 1, 10000, false,
	  "the number of directories is a whole number from 1 to 10000" },
};

/* Parse text's fields by rules; an empty field keeps its default. */
static int parse_fields(const char *opt, const char *text, const struct field_rule *rules, size_t nrules,
			struct bonnie *b)
{
	char buf[256], *f[8];
	size_t n = split_fields(buf, sizeof(buf), text, f, 8);

	for (size_t i = 0; i < n && i < nrules; i++) {
		const struct field_rule *r = &rules[i];
		uint64_t *dst = (uint64_t *)((char *)b + r->offset);

		if (!*f[i] && i)
			continue;
		if (parse_count(f[i], dst, r->bare, r->k, r->m, r->g) || *dst < r->min || *dst > r->max ||
		    (r->pow2 && (*dst & (*dst - 1))))
			return bad(opt, text, r->accepted);
	}
	return 0;
}

/* -s SIZE[:CHUNK[:SEEKS[:SEEKERS]]] */
static int parse_s(const char *text, struct bonnie *b)
{
	char buf[256], *f[8];

	if (split_fields(buf, sizeof(buf), text, f, 8) > 4)
		return bad("-s", text, "expected SIZE[:CHUNK[:SEEKS[:SEEKERS]]]");
	return parse_fields("-s", text, s_rules, sizeof(s_rules) / sizeof(s_rules[0]), b);
}

/* -n NUM[:MAX[:MIN[:DIRS]]] */
static int parse_n(const char *text, struct bonnie *b)
{
	char buf[256], *f[8];
	size_t n = split_fields(buf, sizeof(buf), text, f, 8);
	int rc;

	if (n > 5)
		return bad("-n", text, "expected NUM[:MAX[:MIN[:DIRS]]]");
	if (n > 4)
		return bad("-n", text,
			   "the fifth field (the chunk size of the small files' writes) is not supported: "
			   "dbio writes each small file in one call");
	if (n > 1 && (!strcmp(f[1], "-1") || !strcmp(f[1], "-2")))
		return bad("-n", text,
			   "hard and symbolic links (MAX -1 and -2) are not supported: dbio makes files");
	if ((rc = parse_fields("-n", text, n_rules, sizeof(n_rules) / sizeof(n_rules[0]), b)))
		return rc;
	if (b->min_size > b->max_size)
		return bad("-n", text, "the smallest file size (MIN) is more than the largest (MAX)");
	return 0;
}

/* -u USER[:GROUP] and -g GROUP: dbio runs as root and switches to no one. */
static int check_user(int opt, const char *text)
{
	char buf[128], *f[3];
	size_t n = split_fields(buf, sizeof(buf), text, f, 3);

	for (size_t i = 0; i < n && i < 2; i++)
		if (strcmp(f[i], "root") && strcmp(f[i], "0"))
			return opt == 'u'
				       ? bad("-u", text,
					     "dbio runs as the user that starts it and switches to no other; "
					     "-u root (or 0) is accepted")
				       : bad("-g", text,
					     "dbio runs as the group that starts it; -g root (or 0) is accepted");
	return n > 2 ? bad(opt == 'u' ? "-u" : "-g", text, "expected USER[:GROUP]") : 0;
}

static int parse_letter(int opt, const char *arg, struct bonnie *b)
{
	uint64_t v;

	switch (opt) {
	case 'd':
		b->dir = arg;
		return 0;
	case 's':
		return parse_s(arg, b);
	case 'n':
		return parse_n(arg, b);
	case 'm':
		/* bonnie++ 2.00a writes -m into its CSV as it is: a comma there
		 * moves every figure after it one column on for bon_csv2txt */
		if (strchr(arg, ','))
			return bad(
				"-m", arg,
				"a comma would split the name across columns of bonnie++'s CSV line (bonnie++ 2.00a writes it as it is, and bon_csv2txt then reads every figure in the wrong column): give a name without one");
		b->name = arg;
		return 0;
	case 'r':
		if (parse_count(arg, &v, 1, 0, 1, 1024) || v > (1ull << 40))
			return bad("-r", arg, "the RAM size is a whole number of MiB, or of GiB with g");
		b->ram_mib = (long long)v;
		return 0;
	case 'x':
		if (parse_count(arg, &v, 1, 0, 0, 0) || !v || v > 1000)
			return bad("-x", arg, "the number of runs is a whole number from 1 to 1000");
		b->runs = (unsigned)v;
		return 0;
	case 'z':
		if (parse_count(arg, &v, 1, 0, 0, 0) || v > UINT32_MAX)
			return bad("-z", arg, "the seed is a whole number from 0 to 4294967295");
		b->seed = v;
		b->seed_set = true;
		return 0;
	case 'u':
	case 'g':
		return check_user(opt, arg);
	case 'q':
		b->quiet = true;
		return 0;
	case 'b':
		b->sync_writes = true;
		return 0;
	case 'D':
		b->direct = true;
		return 0;
	case 'f':
		if (arg)
			return bad("-f", arg,
				   "per-char tests are not run by dbio: putc and getc time the C library's "
				   "stdio buffer, not the storage; -f alone (skip them) is accepted");
		return 0;
	case 'c':
		if (strcmp(arg, "1"))
			return bad(
				"-c", arg,
				"concurrent copies of the test are not supported; 1 is accepted (for threads "
				"on one target, a job file with numjobs)");
		return 0;
	case 'p':
	case 'y':
		cmd_error("bonnie: -%c: bonnie++'s semaphores between processes are not supported: one dbio "
			  "command runs its jobs in order; run several targets from one job file",
			  opt);
		return 2;
	case 'Z':
		return bad("-Z", arg, "a file of random numbers is not supported; -z SEED is");
	default:
		return -1;
	}
}

/* The job file of the run, in a static buffer; NULL when nothing is asked. */
static const char *bonnie_jobfile(const struct bonnie *b, uint64_t mem_limit_mib)
{
	static char text[4096];
	size_t used = 0;
	const uint64_t nrfiles = (b->size_mib + 1023) / 1024; /* bonnie++: files of up to 1 GiB */
	const char *fsync = b->sync_writes ? "fsync=1\n" : "";

#define ADD(...) (used += (size_t)snprintf(text + used, sizeof(text) - used, __VA_ARGS__))
	ADD("[global]\nstonewall\ndirectory=%s\n", b->dir);
	if (b->seed_set)
		ADD("randseed=%llu\n", b->seed);
	if (b->runs > 1)
		ADD("repeat=%u\n", b->runs);
	if (mem_limit_mib)
		ADD("mem_limit=%llum\n", (unsigned long long)mem_limit_mib);
	if (b->size_mib) {
		char file[256];

		snprintf(file, sizeof(file), "bs=%llu\nsize=%llum\nnrfiles=%llu\n",
			 (unsigned long long)b->chunk, (unsigned long long)b->size_mib,
			 (unsigned long long)nrfiles);
		/* bonnie++ 2.00 opens the file O_DIRECT only when it creates it:
		 * -D makes the block write direct, the rest reopen it buffered */
		ADD("[block-write]\nrw=write\n%s%s%s", file, fsync, b->direct ? "direct=1\n" : "");
		ADD("[rewrite]\nrw=rewrite\n%s%s", file, fsync);
		ADD("[block-read]\nrw=read\n%s", file);
		ADD("[seeks]\nrw=randrw\nrwmixread=90\nnumjobs=%llu\nshare_files=1\nio_size=%llu\n%s%s",
		    (unsigned long long)b->seekers, (unsigned long long)(b->seeks * b->chunk), file, fsync);
	}
	if (b->files_k) {
		char meta[256];

		snprintf(
			meta, sizeof(meta),
			"workload=meta\nmeta_files=%llu\nmeta_dirs=%llu\nmeta_size=%llu\nmeta_size_max=%llu\n"
			"meta_phases=create,%s,delete\n%s",
			(unsigned long long)(b->files_k * 1024), (unsigned long long)(b->dirs ? b->dirs : 1),
			(unsigned long long)b->min_size, (unsigned long long)b->max_size,
			b->max_size ? "read" : "stat", b->sync_writes ? "meta_fsync_dir=1\n" : "");
		ADD("[files-seq]\n%smeta_order=seq\n", meta);
		ADD("[files-random]\n%smeta_order=random\n", meta);
	}
#undef ADD
	return used < sizeof(text) ? text : NULL;
}

/* The CSV fields of bonnie++ 2.00's line (format 1.98). */
enum {
	CSV_FORMAT,
	CSV_VERSION,
	CSV_NAME,
	CSV_CONCURRENCY,
	CSV_SEED,
	CSV_SIZE,
	CSV_CHUNK,
	CSV_SEEKS,
	CSV_SEEKERS,
	CSV_PUTC, /* each figure then its %CPU */
	CSV_WRITE = CSV_PUTC + 2,
	CSV_REWRITE = CSV_WRITE + 2,
	CSV_GETC = CSV_REWRITE + 2,
	CSV_READ = CSV_GETC + 2,
	CSV_SEEK = CSV_READ + 2,
	CSV_NUM_FILES = CSV_SEEK + 2,
	CSV_MAX_SIZE,
	CSV_MIN_SIZE,
	CSV_NUM_DIRS,
	CSV_FILE_CHUNK,
	CSV_FILES, /* 6 x (ops/s, %CPU): seq create, read, delete, random create, read, delete */
	CSV_IO_LAT = CSV_FILES + 12, /* 6: putc, write, rewrite, getc, read, seeks */
	CSV_FILE_LAT = CSV_IO_LAT + 6,
	CSV_NFIELDS = CSV_FILE_LAT + 6,
};

typedef char csv_field[32];

static const json_t *job_named(const json_t *result, const char *name)
{
	size_t i;
	const json_t *job;

	json_array_foreach (json_object_get(result, "jobs"), i, job)
		if (!strcmp(json_string_value(json_object_get(job, "name")) ?: "", name))
			return job;
	return NULL;
}

/* Run r of the job named name, or NULL when it did not run whole. */
static const json_t *run_of(const json_t *result, const char *name, size_t r)
{
	const json_t *run = json_array_get(json_object_get(job_named(result, name), "runs"), r);

	return run && !json_is_true(json_object_get(run, "partial")) ? run : NULL;
}

static double num(const json_t *obj, const char *a, const char *b, const char *c)
{
	const json_t *v = json_object_get(obj, a);

	if (b)
		v = json_object_get(v, b);
	if (c)
		v = json_object_get(v, c);
	return json_number_value(v);
}

/* bonnie++'s latency: microseconds, milliseconds past 99999 us, seconds past 99999 ms. */
static void fmt_latency(csv_field out, double ns)
{
	double us = ns / 1e3;

	if (us < 100000)
		snprintf(out, sizeof(csv_field), "%.0fus", us);
	else if (us < 1e8)
		snprintf(out, sizeof(csv_field), "%.0fms", us / 1e3);
	else
		snprintf(out, sizeof(csv_field), "%.0fs", us / 1e6);
}

/* The block phases of run r: KiB/s (ops/s for seeks), %CPU and the longest
 * latency of each. */
static void io_fields(const json_t *result, size_t r, csv_field *f)
{
	static const struct {
		const char *job;
		int field, lat;
	} phases[] = {
		{ "block-write", CSV_WRITE, 1 },
		{ "rewrite", CSV_REWRITE, 2 },
		{ "block-read", CSV_READ, 4 },
		{ "seeks", CSV_SEEK, 5 },
	};

	for (size_t p = 0; p < sizeof(phases) / sizeof(phases[0]); p++) {
		const json_t *run = run_of(result, phases[p].job, r);
		const json_t *ops = json_object_get(run, "ops");
		double secs = num(run, "elapsed_ns", NULL, NULL) / 1e9;
		double rd = num(ops, "read", "bytes", NULL), wr = num(ops, "write", "bytes", NULL);
		double lat = num(ops, "read", "lat_ns", "max"), wlat = num(ops, "write", "lat_ns", "max");

		if (!run || secs <= 0)
			continue;
		if (phases[p].field == CSV_SEEK)
			snprintf(f[CSV_SEEK], sizeof(csv_field), "%.1f",
				 (num(ops, "read", "count", NULL) + num(ops, "write", "count", NULL)) / secs);
		else /* rewrite: each block read and written back counts once, as in bonnie++ */
			snprintf(f[phases[p].field], sizeof(csv_field), "%.0f",
				 (phases[p].field == CSV_REWRITE ? rd : rd + wr) / 1024 / secs);
		snprintf(f[phases[p].field + 1], sizeof(csv_field), "%.0f",
			 num(run, "rusage", "cpu_pct", NULL));
		fmt_latency(f[CSV_IO_LAT + phases[p].lat], wlat > lat ? wlat : lat);
	}
}

/* The file phases of run r: ops/s, %CPU and the longest latency of each. */
static void file_fields(const json_t *result, size_t r, csv_field *f)
{
	static const char *const jobs[] = { "files-seq", "files-random" };

	for (size_t j = 0; j < 2; j++) {
		const json_t *run = run_of(result, jobs[j], r);
		const json_t *phase;
		size_t i;

		json_array_foreach (json_object_get(run, "phases"), i, phase) {
			const char *name = json_string_value(json_object_get(phase, "name")) ?: "";
			size_t k = j * 3 + (!strcmp(name, "create") ? 0 : !strcmp(name, "delete") ? 2 : 1);

			snprintf(f[CSV_FILES + 2 * k], sizeof(csv_field), "%.0f",
				 num(phase, "ops_per_s", NULL, NULL));
			snprintf(f[CSV_FILES + 2 * k + 1], sizeof(csv_field), "%.0f",
				 num(phase, "rusage", "cpu_pct", NULL));
			fmt_latency(f[CSV_FILE_LAT + k],
				    num(json_object_get(run, "ops"), name, "lat_ns", "max"));
		}
	}
}

static void csv_fields(const json_t *result, size_t r, csv_field *f)
{
	const json_t *first = json_array_get(json_object_get(result, "jobs"), 0);

	memset(f, 0, sizeof(csv_field) * CSV_NFIELDS);
	snprintf(f[CSV_FORMAT], sizeof(csv_field), "1.98");
	snprintf(f[CSV_VERSION], sizeof(csv_field), "dbio-%s", DBIO_VERSION);
	snprintf(f[CSV_NAME], sizeof(csv_field), "%s", conf.name_shown);
	snprintf(f[CSV_CONCURRENCY], sizeof(csv_field), "1");
	snprintf(f[CSV_SEED], sizeof(csv_field), "%.0f", num(first, "options", "randseed", NULL));
	if (conf.size_mib) {
		snprintf(f[CSV_SIZE], sizeof(csv_field), "%s", conf.size_text);
		if (conf.chunk != 8192)
			snprintf(f[CSV_CHUNK], sizeof(csv_field), "%llu", (unsigned long long)conf.chunk);
		snprintf(f[CSV_SEEKS], sizeof(csv_field), "%llu", (unsigned long long)conf.seeks);
		snprintf(f[CSV_SEEKERS], sizeof(csv_field), "%llu", (unsigned long long)conf.seekers);
		io_fields(result, r, f);
	}
	if (conf.files_k) {
		snprintf(f[CSV_NUM_FILES], sizeof(csv_field), "%llu", (unsigned long long)conf.files_k);
		if (conf.max_size || conf.min_size) {
			snprintf(f[CSV_MAX_SIZE], sizeof(csv_field), "%llu",
				 (unsigned long long)conf.max_size);
			snprintf(f[CSV_MIN_SIZE], sizeof(csv_field), "%llu",
				 (unsigned long long)conf.min_size);
		}
		if (conf.dirs)
			snprintf(f[CSV_NUM_DIRS], sizeof(csv_field), "%llu", (unsigned long long)conf.dirs);
		file_fields(result, r, f);
	}
}

/* b->name for the table and the CSV line: its control characters (an
 * ESC, a newline that would end the CSV line) escaped as dbio escapes
 * text from outside, then cut to a field; bonnie++ prints it raw. */
static void show_name(struct bonnie *b)
{
	FILE *fp = fmemopen(b->name_shown, sizeof(b->name_shown), "w");

	b->name_shown[0] = '\0';
	if (!fp)
		return;
	setbuf(fp, NULL);
	termesc_write(fp, b->name, strlen(b->name), TERMESC_LINE);
	fclose(fp);
	b->name_shown[sizeof(b->name_shown) - 1] = '\0';
}

/* bonnie++'s K/sec in its table: k below 10000, then m, then g. */
static const char *fmt_speed(char *buf, size_t len, const char *kps)
{
	double v = atof(kps);

	if (!*kps)
		snprintf(buf, len, "%s", "");
	else if (v < 10000)
		snprintf(buf, len, "%4.0fk", v);
	else if (v / 1024 < 100)
		snprintf(buf, len, "%4.1fm", v / 1024);
	else if (v / 1024 < 1000)
		snprintf(buf, len, "%4.0fm", v / 1024);
	else
		snprintf(buf, len, "%4.1fg", v / 1024 / 1024);
	return buf;
}

static void print_latency_row(FILE *out, csv_field *lat)
{
	bool any = false;

	for (int i = 0; i < 6; i++)
		any |= lat[i][0] != '\0';
	if (any)
		fprintf(out, "Latency           %9s %9s %9s %9s %9s %9s\n", lat[0], lat[1], lat[2], lat[3],
			lat[4], lat[5]);
}

/* bonnie++'s 80-column table of one run. */
static void print_table(FILE *out, csv_field *f)
{
	char sp[6][16];

	if (conf.size_mib) {
		fprintf(out, "Version %9s   ------Sequential Output------ --Sequential Input- --Random-\n",
			f[CSV_VERSION]);
		fprintf(out,
			"                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
			"Name:Size etc        /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP\n");
		fprintf(out, "%-*.*s %s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s\n",
			(int)(18 - strlen(f[CSV_SIZE])), (int)(18 - strlen(f[CSV_SIZE])), f[CSV_NAME],
			f[CSV_SIZE], "", "", fmt_speed(sp[0], 16, f[CSV_WRITE]), f[CSV_WRITE + 1],
			fmt_speed(sp[1], 16, f[CSV_REWRITE]), f[CSV_REWRITE + 1], "", "",
			fmt_speed(sp[2], 16, f[CSV_READ]), f[CSV_READ + 1], f[CSV_SEEK], f[CSV_SEEK + 1]);
		print_latency_row(out, &f[CSV_IO_LAT]);
	}
	if (conf.files_k) {
		fprintf(out, "Version %9s   ------Sequential Create------ --------Random Create--------\n",
			f[CSV_VERSION]);
		fprintf(out, "%-19.19s -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n",
			f[CSV_NAME]);
		fprintf(out,
			"files:max:min        /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP\n");
		fprintf(out, "%19s", conf.files_text);
		for (int i = 0; i < 6; i++)
			fprintf(out, " %5s %3s", f[CSV_FILES + 2 * i], f[CSV_FILES + 2 * i + 1]);
		fputc('\n', out);
		print_latency_row(out, &f[CSV_FILE_LAT]);
	}
}

static void show(const json_t *result, const struct jobset *set, const struct run_args *a)
{
	size_t runs = 0;
	size_t i;
	const json_t *job;

	(void)set;
	json_array_foreach (json_object_get(result, "jobs"), i, job)
		if (json_array_size(json_object_get(job, "runs")) > runs)
			runs = json_array_size(json_object_get(job, "runs"));
	for (size_t r = 0; r < runs; r++) {
		csv_field f[CSV_NFIELDS];

		csv_fields(result, r, f);
		print_table(conf.quiet ? stderr : stdout, f);
		for (int c = 0; c < CSV_NFIELDS; c++)
			printf("%s%s", c ? "," : "", f[c]);
		putchar('\n');
	}
}

/* Split argv: dbio's own "--" options (and the value of --output, --format,
 * --series-csv given apart) into dargv, bonnie++'s letters into bargv. */
static void split_args(int argc, char **argv, char **bargv, int *bargc, char **dargv, int *dargc)
{
	bargv[(*bargc)++] = argv[0];
	dargv[(*dargc)++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--", 2) || !argv[i][2]) {
			bargv[(*bargc)++] = argv[i];
			continue;
		}
		dargv[(*dargc)++] = argv[i];
		if ((!strcmp(argv[i], "--output") || !strcmp(argv[i], "--format") ||
		     !strcmp(argv[i], "--series-csv")) &&
		    i + 1 < argc)
			dargv[(*dargc)++] = argv[++i];
	}
	bargv[*bargc] = dargv[*dargc] = NULL;
}

static int parse_letters(int argc, char **argv, struct bonnie *b)
{
	int opt, rc;

	opterr = 0;
	optind = 1;
	while ((opt = getopt(argc, argv, "+:d:s:n:m:r:x:u:g:qf::bDz:Z:c:p:y:")) != -1) {
		if (opt == ':') {
			cmd_error("bonnie: -%c: needs a value (dbio bonnie --help)", optopt);
			return 2;
		}
		if (opt == '?' || (rc = parse_letter(opt, optarg, b)) < 0) {
			cmd_error(
				"bonnie: -%c: not an option of bonnie++ 2.00 (dbio bonnie --help lists them)",
				optopt ? optopt : opt);
			return 2;
		}
		if (rc)
			return rc;
	}
	if (optind < argc) {
		cmd_error("bonnie: '%s': bonnie++ takes no operands; the directory is -d DIR", argv[optind]);
		return 2;
	}
	return 0;
}

/* Defaults, the texts of the table, bonnie++'s rule that the file be twice
 * the RAM; the memory limit that makes -r true (MiB, 0: none) in *limit. */
static int settle(struct bonnie *b, bool size_given, uint64_t *limit)
{
	const uint64_t phys_mib = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE) / MIB;
	const uint64_t ram = b->ram_mib < 0 ? phys_mib : (uint64_t)b->ram_mib;

	*limit = b->ram_mib > 0 && (uint64_t)b->ram_mib < phys_mib ? (uint64_t)b->ram_mib : 0;
	if (*limit && *limit < 16) {
		cmd_error(
			"bonnie: -r %llu: dbio makes -r true with a memory cgroup (mem_limit) and needs at least "
			"16 MiB in it; give -r 16 or more, or -r 0 to skip the check",
			(unsigned long long)*limit);
		return 2;
	}
	if (!size_given)
		b->size_mib = 2 * (ram ? ram : phys_mib);
	if (ram && b->size_mib && b->size_mib < 2 * ram) {
		cmd_error(
			"bonnie: -s %llu: the file should be at least twice the RAM (%llu MiB%s), or the page "
			"cache serves the reads (bonnie++'s rule); give -s %llu or more, a smaller -r (dbio then "
			"runs in a memory cgroup of that size, mem_limit, so the rule holds), or -r 0 to skip "
			"the check",
			(unsigned long long)b->size_mib, (unsigned long long)ram,
			b->ram_mib < 0 ? ", this machine's; -r sets it" : ", -r",
			(unsigned long long)(2 * ram));
		return 2;
	}
	if (!b->size_mib && !b->files_k) {
		cmd_error("bonnie: -s 0 and -n 0: no test left to run");
		return 2;
	}
	if (b->size_mib % 1024)
		snprintf(b->size_text, sizeof(b->size_text), "%lluM", (unsigned long long)b->size_mib);
	else
		snprintf(b->size_text, sizeof(b->size_text), "%lluG", (unsigned long long)b->size_mib / 1024);
	snprintf(b->files_text, sizeof(b->files_text), "%llu", (unsigned long long)b->files_k);
	if (b->max_size || b->min_size)
		snprintf(b->files_text + strlen(b->files_text), sizeof(b->files_text) - strlen(b->files_text),
			 ":%llu:%llu", (unsigned long long)b->max_size, (unsigned long long)b->min_size);
	if (b->dirs)
		snprintf(b->files_text + strlen(b->files_text), sizeof(b->files_text) - strlen(b->files_text),
			 "/%llu", (unsigned long long)b->dirs);
	return 0;
}

static int bonnie_main(int argc, char **argv)
{
	char **bargv = calloc((size_t)argc + 1, sizeof(*bargv)),
	     **dargv = calloc((size_t)argc + 1, sizeof(*dargv));
	struct run_args args = { 0 };
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	int bargc = 0, dargc = 0, status, rc;
	char host[64] = "";
	uint64_t limit;
	bool suite, size_given;

	if (!bargv || !dargv) {
		cmd_error("bonnie: out of memory");
		status = 1;
		goto out;
	}
	conf = (struct bonnie){ .dir = ".",
				.chunk = 8192,
				.seeks = 8192,
				.seekers = 5,
				.files_k = 16,
				.ram_mib = -1,
				.runs = 1 };
	split_args(argc, argv, bargv, &bargc, dargv, &dargc);
	status = jobrun_parse_args(dargc, dargv, false, bonnie_usage, &args);
	if (status) {
		status = status < 0 ? 0 : status;
		goto out;
	}
	if (args.nfiles || args.nkeys) {
		cmd_error(
			"bonnie: '%s': bonnie++'s options are single letters (-d DIR, -s SIZE ...); of dbio's, "
			"--output, --format, --force and --progress",
			args.nfiles ? args.files[0] : args.keys[0]);
		status = 2;
		goto out;
	}
	status = parse_letters(bargc, bargv, &conf);
	size_given = false;
	for (int i = 1; i < bargc && !status; i++)
		size_given |= !strncmp(bargv[i], "-s", 2);
	if (status || (status = settle(&conf, size_given, &limit)))
		goto out;
	if (!conf.name) {
		gethostname(host, sizeof(host) - 1);
		conf.name = host;
	}
	show_name(&conf);
	jobrun_progress(&args);
	args.builtin = bonnie_jobfile(&conf, limit);
	args.builtin_name = "(dbio bonnie)";
	rc = jobrun_build(&args, NULL, 0, &set, &suite, &err);
	if (rc) {
		cmd_error("%s", err.msg);
		status = dbio_exit_status(rc);
		goto out;
	}
	if (conf.size_mib && !conf.quiet)
		cmd_note("bonnie: per-char tests (putc, getc) are not run: they time the C library's stdio");
	status = jobrun_execute(&args, &set, argc + 1, argv - 1, show);
out:
	jobset_release(&set);
	jobrun_args_release(&args);
	free(bargv);
	free(dargv);
	return status;
}

const struct cmd cmd_bonnie = {
	.name = "bonnie",
	.summary =
		"bonnie++'s command line: block write, rewrite, read, seeks, small files; its table and CSV",
	.main = bonnie_main,
};
