/*
 * bonnie++ 2.00a's CSV line (format 1.98) and its text table, made from a
 * dbio bonnie result field by field as bonnie++ makes them (bon_time.cpp):
 * a test that ran under 500 ms shows +++++ and +++ instead of its figure
 * and %CP; figures are truncated to whole numbers (seeks/s keeps a decimal
 * below 1000); %CP is (user + system CPU) / elapsed * 100, truncated;
 * latency is the longest single operation in us, ms past 99.999 ms, s past
 * 99.999999 s. docs/bonnie.md has the field table, bench/bonnie-csv.sh
 * compares the fields with real bonnie++'s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/bonnie_int.h"

/* bonnie++'s MinTime: a test shorter than this is not timed. */
#define MIN_TIME_S 0.5

/* The CSV fields of bonnie++ 2.00a's line (format 1.98). */
enum {
	CSV_FORMAT,
	CSV_VERSION,
	CSV_NAME,
	CSV_CONCURRENCY,
	CSV_SEED,
	CSV_SIZE,
	CSV_CHUNK, /* empty in every line bonnie++ 2.00a writes */
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
	CSV_NUM_DIRS,	/* empty: bonnie++ 2.00a writes the directories one field on, */
	CSV_FILE_CHUNK, /* here, where its header says file_chunk_size */
	CSV_FILES,	/* 6 x (ops/s, %CPU): seq create, read, delete, random create, read, delete */
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

/* bonnie++'s latency: whole microseconds, milliseconds past 99.999 ms,
 * seconds past 99.999999 s; empty for none. */
static void fmt_latency(csv_field out, double ns)
{
	double s = ns / 1e9;

	if (ns <= 0)
		out[0] = '\0';
	else if (s > 99.999999)
		snprintf(out, sizeof(csv_field), "%llds", (long long)s);
	else if (s > 0.099999)
		snprintf(out, sizeof(csv_field), "%lldms", (long long)(s * 1e3));
	else
		snprintf(out, sizeof(csv_field), "%lldus", (long long)(s * 1e6));
}

/* A figure and its %CP into f[0] and f[1], as bonnie++'s print_stat: amount
 * (KiB, seeks, files) over secs; +++++ and +++ under MIN_TIME_S. usage:
 * the rusage object of the run or phase. */
static void put_stat(csv_field *f, double amount, double secs, const json_t *usage, bool seeks)
{
	double rate = amount / secs, cpu = num(usage, "user_s", NULL, NULL) + num(usage, "sys_s", NULL, NULL);

	if (secs <= 0)
		return;
	if (secs < MIN_TIME_S) {
		snprintf(f[0], sizeof(csv_field), "+++++");
		snprintf(f[1], sizeof(csv_field), "+++");
		return;
	}
	if (seeks)
		snprintf(f[0], sizeof(csv_field), rate >= 1000 ? "%.0f" : "%.1f", rate);
	else
		snprintf(f[0], sizeof(csv_field), "%lld", (long long)rate);
	snprintf(f[1], sizeof(csv_field), "%d", (int)(cpu / secs * 100.0));
}

/* The block tests of run r: bonnie++ divides the file's KiB (seeks: their
 * count) by the test's time; the latency is its longest operation. */
static void io_fields(const struct bonnie *b, const json_t *result, size_t r, csv_field *f)
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
		double lat = num(ops, "read", "lat_ns", "max"), wlat = num(ops, "write", "lat_ns", "max");
		bool seeks = phases[p].field == CSV_SEEK;
		double amount = seeks ? num(ops, "read", "count", NULL) + num(ops, "write", "count", NULL)
				      : (double)b->size_mib * 1024;

		if (!run)
			continue;
		put_stat(&f[phases[p].field], amount, secs, json_object_get(run, "rusage"), seeks);
		fmt_latency(f[CSV_IO_LAT + phases[p].lat], wlat > lat ? wlat : lat);
	}
}

/* The file tests of run r: the files over each phase's time. */
static void file_fields(const struct bonnie *b, const json_t *result, size_t r, csv_field *f)
{
	static const char *const jobs[] = { "files-seq", "files-random" };

	for (size_t j = 0; j < 2; j++) {
		const json_t *run = run_of(result, jobs[j], r);
		const json_t *phase;
		size_t i;

		json_array_foreach (json_object_get(run, "phases"), i, phase) {
			const char *name = json_string_value(json_object_get(phase, "name")) ?: "";
			size_t k = j * 3 + (!strcmp(name, "create") ? 0 : !strcmp(name, "delete") ? 2 : 1);

			put_stat(&f[CSV_FILES + 2 * k], (double)b->files_k * 1024,
				 num(phase, "elapsed_ns", NULL, NULL) / 1e9, json_object_get(phase, "rusage"),
				 false);
			fmt_latency(f[CSV_FILE_LAT + k],
				    num(json_object_get(run, "ops"), name, "lat_ns", "max"));
		}
	}
}

