/*
 * Unit tests for the /proc counter readers (src/sys/procstat.h) against
 * fixture files in tests/fixtures/procstat/: /proc/diskstats lines of every
 * kernel's width (14 fields before 4.18, 18 with the discard counters, 20
 * with the flush counters since 5.5), 64-bit counters, major:minor matched
 * exactly, short or malformed lines skipped, an absent device -ENOENT;
 * /proc/meminfo in kB turned into bytes without confusing Cached with
 * SwapCached or Writeback with WritebackTmp; /proc/vmstat by exact name,
 * the allocstall of every zone summed.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sys/procstat.h"

static char diskstats[PATH_MAX], meminfo[PATH_MAX], meminfo_partial[PATH_MAX], vmstat[PATH_MAX];

/* The fixtures sit beside tests/unit/ (this file's directory). */
static int setup(void **state)
{
	char root[PATH_MAX];
	const char *file = __FILE__, *cut = strstr(file, "unit/test_procstat.c");

	snprintf(root, sizeof(root), "%.*sfixtures/procstat", (int)(cut ? cut - file : 0), file);
	snprintf(diskstats, sizeof(diskstats), "%s/diskstats", root);
	snprintf(meminfo, sizeof(meminfo), "%s/meminfo", root);
	snprintf(meminfo_partial, sizeof(meminfo_partial), "%s/meminfo-partial", root);
	snprintf(vmstat, sizeof(vmstat), "%s/vmstat", root);
	return 0;
}

static void assert_disk(const struct diskstat *d, const uint64_t want[11])
{
	const uint64_t got[11] = { d->reads,	 d->reads_merged,  d->sectors_read,    d->ms_reading,
				   d->writes,	 d->writes_merged, d->sectors_written, d->ms_writing,
				   d->in_flight, d->ms_io,	   d->ms_weighted };

	for (int i = 0; i < 11; i++)
		if (got[i] != want[i])
			fail_msg("field %d: got %llu, expected %llu", i, (unsigned long long)got[i],
				 (unsigned long long)want[i]);
}

