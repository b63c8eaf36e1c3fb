/*
 * Environment capture (src/sys/sysinfo.c) against the fake /proc and /sys in
 * tests/fixtures/sysinfo/ (symlinks laid out as real sysfs has them: a SATA
 * disk sda with partitions sda1 and sda2, an SSD sdb, a virtio disk vda, an
 * LVM volume dm-0 over sda2 and sdb, loop devices), plus one call on the
 * live system.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/sysinfo.h"

static char proc_dir[PATH_MAX], sys_dir[PATH_MAX], mountinfo_path[PATH_MAX];
static struct sys_paths fixture;

/* The fixture sits beside tests/unit/ (this file's directory). */
static int setup(void **state)
{
	char root[PATH_MAX];
	const char *file = __FILE__, *cut = strstr(file, "unit/test_sysinfo.c");

	snprintf(root, sizeof(root), "%.*sfixtures/sysinfo", (int)(cut ? cut - file : 0), file);
	snprintf(proc_dir, sizeof(proc_dir), "%s/proc", root);
	snprintf(sys_dir, sizeof(sys_dir), "%s/sys", root);
	snprintf(mountinfo_path, sizeof(mountinfo_path), "%s/proc/self/mountinfo", root);
	fixture = (struct sys_paths){ .proc = proc_dir, .sys = sys_dir, .mountinfo = mountinfo_path };
	return 0;
}

static const char *str(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	assert_non_null(v);
	assert_true(json_is_string(v));
	return json_string_value(v);
}

static json_int_t num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	assert_non_null(v);
	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

static void test_sysinfo_host_fields(void **state)
{
	json_t *h = sysinfo_host(&fixture);
	json_t *vm;

	assert_non_null(h);
	assert_string_equal(str(h, "hostname"), "fixture-host");
	assert_string_equal(str(h, "kernel_release"), "6.1.0-fixture");
	assert_string_equal(str(h, "kernel_version"), "#1 SMP PREEMPT_DYNAMIC Debian 6.1.0-1 (2026-01-01)");
	assert_string_equal(str(h, "machine"), "x86_64");
	assert_string_equal(str(h, "cpu_model"), "Fixture CPU E5-0000 v0 @ 2.00GHz");
	assert_int_equal(num(h, "cpus_online"), 3);
	assert_int_equal(num(h, "mem_total_bytes"), 8048576LL * 1024);
	assert_int_equal(num(h, "mem_available_bytes"), 6000000LL * 1024);
	assert_int_equal(num(h, "swap_total_bytes"), 2097148LL * 1024);
	assert_int_equal(num(h, "swap_free_bytes"), 2000000LL * 1024);
	vm = json_object_get(h, "vm");
	assert_non_null(vm);
	assert_int_equal(json_object_size(vm), 7);
	assert_int_equal(num(vm, "dirty_ratio"), 20);
	assert_int_equal(num(vm, "dirty_background_ratio"), 10);
	assert_int_equal(num(vm, "dirty_bytes"), 0);
	assert_int_equal(num(vm, "dirty_background_bytes"), 67108864);
	assert_int_equal(num(vm, "dirty_expire_centisecs"), 3000);
	assert_int_equal(num(vm, "dirty_writeback_centisecs"), 500);
	assert_int_equal(num(vm, "swappiness"), 60);
	json_decref(h);
}

static void test_sysinfo_thp_bracket(void **state)
{
	json_t *h = sysinfo_host(&fixture);
	json_t *thp = json_object_get(h, "transparent_hugepage");

	assert_non_null(thp);
	assert_string_equal(str(thp, "enabled"), "always");
	assert_string_equal(str(thp, "defrag"), "defer+madvise");
	json_decref(h);
}

/* A proc tree without the files leaves the fields out rather than guess. */
static void test_sysinfo_host_missing_files_omitted(void **state)
{
	struct sys_paths empty = { .proc = "/nonexistent/proc", .sys = "/nonexistent/sys", .mountinfo = "" };
	json_t *h = sysinfo_host(&empty);

	assert_non_null(h);
	assert_null(json_object_get(h, "hostname"));
	assert_null(json_object_get(h, "cpus_online"));
	assert_null(json_object_get(h, "mem_total_bytes"));
	assert_null(json_object_get(h, "vm"));
	assert_null(json_object_get(h, "transparent_hugepage"));
	/* machine falls back to uname() */
	assert_non_null(json_object_get(h, "machine"));
	json_decref(h);
}