#define PUT(field, ...) snprintf(f[field], sizeof(csv_field), __VA_ARGS__)

static void csv_fields(const struct bonnie *b, const json_t *result, size_t r, csv_field *f)
{
	const json_t *first = json_array_get(json_object_get(result, "jobs"), 0);

	memset(f, 0, sizeof(csv_field) * CSV_NFIELDS);
	PUT(CSV_FORMAT, "1.98");
	PUT(CSV_VERSION, "dbio-%s", DBIO_VERSION);
	PUT(CSV_NAME, "%s", b->name_shown);
	PUT(CSV_CONCURRENCY, "%u", b->concurrency);
	PUT(CSV_SEED, "%.0f", num(first, "options", "randseed", NULL));
	if (b->size_mib) {
		if (b->size_mib % 1024)
			PUT(CSV_SIZE, "%lluM", (unsigned long long)b->size_mib);
		else
			PUT(CSV_SIZE, "%lluG", (unsigned long long)b->size_mib / 1024);
		PUT(CSV_SEEKS, "%llu", (unsigned long long)b->seeks);
		PUT(CSV_SEEKERS, "%llu", (unsigned long long)b->seekers);
		io_fields(b, result, r, f);
	}
	if (b->files_k) {
		PUT(CSV_NUM_FILES, "%llu", (unsigned long long)b->files_k);
		if (b->max_size)
			PUT(CSV_MAX_SIZE, "%llu", (unsigned long long)b->max_size);
		if (b->max_size && b->min_size)
			PUT(CSV_MIN_SIZE, "%llu", (unsigned long long)b->min_size);
		if (b->dirs > 1)
			PUT(CSV_FILE_CHUNK, "%llu", (unsigned long long)b->dirs);
		file_fields(b, result, r, f);
	}
}

/* bonnie++'s print_size: n in the largest of units (each 1024 times the
 * one before) that divides it. */