/* 20 fields (kernel 5.5+): the first 11 counters, the rest ignored. */
static void test_procstat_disk_20_fields(void **state)
{
	static const uint64_t loop0[11] = { 134, 62, 4420, 100, 44, 5, 148, 32, 0, 84, 157 };
	static const uint64_t vda[11] = { 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct diskstat d;

	memset(&d, 0xff, sizeof(d));
	assert_int_equal(procstat_disk(diskstats, 7, 0, &d), 0);
	assert_disk(&d, loop0);
	/* discards 0 0 0 0, flushes 26 in 24 ms */
	assert_int_equal(d.nfields, 17);
	assert_int_equal(d.discards, 0);
	assert_int_equal(d.flushes, 26);
	assert_int_equal(d.ms_flushing, 24);
	assert_int_equal(procstat_disk(diskstats, 254, 0, &d), 0);
	assert_disk(&d, vda);
}

/* 14 fields (before 4.18): exactly the 11 counters. */
static void test_procstat_disk_14_fields(void **state)
{
	static const uint64_t sda[11] = { 1000, 2, 3000, 4, 5000, 6, 7000, 8, 9, 10, 11 };
	struct diskstat d;

	memset(&d, 0xff, sizeof(d));
	assert_int_equal(procstat_disk(diskstats, 8, 0, &d), 0);
	assert_disk(&d, sda);
	assert_int_equal(d.nfields, 11); /* no discard nor flush counters: not zeros of them */
	assert_int_equal(d.discards, 0);
	assert_int_equal(d.flushes, 0);
}

/* 18 fields (4.18+, with the discard counters). */
static void test_procstat_disk_18_fields(void **state)
{
	static const uint64_t sda1[11] = { 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21 };
	static const uint64_t nvme[11] = { 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };
	struct diskstat d;

	assert_int_equal(procstat_disk(diskstats, 8, 1, &d), 0);
	assert_disk(&d, sda1);
	assert_int_equal(procstat_disk(diskstats, 259, 0, &d), 0);
	assert_disk(&d, nvme);
	assert_int_equal(d.nfields, 15);
	assert_int_equal(d.discards, 32);
	assert_int_equal(d.discards_merged, 33);
	assert_int_equal(d.sectors_discarded, 34);
	assert_int_equal(d.ms_discarding, 35);
	assert_int_equal(d.flushes, 0);
}

/* Counters beyond 32 bits, and minor 16 is not minor 1 or 0. */
static void test_procstat_disk_64bit_and_exact_minor(void **state)
{
	static const uint64_t sdb[11] = {
		8589934592ull, 1, 17179869184ull, 2, 4294967296ull, 3, 34359738368ull, 4, 0, 5, 6,
	};
	struct diskstat d;

	assert_int_equal(procstat_disk(diskstats, 8, 16, &d), 0);
	assert_disk(&d, sdb);
	/* write_bytes as the result computes it: sectors * 512 */
	assert_int_equal(d.sectors_written * 512, 17592186044416ull);
}

/* Not listed, or listed only by a line too short to hold the counters
 * (the 4-counter partition lines of 2.6 kernels, a malformed line). */
static void test_procstat_disk_absent(void **state)
{
	struct diskstat d = { .reads = 12345 };

	assert_int_equal(procstat_disk(diskstats, 8, 32, &d), -ENOENT);
	assert_int_equal(procstat_disk(diskstats, 0, 0, &d), -ENOENT);
	assert_int_equal(procstat_disk(diskstats, 16, 0, &d), -ENOENT); /* 8:16 swapped */
	assert_int_equal(procstat_disk(diskstats, 8, 2, &d), -ENOENT);
	assert_int_equal(procstat_disk(diskstats, 253, 0, &d), -ENOENT);
	assert_int_equal(d.reads, 12345); /* untouched */
}

static void test_procstat_missing_file(void **state)
{
	struct diskstat d;
	struct memstat m;
	struct vmstat v;

	assert_int_equal(procstat_disk("/nonexistent/dbio/diskstats", 8, 0, &d), -ENOENT);
	assert_int_equal(procstat_mem("/nonexistent/dbio/meminfo", &m), -ENOENT);
	assert_int_equal(procstat_vm("/nonexistent/dbio/vmstat", &v), -ENOENT);
}

/* kB -> bytes; SwapCached (4096 kB) and WritebackTmp (999 kB) are other
 * fields. */
static void test_procstat_mem_kb_to_bytes(void **state)
{
	struct memstat m;

	memset(&m, 0xff, sizeof(m));
	assert_int_equal(procstat_mem(meminfo, &m), 0);
	assert_int_equal(m.cached_bytes, 1437852ull * 1024);
	assert_int_equal(m.dirty_bytes, 1644ull * 1024);
	assert_int_equal(m.writeback_bytes, 12ull * 1024);
}

/* Fields not in the file are 0, not what the struct held before. */
static void test_procstat_mem_missing_fields_zero(void **state)
{
	struct memstat m;

	memset(&m, 0xff, sizeof(m));
	assert_int_equal(procstat_mem(meminfo_partial, &m), 0);
	assert_int_equal(m.dirty_bytes, 8192);
	assert_int_equal(m.cached_bytes, 0);
	assert_int_equal(m.writeback_bytes, 0);
}

/* vmstat counts as they are (pgpg* in KiB); pgpgoutclean and pgmajfault_s
 * are not pgpgout and pgmajfault. */
static void test_procstat_vm(void **state)
{
	struct vmstat v;

	memset(&v, 0xff, sizeof(v));
	assert_int_equal(procstat_vm(vmstat, &v), 0);
	assert_int_equal(v.v[VM_PGPGIN], 33793046);
	assert_int_equal(v.v[VM_PGPGOUT], 51073932);
	assert_int_equal(v.v[VM_PGMAJFAULT], 4354);
	assert_int_equal(v.v[VM_PGFAULT], 98765);
	assert_int_equal(v.v[VM_PGSCAN_KSWAPD], 10);
	assert_int_equal(v.v[VM_PGSCAN_DIRECT], 20);
	assert_int_equal(v.v[VM_PGSTEAL_KSWAPD], 9);
	assert_int_equal(v.v[VM_PGSTEAL_DIRECT], 19);
	assert_int_equal(v.v[VM_PGSCAN_DIRECT_THROTTLE], 3);
	assert_int_equal(v.v[VM_ALLOCSTALL], 1 + 2 + 4 + 8);
	assert_int_equal(v.v[VM_COMPACT_STALL], 5);
	assert_int_equal(v.v[VM_COMPACT_FAIL], 2);
	assert_int_equal(v.v[VM_COMPACT_SUCCESS], 3);
	assert_int_equal(v.v[VM_NR_DIRTIED], 7000);
	assert_int_equal(v.v[VM_NR_WRITTEN], 6900);
	assert_int_equal(v.v[VM_WORKINGSET_REFAULT_FILE], 44);
	assert_int_equal(v.v[VM_NR_DIRTY], 411);
	assert_int_equal(v.v[VM_NR_WRITEBACK], 12);
	assert_string_equal(procstat_vm_name(VM_PGSCAN_DIRECT), "pgscan_direct");
	assert_true(procstat_vm_is_level(VM_NR_DIRTY));
	assert_false(procstat_vm_is_level(VM_NR_DIRTIED));

	/* a file without them: all 0 */
	memset(&v, 0xff, sizeof(v));
	assert_int_equal(procstat_vm(meminfo, &v), 0);
	for (int f = 0; f < VM_NFIELDS; f++)
		assert_int_equal(v.v[f], 0);
}

/* The live files parse too (whatever their values). */
static void test_procstat_live_proc(void **state)
{
	struct memstat m;
	struct vmstat v;

	assert_int_equal(procstat_mem("/proc/meminfo", &m), 0);
	assert_true(m.cached_bytes > 0);
	assert_int_equal(m.cached_bytes % 1024, 0);
	assert_int_equal(procstat_vm("/proc/vmstat", &v), 0);
	assert_true(v.v[VM_PGPGIN] > 0 || v.v[VM_PGPGOUT] > 0);
	assert_true(v.v[VM_PGFAULT] > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_procstat_disk_20_fields),
		cmocka_unit_test(test_procstat_disk_14_fields),
		cmocka_unit_test(test_procstat_disk_18_fields),
		cmocka_unit_test(test_procstat_disk_64bit_and_exact_minor),
		cmocka_unit_test(test_procstat_disk_absent),
		cmocka_unit_test(test_procstat_missing_file),
		cmocka_unit_test(test_procstat_mem_kb_to_bytes),
		cmocka_unit_test(test_procstat_mem_missing_fields_zero),
		cmocka_unit_test(test_procstat_vm),
		cmocka_unit_test(test_procstat_live_proc),
	};

	return cmocka_run_group_tests_name("procstat", tests, setup, NULL);
}
