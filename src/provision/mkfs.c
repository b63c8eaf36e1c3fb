/*
 * mkfs for `dbio matrix`: the options dbio hands to it, and running it.
 *
 * mkfs runs as root on a device dbio made, so its options must never be able
 * to name another device or file: `-q victim.img -L` would make -L swallow
 * the device dbio appends and leave mke2fs formatting victim.img. Each mkfs
 * dbio runs has a table here of the options it accepts, parsed the way
 * getopt parses them (combined flags "-qF", attached values "-b1024",
 * "--label=x"), so dbio sees exactly what mkfs will see. A word that is no
 * option and no option's value is refused, as are options and suboptions
 * that read or write files (mke2fs -d, -l, -z, -J device=; mkfs.xfs -c, -p,
 * -d name=, -l logdev=, -r rtdev=; mkfs.btrfs --rootdir). The device is then
 * passed after "--", where no option can reach it, and mkfs runs through
 * fork + execve with a fixed environment, never a shell.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "provision/provision_int.h"

enum mkfs_arg {
	ARG_NONE,    /* a flag */
	ARG_VALUE,   /* takes a value */
	ARG_SUBOPTS, /* takes a comma-separated list of key or key=value from subopts */
	ARG_REFUSED, /* never: why says what it would do */
};

struct mkfs_opt {
	char short_name; /* 0: long only */
	const char *long_name;
	enum mkfs_arg arg;
	const char *subopts; /* ARG_SUBOPTS: the accepted keys, comma-separated */
	const char *why;     /* ARG_REFUSED, and a refused suboption of ARG_SUBOPTS */
	const char *refused; /* ARG_SUBOPTS: keys refused with why, comma-separated */
};

struct mkfs_tool {
	const char *types; /* the --fs types it makes, comma-separated */
	const char *package;
	const char *force; /* the flag that overwrites an old filesystem */
	const struct mkfs_opt *opts;
};

#define NAMES_FILE "names a file or device"
/* An option after which mkfs exits 0 having made nothing: the matrix would
 * run on the device's old filesystem, reported as a fresh one. */
#define NO_FS "makes no filesystem"
#define FLAG(c, l)                                                                                           \
	{                                                                                                    \
		.short_name = (c), .long_name = (l), .arg = ARG_NONE                                         \
	}
#define VALUE(c, l)                                                                                          \
	{                                                                                                    \
		.short_name = (c), .long_name = (l), .arg = ARG_VALUE                                        \
	}

/* mke2fs(8), e2fsprogs 1.47. */
static const struct mkfs_opt e2fs_opts[] = {
	VALUE('b', NULL),
	FLAG('c', NULL),
	VALUE('C', NULL),
	{ .short_name = 'd',
	  .long_name = NULL,
	  .arg = ARG_REFUSED,
	  .why = "copies a directory into the filesystem" },
	FLAG('D', NULL),
	VALUE('e', NULL),
	{ .short_name = 'E',
	  .long_name = NULL,
	  .arg = ARG_SUBOPTS,
	  .subopts = "stride,stripe_width,stripe-width,offset,resize,packed_meta_blocks,lazy_itable_init,"
		     "lazy_journal_init,assume_storage_prezeroed,no_copy_xattrs,num_backup_sb,root_owner,"
		     "test_fs,discard,nodiscard,quotatype,encoding,encoding_flags,orphan_file_size" },
	FLAG('F', NULL),
	VALUE('g', NULL),
	VALUE('G', NULL),
	VALUE('i', NULL),
	VALUE('I', NULL),
	FLAG('j', NULL),
	{ .short_name = 'J',
	  .long_name = NULL,
	  .arg = ARG_SUBOPTS,
	  .subopts = "size,fast_commit_size,location",
	  .refused = "device",
	  .why = "names an external journal device" },
	{ .short_name = 'l',
	  .long_name = NULL,
	  .arg = ARG_REFUSED,
	  .why = "reads a bad-block list from a file" },
	VALUE('L', NULL),
	VALUE('m', NULL),
	VALUE('M', NULL),
	{ .short_name = 'n', .long_name = NULL, .arg = ARG_REFUSED, .why = NO_FS " (a dry run)" },
	VALUE('N', NULL),
	VALUE('o', NULL),
	VALUE('O', NULL),
	FLAG('q', NULL),
	VALUE('r', NULL),
	{ .short_name = 'S',
	  .long_name = NULL,
	  .arg = ARG_REFUSED,
	  .why = "writes the superblock and group descriptors only: the old filesystem's files stay" },
	VALUE('t', NULL),
	VALUE('T', NULL),
	VALUE('U', NULL),
	FLAG('v', NULL),
	{ .short_name = 'V', .long_name = NULL, .arg = ARG_REFUSED, .why = NO_FS " (prints its version)" },
	{ .short_name = 'z', .long_name = NULL, .arg = ARG_REFUSED, .why = "writes an undo file" },
	{ .short_name = 0 },
};