static void size_units(char *buf, size_t len, uint64_t n, const char *units)
{
	size_t u = 0;

	while (n && n % 1024 == 0 && units[u + 1]) {
		n /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%c", (unsigned long long)n, units[u]);
	if (buf[0] && buf[strlen(buf) - 1] == ' ')
		buf[strlen(buf) - 1] = '\0';
}

/* The table's "SIZE:CHUNK:CONCURRENCY:SEEKS:SEEKERS", each left out when it
 * is bonnie++'s default, trailing colons dropped ("4M", "4M:16k", "4M:::100:2"). */
static void size_label(const struct bonnie *b, char *buf, size_t len)
{
	char chunk[32] = "", conc[16] = "", seeks[32] = "", seekers[32] = "";
	size_t n;

	if (b->chunk != BONNIE_CHUNK)
		size_units(chunk, sizeof(chunk), b->chunk, " km");
	if (b->concurrency != 1)
		snprintf(conc, sizeof(conc), "%u", b->concurrency);
	if (b->seeks != BONNIE_SEEKS)
		snprintf(seeks, sizeof(seeks), "%llu", (unsigned long long)b->seeks);
	if (b->seekers != BONNIE_SEEKERS)
		snprintf(seekers, sizeof(seekers), "%llu", (unsigned long long)b->seekers);
	size_units(buf, len, b->size_mib, "MG");
	n = strlen(buf);
	snprintf(buf + n, len - n, ":%s:%s:%s:%s", chunk, conc, seeks, seekers);
	for (n = strlen(buf); n && buf[n - 1] == ':'; n--)
		buf[n - 1] = '\0';
}

/* bonnie++'s K/sec in its table: k below 10000, then m below 1000 m, then
 * g; +++++ and an empty figure as they are. */
static const char *fmt_speed(char *buf, size_t len, const char *kps)
{
	double v = atof(kps);

	if (!*kps || *kps == '+')
		snprintf(buf, len, "%s", kps);
	else if (v < 10000)
		snprintf(buf, len, "%4dk", (int)v);
	else if (v / 1024 < 100)
		snprintf(buf, len, "%4.1fm", v / 1024);
	else if (v / 1024 < 1000)
		snprintf(buf, len, "%4dm", (int)(v / 1024 + 0.5));
	else
		snprintf(buf, len, "%4.1fg", v / 1024 / 1024);
	return buf;
}

static void print_latency_row(FILE *out, csv_field *lat)
{
	fprintf(out, "Latency           %9s %9s %9s %9s %9s %9s\n", lat[0], lat[1], lat[2], lat[3], lat[4],
		lat[5]);
}

static void print_io_table(FILE *out, const struct bonnie *b, csv_field *f)
{
	char sp[6][16], size[96];

	size_label(b, size, sizeof(size));
	fprintf(out, "Version %9s   ------Sequential Output------ --Sequential Input- --Random-\n",
		f[CSV_VERSION]);
	fprintf(out,
		"                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
		"Name:Size etc        /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP\n");
	fprintf(out, "%-*.*s %s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s\n",
		(int)(strlen(size) < 18 ? 18 - strlen(size) : 0),
		(int)(strlen(size) < 18 ? 18 - strlen(size) : 0), f[CSV_NAME], size, "", "",
		fmt_speed(sp[0], 16, f[CSV_WRITE]), f[CSV_WRITE + 1], fmt_speed(sp[1], 16, f[CSV_REWRITE]),
		f[CSV_REWRITE + 1], "", "", fmt_speed(sp[2], 16, f[CSV_READ]), f[CSV_READ + 1], f[CSV_SEEK],
		f[CSV_SEEK + 1]);
	print_latency_row(out, &f[CSV_IO_LAT]);
}

static void print_file_table(FILE *out, const struct bonnie *b, csv_field *f)
{
	char files[96];
	int n = snprintf(files, sizeof(files), "%llu", (unsigned long long)b->files_k);

	if (b->max_size)
		n += snprintf(files + n, sizeof(files) - (size_t)n, ":%llu:%llu",
			      (unsigned long long)b->max_size, (unsigned long long)b->min_size);
	if (b->dirs > 1)
		snprintf(files + n, sizeof(files) - (size_t)n, "/%llu", (unsigned long long)b->dirs);
	fprintf(out, "Version %9s   ------Sequential Create------ --------Random Create--------\n",
		f[CSV_VERSION]);
	fprintf(out, "%-19.19s -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n", f[CSV_NAME]);
	fprintf(out, "%s /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP\n",
		b->min_size   ? "files:max:min       "
		: b->max_size ? "files:max           "
			      : "              files ");
	fprintf(out, "%19s", files);
	for (int i = 0; i < 6; i++)
		fprintf(out, " %5s %3s", f[CSV_FILES + 2 * i], f[CSV_FILES + 2 * i + 1]);
	fputc('\n', out);
	print_latency_row(out, &f[CSV_FILE_LAT]);
}

/* bonnie++'s header line before the lines of -x N > 1 (as 2.00a prints
 * it: its names are those of an older line, without seeks and seekers). */
static const char csv_header[] =
	"format_version,bonnie_version,name,concurrency,seed,file_size,io_chunk_size,putc,putc_cpu,"
	"put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,"
	"seeks_cpu,num_files,max_size,min_size,num_dirs,file_chunk_size,seq_create,seq_create_cpu,"
	"seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,"
	"ran_del,ran_del_cpu,putc_latency,put_block_latency,rewrite_latency,getc_latency,"
	"get_block_latency,seeks_latency,seq_create_latency,seq_stat_latency,seq_del_latency,"
	"ran_create_latency,ran_stat_latency,ran_del_latency";

void bonnie_print(const struct bonnie *b, const json_t *result)
{
	size_t runs = 0, i;
	const json_t *job;

	json_array_foreach (json_object_get(result, "jobs"), i, job)
		if (json_array_size(json_object_get(job, "runs")) > runs)
			runs = json_array_size(json_object_get(job, "runs"));
	if (b->runs_given && b->runs > 1)
		printf("%s\n", csv_header);
	for (size_t r = 0; r < runs; r++) {
		csv_field f[CSV_NFIELDS];
		FILE *out = b->quiet ? stderr : stdout;

		csv_fields(b, result, r, f);
		if (!b->runs_given) {
			if (b->size_mib)
				print_io_table(out, b, f);
			if (b->files_k)
				print_file_table(out, b, f);
			else
				fputc('\n', out);
			fflush(out);
		}
		for (int c = 0; c < CSV_NFIELDS; c++)
			printf("%s%s", c ? "," : "", f[c]);
		putchar('\n');
	}
}
