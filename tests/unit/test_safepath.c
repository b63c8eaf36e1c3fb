/*
 * Unit tests for paths resolved component by component (src/util/safepath.h):
 * another user's symlink refused in the middle and at the end with the
 * exact message, root's or one's own followed (relative, absolute, a chain,
 * ".." after one), empty and "." components, a path too long, a loop, a
 * /proc link, and the held directory fd that a rename after the walk cannot
 * redirect. Runs in a fresh directory under /tmp; the cases that chown a
 * symlink to user 65534 need root and are skipped without it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/safepath.h"

#define OTHER 65534

static char top[64];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void planted(const char *target, const char *link)
{
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(lchown(link, OTHER, OTHER), 0);
}

/* a/ b/ (b/f "b's"), victim/ (victim/out "precious"), file */
static int tree(void **state)
{
	snprintf(top, sizeof(top), "/tmp/dbio-safepath.XXXXXX");
	assert_non_null(mkdtemp(top));
	assert_int_equal(chdir(top), 0);
	assert_int_equal(mkdir("a", 0755), 0);
	assert_int_equal(mkdir("b", 0755), 0);
	assert_int_equal(mkdir("victim", 0755), 0);
	put("b/f", "b's");
	put("victim/out", "precious");
	put("file", "x");
	return 0;
}

