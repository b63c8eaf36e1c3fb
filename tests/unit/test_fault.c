/*
 * Unit tests for DBIO_FAULT's table (src/util/fault.c): what a value is
 * parsed into, the message for each malformed one, and the calls it makes
 * fail — counted per operation, the first `after` passing, `times` failing
 * — on a real file, through dbio_sys as dbio calls it.
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
#include <unistd.h>

#include "util/fault.h"
#include "util/syscalls.h"

#define ACCEPTED                                                                                             \
	"expected KIND:OP[:after=N][:times=N], several separated by ',', with KIND eio, enospc, "            \
	"eintr, short or slow and OP read, write, fsync, open or fallocate"

static int fd = -1;

static int setup(void **state)
{
	char path[] = "/tmp/dbio-fault-XXXXXX";
	char buf[8192] = { 0 };

	(void)state;
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	return write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	fault_remove();
	close(fd);
	return 0;
}

/* spec is refused with "DBIO_FAULT=<spec>: <what>" and nothing installed. */
static void refused(const char *spec, const char *what)
{
	struct dbio_err err = { 0 };
	char want[512];

	assert_int_equal(fault_install(spec, &err), DBIO_EINPUT);
	snprintf(want, sizeof(want), "DBIO_FAULT=%s: %s", spec, what);
	assert_string_equal(err.msg, want);
	assert_ptr_equal(dbio_sys, &dbio_sys_libc);
	assert_null(fault_spec());
}

static void test_fault_malformed_values_say_what_is_accepted(void **state)
{
	(void)state;
	refused("eio", "'eio': no operation: " ACCEPTED);
	refused("eiox:read", "'eiox': unknown fault: " ACCEPTED);
	refused("eio:reed", "'reed': unknown operation: " ACCEPTED);
	refused("eio:read:after=", "'after=': not a whole number of calls: " ACCEPTED);
	refused("eio:read:after=-3", "'after=-3': not a whole number of calls: " ACCEPTED);
	refused("eio:read:times=2x", "'times=2x': not a whole number of calls: " ACCEPTED);
	refused("eio:read:count=2", "'count=2': not after=N or times=N: " ACCEPTED);
	refused("short:fsync", "short:fsync: only a read or a write can be short");
	refused("eio:read,enospc:read", "two faults for read: give one per operation");
	refused("eio:read,", "'': no operation: " ACCEPTED);
}

/* eio:read:after=2:times=3: reads 1-2 pass, 3-5 fail with EIO, 6 passes;
 * writes are untouched. */
static void test_fault_after_and_times(void **state)
{
	struct dbio_err err = { 0 };
	char buf[4096];

	(void)state;
	assert_int_equal(fault_install("eio:read:after=2:times=3", &err), 0);
	assert_string_equal(fault_spec(), "eio:read:after=2:times=3");
	assert_true(fault_on(FAULT_OP_READ));
	assert_false(fault_on(FAULT_OP_WRITE));
	for (int i = 1; i <= 6; i++) {
		ssize_t n = dbio_sys->pread(fd, buf, sizeof(buf), 0);

		if (i >= 3 && i <= 5) {
			assert_int_equal(n, -1);
			assert_int_equal(errno, EIO);
		} else {
			assert_int_equal(n, 4096);
		}
	}
	assert_int_equal(dbio_sys->pwrite(fd, buf, sizeof(buf), 0), 4096);
	assert_int_equal(fault_calls(FAULT_OP_READ), 6);
	assert_int_equal(fault_calls(FAULT_OP_WRITE), 1);
}

/* enospc and eio fail every call after `after` by default (a broken device
 * stays broken); eintr and short once; short moves half. */
static void test_fault_defaults_and_kinds(void **state)
{
	struct dbio_err err = { 0 };
	char buf[4096];

	(void)state;
	assert_int_equal(fault_install("enospc:write:after=1,eintr:read,short:fsync", &err), DBIO_EINPUT);
	assert_int_equal(fault_install("enospc:write:after=1,eintr:read", &err), 0);
	assert_int_equal(dbio_sys->write(fd, buf, 100), 100);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(dbio_sys->pwrite(fd, buf, 100, 0), -1);
		assert_int_equal(errno, ENOSPC);
	}
	assert_int_equal(dbio_sys->pread(fd, buf, 100, 0), -1);
	assert_int_equal(errno, EINTR);
	assert_int_equal(dbio_sys->pread(fd, buf, 100, 0), 100);
	assert_int_equal(fault_install("short:read,eio:fsync,enospc:fallocate", &err), 0);
	assert_int_equal(dbio_sys->pread(fd, buf, 4096, 0), 2048);
	assert_int_equal(dbio_sys->pread(fd, buf, 4096, 0), 4096);
	assert_int_equal(dbio_sys->fsync(fd), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(dbio_sys->fdatasync(fd), -1);
	assert_int_equal(dbio_sys->posix_fallocate(fd, 0, 4096), ENOSPC);
	assert_int_equal(fault_calls(FAULT_OP_FSYNC), 2);
	fault_remove();
	assert_ptr_equal(dbio_sys, &dbio_sys_libc);
	assert_int_equal(dbio_sys->fsync(fd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fault_malformed_values_say_what_is_accepted, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_fault_after_and_times, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_defaults_and_kinds, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