static void test_sysinfo_scheduler_bracket(void **state)
{
	json_t *sda = sysinfo_block_device(&fixture, 8, 0);
	json_t *vda = sysinfo_block_device(&fixture, 254, 0);
	json_t *dm = sysinfo_block_device(&fixture, 253, 0);

	assert_non_null(sda);
	assert_non_null(vda);
	assert_non_null(dm);
	assert_string_equal(str(sda, "scheduler"), "bfq");
	assert_string_equal(str(vda, "scheduler"), "mq-deadline");
	/* no brackets: a device without an elevator on older kernels */
	assert_string_equal(str(dm, "scheduler"), "none");
	json_decref(sda);
	json_decref(vda);
	json_decref(dm);
}

static void test_sysinfo_whole_disk(void **state)
{
	json_t *d = sysinfo_block_device(&fixture, 8, 16);

	assert_non_null(d);
	assert_string_equal(str(d, "name"), "sdb");
	assert_null(json_object_get(d, "partition"));
	assert_string_equal(str(d, "model"), "Fixture SSD 500GB");
	assert_string_equal(str(d, "driver"), "sd");
	assert_true(json_is_false(json_object_get(d, "rotational")));
	assert_int_equal(num(d, "logical_block_size_bytes"), 512);
	assert_int_equal(num(d, "physical_block_size_bytes"), 512);
	assert_int_equal(num(d, "nr_requests"), 256);
	assert_int_equal(num(d, "read_ahead_kb"), 4096);
	assert_string_equal(str(d, "write_cache"), "write through");
	assert_int_equal(num(d, "size_bytes"), 976773168LL * 512);
	assert_null(json_object_get(d, "slaves"));
	assert_null(json_object_get(d, "loop"));
	json_decref(d);
}

static void test_sysinfo_partition_parent_disk(void **state)
{
	json_t *d = sysinfo_block_device(&fixture, 8, 1);

	assert_non_null(d);
	assert_string_equal(str(d, "name"), "sda");
	assert_string_equal(str(d, "partition"), "sda1");
	assert_int_equal(num(d, "partition_size_bytes"), 1048576LL * 512);
	assert_string_equal(str(d, "model"), "Fixture HDD 1TB");
	assert_true(json_is_true(json_object_get(d, "rotational")));
	assert_int_equal(num(d, "logical_block_size_bytes"), 512);
	assert_int_equal(num(d, "physical_block_size_bytes"), 4096);
	assert_string_equal(str(d, "scheduler"), "bfq");
	assert_int_equal(num(d, "nr_requests"), 64);
	assert_int_equal(num(d, "read_ahead_kb"), 128);
	assert_string_equal(str(d, "write_cache"), "write back");
	assert_int_equal(num(d, "size_bytes"), 1953525168LL * 512);
	json_decref(d);
}

static void test_sysinfo_virtio_without_model(void **state)
{
	json_t *d = sysinfo_block_device(&fixture, 254, 0);

	assert_non_null(d);
	assert_string_equal(str(d, "name"), "vda");
	assert_null(json_object_get(d, "model"));
	assert_string_equal(str(d, "driver"), "virtio_blk");
	assert_int_equal(num(d, "size_bytes"), 536870912LL * 512);
	json_decref(d);
}

static void test_sysinfo_dm_slaves(void **state)
{
	json_t *d = sysinfo_block_device(&fixture, 253, 0);
	json_t *slaves, *s0, *s1;

	assert_non_null(d);
	assert_string_equal(str(d, "name"), "dm-0");
	assert_string_equal(str(d, "dm_name"), "vg0-data");
	assert_int_equal(num(d, "size_bytes"), 2929246208LL * 512);
	slaves = json_object_get(d, "slaves");
	assert_true(json_is_array(slaves));
	assert_int_equal(json_array_size(slaves), 2);
	s0 = json_array_get(slaves, 0);
	s1 = json_array_get(slaves, 1);
	assert_string_equal(str(s0, "name"), "sda");
	assert_string_equal(str(s0, "partition"), "sda2");
	assert_int_equal(num(s0, "partition_size_bytes"), 1952474079LL * 512);
	assert_string_equal(str(s0, "scheduler"), "bfq");
	assert_string_equal(str(s1, "name"), "sdb");
	assert_null(json_object_get(s1, "partition"));
	assert_string_equal(str(s1, "model"), "Fixture SSD 500GB");
	json_decref(d);
}