/* mkfs.xfs(8), xfsprogs 6.1. */
static const struct mkfs_opt xfs_opts[] = {
	{ .short_name = 'b', .long_name = NULL, .arg = ARG_SUBOPTS, .subopts = "size,log" },
	{ .short_name = 'c', .long_name = NULL, .arg = ARG_REFUSED, .why = "reads a configuration file" },
	{ .short_name = 'd',
	  .long_name = NULL,
	  .arg = ARG_SUBOPTS,
	  .subopts = "agcount,agsize,size,sunit,swidth,su,sw,noalign,sectsize,sectlog,cowextsize,"
		     "daxinherit,extszinherit,projinherit,rtinherit,concurrency",
	  .refused = "name,file",
	  .why = NAMES_FILE },
	FLAG('f', NULL),
	{ .short_name = 'i',
	  .long_name = NULL,
	  .arg = ARG_SUBOPTS,
	  .subopts = "perblock,size,log,maxpct,attr,align,projid32bit,sparse,nrext64,exchange" },
	FLAG('K', NULL),
	{ .short_name = 'l',
	  .long_name = NULL,
	  .arg = ARG_SUBOPTS,
	  .subopts = "agnum,internal,size,sunit,su,sectsize,sectlog,version,lazy-count",
	  .refused = "logdev,file,name",
	  .why = NAMES_FILE },
	VALUE('L', NULL),
	{ .short_name = 'm',
	  .long_name = NULL,
	  .arg = ARG_SUBOPTS,
	  .subopts = "crc,finobt,uuid,rmapbt,reflink,inobtcount,bigtime" },
	{ .short_name = 'n', .long_name = NULL, .arg = ARG_SUBOPTS, .subopts = "size,log,version,ftype" },
	{ .short_name = 'N', .long_name = NULL, .arg = ARG_REFUSED, .why = NO_FS " (a dry run)" },
	{ .short_name = 'p',
	  .long_name = NULL,
	  .arg = ARG_REFUSED,
	  .why = "reads a prototype file and copies files into the filesystem" },
	FLAG('q', NULL),
	{ .short_name = 'r',
	  .long_name = NULL,
	  .arg = ARG_SUBOPTS,
	  .subopts = "extsize,size,noalign",
	  .refused = "rtdev,file,name",
	  .why = NAMES_FILE },
	{ .short_name = 's', .long_name = NULL, .arg = ARG_SUBOPTS, .subopts = "size,log" },
	{ .short_name = 'V', .long_name = NULL, .arg = ARG_REFUSED, .why = NO_FS " (prints its version)" },
	{ .short_name = 0 },
};

