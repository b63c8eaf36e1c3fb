/*
 * Unit tests for workload=postgres's pure helpers (src/workload/
 * postgres_int.h): the cluster's removal follows no symlink the server's
 * user may have planted inside it (what a link points at survives, the
 * link goes) and says what it could not remove; the FATAL line of a
 * server that would not start is found in server.log's tail, past
 * log_line_prefix, and the setting it (or its HINT) names told apart from
 * a failure that names none; /proc/<pid>/stat is read past a
 * command holding spaces and ')'. In a build without libpq there is
 * nothing to test, and the test says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#ifdef DBIO_HAVE_LIBPQ
#include "workload/postgres_int.h"

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_postgres_remove_tree_follows_no_symlink(void **state)
{
	char base[] = "/tmp/dbio-test-pg.XXXXXX", path[512];
	struct dbio_err err = { 0 };
	int fd, cfd;

	(void)state;
	assert_non_null(mkdtemp(base));
	/* outside/keep: what a link in the cluster points at. */
	snprintf(path, sizeof(path), "%s/outside", base);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/outside/keep", base);
	write_file(path, "keep");
	/* cluster/data/base/1/{16384, link -> outside}, cluster/server.log. */
	snprintf(path, sizeof(path), "%s/cluster", base);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/cluster/data", base);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/cluster/data/base", base);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/cluster/data/base/1", base);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/cluster/data/base/1/16384", base);
	write_file(path, "rows");
	snprintf(path, sizeof(path), "%s/cluster/server.log", base);
	write_file(path, "log");
	snprintf(path, sizeof(path), "%s/cluster/data/base/1/link", base);
	{
		char outside[512];

		snprintf(outside, sizeof(outside), "%s/outside", base);
		assert_int_equal(symlink(outside, path), 0);
	}

	fd = open(base, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	cfd = openat(fd, "cluster", O_RDONLY | O_DIRECTORY);
	assert_true(cfd >= 0);
	assert_int_equal(pg_remove_tree(fd, "cluster", cfd, "cluster", &err), 0);
	close(cfd);
	assert_int_equal(faccessat(fd, "cluster", F_OK, AT_SYMLINK_NOFOLLOW), -1);
	assert_int_equal(faccessat(fd, "outside/keep", F_OK, 0), 0);
	/* Moved away and a link put where it was: the directory dbio holds is
	 * emptied, the link and its target are left alone. */
	assert_int_equal(mkdirat(fd, "cluster", 0700), 0);
	cfd = openat(fd, "cluster", O_RDONLY | O_DIRECTORY);
	assert_true(cfd >= 0);
	assert_int_equal(mkdirat(cfd, "data", 0700), 0);
	assert_int_equal(renameat(fd, "cluster", fd, "moved"), 0);
	assert_int_equal(symlinkat("outside", fd, "cluster"), 0);
	assert_int_equal(pg_remove_tree(fd, "cluster", cfd, "cluster", &err), DBIO_EUNSAFE);
	close(cfd);
	assert_int_equal(faccessat(fd, "outside/keep", F_OK, 0), 0);
	assert_int_equal(faccessat(fd, "moved/data", F_OK, 0), -1);
	assert_int_equal(unlinkat(fd, "cluster", 0), 0);
	assert_int_equal(unlinkat(fd, "moved", AT_REMOVEDIR), 0);
	assert_int_equal(unlinkat(fd, "outside/keep", 0), 0);
	assert_int_equal(unlinkat(fd, "outside", AT_REMOVEDIR), 0);
	close(fd);
	assert_int_equal(rmdir(base), 0);
}

static void test_postgres_refused_setting(void **state)
{
	const char *const names[] = { "shared_buffers", "wal_level", "max_wal_size" };
	char log[] =
		"2026-12-01 03:19:42.094 GMT [23112] LOG:  starting\n"
		"2026-12-01 03:19:42.094 GMT [23112] FATAL:  invalid value for parameter \"wal_level\": \"loud\"\n"
		"2026-12-01 03:19:42.094 GMT [23112] HINT:  Available values: minimal, replica, logical.\n"
		"2026-12-01 03:19:42.095 GMT [23112] LOG:  database system is shut down\n";
	char cross[] =
		"2026-12-02 01:19:32.856 UTC [4209] FATAL:  \"max_wal_size\" must be at least twice \"wal_segment_size\"\n"
		"2026-12-02 01:19:32.856 UTC [4209] LOG:  database system is shut down\n";
	char hint[] =
		"x FATAL:  could not map anonymous shared memory: Cannot allocate memory\n"
		"x HINT:  To reduce the request size, perhaps by reducing shared_buffers or max_connections.\n";
	/* "shared_buffersx" in a HINT is not the setting; the HINT of a
	 * later line is not this one's. */
	char other[] = "x FATAL:  could not create shared memory segment: No space left\n"
		       "x HINT:  see shared_buffersx\n"
		       "x LOG:  x\n"
		       "x HINT:  reduce shared_buffers\n";
	char none[] = "x LOG:  database system is ready to accept connections\n";
	size_t which = 9;

	(void)state;
	assert_string_equal(pg_refused_setting(log, names, 3, &which),
			    "invalid value for parameter \"wal_level\": \"loud\"");
	assert_int_equal(which, 1);
	assert_string_equal(pg_refused_setting(cross, names, 3, &which),
			    "\"max_wal_size\" must be at least twice \"wal_segment_size\"");
	assert_int_equal(which, 2);
	assert_string_equal(pg_refused_setting(hint, names, 3, &which),
			    "could not map anonymous shared memory: Cannot allocate memory");
	assert_int_equal(which, 0);
	assert_string_equal(pg_refused_setting(other, names, 3, &which),
			    "could not create shared memory segment: No space left");
	assert_int_equal(which, 3);
	assert_null(pg_refused_setting(none, names, 3, &which));
}

static void test_postgres_proc_stat_parse(void **state)
{
	/* The command "post (gres) x" holds spaces and ')'. */
	const char *line = "4242 (post (gres) x) S 4000 4242 4242 0 -1 4194560 1000 0 0 0 "
			   "1234 567 89 10 20 0 1 0 100 1000000 500 18446744073709551615";
	unsigned long long t[4];
	int ppid = 0;

	(void)state;
	assert_int_equal(pg_proc_stat_parse(line, t, &ppid), 0);
	assert_int_equal(ppid, 4000);
	assert_int_equal(t[0], 1234);
	assert_int_equal(t[1], 567);
	assert_int_equal(t[2], 89);
	assert_int_equal(t[3], 10);
	assert_int_equal(pg_proc_stat_parse("4242 no parenthesis", t, &ppid), -EINVAL);
	assert_int_equal(pg_proc_stat_parse("4242 (x) S 1 2", t, &ppid), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_postgres_remove_tree_follows_no_symlink),
		cmocka_unit_test(test_postgres_refused_setting),
		cmocka_unit_test(test_postgres_proc_stat_parse),
	};

	return cmocka_run_group_tests_name("postgres", tests, NULL, NULL);
}
#else
static void test_postgres_not_built(void **state)
{
	(void)state;
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_postgres_not_built) };

	fprintf(stderr, "postgres: this build has no libpq (libpq-dev): nothing to test\n");
	return cmocka_run_group_tests_name("postgres", tests, NULL, NULL);
}
#endif
