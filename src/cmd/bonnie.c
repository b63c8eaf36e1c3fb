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
 * and bonnie++'s text table and CSV line made from the result
 * (bonnie_out.c), so that bon_csv2txt and bon_csv2html read it. The
 * options are one table of getopt-style letters (bonnie_rows, read by
 * cmd/opts.c as bonnie++'s getopt reads "bc:d:f::g:m:n:p:qr:s:u:x:y:z:Z:D"),
 * from which --help, `dbio help bonnie` and the man page are made.
 * --output FILE / --format json give dbio's JSON. Per-char tests
 * (putc/getc) are never run: they time the C library's stdio.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/bonnie_int.h"
#include "cmd/cmd.h"
#include "result/result.h"
#include "util/termesc.h"

#define MIB (1024ull * 1024)

/* What the parse fills: dbio's own options (first, so that jobrun's rows'
 * offsets hold) and bonnie++'s. */
struct bonnie_args {
	struct run_args run;
	struct bonnie b;
};

/* The command's parameters, for the table printer (jobrun_execute's show). */
static struct bonnie conf;

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
	  "the chunk size is a power of two from 256 to 1048576 bytes, or 1k to 1024k (k alone: bonnie++ reads 1m as 1 byte)" },
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
static int check_user(char opt, const char *text)
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

#define BARGS(args) (&((struct bonnie_args *)(args))->b)

static int opt_s(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	(void)spec, (void)o;
	BARGS(args)->size_given = true;
	return parse_s(v, BARGS(args));
}

static int opt_n(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	(void)spec, (void)o;
	return parse_n(v, BARGS(args));
}

static int opt_m(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	(void)spec, (void)o;
	/* bonnie++ 2.00a writes -m into its CSV as it is: a comma there
	 * moves every figure after it one column on for bon_csv2txt */
	if (strchr(v, ','))
		return bad(
			"-m", v,
			"a comma would split the name across columns of bonnie++'s CSV line (bonnie++ 2.00a "
			"writes it as it is, and bon_csv2txt then reads every figure in the wrong column): "
			"give a name without one");
	BARGS(args)->name = v;
	return 0;
}

static int opt_r(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	uint64_t n;

	(void)spec, (void)o;
	if (parse_count(v, &n, 1, 0, 1, 1024) || n > (1ull << 40))
		return bad("-r", v, "the RAM size is a whole number of MiB, or of GiB with g");
	BARGS(args)->ram_mib = (long long)n;
	return 0;
}

static int opt_x(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	uint64_t n;

	(void)spec, (void)o;
	if (parse_count(v, &n, 1, 0, 0, 0) || !n || n > 1000)
		return bad("-x", v, "the number of runs is a whole number from 1 to 1000");
	BARGS(args)->runs = (unsigned)n;
	BARGS(args)->runs_given = true;
	return 0;
}

/* bonnie++ 2.00a takes -c from 1 to 200 and runs one copy of each test
 * all the same: the number labels the table and the CSV line and
 * multiplies the file size in the twice-the-RAM rule, nothing else. */
static int opt_c(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	uint64_t n;

	(void)spec, (void)o;
	if (parse_count(v, &n, 1, 0, 0, 0) || n < 1 || n > 200)
		return bad("-c", v,
			   "the concurrency is a whole number from 1 to 200 (bonnie++ 2.00a's range)");
	BARGS(args)->concurrency = (unsigned)n;
	return 0;
}

static int opt_z(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	uint64_t n;

	(void)spec, (void)o;
	if (parse_count(v, &n, 1, 0, 0, 0) || n > UINT32_MAX)
		return bad("-z", v, "the seed is a whole number from 0 to 4294967295");
	BARGS(args)->seed = n;
	BARGS(args)->seed_set = true;
	return 0;
}

static int opt_user(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	(void)spec, (void)args;
	return check_user(o->name[1], v);
}

/* Options dbio takes in one form only: the form (NULL: without a value)
 * and why the others are refused. */
static const struct {
	const char *name, *ok, *why;
} one_form[] = {
	{ "-f", NULL,
	  "per-char tests are not run by dbio: putc and getc time the C library's stdio buffer, not the "
	  "storage; -f alone (skip them) is accepted" },
	{ "-Z", NULL, "a file of random numbers is not supported; -z SEED is" },
};

static int opt_one_form(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	(void)spec, (void)args;
	for (size_t i = 0; i < sizeof(one_form) / sizeof(one_form[0]); i++)
		if (!strcmp(one_form[i].name, o->name) &&
		    !(v ? one_form[i].ok && !strcmp(v, one_form[i].ok) : !one_form[i].ok))
			return bad(o->name, v, one_form[i].why);
	return 0;
}

