/*
 * Unit tests for the mkfs and mount option checks of `dbio matrix`
 * (src/provision/mkfs.c and mount.c): the words mkfs gets for accepted options (getopt's
 * clusters and attached values, normalised), and the exact refusal of every
 * form that could name or displace the device: free words, a trailing
 * option that would take the device as its value, "--", options and
 * suboptions that name files or devices, for ext2/3/4, xfs and btrfs; and
 * mount options that name another device.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "provision/provision.h"

/* spec must parse to exactly the words of want (space-separated). */
static void parses_to(const char *spec, const char *want)
{
	struct dbio_err err = { 0 };
	struct provision_fs fs;
	char got[1024] = "";

	if (provision_fs_parse(spec, &fs, &err))
		fail_msg("--fs '%s': %s", spec, err.msg);
	for (size_t i = 0; i < fs.nwords; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", i ? " " : "", fs.words[i]);
	assert_null(fs.words[fs.nwords]);
	provision_fs_release(&fs);
	assert_string_equal(got, want);
}

/* spec must be refused with DBIO_EINPUT and exactly "--fs '<spec>': " msg. */
static void refused(const char *spec, const char *msg)
{
	struct dbio_err err = { 0 };
	struct provision_fs fs;
	char want[1024];

	snprintf(want, sizeof(want), "--fs '%s': %s", spec, msg);
	assert_int_equal(provision_fs_parse(spec, &fs, &err), DBIO_EINPUT);
	provision_fs_release(&fs);
	assert_string_equal(err.msg, want);
}

static void test_mkfs_accepts_getopt_forms(void **state)
{
	(void)state;
	parses_to("ext4", "");
	parses_to("ext2:-b 1024", "-b 1024");
	parses_to("ext2:-b1024", "-b 1024");
	parses_to("ext4:-qF -L data", "-q -F -L data");
	parses_to("ext4:-qb4096", "-q -b 4096");
	parses_to("ext4:-O ^has_journal -E lazy_itable_init=0,stride=16",
		  "-O ^has_journal -E lazy_itable_init=0,stride=16");
	parses_to("ext3:-J size=4", "-J size=4");
	/* A value is the next word whatever it looks like, as in getopt. */
	parses_to("ext4:-L -q", "-L -q");
	parses_to("xfs:-b size=4096 -m crc=1 -l size=16m,lazy-count=1 -f",
		  "-b size=4096 -m crc=1 -l size=16m,lazy-count=1 -f");
	parses_to("btrfs:--label=x -m single --nodesize 16k -f", "-L x -m single -n 16k -f");
	parses_to("btrfs:-Kq", "-K -q");
}

static void test_mkfs_refuses_words_that_could_reach_a_device(void **state)
{
	(void)state;
	/* The exploit of issue 11: -q takes no value, so victim.img was a
	 * device of its own and -L took dbio's device as its label. */
	refused("ext4:-q victim.img -L",
		"mkfs options: 'victim.img' is neither an option nor an option's value: expected options only (the device is dbio's)");
	refused("ext4:-F -q myloop -L",
		"mkfs options: 'myloop' is neither an option nor an option's value: expected options only (the device is dbio's)");
	refused("ext4:-L", "mkfs option -L needs a value");
	refused("ext4:-qL", "mkfs option -L needs a value");
	refused("btrfs:--label", "mkfs option --label needs a value");
	refused("ext4:-b 1024 --",
		"mkfs options: '--' is neither an option nor an option's value: expected options only (the device is dbio's)");
	refused("ext4:-",
		"mkfs options: '-' is neither an option nor an option's value: expected options only (the device is dbio's)");
	refused("xfs:-q victim",
		"mkfs options: 'victim' is neither an option nor an option's value: expected options only (the device is dbio's)");
	refused("btrfs:-f other",
		"mkfs options: 'other' is neither an option nor an option's value: expected options only (the device is dbio's)");
	refused("ext4:-Y", "mkfs option '-Y': unknown to dbio for mkfs.ext4");
	refused("btrfs:--ro=x", "mkfs option '--ro': unknown to dbio for mkfs.btrfs");
	refused("btrfs:--force=1", "mkfs option --force takes no value");
}

static void test_mkfs_refuses_options_naming_files(void **state)
{
	(void)state;
	refused("ext4:-d dir", "mkfs option -d: not accepted: it copies a directory into the filesystem");
	refused("ext4:-l badblocks", "mkfs option -l: not accepted: it reads a bad-block list from a file");
	refused("ext2:-qz undo", "mkfs option -z: not accepted: it writes an undo file");
	refused("ext4:-J device=myloop",
		"mkfs option -J device: not accepted: it names an external journal device (the device is dbio's)");
	refused("ext4:-J size=4,device=x",
		"mkfs option -J device: not accepted: it names an external journal device (the device is dbio's)");
	refused("ext4:-E nosuch=1",
		"mkfs option -E: unknown suboption 'nosuch': expected stride,stripe_width,stripe-width,offset,resize,packed_meta_blocks,lazy_itable_init,lazy_journal_init,assume_storage_prezeroed,no_copy_xattrs,num_backup_sb,root_owner,test_fs,discard,nodiscard,quotatype,encoding,encoding_flags,orphan_file_size");
	refused("xfs:-d name=victim",
		"mkfs option -d name: not accepted: it names a file or device (the device is dbio's)");
	refused("xfs:-d size=1g,file",
		"mkfs option -d file: not accepted: it names a file or device (the device is dbio's)");
	refused("xfs:-l logdev=myloop",
		"mkfs option -l logdev: not accepted: it names a file or device (the device is dbio's)");
	refused("xfs:-r rtdev=myloop",
		"mkfs option -r rtdev: not accepted: it names a file or device (the device is dbio's)");
	refused("xfs:-c options=x", "mkfs option -c: not accepted: it reads a configuration file");
	refused("xfs:-p proto",
		"mkfs option -p: not accepted: it reads a prototype file and copies files into the filesystem");
	refused("xfs:-b size=4096,", "mkfs option -b: unknown suboption '': expected size,log");
	refused("btrfs:--rootdir=x",
		"mkfs option -r: not accepted: it copies a directory into the filesystem");
	refused("btrfs:-r x", "mkfs option -r: not accepted: it copies a directory into the filesystem");
	refused("btrfs:--shrink",
		"mkfs option --shrink: not accepted: it only goes with --rootdir, which copies a directory");
}

/* Options after which mkfs exits 0 having made nothing (or kept the old
 * filesystem's files): the run would measure the old filesystem. */
static void test_mkfs_refuses_options_that_make_no_filesystem(void **state)
{
	(void)state;
	refused("ext4:-n", "mkfs option -n: not accepted: it makes no filesystem (a dry run)");
	refused("ext4:-qn", "mkfs option -n: not accepted: it makes no filesystem (a dry run)");
	refused("ext2:-V", "mkfs option -V: not accepted: it makes no filesystem (prints its version)");
	refused("ext4:-S",
		"mkfs option -S: not accepted: it writes the superblock and group descriptors only: the old filesystem's files stay");
	refused("xfs:-N", "mkfs option -N: not accepted: it makes no filesystem (a dry run)");
	refused("xfs:-V", "mkfs option -V: not accepted: it makes no filesystem (prints its version)");
	refused("btrfs:--version",
		"mkfs option -V: not accepted: it makes no filesystem (prints its version)");
	refused("btrfs:-V", "mkfs option -V: not accepted: it makes no filesystem (prints its version)");
}

static void test_mkfs_refuses_types_and_characters(void **state)
{
	(void)state;
	refused("vfat",
		"filesystem type 'vfat': not one dbio makes: expected one of ext2, ext3, ext4, xfs, btrfs");
	refused("ext4:-d /etc",
		"mkfs options: character '/' not allowed: use letters, digits, spaces and - _ = , . : ^ (mkfs runs without a shell, and options may not name paths)");
}

static void test_mkfs_block_size_and_force_flag(void **state)
{
	struct dbio_err err = { 0 };
	struct provision_fs fs;

	(void)state;
	assert_int_equal(provision_fs_parse("ext2:-qb2048", &fs, &err), 0);
	assert_int_equal(provision_fs_block_size(&fs), 2048);
	provision_fs_release(&fs);
	assert_int_equal(provision_fs_parse("xfs:-b size=4096", &fs, &err), 0);
	assert_int_equal(provision_fs_block_size(&fs), 0);
	provision_fs_release(&fs);
	assert_string_equal(provision_mkfs_force_flag("ext3"), "-F");
	assert_string_equal(provision_mkfs_force_flag("xfs"), "-f");
	assert_string_equal(provision_mkfs_force_flag("btrfs"), "-f");
}

static void test_mkfs_mount_options(void **state)
{
	static const char *const bad[] = { "journal_path=x", "noatime,journal_dev=1792", "logdev=loop1",
					   "rtdev=x", "device=loop2" };
	struct dbio_err err = { 0 };

	(void)state;
	assert_int_equal(provision_check_mount_opts("", &err), 0);
	assert_int_equal(provision_check_mount_opts("noatime,data=writeback,commit=30", &err), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[256], key[32];

		memset(&err, 0, sizeof(err));
		snprintf(key, sizeof(key), "%.*s",
			 (int)strcspn(strchr(bad[i], ',') ? strchr(bad[i], ',') + 1 : bad[i], "="),
			 strchr(bad[i], ',') ? strchr(bad[i], ',') + 1 : bad[i]);
		snprintf(
			want, sizeof(want),
			"--mount-opts '%s': option '%s' names another device: not accepted (the device is dbio's)",
			bad[i], key);
		assert_int_equal(provision_check_mount_opts(bad[i], &err), DBIO_EINPUT);
		assert_string_equal(err.msg, want);
	}
	memset(&err, 0, sizeof(err));
	assert_int_equal(provision_check_mount_opts("noatime;reboot", &err), DBIO_EINPUT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mkfs_accepts_getopt_forms),
		cmocka_unit_test(test_mkfs_refuses_words_that_could_reach_a_device),
		cmocka_unit_test(test_mkfs_refuses_options_naming_files),
		cmocka_unit_test(test_mkfs_refuses_options_that_make_no_filesystem),
		cmocka_unit_test(test_mkfs_refuses_types_and_characters),
		cmocka_unit_test(test_mkfs_block_size_and_force_flag),
		cmocka_unit_test(test_mkfs_mount_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
