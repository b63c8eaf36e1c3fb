/*
 * Unit tests for fio's "how much and where" (src/workload/fileio/where.h and
 * src/workload/fileio/check_where.c): the budget stops a thread after the I/Os fio 3.33
 * does (io_size above and below size, with loops, number_ios), and
 * job_ops_total, the progress line's figure, agrees with it; the offsets
 * of rw's modifiers are fio's, wrap at the end of the file included (the
 * sequences are those of fio's write_iolog for the same jobs); a random
 * pattern with :N takes a new offset every N I/Os, sequential or identical
 * between; each thread's region of its files follows offset,
 * offset_increment and filesize.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "plan/plan.h"
#include "workload/fileio/where.h"
#include "workload/workload.h"
#include "workload/fileio/files.h"

#define KIB 1024ull

/* A validated fileio job of one file per thread from "key=value" words. */
static void make_job(struct job *job, const char *keys)
{
	char copy[512], *save = NULL;
	struct dbio_err err = { 0 };

	assert_int_equal(plan_job_init(job, "j"), 0);
	snprintf(copy, sizeof(copy), "%s", keys);
	for (char *kv = strtok_r(copy, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(kv, '=');

		if (eq)
			*eq = '\0';
		if (job_set(job, kv, eq ? eq + 1 : NULL, NULL, &err)) /* a bare key: 1 */
			fail_msg("%s", err.msg);
	}
	if (plan_validate(job, &err))
		fail_msg("%s", err.msg);
}

/* Thread t of job as the runner hands it its files (run_assign), without
 * share_files. */
static void make_worker(struct worker *w, const struct job *job, unsigned t)
{
	const uint64_t bpf = job_region_bytes(job, t) / fileio_files(job)->layout.bs;

	memset(w, 0, sizeof(*w));
	w->job = job;
	w->index = t;
	w->nfiles = fileio_files(job)->layout.nrfiles;
	w->blocks_per_file = bpf;
	w->slice_len = bpf * fileio_files(job)->layout.nrfiles;
	w->ops_per_pass = fileio_files(job)->layout.size / fileio_files(job)->layout.bs < w->slice_len
				  ? fileio_files(job)->layout.size / fileio_files(job)->layout.bs
				  : w->slice_len;
	w->io_bytes = fileio_files(job)->where.io_size;
}

/* The job of keys, thread 0 of it and its where, seeded with seed. */
static void start(struct job *job, struct worker *w, struct where *wh, const char *keys, uint64_t seed)
{
	make_job(job, keys);
	make_worker(w, job, 0);
	where_init(wh, w, seed);
}

/* Run the budget of a job given as keys to its end: I/Os and bytes; and
 * job_ops_total must say the same. */
static uint64_t ops_of(const char *keys, uint64_t *bytes)
{
	struct job job;
	struct worker w;
	struct where wh;
	struct io_req io;
	uint64_t n = 0;

	start(&job, &w, &wh, keys, 1);
	*bytes = 0;
	while (where_next(&wh, n % 3 ? OP_READ : OP_WRITE, &io)) {
		n++;
		*bytes += io.len;
		assert_true(n < 1000000);
	}
	if (job_ops_total(&job, w.ops_per_pass, w.io_bytes) != n)
		fail_msg("%s: job_ops_total %llu, the budget %llu", keys,
			 (unsigned long long)job_ops_total(&job, w.ops_per_pass, w.io_bytes),
			 (unsigned long long)n);
	job_release(&job);
	return n;
}

static void test_where_budget_is_fios(void **state)
{
	/* fio 3.33's reads and writes for the same jobs, size=1m bs=4k */
	static const struct {
		const char *keys;
		uint64_t ops;
	} cases[] = {
		{ "rw=read io_size=2m", 512 },
		{ "rw=read io_size=512k", 128 },
		{ "rw=randread io_size=2500k", 625 },
		{ "rw=read number_ios=100 loops=2", 200 },
		{ "rw=read number_ios=1000 loops=2", 512 },
		{ "rw=write io_size=2m loops=2", 512 },
		{ "rw=write io_size=3m loops=2", 768 },
		{ "rw=read io_size=512k loops=3", 384 },
		{ "rw=read io_size=1500k loops=3", 768 },
		{ "rw=read io_size=1030k", 258 },
		{ "rw=read io_size=1026k", 256 },
		{ "rw=randrw io_limit=2m", 512 },
		{ "rw=read loops=3", 768 },
		{ "rw=read", 256 },
	};
	char keys[256];
	uint64_t bytes;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(keys, sizeof(keys), "size=1m bs=4k %s", cases[i].keys);
		if (ops_of(keys, &bytes) != cases[i].ops)
			fail_msg("%s: %llu I/Os, fio does %llu", keys,
				 (unsigned long long)ops_of(keys, &bytes), (unsigned long long)cases[i].ops);
		assert_int_equal(bytes, cases[i].ops * 4 * KIB);
	}
}