static int opt_sem(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	(void)spec, (void)v, (void)args;
	cmd_error("bonnie: %s: bonnie++'s semaphores between processes are not supported: one dbio command "
		  "runs its jobs in order; run several targets from one job file",
		  o->name);
	return 2;
}

#define BOFF(field) offsetof(struct bonnie_args, b.field)

static const struct cmd_opt bonnie_rows[] = {
	{ .name = "-d", .value = "DIR", .offset = BOFF(dir), .help = "where the files go (default .)" },
	{ .name = "-s",
	  .value = "SIZE[:CHUNK[:SEEKS[:SEEKERS]]]",
	  .parse = opt_s,
	  .help = "the block tests' file: SIZE MiB (g: GiB; default twice the RAM; 0: no block tests), "
		  "CHUNK bytes a call (a power of two, 256 to 1m; default 8192), SEEKS random seeks "
		  "(default 8192) by SEEKERS threads (default 5), one in ten a write" },
	{ .name = "-n",
	  .value = "NUM[:MAX[:MIN[:DIRS]]]",
	  .parse = opt_n,
	  .help = "the file tests: NUM*1024 files (default 16; 0: none) of MIN..MAX bytes (default 0) "
		  "in DIRS directories, created, read (stat when MAX is 0) and deleted in sequential and "
		  "in random order; a fifth field and links (MAX -1, -2) are refused" },
	{ .name = "-m",
	  .value = "NAME",
	  .parse = opt_m,
	  .help = "the machine's name in the table and the CSV (default the host name); no comma" },
	{ .name = "-r",
	  .value = "RAM",
	  .parse = opt_r,
	  .help = "the RAM in MiB for bonnie++'s rule SIZE >= 2 * RAM (0: no rule); less than the "
		  "machine's (16 or more) runs the jobs in a memory cgroup of RAM (mem_limit), so the "
		  "rule holds" },
	{ .name = "-x",
	  .value = "RUNS",
	  .parse = opt_x,
	  .help = "run the tests RUNS times (repeat=): a CSV line each and no table, after bonnie++'s "
		  "header line when RUNS is more than 1" },
	{ .name = "-z", .value = "SEED", .parse = opt_z, .help = "the random seed (randseed=)" },
	{ .name = "-q",
	  .kind = CMD_OPT_FLAG,
	  .offset = BOFF(quiet),
	  .help = "the CSV line alone on standard output, the table on standard error" },
	{ .name = "-f",
	  .kind = CMD_OPT_ATTACHED,
	  .value = "SIZE",
	  .parse = opt_one_form,
	  .help = "skip the per-char tests: dbio never runs them (they time the C library's stdio); "
		  "-f SIZE is refused" },
	{ .name = "-b",
	  .kind = CMD_OPT_FLAG,
	  .offset = BOFF(sync_writes),
	  .help = "fsync after every write (fsync=1), and the directory after every create and delete" },
	{ .name = "-D",
	  .kind = CMD_OPT_FLAG,
	  .offset = BOFF(direct),
	  .help = "O_DIRECT for the block write (direct=1), as bonnie++ 2.00: rewrite, read and seeks "
		  "reopen the file buffered" },
	{ .name = "-u",
	  .value = "USER[:GROUP]",
	  .parse = opt_user,
	  .help = "root (or 0) alone: dbio runs as who starts it" },
	{ .name = "-g", .value = "GROUP", .parse = opt_user, .help = "root (or 0) alone" },
	{ .name = "-c",
	  .value = "N",
	  .parse = opt_c,
	  .help = "concurrency, 1 to 200: as in bonnie++ 2.00a, a label in the table and the CSV line and a "
		  "multiplier of -s in the twice-the-RAM rule; one copy of each test runs" },
	{ .name = "-p", .value = "N", .parse = opt_sem, .help = "refused: bonnie++'s semaphores" },
	{ .name = "-y", .value = "s|p", .parse = opt_sem, .help = "refused: bonnie++'s semaphores" },
	{ .name = "-Z", .value = "FILE", .parse = opt_one_form, .help = "refused: -z SEED is supported" },
	{ 0 },
};

static const struct cmd_opt *const bonnie_tables[] = { bonnie_rows,	      jobrun_format_rows, jobrun_rows,
						       jobrun_not_sweep_rows, cmd_opts_help_h,	  NULL };