/* dm-9 is its own slave: the chain stops at SYSINFO_MAX_DEPTH and says so. */
static void test_sysinfo_depth_guard(void **state)
{
	json_t *d = sysinfo_block_device(&fixture, 253, 9);
	json_t *cur = d;
	int levels = 0;

	assert_non_null(d);
	while (json_object_get(cur, "slaves")) {
		cur = json_array_get(json_object_get(cur, "slaves"), 0);
		levels++;
	}
	assert_int_equal(levels, SYSINFO_MAX_DEPTH);
	assert_true(json_is_true(json_object_get(cur, "chain_truncated")));
	assert_string_equal(str(cur, "name"), "dm-9");
	json_decref(d);
}

static void test_sysinfo_loop_backing_file(void **state)
{
	json_t *d = sysinfo_block_device(&fixture, 7, 0);
	json_t *loop;

	assert_non_null(d);
	assert_string_equal(str(d, "name"), "loop0");
	assert_string_equal(str(d, "scheduler"), "none");
	loop = json_object_get(d, "loop");
	assert_non_null(loop);
	assert_string_equal(str(loop, "backing_file"), "/nonexistent/dbio-fixture/disk.img");
	assert_true(json_is_false(json_object_get(loop, "backing_file_deleted")));
	assert_int_equal(num(loop, "offset_bytes"), 0);
	assert_int_equal(num(loop, "sizelimit_bytes"), 0);
	assert_true(json_is_true(json_object_get(loop, "direct_io")));
	/* the file is not there: its filesystem is not described */
	assert_null(json_object_get(loop, "backing"));
	json_decref(d);
}

static void test_sysinfo_loop_partition(void **state)
{
	json_t *d = sysinfo_block_device(&fixture, 259, 0);

	assert_non_null(d);
	assert_string_equal(str(d, "name"), "loop0");
	assert_string_equal(str(d, "partition"), "loop0p1");
	assert_string_equal(str(json_object_get(d, "loop"), "backing_file"),
			    "/nonexistent/dbio-fixture/disk.img");
	json_decref(d);
}

static void test_sysinfo_loop_deleted_backing(void **state)
{
	json_t *d = sysinfo_block_device(&fixture, 7, 1);
	json_t *loop = json_object_get(d, "loop");

	assert_non_null(loop);
	assert_string_equal(str(loop, "backing_file"), "/var/tmp/old.img");
	assert_true(json_is_true(json_object_get(loop, "backing_file_deleted")));
	assert_int_equal(num(loop, "offset_bytes"), 1048576);
	assert_true(json_is_false(json_object_get(loop, "direct_io")));
	assert_null(json_object_get(loop, "backing"));
	json_decref(d);
}

static void test_sysinfo_loop_unattached(void **state)
{
	json_t *d = sysinfo_block_device(&fixture, 7, 2);

	assert_non_null(d);
	assert_null(json_object_get(d, "loop"));
	assert_int_equal(num(d, "size_bytes"), 0);
	json_decref(d);
}

static void test_sysinfo_unknown_device(void **state)
{
	assert_null(sysinfo_block_device(&fixture, 9, 9));
}

static void test_sysinfo_target_real_tmp(void **state)
{
	json_t *t = sysinfo_target(NULL, "/tmp");

	assert_non_null(t);
	assert_string_equal(str(t, "directory"), "/tmp");
	assert_true(strlen(str(t, "fs_type")) > 0);
	assert_true(strlen(str(t, "mount_point")) > 0);
	assert_true(strlen(str(t, "super_options")) > 0);
	assert_true(strlen(str(t, "device")) > 0);
	assert_true(num(t, "fs_block_size_bytes") > 0);
	assert_true(num(t, "fs_total_bytes") > 0);
	assert_null(json_object_get(t, "described_path"));
	assert_null(json_object_get(t, "error"));
	json_decref(t);
}

