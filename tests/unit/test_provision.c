/*
 * What of src/provision/ can be checked without root: the state file's
 * records (formatted from a run's state, parsed back field for field, in
 * the exact text --cleanup of an older dbio reads), the state file's made
 * and undone lines, and the image's trailer and token on a temporary file.
 * Loop devices, mkfs and mount are tests/cli/matrix.bats's (root). This
 * file includes provision_int.h, the module's private header, on purpose:
 * these are the module's internals that a mistake in would strand a
 * user's loop devices or remove the wrong file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "provision/provision_int.h"

#define TOKEN "0123456789abcdef0123456789abcdef"

/* A run's state as provision_setup leaves it on a loop device. */
static void loop_env(struct provision_env *m)
{
	memset(m, 0, sizeof(*m));
	m->state_fd = -1;
	m->loop_fd = -1;
	snprintf(m->mnt, sizeof(m->mnt), "/run/dbio-matrix/mnt.42.AbCdEf");
	snprintf(m->image, sizeof(m->image), "/srv/images/dbio matrix.img");
	snprintf(m->token, sizeof(m->token), TOKEN);
	m->image_dev = 2049;
	m->image_ino = 1234567;
	snprintf(m->loop_dev, sizeof(m->loop_dev), "/dev/loop7");
	snprintf(m->disk, sizeof(m->disk), "loop7");
	snprintf(m->sched_saved, sizeof(m->sched_saved), "mq-deadline");
}

/* The record of kind for m, formatted: must be want, and parse back to the
 * same kind and fields, and format again to the same line. */
static void round_trip(const struct provision_env *m, enum provision_rec_kind kind, const char *want)
{
	struct provision_rec r, back;
	char line[PROVISION_PATH_MAX + 128], again[PROVISION_PATH_MAX + 128];

	provision_rec_of(m, kind, &r);
	assert_int_equal(provision_rec_format(&r, line, sizeof(line)), (int)strlen(want));
	assert_string_equal(line, want);
	assert_int_equal(provision_rec_parse(line, &back), kind);
	assert_int_equal(back.kind, kind);
	assert_string_equal(back.token, kind == PROVISION_REC_MNT || kind == PROVISION_REC_MOUNT ||
							kind == PROVISION_REC_SCHED_DEV
						? ""
						: r.token);
	assert_string_equal(back.name, r.name);
	assert_string_equal(back.sched, r.sched);
	if (r.rest && *r.rest)
		assert_string_equal(back.rest, r.rest);
	provision_rec_format(&back, again, sizeof(again));
	assert_string_equal(again, line);
}

static void test_provision_records_round_trip(void **state)
{
	struct provision_env m;

	(void)state;
	loop_env(&m);
	round_trip(&m, PROVISION_REC_MNT, "mnt /run/dbio-matrix/mnt.42.AbCdEf");
	round_trip(&m, PROVISION_REC_MOUNT, "mount /run/dbio-matrix/mnt.42.AbCdEf");
	/* the path is the rest of the line, spaces and all */
	round_trip(&m, PROVISION_REC_IMAGE, "image " TOKEN " /srv/images/dbio matrix.img");
	round_trip(&m, PROVISION_REC_IMAGEID, "imageid 2049 1234567 " TOKEN " /srv/images/dbio matrix.img");
	round_trip(&m, PROVISION_REC_LOOP, "loop /dev/loop7 2049 1234567 " TOKEN);
	round_trip(&m, PROVISION_REC_SCHED_LOOP, "sched loop7 mq-deadline loop 2049 1234567 " TOKEN);
	/* --device: the disk's number stands for the device */
	m.loop_dev[0] = '\0';
	snprintf(m.disk, sizeof(m.disk), "sdb");
	snprintf(m.disk_devno, sizeof(m.disk_devno), "8:16");
	snprintf(m.sched_saved, sizeof(m.sched_saved), "bfq");
	round_trip(&m, PROVISION_REC_SCHED_DEV, "sched sdb bfq dev 8:16");
}