/* mkfs.btrfs(8), btrfs-progs 6.2. */
static const struct mkfs_opt btrfs_opts[] = {
	VALUE('b', "byte-count"),
	VALUE(0, "checksum"),
	VALUE(0, "csum"),
	VALUE('d', "data"),
	FLAG('f', "force"),
	FLAG('K', "nodiscard"),
	VALUE('L', "label"),
	VALUE('m', "metadata"),
	FLAG('M', "mixed"),
	VALUE('n', "nodesize"),
	VALUE('O', "features"),
	FLAG('q', "quiet"),
	{ .short_name = 'r',
	  .long_name = "rootdir",
	  .arg = ARG_REFUSED,
	  .why = "copies a directory into the filesystem" },
	VALUE('R', "runtime-features"),
	VALUE('s', "sectorsize"),
	{ .short_name = 0,
	  .long_name = "shrink",
	  .arg = ARG_REFUSED,
	  .why = "only goes with --rootdir, which copies a directory" },
	VALUE('U', "uuid"),
	FLAG('v', "verbose"),
	{ .short_name = 'V',
	  .long_name = "version",
	  .arg = ARG_REFUSED,
	  .why = NO_FS " (prints its version)" },
	{ .short_name = 0 },
};

static const struct mkfs_tool tools[] = {
	{ "ext2,ext3,ext4", "e2fsprogs", "-F", e2fs_opts },
	{ "xfs", "xfsprogs", "-f", xfs_opts },
	{ "btrfs", "btrfs-progs", "-f", btrfs_opts },
};

#define TYPES_KNOWN "ext2, ext3, ext4, xfs, btrfs"

static bool in_list(const char *list, const char *word, size_t n)
{
	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, word, n))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

static const struct mkfs_tool *tool_of(const char *type)
{
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (in_list(tools[i].types, type, strlen(type)))
			return &tools[i];
	return NULL;
}

const char *provision_mkfs_force_flag(const char *type)
{
	const struct mkfs_tool *t = tool_of(type);

	return t ? t->force : NULL;
}

static int push_word(struct provision_fs *fs, const char *s, size_t n, const char *spec, struct dbio_err *err)
{
	if (fs->nwords + 1 >= sizeof(fs->words) / sizeof(fs->words[0]))
		return dbio_err_set(err, DBIO_EINPUT, "--fs '%s': too many mkfs options", spec);
	if (!(fs->words[fs->nwords] = strndup(s, n)))
		return dbio_err_set(err, -ENOMEM, "out of memory");
	fs->words[++fs->nwords] = NULL;
	return 0;
}

/* "-d" or "--rootdir", for messages. */
static const char *opt_label(const struct mkfs_opt *o, char *buf, size_t len)
{
	if (o->short_name)
		snprintf(buf, len, "-%c", o->short_name);
	else
		snprintf(buf, len, "--%s", o->long_name);
	return buf;
}

/* Check value against o's rules (suboption keys) and append "-X" and value. */
static int take_value(struct provision_fs *fs, const struct mkfs_opt *o, const char *value, const char *spec,
		      struct dbio_err *err)
{
	char name[64];
	int rc;

	opt_label(o, name, sizeof(name));
	if (o->arg == ARG_SUBOPTS) {
		for (const char *p = value;;) {
			size_t len = strcspn(p, ","), key = strcspn(p, ",=");

			if (key > len)
				key = len;
			if (in_list(o->refused, p, key))
				return dbio_err_set(
					err, DBIO_EINPUT,
					"--fs '%s': mkfs option %s %.*s: not accepted: it %s (the device is dbio's)",
					spec, name, (int)key, p, o->why);
			if (!key || !in_list(o->subopts, p, key))
				return dbio_err_set(
					err, DBIO_EINPUT,
					"--fs '%s': mkfs option %s: unknown suboption '%.*s': expected %s",
					spec, name, (int)key, p, o->subopts);
			if (!p[len])
				break;
			p += len + 1;
		}
	}
	if ((rc = push_word(fs, name, strlen(name), spec, err)))
		return rc;
	return push_word(fs, value, strlen(value), spec, err);
}

/* The option of tool named by the n bytes at name (a short one when n is 1
 * and name is not long), or NULL. */