/* A directory dbio has yet to create is described by its nearest ancestor. */
static void test_sysinfo_target_missing_dir(void **state)
{
	json_t *t = sysinfo_target(NULL, "/tmp/dbio-test-sysinfo-absent/a/b");

	assert_non_null(t);
	assert_string_equal(str(t, "directory"), "/tmp/dbio-test-sysinfo-absent/a/b");
	assert_string_equal(str(t, "described_path"), "/tmp");
	assert_true(strlen(str(t, "fs_type")) > 0);
	json_decref(t);
}

/* Mount and superblock options come from the mountinfo named in sys_paths:
 * a written one naming /tmp's real device (escaped mount point included). */
static void test_sysinfo_target_mountinfo_options(void **state)
{
	char path[] = "/tmp/dbio-test-sysinfo-XXXXXX";
	struct sys_paths p = fixture;
	struct stat st;
	json_t *t;
	FILE *fp;
	int fd;

	assert_int_equal(stat("/tmp", &st), 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	fprintf(fp, "20 1 %u:%u / /tm\\040p rw - ext4 /dev/wrong rw\n", major(st.st_dev), minor(st.st_dev));
	fprintf(fp,
		"21 1 %u:%u / / rw,noatime shared:1 master:2 - xfs /dev/fixture rw,attr2,inode64,noquota\n",
		major(st.st_dev), minor(st.st_dev));
	fclose(fp);
	p.mountinfo = path;
	t = sysinfo_target(&p, "/tmp");
	unlink(path);
	assert_non_null(t);
	assert_string_equal(str(t, "fs_type"), "xfs");
	assert_string_equal(str(t, "mount_point"), "/");
	assert_string_equal(str(t, "mount_options"), "rw,noatime");
	assert_string_equal(str(t, "super_options"), "rw,attr2,inode64,noquota");
	assert_string_equal(str(t, "source"), "/dev/fixture");
	json_decref(t);
}

/* Nothing to describe: the error is said, no figure is made up. */
static void test_sysinfo_target_error(void **state)
{
	struct sys_paths p = fixture;
	json_t *t;

	p.mountinfo = "/nonexistent/mountinfo";
	t = sysinfo_target(&p, "/tmp");
	assert_non_null(t);
	assert_string_equal(str(t, "directory"), "/tmp");
	assert_string_equal(str(t, "error"), "No such file or directory");
	assert_null(json_object_get(t, "fs_type"));
	assert_null(json_object_get(t, "fs_free_bytes"));
	json_decref(t);
}

/* Virtual filesystems have no block device: the key is absent. */
static void test_sysinfo_target_virtual_fs(void **state)
{
	json_t *t = sysinfo_target(NULL, "/proc");

	assert_non_null(t);
	assert_string_equal(str(t, "fs_type"), "proc");
	assert_null(json_object_get(t, "block_device"));
	json_decref(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysinfo_host_fields),
		cmocka_unit_test(test_sysinfo_thp_bracket),
		cmocka_unit_test(test_sysinfo_host_missing_files_omitted),
		cmocka_unit_test(test_sysinfo_scheduler_bracket),
		cmocka_unit_test(test_sysinfo_whole_disk),
		cmocka_unit_test(test_sysinfo_partition_parent_disk),
		cmocka_unit_test(test_sysinfo_virtio_without_model),
		cmocka_unit_test(test_sysinfo_dm_slaves),
		cmocka_unit_test(test_sysinfo_depth_guard),
		cmocka_unit_test(test_sysinfo_loop_backing_file),
		cmocka_unit_test(test_sysinfo_loop_partition),
		cmocka_unit_test(test_sysinfo_loop_deleted_backing),
		cmocka_unit_test(test_sysinfo_loop_unattached),
		cmocka_unit_test(test_sysinfo_unknown_device),
		cmocka_unit_test(test_sysinfo_target_real_tmp),
		cmocka_unit_test(test_sysinfo_target_missing_dir),
		cmocka_unit_test(test_sysinfo_target_mountinfo_options),
		cmocka_unit_test(test_sysinfo_target_error),
		cmocka_unit_test(test_sysinfo_target_virtual_fs),
	};

	return cmocka_run_group_tests_name("sysinfo", tests, setup, NULL);
}