/* Lines as a killed run left them, by hand (the bats tests write these). */
static void test_provision_records_parse_fields(void **state)
{
	struct provision_rec r;

	(void)state;
	assert_int_equal(provision_rec_parse("imageid 64769 12 " TOKEN " /tmp/x/img", &r),
			 PROVISION_REC_IMAGEID);
	assert_int_equal(r.dev, 64769);
	assert_int_equal(r.ino, 12);
	assert_string_equal(r.token, TOKEN);
	assert_string_equal(r.rest, "/tmp/x/img");
	assert_int_equal(provision_rec_parse("image " TOKEN " /tmp/x/img", &r), PROVISION_REC_IMAGE);
	assert_int_equal(r.dev, 0);
	assert_int_equal(r.ino, 0);
	assert_string_equal(r.rest, "/tmp/x/img");
	assert_int_equal(provision_rec_parse("sched loop3 none loop 64769 12 " TOKEN, &r),
			 PROVISION_REC_SCHED_LOOP);
	assert_string_equal(r.name, "loop3");
	assert_string_equal(r.sched, "none");
	assert_int_equal(r.ino, 12);
	assert_int_equal(provision_rec_parse("sched sda mq-deadline dev 8:0", &r), PROVISION_REC_SCHED_DEV);
	assert_string_equal(r.rest, "8:0");
	assert_int_equal(provision_rec_parse("loop /dev/loop3 64769 12 " TOKEN, &r), PROVISION_REC_LOOP);
	assert_string_equal(r.name, "/dev/loop3");
}

/* Nothing is undone for a line dbio cannot read whole: a newer dbio's
 * record, or one cut short. */
static void test_provision_records_unknown(void **state)
{
	static const char *const lines[] = {
		"",
		"dbio-matrix-state 2",
		"swap /dev/vdb",
		"sched loop3 none loop 64769",
		"sched loop3 none",
		"loop /dev/loop3 64769 12",
		"imageid 64769 12",
		"image",
		"mnt",
		"mount",
	};
	struct provision_rec r;

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		assert_int_equal(provision_rec_parse(lines[i], &r), PROVISION_REC_UNKNOWN);
		assert_null(r.rest);
	}
	assert_int_equal(provision_rec_format(&r, (char[8]){ 0 }, 8), -EINVAL);
}

/* A temporary file standing in for the state file. */
static int temp_file(char *path)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	return fd;
}