static int untree(void **state)
{
	char cmd[128];

	assert_int_equal(chdir("/"), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	return system(cmd);
}

static void need_root(void)
{
	if (geteuid() != 0)
		skip();
}

/* Whether fd is the file at path (same inode). */
static bool same(int fd, const char *path)
{
	struct stat a, b;

	return !fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static void test_safepath_plain_file_and_missing_leaf(void **state)
{
	struct dbio_err err = { 0 };
	struct safepath sp;

	assert_int_equal(safepath_resolve("--output", "b/f", &sp, &err), 0);
	assert_string_equal(sp.leaf, "f");
	assert_true(same(sp.dirfd, "b"));
	assert_true(same(sp.fd, "b/f"));
	assert_false(sp.via_link);
	assert_true(S_ISREG(sp.st.st_mode));
	safepath_release(&sp);
	assert_int_equal(safepath_resolve("--output", "b/new", &sp, &err), 0);
	assert_int_equal(sp.fd, -1);
	assert_string_equal(sp.leaf, "new");
	assert_true(same(sp.dirfd, "b"));
	safepath_release(&sp);
	assert_int_equal(err.code, 0);
}

static void test_safepath_errors_leave_err_to_the_caller(void **state)
{
	struct dbio_err err = { 0 };
	struct safepath sp;
	char *longp = malloc(PATH_MAX + 2);

	assert_int_equal(safepath_resolve("--output", "nope/f", &sp, &err), -ENOENT);
	safepath_release(&sp);
	assert_int_equal(safepath_resolve("--output", "file/f", &sp, &err), -ENOTDIR);
	safepath_release(&sp);
	assert_int_equal(safepath_resolve("--output", "", &sp, &err), -ENOENT);
	safepath_release(&sp);
	assert_non_null(longp);
	memset(longp, 'a', PATH_MAX);
	longp[PATH_MAX] = '\0';
	assert_int_equal(safepath_resolve("--output", longp, &sp, &err), -ENAMETOOLONG);
	safepath_release(&sp);
	free(longp);
	assert_int_equal(symlink("loop2", "loop1"), 0);
	assert_int_equal(symlink("loop1", "loop2"), 0);
	assert_int_equal(safepath_resolve("--output", "loop1/x", &sp, &err), -ELOOP);
	safepath_release(&sp);
	assert_int_equal(err.code, 0);
}

static void test_safepath_empty_and_dot_components(void **state)
{
	struct dbio_err err = { 0 };
	struct safepath sp;

	assert_int_equal(safepath_resolve("", ".//b/./f", &sp, &err), 0);
	assert_string_equal(sp.leaf, "f");
	assert_true(same(sp.fd, "b/f"));
	safepath_release(&sp);
	/* ending at a directory named by "..": no leaf, fd the directory */
	assert_int_equal(safepath_resolve("", "a/..", &sp, &err), 0);
	assert_null(sp.leaf);
	assert_int_equal(sp.dirfd, -1);
	assert_true(same(sp.fd, "."));
	safepath_release(&sp);
	assert_int_equal(safepath_resolve("", "/", &sp, &err), 0);
	assert_true(same(sp.fd, "/"));
	safepath_release(&sp);
}

static void test_safepath_another_users_middle_symlink_refused(void **state)
{
	struct dbio_err err = { 0 };
	struct safepath sp;

	need_root();
	assert_int_equal(chown("a", OTHER, OTHER), 0);
	planted("../victim", "a/sub");
	assert_int_equal(safepath_resolve("--output", "a/sub/out", &sp, &err), DBIO_EUNSAFE);
	assert_string_equal(
		err.msg,
		"--output a/sub/out: component 'a/sub' is a symlink that belongs to user 65534: refusing to follow it (give the path it points to)");
	assert_int_equal(sp.fd, -1);
	assert_int_equal(sp.dirfd, -1);
	safepath_release(&sp);
	/* the same as the last component: the message of a whole path */
	memset(&err, 0, sizeof(err));
	assert_int_equal(safepath_resolve("--output", "a/sub", &sp, &err), DBIO_EUNSAFE);
	assert_string_equal(
		err.msg,
		"--output a/sub: a symlink that belongs to user 65534: refusing to follow it (give the path it points to)");
	safepath_release(&sp);
	/* absolute, and after ".." */
	char path[128], want[512];

	snprintf(path, sizeof(path), "%s/b/../a/sub/out", top);
	snprintf(
		want, sizeof(want),
		"x %s: component '%s/a/sub' is a symlink that belongs to user 65534: refusing to follow it (give the path it points to)",
		path, top);
	memset(&err, 0, sizeof(err));
	assert_int_equal(safepath_resolve("x", path, &sp, &err), DBIO_EUNSAFE);
	assert_string_equal(err.msg, want);
	safepath_release(&sp);
}

static void test_safepath_own_symlinks_followed(void **state)
{
	struct dbio_err err = { 0 };
	struct safepath sp;
	char abs[128];

	/* relative target, from the link's directory */
	assert_int_equal(symlink("../b", "a/rel"), 0);
	assert_int_equal(safepath_resolve("", "a/rel/f", &sp, &err), 0);
	assert_true(same(sp.fd, "b/f"));
	assert_true(same(sp.dirfd, "b"));
	assert_false(sp.via_link);
	safepath_release(&sp);
	/* absolute target, and ".." after the link: the target's parent */
	snprintf(abs, sizeof(abs), "%s/b", top);
	assert_int_equal(symlink(abs, "a/abs"), 0);
	assert_int_equal(safepath_resolve("", "a/abs/../file", &sp, &err), 0);
	assert_true(same(sp.fd, "file"));
	safepath_release(&sp);
	/* the last component a link: followed to its target, marked */
	assert_int_equal(symlink("b/f", "lf"), 0);
	assert_int_equal(safepath_resolve("", "lf", &sp, &err), 0);
	assert_true(sp.via_link);
	assert_string_equal(sp.leaf, "f");
	assert_true(same(sp.fd, "b/f"));
	safepath_release(&sp);
	/* a link to nothing: nothing there, via a link */
	assert_int_equal(symlink("b/none", "dangling"), 0);
	assert_int_equal(safepath_resolve("", "dangling", &sp, &err), 0);
	assert_true(sp.via_link);
	assert_int_equal(sp.fd, -1);
	safepath_release(&sp);
	assert_int_equal(err.code, 0);
}

static void test_safepath_chain_to_another_users_link_refused(void **state)
{
	struct dbio_err err = { 0 };
	struct safepath sp;

	need_root();
	assert_int_equal(mkdir("c", 0755), 0);
	assert_int_equal(chown("c", OTHER, OTHER), 0);
	planted("../victim", "c/l2");
	assert_int_equal(symlink("c/l2", "l1"), 0); /* root's: followed, to another user's */
	assert_int_equal(safepath_resolve("--output", "l1/out", &sp, &err), DBIO_EUNSAFE);
	assert_string_equal(
		err.msg,
		"--output l1/out: component 'c/l2' is a symlink that belongs to user 65534: refusing to follow it (give the path it points to)");
	safepath_release(&sp);
	/* the chain at the last component names the component too */
	memset(&err, 0, sizeof(err));
	planted("../victim/out", "c/l3");
	assert_int_equal(symlink("c/l3", "l4"), 0);
	assert_int_equal(safepath_resolve("--output", "l4", &sp, &err), DBIO_EUNSAFE);
	assert_string_equal(
		err.msg,
		"--output l4: component 'c/l3' is a symlink that belongs to user 65534: refusing to follow it (give the path it points to)");
	safepath_release(&sp);
}

/* A directory of the path owned by someone who renames it and plants a
 * symlink in its place after the walk: what dbio makes through the fds it
 * was handed lands in the directory it walked. */
static void test_safepath_held_dirfd_defeats_a_rename(void **state)
{
	struct dbio_err err = { 0 };
	struct safepath sp;
	struct stat st;
	int fd;

	assert_int_equal(mkdir("a/d", 0755), 0);
	assert_int_equal(safepath_resolve("", "a/d/new", &sp, &err), 0);
	assert_int_equal(rename("a/d", "a/moved"), 0);
	assert_int_equal(symlink("../victim", "a/d"), 0);
	fd = openat(sp.dirfd, sp.leaf, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, 0600);
	assert_true(fd >= 0);
	close(fd);
	safepath_release(&sp);
	assert_int_equal(stat("a/moved/new", &st), 0);
	assert_int_equal(stat("victim/new", &st), -1);
}

static void test_safepath_proc_link_and_reopen(void **state)
{
	struct dbio_err err = { 0 };
	struct safepath sp;
	char path[64], buf[8] = "";
	int fd = open("b/f", O_RDONLY), rfd;

	assert_true(fd >= 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	assert_int_equal(safepath_resolve("", path, &sp, &err), 0);
	assert_true(sp.via_link);
	assert_int_equal(sp.dirfd, -1);
	assert_true(same(sp.fd, "b/f"));
	rfd = safepath_reopen(&sp, O_RDONLY);
	assert_true(rfd >= 0);
	assert_int_equal(read(rfd, buf, sizeof(buf) - 1), 3);
	assert_string_equal(buf, "b's");
	close(rfd);
	close(fd);
	safepath_release(&sp);
}

static void test_safepath_open_dir(void **state)
{
	struct dbio_err err = { 0 };
	int fd = safepath_open_dir("", "a/../b", &err);

	assert_true(fd >= 0);
	assert_true(same(fd, "b"));
	close(fd);
	assert_int_equal(safepath_open_dir("", "file", &err), -ENOTDIR);
	assert_int_equal(safepath_open_dir("", "none", &err), -ENOENT);
	assert_int_equal(err.code, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_safepath_plain_file_and_missing_leaf, tree, untree),
		cmocka_unit_test_setup_teardown(test_safepath_errors_leave_err_to_the_caller, tree, untree),
		cmocka_unit_test_setup_teardown(test_safepath_empty_and_dot_components, tree, untree),
		cmocka_unit_test_setup_teardown(test_safepath_another_users_middle_symlink_refused, tree,
						untree),
		cmocka_unit_test_setup_teardown(test_safepath_own_symlinks_followed, tree, untree),
		cmocka_unit_test_setup_teardown(test_safepath_chain_to_another_users_link_refused, tree,
						untree),
		cmocka_unit_test_setup_teardown(test_safepath_held_dirfd_defeats_a_rename, tree, untree),
		cmocka_unit_test_setup_teardown(test_safepath_proc_link_and_reopen, tree, untree),
		cmocka_unit_test_setup_teardown(test_safepath_open_dir, tree, untree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