static const struct cmd_opts bonnie_opts = {
	.name = "bonnie",
	.subject = "bonnie",
	.operands = "",
	.about = "bonnie++ 2.00's command line, run as dbio jobs in bonnie++'s order: block\n"
		 "write, rewrite, block read and random seeks of a SIZE MiB file, then NUM*1024\n"
		 "files created, read (stat when MAX is 0) and deleted in sequential and in\n"
		 "random order. Prints bonnie++ 2.00a's table and CSV line, each field as\n"
		 "bonnie++ makes it (a test under 500 ms shows +++++; %CP is user + system CPU\n"
		 "over the elapsed time, truncated), which bon_csv2txt and bon_csv2html read. The\n"
		 "letters combine as getopt's (-qb, -s64, -d DIR). Per-char tests (putc/getc) are\n"
		 "not run: they time the C library, not the storage. docs/bonnie.md translates\n"
		 "every option and lists every CSV field.\n",
	.tables = bonnie_tables,
	.short_opts = true,
};
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

/* Defaults, bonnie++'s rule that the file be twice
 * the RAM; the memory limit that makes -r true (MiB, 0: none) in *limit. */
static int settle(struct bonnie *b, uint64_t *limit)
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
	if (!b->size_given)
		b->size_mib = 2 * (ram ? ram : phys_mib);
	if (ram && b->size_mib && b->size_mib * b->concurrency < 2 * ram) {
		char conc[32];

		snprintf(conc, sizeof(conc), " with -c %u", b->concurrency);
		cmd_error(
			"bonnie: -s %llu%s: the file%s should be at least twice the RAM (%llu MiB%s), or the "
			"page cache serves the reads (bonnie++'s rule); give -s %llu or more, a smaller -r "
			"(dbio then runs in a memory cgroup of that size, mem_limit, so the rule holds), or -r 0 "
			"to skip the check",
			(unsigned long long)b->size_mib, b->concurrency > 1 ? conc : "",
			b->concurrency > 1 ? " size times -c" : "", (unsigned long long)ram,
			b->ram_mib < 0 ? ", this machine's; -r sets it" : ", -r",
			(unsigned long long)((2 * ram + b->concurrency - 1) / b->concurrency));
		return 2;
	}
	if (!b->size_mib && !b->files_k) {
		cmd_error("bonnie: -s 0 and -n 0: no test left to run");
		return 2;
	}
	return 0;
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

static void show(const json_t *result, const struct jobset *set, const struct run_args *a)
{
	(void)set, (void)a;
	bonnie_print(&conf, result);
}

/* What the command line leaves: dbio's job keys and operands are refused. */
static int refuse_rest(const struct run_args *a)
{
	if (a->nfiles) {
		cmd_error("bonnie: '%s': bonnie++ takes no operands; the directory is -d DIR", a->files[0]);
		return 2;
	}
	if (a->nkeys) {
		cmd_error("bonnie: '%s': bonnie++'s options are single letters (-d DIR, -s SIZE ...); of "
			  "dbio's, --output, --format, --force and --progress",
			  a->keys[0]);
		return 2;
	}
	return 0;
}

static int bonnie_main(int argc, char **argv)
{
	struct bonnie_args args = { .b = { .dir = ".",
					   .chunk = BONNIE_CHUNK,
					   .seeks = BONNIE_SEEKS,
					   .seekers = BONNIE_SEEKERS,
					   .files_k = 16,
					   .ram_mib = -1,
					   .runs = 1,
					   .concurrency = 1 } };
	struct jobset set = { 0 };
	struct dbio_err err = { 0 };
	int status, rc;
	char host[64] = "";
	uint64_t limit;
	bool suite;

	status = jobrun_parse(&bonnie_opts, argc, argv, &args.run);
	if (status) {
		status = status < 0 ? 0 : status;
		goto out;
	}
	if ((status = refuse_rest(&args.run)) || (status = settle(&args.b, &limit)))
		goto out;
	conf = args.b;
	if (!conf.name) {
		gethostname(host, sizeof(host) - 1);
		conf.name = host;
	}
	show_name(&conf);
	jobrun_progress(&args.run);
	args.run.builtin = bonnie_jobfile(&conf, limit);
	args.run.builtin_name = "(dbio bonnie)";
	rc = jobrun_build(&args.run, NULL, 0, &set, &suite, &err);
	if (rc) {
		cmd_error("%s", err.msg);
		status = dbio_exit_status(rc);
		goto out;
	}
	if (conf.size_mib && !conf.quiet)
		cmd_note("bonnie: per-char tests (putc, getc) are not run: they time the C library's stdio");
	status = jobrun_execute(&args.run, &set, argc + 1, argv - 1, show);
out:
	jobset_release(&set);
	jobrun_args_release(&args.run);
	return status;
}

const struct cmd cmd_bonnie = {
	.name = "bonnie",
	.summary =
		"bonnie++'s command line: block write, rewrite, read, seeks, small files; its table and CSV",
	.main = bonnie_main,
	.opts = &bonnie_opts,
};