static char *slurp(const char *path)
{
	static char buf[8192];
	FILE *fp = fopen(path, "r");
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* A record made and then undone: the "-" line matches it exactly, which is
 * how --cleanup knows it is done. */
static void test_provision_state_lines(void **state)
{
	char path[] = "/tmp/dbio-test-provision-XXXXXX";
	struct provision_env m;
	struct dbio_err err = { 0 };

	(void)state;
	loop_env(&m);
	m.state_fd = temp_file(path);
	snprintf(m.state_path, sizeof(m.state_path), "%s", path);
	assert_int_equal(provision_state_rec(&m, PROVISION_REC_LOOP, false, &err), 0);
	assert_int_equal(provision_state_rec(&m, PROVISION_REC_MOUNT, false, &err), 0);
	assert_int_equal(provision_state_rec(&m, PROVISION_REC_MOUNT, true, &err), 0);
	assert_int_equal(provision_state_rec(&m, PROVISION_REC_LOOP, true, &err), 0);
	assert_string_equal(slurp(path), "loop /dev/loop7 2049 1234567 " TOKEN "\n"
					 "mount /run/dbio-matrix/mnt.42.AbCdEf\n"
					 "-mount /run/dbio-matrix/mnt.42.AbCdEf\n"
					 "-loop /dev/loop7 2049 1234567 " TOKEN "\n");
	provision_state_close(&m, true);
	assert_int_equal(m.state_fd, -1);
	assert_int_equal(access(path, F_OK), -1);
}

static void test_provision_trailer(void **state)
{
	char path[] = "/tmp/dbio-test-provision-XXXXXX", token[PROVISION_TOKEN_LEN + 1];
	int fd = temp_file(path);
	struct stat st;

	(void)state;
	/* no trailer: an empty file, then one of the trailer's size without
	 * the magic */
	assert_int_equal(provision_trailer_token(fd, token), -ENOENT);
	assert_int_equal(ftruncate(fd, PROVISION_TRAILER_BYTES), 0);
	assert_int_equal(provision_trailer_token(fd, token), -ENOENT);
	assert_false(provision_image_is(path, TOKEN, 0, 0));
	/* past a 1 MiB image, as provision_image_make writes it */
	assert_int_equal(provision_trailer_write(fd, 1 << 20, TOKEN), 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, (1 << 20) + PROVISION_TRAILER_BYTES);
	assert_int_equal(provision_trailer_token(fd, token), 0);
	assert_string_equal(token, TOKEN);
	assert_true(provision_image_is(path, TOKEN, 0, 0));
	assert_true(provision_image_is(path, TOKEN, provision_kernel_dev(st.st_dev), st.st_ino));
	/* another run's token, another inode number: not this image */
	assert_false(provision_image_is(path, "fedcba9876543210fedcba9876543210", 0, 0));
	assert_false(provision_image_is(path, TOKEN, provision_kernel_dev(st.st_dev), st.st_ino + 1));
	/* the magic is the trailer's first bytes, the token right after */
	{
		char head[sizeof(PROVISION_TRAILER_MAGIC) + PROVISION_TOKEN_LEN + 1];

		assert_int_equal(pread(fd, head, sizeof(head) - 1, 1 << 20), (ssize_t)sizeof(head) - 1);
		head[sizeof(head) - 1] = '\0';
		assert_string_equal(head, "dbio-matrix-image " TOKEN "\n");
	}
	close(fd);
	unlink(path);
	assert_false(provision_image_is(path, TOKEN, 0, 0));
}

static void test_provision_token_and_kernel_dev(void **state)
{
	char a[PROVISION_TOKEN_LEN + 1], b[PROVISION_TOKEN_LEN + 1];

	(void)state;
	assert_int_equal(provision_token_new(a), 0);
	assert_int_equal(provision_token_new(b), 0);
	assert_int_equal(strlen(a), PROVISION_TOKEN_LEN);
	assert_int_equal(strspn(a, "0123456789abcdef"), PROVISION_TOKEN_LEN);
	assert_string_not_equal(a, b);
	/* loop_info64.lo_device: old-style 8:8 bits, minor's high bits above */
	assert_int_equal(provision_kernel_dev(makedev(7, 3)), 0x703);
	assert_int_equal(provision_kernel_dev(makedev(259, 0x12345)), 0x45 | (259 << 8) | (0x12300ull << 12));
}

static void test_provision_sched_names(void **state)
{
	struct dbio_err err = { 0 };

	(void)state;
	assert_int_equal(provision_check_sched("mq-deadline", &err), 0);
	assert_int_equal(provision_check_sched("none", &err), 0);
	assert_int_equal(provision_check_sched("../x", &err), DBIO_EINPUT);
	assert_string_equal(err.msg,
			    "--sched '../x': expected a list of I/O scheduler names, e.g. none,mq-deadline");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_provision_records_round_trip),
		cmocka_unit_test(test_provision_records_parse_fields),
		cmocka_unit_test(test_provision_records_unknown),
		cmocka_unit_test(test_provision_state_lines),
		cmocka_unit_test(test_provision_trailer),
		cmocka_unit_test(test_provision_token_and_kernel_dev),
		cmocka_unit_test(test_provision_sched_names),
	};

	return cmocka_run_group_tests_name("provision", tests, NULL, NULL);
}