static const struct mkfs_opt *find_opt(const struct mkfs_tool *t, const char *name, size_t n, bool is_long)
{
	for (const struct mkfs_opt *o = t->opts; o->short_name || o->long_name; o++) {
		if (is_long && o->long_name && strlen(o->long_name) == n && !strncmp(o->long_name, name, n))
			return o;
		if (!is_long && o->short_name == *name)
			return o;
	}
	return NULL;
}

static int refuse(const struct mkfs_opt *o, const char *spec, struct dbio_err *err)
{
	char name[64];

	return dbio_err_set(err, DBIO_EINPUT, "--fs '%s': mkfs option %s: not accepted: it %s", spec,
			    opt_label(o, name, sizeof(name)), o->why);
}

/*
 * Parse the words as getopt would: "--name[=value]" and "-abc" clusters
 * where an option taking a value takes the rest of the word or, when that
 * is empty, the next word. Any other word, and "--", is refused.
 */
static int parse_words(struct provision_fs *fs, const struct mkfs_tool *t, char **in, size_t n,
		       const char *spec, struct dbio_err *err)
{
	for (size_t i = 0; i < n; i++) {
		const char *w = in[i];
		const struct mkfs_opt *o;
		int rc;

		if (w[0] != '-' || !w[1] || !strcmp(w, "--"))
			return dbio_err_set(
				err, DBIO_EINPUT,
				"--fs '%s': mkfs options: '%s' is neither an option nor an option's value: expected options only (the device is dbio's)",
				spec, w);
		if (w[1] == '-') {
			size_t len = strcspn(w + 2, "=");

			if (!(o = find_opt(t, w + 2, len, true)))
				return dbio_err_set(
					err, DBIO_EINPUT,
					"--fs '%s': mkfs option '%.*s': unknown to dbio for mkfs.%s", spec,
					(int)len + 2, w, fs->type);
			if (o->arg == ARG_REFUSED)
				return refuse(o, spec, err);
			if (o->arg == ARG_NONE) {
				if (w[2 + len])
					return dbio_err_set(err, DBIO_EINPUT,
							    "--fs '%s': mkfs option --%s takes no value",
							    spec, o->long_name);
				rc = push_word(fs, w, strlen(w), spec, err);
			} else if (w[2 + len]) {
				rc = take_value(fs, o, w + 3 + len, spec, err);
			} else if (i + 1 < n) {
				rc = take_value(fs, o, in[++i], spec, err);
			} else {
				rc = dbio_err_set(err, DBIO_EINPUT, "--fs '%s': mkfs option %s needs a value",
						  spec, w);
			}
			if (rc)
				return rc;
			continue;
		}
		for (const char *c = w + 1; *c; c++) {
			if (!(o = find_opt(t, c, 1, false)))
				return dbio_err_set(
					err, DBIO_EINPUT,
					"--fs '%s': mkfs option '-%c': unknown to dbio for mkfs.%s", spec, *c,
					fs->type);
			if (o->arg == ARG_REFUSED)
				return refuse(o, spec, err);
			if (o->arg == ARG_NONE) {
				char flag[3] = { '-', *c, '\0' };

				if ((rc = push_word(fs, flag, 2, spec, err)))
					return rc;
				continue;
			}
			if (c[1])
				rc = take_value(fs, o, c + 1, spec, err);
			else if (i + 1 < n)
				rc = take_value(fs, o, in[++i], spec, err);
			else
				rc = dbio_err_set(err, DBIO_EINPUT,
						  "--fs '%s': mkfs option -%c needs a value", spec, *c);
			if (rc)
				return rc;
			break; /* the value took the rest of the word */
		}
	}
	return 0;
}

void provision_fs_release(struct provision_fs *fs)
{
	for (size_t i = 0; i < fs->nwords; i++)
		free(fs->words[i]);
	fs->nwords = 0;
	fs->words[0] = NULL;
}

