/*
 * Unit tests for the system-counter readers beside procstat
 * (src/sys/pressure.h, taskstat.h, cgstat.h, devstack.h) against the
 * fixtures in tests/fixtures/counters/ and the sysfs tree of
 * tests/fixtures/sysinfo/sys: PSI's some and full totals (cpu without
 * full before 5.13, a file without "some" refused, no PSI -ENOENT);
 * /proc/self/io by name; schedstat's three numbers; a cgroup v1 and v2
 * memory.stat under one set of names (v1's cache, dirty, writeback into
 * file, file_dirty, file_writeback; total_* not taken) and v2's io.stat
 * summed over devices; the block devices under a dm device, a partition
 * and a loop device, each once.
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

#include "sys/cgstat.h"
#include "sys/devstack.h"
#include "sys/pressure.h"
#include "sys/taskstat.h"

static char root[PATH_MAX], sysroot[PATH_MAX];

static int setup(void **state)
{
	const char *file = __FILE__, *cut = strstr(file, "unit/test_sysstat.c");

	snprintf(root, sizeof(root), "%.*sfixtures/counters", (int)(cut ? cut - file : 0), file);
	snprintf(sysroot, sizeof(sysroot), "%.*sfixtures/sysinfo/sys", (int)(cut ? cut - file : 0), file);
	return 0;
}

static const char *at(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, name);
	return path;
}

static void test_pressure_some_and_full(void **state)
{
	struct pressure p;

	assert_int_equal(pressure_read(at("pressure/io"), &p), 0);
	assert_true(p.present);
	assert_true(p.has_full);
	assert_int_equal(p.some_us, 32517300);
	assert_int_equal(p.full_us, 25537332);
}

/* cpu before 5.13: no full line; totals up to 64 bits */
static void test_pressure_without_full(void **state)
{
	struct pressure p;

	assert_int_equal(pressure_read(at("pressure/cpu-old"), &p), 0);
	assert_true(p.present);
	assert_false(p.has_full);
	assert_int_equal(p.some_us, 18446744073709551615ull);
	assert_int_equal(p.full_us, 0);
}

static void test_pressure_absent_or_broken(void **state)
{
	struct pressure p;

	assert_int_equal(pressure_read(at("pressure/memory"), &p), -ENOENT);
	assert_false(p.present);
	assert_int_equal(pressure_read(at("pressure/broken"), &p), -EINVAL);
	assert_false(p.present);
}

static void test_taskstat_io(void **state)
{
	struct taskio io;

	assert_int_equal(taskstat_io(at("io"), &io), 0);
	assert_true(io.present);
	assert_int_equal(io.rchar, 6976);
	assert_int_equal(io.wchar, 4194304);
	assert_int_equal(io.syscr, 10);
	assert_int_equal(io.syscw, 1024);
	assert_int_equal(io.read_bytes, 8192);
	assert_int_equal(io.write_bytes, 4198400);
	assert_int_equal(io.cancelled_write_bytes, 4096);
	assert_int_equal(taskstat_io(at("no-io"), &io), -ENOENT);
	assert_false(io.present);
}

static void test_taskstat_sched(void **state)
{
	struct schedstat s;

	assert_int_equal(taskstat_sched(at("schedstat"), &s), 0);
	assert_int_equal(s.run_ns, 544526);
	assert_int_equal(s.wait_ns, 76365);
	assert_int_equal(s.timeslices, 2);
	assert_int_equal(taskstat_sched(at("schedstat-short"), &s), -EINVAL);
	assert_int_equal(s.run_ns, 0);
	/* the live thread has run */
	taskstat_sched_self(&s);
	assert_true(s.run_ns > 0);
}

static void test_cgstat_v1(void **state)
{
	struct cgstat s;

	assert_int_equal(cgstat_read(at("cgroup-v1"), &s), 0);
	assert_true(s.present);
	assert_false(s.io_present);
	assert_int_equal(s.v[CG_PGFAULT], 512);
	assert_int_equal(s.v[CG_PGMAJFAULT], 3);
	assert_int_equal(s.v[CG_PGPGIN], 300);
	assert_int_equal(s.v[CG_PGPGOUT], 44);
	assert_int_equal(s.v[CG_FILE], 1048576);
	assert_int_equal(s.v[CG_FILE_DIRTY], 8192);
	assert_int_equal(s.v[CG_FILE_WRITEBACK], 4096);
	assert_false(s.found & (1ull << CG_PGSCAN)); /* v1 does not count it */
	assert_true(s.found & (1ull << CG_FILE_DIRTY));
	assert_string_equal(cgstat_name(CG_FILE_DIRTY), "file_dirty");
}