/* number_ios saturates instead of wrapping past 2^64 with loops. */
static void test_where_budget_saturates(void **state)
{
	struct job job;

	(void)state;
	make_job(&job, "size=1m bs=4k io_size=8000000000000000000 loops=4");
	assert_int_equal(job_ops_total(&job, 256, fileio_files(&job)->where.io_size),
			 8000000000000000000ull / 4096);
	job_release(&job);
}

/* The offsets (KiB) of a job's I/Os, as "r0 r56 ..." into buf. */
static const char *offsets_of(const char *keys, unsigned n, char *buf, size_t len)
{
	struct job job;
	struct worker w;
	struct where wh;
	struct io_req io;
	size_t used = 0;

	start(&job, &w, &wh, keys, 1);
	buf[0] = '\0';
	for (unsigned i = 0; i < n && where_next(&wh, job_reads(&job) ? OP_READ : OP_WRITE, &io); i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%c%llu", i ? " " : "",
					 job_reads(&job) ? 'r' : 'w', (unsigned long long)(io.off / KIB));
	job_release(&job);
	return buf;
}

static void test_where_offset_modifiers_are_fios(void **state)
{
	/* fio 3.33's write_iolog for the same jobs, offsets in KiB */
	static const struct {
		const char *keys, *offsets;
	} cases[] = {
		{ "rw=write:4k", "w0 w8 w16 w24 w32 w40 w48 w56 w0 w8 w16 w24 w32 w40 w48 w56" },
		{ "rw=write:8k", "w0 w12 w24 w36 w48 w60" },
		{ "rw=read:-8k", "r0 r56 r52 r48 r44 r40 r36 r32 r28 r24 r20 r16 r12 r8 r4 r0" },
		{ "rw=read:-4k", "r0 r0 r0 r0 r0 r0 r0 r0 r0 r0 r0 r0 r0 r0 r0 r0" },
		{ "rw=read:-8k offset=16k",
		  "r56 r52 r48 r44 r40 r36 r32 r28 r24 r20 r16 r72 r68 r64 r60 r56" },
		{ "rw=read:-12k offset=16k",
		  "r52 r44 r36 r28 r20 r68 r60 r52 r44 r36 r28 r20 r68 r60 r52 r44" },
		{ "rw=write:4k offset=8k io_size=128k",
		  "w8 w16 w24 w32 w40 w48 w56 w64 w8 w16 w24 w32 w40 w48 w56 w64 "
		  "w8 w16 w24 w32 w40 w48 w56 w64 w8 w16 w24 w32 w40 w48 w56 w64" },
	};
	char keys[256], got[1024];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(keys, sizeof(keys), "size=64k bs=4k %s", cases[i].keys);
		if (strcmp(offsets_of(keys, 64, got, sizeof(got)), cases[i].offsets))
			fail_msg("%s:\n got  %s\n fio  %s", keys, got, cases[i].offsets);
	}
}

/* rw=randread:4: a random offset, then 3 I/Os after it (sequential: the
 * blocks following it; identical: the same block), from the first I/O on,
 * as fio; every offset inside the file. */