int provision_fs_parse(const char *spec, struct provision_fs *fs, struct dbio_err *err)
{
	const char *colon = strchr(spec, ':');
	size_t tlen = colon ? (size_t)(colon - spec) : strlen(spec);
	const char *opts = colon ? colon + 1 : "";
	const struct mkfs_tool *t;
	char *copy, *save = NULL, *in[64];
	size_t n = 0;
	int rc = 0;

	memset(fs, 0, sizeof(*fs));
	if (!tlen || tlen >= sizeof(fs->type))
		return dbio_err_set(
			err, DBIO_EINPUT,
			"--fs '%s': expected TYPE or TYPE:MKFS-OPTIONS, e.g. ext4 or 'ext2:-b 1024'", spec);
	snprintf(fs->type, sizeof(fs->type), "%.*s", (int)tlen, spec);
	for (const char *p = fs->type; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p))
			return dbio_err_set(
				err, DBIO_EINPUT,
				"--fs '%s': filesystem type '%s': expected lower-case letters and digits (ext4, xfs, btrfs)",
				spec, fs->type);
	if (!(t = tool_of(fs->type)))
		return dbio_err_set(err, DBIO_EINPUT,
				    "--fs '%s': filesystem type '%s': not one dbio makes: expected one of %s",
				    spec, fs->type, TYPES_KNOWN);
	if (strlen(opts) >= sizeof(fs->options))
		return dbio_err_set(err, DBIO_EINPUT, "--fs '%s': mkfs options longer than %zu characters",
				    spec, sizeof(fs->options) - 1);
	for (const char *p = opts; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_=,.:^ ", *p))
			return dbio_err_set(
				err, DBIO_EINPUT,
				"--fs '%s': mkfs options: character '%c' not allowed: use letters, digits, spaces and - _ = , . : ^ (mkfs runs without a shell, and options may not name paths)",
				spec, *p);
	snprintf(fs->options, sizeof(fs->options), "%s", opts);
	if (!(copy = strdup(opts)))
		return dbio_err_set(err, -ENOMEM, "out of memory");
	for (char *w = strtok_r(copy, " ", &save); w && !rc; w = strtok_r(NULL, " ", &save))
		if (n == sizeof(in) / sizeof(in[0]))
			rc = dbio_err_set(err, DBIO_EINPUT, "--fs '%s': too many mkfs options", spec);
		else
			in[n++] = w;
	if (!rc)
		rc = parse_words(fs, t, in, n, spec, err);
	free(copy);
	return rc;
}

uint64_t provision_fs_block_size(const struct provision_fs *fs)
{
	if (strncmp(fs->type, "ext", 3))
		return 0;
	for (size_t i = 0; i + 1 < fs->nwords; i++)
		if (!strcmp(fs->words[i], "-b"))
			return strtoull(fs->words[i + 1], NULL, 10);
	return 0;
}

int provision_find_mkfs(const char *type, char *path, size_t len, struct dbio_err *err)
{
	static const char *const dirs[] = { "/usr/sbin", "/sbin", "/usr/bin", "/bin" };
	const struct mkfs_tool *t = tool_of(type);

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, len, "%s/mkfs.%s", dirs[i], type);
		if (!access(path, X_OK))
			return 0;
	}
	return dbio_err_set(err, DBIO_EINPUT,
			    "--fs %s: mkfs.%s: not found: install the Debian package %s (apt-get install %s)",
			    type, type, t ? t->package : "?", t ? t->package : "?");
}

/* The signal number that asked the run to stop, or 0. */
static int stopped(const struct provision_stop *stop)
{
	return stop->flag ? atomic_load(stop->flag) : 0;
}

/* Why the run stops: the caller's name of signal sig. */
static const char *stop_name(const struct provision_stop *stop, int sig)
{
	return stop->name ? stop->name(sig) : "a signal";
}

/* Read the tool's output from fd until it closes, keeping the end of it in
 * out; a stop request meanwhile (an EINTR) sends the tool SIGTERM. */
