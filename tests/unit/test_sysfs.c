/*
 * The one sysfs reader (src/sys/sysfs.c) against the fake /sys of
 * tests/fixtures/sysinfo/ (disks, a device-mapper volume, loop devices,
 * transparent_hugepage) and tests/fixtures/sysfs/ (a loop device with the
 * live kernel's exact text: a space after the last scheduler, a backing
 * file whose name ends in spaces), plus writes into a temporary tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/sysfs.h"

static char sys_dir[PATH_MAX], kernel_dir[PATH_MAX];

/* The fixtures sit beside tests/unit/ (this file's directory). */
static int setup(void **state)
{
	const char *file = __FILE__, *cut = strstr(file, "unit/test_sysfs.c");
	int len = (int)(cut ? cut - file : 0);

	snprintf(sys_dir, sizeof(sys_dir), "%.*sfixtures/sysinfo/sys", len, file);
	snprintf(kernel_dir, sizeof(kernel_dir), "%.*sfixtures/sysfs", len, file);
	return 0;
}

/* <root>/block/<name>, asserted to fit. */
static const char *block(const char *root, const char *name)
{
	static char dir[PATH_MAX];

	assert_int_equal(sysfs_block_dir(dir, sizeof(dir), root, name), 0);
	return dir;
}

static void test_sysfs_line_keeps_bytes_value_trims(void **state)
{
	char path[PATH_MAX + 64], buf[256];

	snprintf(path, sizeof(path), "%s/block/sda/device/model", sys_dir);
	assert_int_equal(sysfs_read_line(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "Fixture HDD 1TB ");
	assert_int_equal(sysfs_read_value(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "Fixture HDD 1TB");
	/* cut at len - 1 bytes */
	assert_int_equal(sysfs_read_line(path, buf, 8), 0);
	assert_string_equal(buf, "Fixture");
	snprintf(path, sizeof(path), "%s/block/sda/nosuch", sys_dir);
	assert_int_equal(sysfs_read_line(path, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(sysfs_read_value(path, buf, sizeof(buf)), -ENOENT);
}

static void test_sysfs_active_choice(void **state)
{
	char out[16];

	assert_int_equal(sysfs_active_choice("mq-deadline kyber [bfq] none", out, sizeof(out)), 0);
	assert_string_equal(out, "bfq");
	assert_int_equal(sysfs_active_choice("none", out, sizeof(out)), 0);
	assert_string_equal(out, "none");
	assert_int_equal(sysfs_active_choice("", out, sizeof(out)), -EINVAL);
	assert_int_equal(sysfs_active_choice("none mq-deadline", out, sizeof(out)), -EINVAL);
	assert_int_equal(sysfs_active_choice("[none", out, sizeof(out)), -EINVAL);
	assert_int_equal(sysfs_active_choice("[a-name-too-long-for-out] b", out, sizeof(out)), -EINVAL);
	assert_int_equal(sysfs_active_choice("[a-name-15-byte] b", out, sizeof(out)), 0);
	assert_string_equal(out, "a-name-15-byte");
}

static void test_sysfs_read_choice_thp(void **state)
{
	char path[PATH_MAX + 64], out[64];

	snprintf(path, sizeof(path), "%s/kernel/mm/transparent_hugepage/defrag", sys_dir);
	assert_int_equal(sysfs_read_choice(path, out, sizeof(out)), 0);
	assert_string_equal(out, "defer+madvise");
}

static void test_sysfs_block_dev_and_scheduler(void **state)
{
	char out[64];

	assert_int_equal(sysfs_block_dev(block(sys_dir, "sda"), out, sizeof(out)), 0);
	assert_string_equal(out, "8:0");
	assert_int_equal(sysfs_block_dev(block(sys_dir, "dm-0"), out, sizeof(out)), 0);
	assert_string_equal(out, "253:0");
	assert_int_equal(sysfs_block_scheduler(block(sys_dir, "sda"), out, sizeof(out)), 0);
	assert_string_equal(out, "bfq");
	/* no brackets: a device without an elevator on older kernels */
	assert_int_equal(sysfs_block_scheduler(block(sys_dir, "dm-0"), out, sizeof(out)), 0);
	assert_string_equal(out, "none");
	/* as the live kernel prints it, with a space after the last entry */
	assert_int_equal(sysfs_block_scheduler(block(kernel_dir, "loop5"), out, sizeof(out)), 0);
	assert_string_equal(out, "mq-deadline");
	assert_int_equal(sysfs_block_dev(block(kernel_dir, "loop5"), out, sizeof(out)), 0);
	assert_string_equal(out, "7:5");
	assert_int_equal(sysfs_block_dev(block(sys_dir, "sdz"), out, sizeof(out)), -ENOENT);
}

static void test_sysfs_block_dir_too_long(void **state)
{
	char buf[17];

	assert_int_equal(sysfs_block_dir(buf, sizeof(buf), "/sys", "loop0"), 0);
	assert_string_equal(buf, "/sys/block/loop0");
	assert_int_equal(sysfs_block_dir(buf, sizeof(buf), "/sys", "loop10"), -ENAMETOOLONG);
}

static void test_sysfs_loop_backing(void **state)
{
	char path[PATH_MAX];
	bool deleted = true;

	assert_int_equal(sysfs_loop_backing(block(sys_dir, "loop0"), path, sizeof(path), &deleted), 0);
	assert_string_equal(path, "/nonexistent/dbio-fixture/disk.img");
	assert_false(deleted);
	assert_int_equal(sysfs_loop_backing(block(sys_dir, "loop1"), path, sizeof(path), &deleted), 0);
	assert_string_equal(path, "/var/tmp/old.img");
	assert_true(deleted);
	/* a file name ending in spaces is the file's name, kept whole */
	assert_int_equal(sysfs_loop_backing(block(kernel_dir, "loop5"), path, sizeof(path), &deleted), 0);
	assert_string_equal(path, "/srv/dbio/matrix.img  ");
	assert_false(deleted);
	/* loop2 holds no file */
	assert_int_equal(sysfs_loop_backing(block(sys_dir, "loop2"), path, sizeof(path), &deleted), -ENOENT);
	assert_false(deleted);
}

/* A scheduler is written to queue/scheduler as is; a missing queue is
 * -ENOENT, not a file made. */
static void test_sysfs_set_scheduler_writes(void **state)
{
	char dir[] = "/tmp/dbio-test-sysfs-XXXXXX", path[PATH_MAX], buf[64];
	FILE *fp;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(sysfs_block_set_scheduler(dir, "none"), -ENOENT);
	snprintf(path, sizeof(path), "%s/queue", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/queue/scheduler", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("[none] mq-deadline \n", fp);
	fclose(fp);
	assert_int_equal(sysfs_block_scheduler(dir, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "none");
	/* A regular file, unlike sysfs, is not emptied by a write. */
	fp = fopen(path, "w");
	assert_non_null(fp);
	fclose(fp);
	assert_int_equal(sysfs_block_set_scheduler(dir, "mq-deadline"), 0);
	assert_int_equal(sysfs_read_line(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "mq-deadline");
	unlink(path);
	snprintf(path, sizeof(path), "%s/queue", dir);
	rmdir(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysfs_line_keeps_bytes_value_trims),
		cmocka_unit_test(test_sysfs_active_choice),
		cmocka_unit_test(test_sysfs_read_choice_thp),
		cmocka_unit_test(test_sysfs_block_dev_and_scheduler),
		cmocka_unit_test(test_sysfs_block_dir_too_long),
		cmocka_unit_test(test_sysfs_loop_backing),
		cmocka_unit_test(test_sysfs_set_scheduler_writes),
	};

	return cmocka_run_group_tests_name("sysfs", tests, setup, NULL);
}