static void test_where_random_every_n(void **state)
{
	struct job job;
	struct worker w;
	struct where wh;
	struct io_req io;
	uint64_t off[64];
	unsigned n = 0;

	(void)state;
	for (int ident = 0; ident < 2; ident++) {
		start(&job, &w, &wh,
		      ident ? "size=1m bs=4k rw=randread:4 rw_sequencer=identical"
			    : "size=1m bs=4k rw=randread:4",
		      7);
		for (n = 0; n < 64 && where_next(&wh, OP_READ, &io); n++) {
			assert_true(io.off + io.len <= 1024 * KIB);
			off[n] = io.off;
		}
		assert_int_equal(n, 64);
		for (unsigned i = 0; i < n; i++)
			if (i % 4 && off[i] != off[i - 1] + (ident ? 0 : 4 * KIB) &&
			    off[i - 1] + 4 * KIB < 1024 * KIB)
				fail_msg("identical=%d: I/O %u at %llu after %llu", ident, i,
					 (unsigned long long)off[i], (unsigned long long)off[i - 1]);
		job_release(&job);
	}
}

static void test_where_regions_per_thread(void **state)
{
	struct job job;

	(void)state;
	make_job(&job, "size=1m offset=256k offset_increment=512k numjobs=3");
	assert_int_equal(job_file_offset(&job, 2), 1280 * KIB);
	assert_int_equal(job_region_bytes(&job, 2), 1024 * KIB);
	assert_int_equal(job_file_bytes(&job, 0), 1280 * KIB); /* fio's a.0.0 */
	assert_int_equal(job_file_bytes(&job, 2), 2304 * KIB); /* fio's a.2.0 */
	job_release(&job);
	make_job(&job, "filesize=2m offset_increment=512k numjobs=3");
	assert_int_equal(job_region_bytes(&job, 0), 2048 * KIB);
	assert_int_equal(job_region_bytes(&job, 2), 1024 * KIB);
	assert_int_equal(job_file_bytes(&job, 2), 2048 * KIB);
	job_release(&job);
}

/* The sizes of a job's I/Os over n I/Os: how many of each multiple of
 * unit up to 64 units, in count[]. With pass, a job of size=1m: its first
 * pass is 1 MiB, in order for a sequential job, each byte once for a
 * random one. */
static void draw_sizes(const char *keys, unsigned n, uint64_t unit, unsigned count[65], bool pass_check)
{
	struct job job;
	struct worker w;
	struct where wh;
	struct io_req io;
	static unsigned char seen[1 << 20];
	uint64_t next = 0, pass = 0;
	bool first = pass_check;

	start(&job, &w, &wh, keys, 3);
	memset(seen, 0, sizeof(seen));
	memset(count, 0, 65 * sizeof(count[0]));
	for (unsigned i = 0; i < n; i++) {
		assert_true(where_next(&wh, job_reads(&job) ? OP_READ : OP_WRITE, &io));
		assert_int_equal(io.len % unit, 0);
		assert_true(io.len / unit <= 64);
		count[io.len / unit]++;
		if (first && wh.pass_bytes < pass) /* a new pass */
			first = false;
		if (!first)
			continue;
		pass = wh.pass_bytes;
		if (!job_is_random(&job))
			assert_int_equal(io.off, next);
		next = io.off + io.len;
		for (uint64_t b = io.off; b < io.off + io.len; b++) {
			assert_int_equal(seen[b], 0);
			seen[b] = 1;
		}
	}
	if (pass_check) {
		assert_false(first);
		assert_int_equal(pass, 1024 * KIB);
	}
	job_release(&job);
	where_release(&wh);
}

/* Within 3 points of the share, of n draws. */
static void near(unsigned got, unsigned n, unsigned percent)
{
	if (got * 100 < (percent - 3) * n || got * 100 > (percent + 3) * n)
		fail_msg("%u of %u is not %u %%", got, n, percent);
}