static size_t collect(int fd, pid_t pid, char *out, size_t len, const struct provision_stop *stop)
{
	size_t used = 0;

	for (;;) {
		ssize_t n;

		if (used == len - 1) { /* keep the end */
			memmove(out, out + len / 2, len / 2 - 1);
			used = len / 2 - 1;
		}
		n = read(fd, out + used, len - 1 - used);
		if (n > 0) {
			used += (size_t)n;
		} else if (n == 0 || errno != EINTR) {
			break;
		} else if (stopped(stop)) {
			kill(pid, SIGTERM);
		}
	}
	out[used] = '\0';
	return used;
}

/* The failure of a tool that did not exit 0, with the last line of its
 * output (out, used bytes) as the reason. */
static int tool_failed(const char *tool, int status, char *out, size_t used, struct dbio_err *err)
{
	char *last, *end = out + used;

	while (end > out && isspace((unsigned char)end[-1]))
		*--end = '\0';
	/* The last line says why, unless a usage text follows the reason. */
	if ((last = strstr(out, "\nUsage:")) || (last = strstr(out, "\nusage:"))) {
		*last = '\0';
		last = strrchr(out, '\n');
	} else {
		last = strrchr(out, '\n');
	}
	last = last ? last + 1 : out;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return dbio_err_set(err, -ENOENT, "matrix: %s: cannot run it", tool);
	if (WIFEXITED(status))
		return dbio_err_set(err, -EIO, "matrix: %s failed (exit %d)%s%s", tool, WEXITSTATUS(status),
				    *last ? ": " : "", last);
	return dbio_err_set(err, -EIO, "matrix: %s killed by signal %d", tool, WTERMSIG(status));
}

/* Run argv (argv[0] a full path) with stdin from /dev/null and a fixed
 * environment; its output is kept and its last line goes into the error
 * when it fails. */
static int run_tool(char *const argv[], const struct provision_stop *stop, struct dbio_err *err)
{
	char out[8192];
	size_t used;
	int pipefd[2], status = 0;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return dbio_err_set(err, -errno, "matrix: %s: %s", argv[0], strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return dbio_err_set(err, -errno, "matrix: %s: cannot start: %s", argv[0], strerror(errno));
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (null < 0 || dup2(null, 0) < 0 || dup2(pipefd[1], 1) < 0 || dup2(pipefd[1], 2) < 0)
			_exit(126);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* A known environment: nothing of the caller's (MKE2FS_CONFIG
		 * names a file mke2fs reads) reaches the tool. */
		execve(argv[0], argv, (char *[]){ "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL });
		_exit(127);
	}
	close(pipefd[1]);
	used = collect(pipefd[0], pid, out, sizeof(out), stop);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (stopped(stop))
		return dbio_err_set(err, DBIO_ESTOPPED, "matrix: %s: stopped by %s", argv[0],
				    stop_name(stop, stopped(stop)));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	return tool_failed(argv[0], status, out, used, err);
}

/* mkfs.<type> [force] OPTIONS -- DEVICE: after "--" no option can take the
 * device for its value (provision_fs_parse checked every option word). */
int provision_mkfs_run(const struct provision_env *m, const struct provision_fs *fs, const char *mkfs_path,
		       const char *dev, struct dbio_err *err)
{
	char *argv[sizeof(fs->words) / sizeof(fs->words[0]) + 5];
	size_t n = 0;

	argv[n++] = (char *)mkfs_path;
	/* On a device the previous configuration's filesystem is there:
	 * consent was given with --destroy-data. */
	if (m->device[0])
		argv[n++] = (char *)provision_mkfs_force_flag(fs->type);
	for (size_t i = 0; i < fs->nwords; i++)
		argv[n++] = fs->words[i];
	argv[n++] = "--";
	argv[n++] = (char *)dev;
	argv[n] = NULL;
	return run_tool(argv, &m->stop, err);
}