static void test_cgstat_v2(void **state)
{
	struct cgstat s;

	assert_int_equal(cgstat_read(at("cgroup-v2"), &s), 0);
	assert_int_equal(s.v[CG_PGSCAN], 900);
	assert_int_equal(s.v[CG_PGSTEAL], 800);
	assert_int_equal(s.v[CG_PGFAULT], 4000);
	assert_int_equal(s.v[CG_WORKINGSET_REFAULT_FILE], 70);
	assert_int_equal(s.v[CG_FILE], 2097152);
	assert_int_equal(s.v[CG_FILE_DIRTY], 16384);
	assert_false(s.found & (1ull << CG_PGPGIN));
	assert_true(s.io_present);
	assert_int_equal(s.rbytes, 4096 + 8192);
	assert_int_equal(s.wbytes, 1048576 + 2097152);
	assert_int_equal(s.rios, 3);
	assert_int_equal(s.wios, 768);
	assert_int_equal(s.dbytes, 65536);
	assert_int_equal(s.dios, 1);
	assert_int_equal(cgstat_read(at("no-cgroup"), &s), -ENOENT);
	assert_false(s.present);
}

static void assert_dev(const struct devstack_dev *d, unsigned ma, unsigned mi, const char *name,
		       enum devstack_role role)
{
	assert_int_equal(d->major, ma);
	assert_int_equal(d->minor, mi);
	assert_string_equal(d->name, name);
	assert_int_equal(d->role, role);
}

/* dm-0 on sda2 and sdb: the partition's disk after it, depth first. */
static void test_devstack_dm_slaves(void **state)
{
	struct devstack_dev d[8];

	assert_int_equal(devstack_walk(sysroot, 253, 0, d, 8), 4);
	assert_dev(&d[0], 253, 0, "dm-0", DEVSTACK_TARGET);
	assert_dev(&d[1], 8, 2, "sda2", DEVSTACK_SLAVE);
	assert_dev(&d[2], 8, 0, "sda", DEVSTACK_DISK);
	assert_dev(&d[3], 8, 16, "sdb", DEVSTACK_SLAVE);
	/* the room given is not exceeded */
	assert_int_equal(devstack_walk(sysroot, 253, 0, d, 2), 2);
	assert_string_equal(devstack_role_name(DEVSTACK_LOOP_BACKING), "loop backing");
}

/* A partition of a loop device whose backing file cannot be stat'ed; a
 * dm device that is its own slave listed once; a deleted backing file. */
static void test_devstack_partition_loop_cycle(void **state)
{
	struct devstack_dev d[8];

	assert_int_equal(devstack_walk(sysroot, 259, 0, d, 8), 2);
	assert_dev(&d[0], 259, 0, "loop0p1", DEVSTACK_TARGET);
	assert_dev(&d[1], 7, 0, "loop0", DEVSTACK_DISK);
	assert_int_equal(devstack_walk(sysroot, 253, 9, d, 8), 1);
	assert_int_equal(devstack_walk(sysroot, 7, 1, d, 8), 1);
}

/* A device sysfs does not know is listed alone, without a name; a
 * virtual filesystem's (major 0) has none. */
static void test_devstack_unknown(void **state)
{
	struct devstack_dev d[8];

	assert_int_equal(devstack_walk(sysroot, 9, 9, d, 8), 1);
	assert_dev(&d[0], 9, 9, "", DEVSTACK_TARGET);
	assert_int_equal(devstack_walk(sysroot, 0, 42, d, 8), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pressure_some_and_full),
		cmocka_unit_test(test_pressure_without_full),
		cmocka_unit_test(test_pressure_absent_or_broken),
		cmocka_unit_test(test_taskstat_io),
		cmocka_unit_test(test_taskstat_sched),
		cmocka_unit_test(test_cgstat_v1),
		cmocka_unit_test(test_cgstat_v2),
		cmocka_unit_test(test_devstack_dm_slaves),
		cmocka_unit_test(test_devstack_partition_loop_cycle),
		cmocka_unit_test(test_devstack_unknown),
	};

	return cmocka_run_group_tests_name("sysstat", tests, setup, NULL);
}