static void test_where_sizes_are_drawn_as_fio_draws_them(void **state)
{
	unsigned c[65];

	(void)state;
	/* bsrange: LO + HI * u, aligned down to LO, cut to HI; far from the
	 * end of the file, where only what fits is drawn */
	draw_sizes("size=64m rw=read bsrange=4k-16k", 6000, 4 * KIB, c, false);
	near(c[1], 6000, 25);
	near(c[4], 6000, 25);
	draw_sizes("size=64m rw=write bsrange=1k-2k", 6000, KIB, c, false);
	near(c[1], 6000, 50);
	near(c[2], 6000, 50);
	/* bssplit: a size without a share gets what the others leave */
	draw_sizes("size=64m rw=read bssplit=4k/10:64k/50:32k/", 1400, 4 * KIB, c, false);
	near(c[1], 1400, 10);
	near(c[8], 1400, 40);
	near(c[16], 1400, 50);
	/* a pass is size bytes, in order; random with the map: each byte once
	 * a pass, an I/O cut at a block done before */
	draw_sizes("size=1m rw=read bssplit=4k/50:64k/50 io_size=64m", 200, 4 * KIB, c, true);
	draw_sizes("size=1m rw=randread bssplit=4k/50:64k/50 io_size=64m", 600, 4 * KIB, c, true);
	assert_true(c[16] > 0);
	draw_sizes("size=1m rw=randwrite bsrange=4k-32k io_size=64m", 600, 4 * KIB, c, true);
}

/* The share (percent) of n I/Os of a random job whose offset is in
 * [lo, hi) KiB of its 1 MiB file. */
static unsigned share_in(const char *keys, unsigned n, uint64_t lo, uint64_t hi)
{
	struct job job;
	struct worker w;
	struct where wh;
	struct io_req io;
	unsigned in = 0;

	start(&job, &w, &wh, keys, 5);
	for (unsigned i = 0; i < n; i++) {
		assert_true(where_next(&wh, OP_READ, &io));
		in += io.off >= lo * KIB && io.off < hi * KIB;
	}
	job_release(&job);
	where_release(&wh);
	return in * 100 / n;
}

/* zoned and zoned_abs send each share of the accesses to its zone. */
static void test_where_zoned_shares(void **state)
{
	static const char *zoned = "size=1m rw=randread norandommap io_size=64m "
				   "random_distribution=zoned:60/10:30/20:8/30:2/40";
	static const char *abs = "size=1m rw=randread io_size=64m "
				 "random_distribution=zoned_abs:70/128k:30/512k";

	(void)state;
	/* fio's 10 % of 256 blocks is 25 blocks: 100 KiB */
	near(share_in(zoned, 8000, 0, 100), 100, 60);
	near(share_in(zoned, 8000, 100, 304), 100, 30);
	near(share_in(zoned, 8000, 304, 1024), 100, 10);
	near(share_in(abs, 8000, 0, 128), 100, 70);
	near(share_in(abs, 8000, 128, 640), 100, 30);
	assert_int_equal(share_in(abs, 8000, 640, 1024), 0);
}

/* normal:DEV: fio's mean of 12 uniform draws, spread by DEV %: most ranks
 * near the middle. */
static void test_where_normal_ranks(void **state)
{
	struct offgen g;
	unsigned middle = 0, low = 0;

	(void)state;
	offgen_init_skewed(&g, OFFGEN_NORMAL, 10, 1000, 9);
	for (int i = 0; i < 10000; i++) {
		uint64_t r = offgen_skewed_rank(&g);

		assert_true(r < 1000);
		middle += r >= 400 && r < 600;
		low += r < 200;
	}
	assert_true(middle > 7000);
	assert_true(low < 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_where_budget_is_fios),
		cmocka_unit_test(test_where_budget_saturates),
		cmocka_unit_test(test_where_offset_modifiers_are_fios),
		cmocka_unit_test(test_where_random_every_n),
		cmocka_unit_test(test_where_regions_per_thread),
		cmocka_unit_test(test_where_sizes_are_drawn_as_fio_draws_them),
		cmocka_unit_test(test_where_zoned_shares),
		cmocka_unit_test(test_where_normal_ranks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
