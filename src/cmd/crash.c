/*
 * dbio crash --exec CMD [--cuts N] DIR: is acknowledged data still there
 * after a power cut? Runs CMD (with /bin/sh, in the power-cut layer's mount
 * made under DIR, powercut/) and reads its acknowledgements, one line
 * "<file> <record>" on its stdout each: the writer says record is, as a
 * line, in file. After each one (up to N) the layer is cut, every record
 * acknowledged so far is looked for in the cut, and the writer is let go on
 * (a line on its stdin: it waits for one after each acknowledgement, so the
 * cut is exactly at that point). Prints one line per crash state and a
 * summary. dbio crash --cleanup DIR removes the layer's directory of a
 * dbio that was killed. The driver for dbio's own workloads comes next.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/crash_int.h"
#include "cmd/opts.h"
#include "powercut/powercut.h"

struct acks {
	char **line; /* "<file> <record>" */
	size_t n, cap;
};

struct tally {
	unsigned states, lossy, max_lost;
	unsigned long lost;
};

/* The signal that stops a run (SIGINT, SIGTERM, SIGHUP), or 0; the
 * writer, which the handler kills so that the read of its next line ends
 * however near the signal came to it (kill is async-signal-safe). */
static volatile sig_atomic_t crash_stop;
static volatile pid_t crash_writer;

static void crash_on_signal(int sig)
{
	crash_stop = sig;
	if (crash_writer > 0)
		kill(crash_writer, SIGKILL);
}

static void catch_stops(void)
{
	struct sigaction sa = { .sa_handler = crash_on_signal };
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* The acknowledged records missing from the cut; -errno. */
static long count_lost(int cutfd, const struct acks *a)
{
	long lost = 0;

	for (size_t i = 0; i < a->n; i++) {
		char *sp = strchr(a->line[i], ' ');
		int r;

		*sp = 0;
		r = powercut_has_line(cutfd, a->line[i], sp + 1);
		*sp = ' ';
		if (r < 0)
			return r;
		lost += r == 0;
	}
	return lost;
}

static int check_state(struct powercut *pc, const struct acks *a, struct tally *t)
{
	int cutfd, ret = powercut_cut(pc, &cutfd);
	long lost;

	if (ret < 0) {
		cmd_error("crash: cut %u: %s", t->states + 1, strerror(-ret));
		return ret;
	}
	lost = count_lost(cutfd, a);
	close(cutfd);
	if (lost < 0) {
		cmd_error("crash: cut %u: cannot check it: %s", t->states + 1, strerror((int)-lost));
		return (int)lost;
	}
	t->states++;
	t->lossy += lost > 0;
	t->lost += (unsigned long)lost;
	if ((unsigned)lost > t->max_lost)
		t->max_lost = (unsigned)lost;
	printf("state %u: acknowledged %zu, lost %ld\n", t->states, a->n, lost);
	fflush(stdout);
	return 0;
}

static pid_t start_writer(const char *cmd, const char *dir, int *to, FILE **from)
{
	int in[2], out[2];
	pid_t pid;

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0)
		return -1;
	/* The writer is pid 1 of a pid namespace of its own: when it dies
	 * (with dbio, or killed by a stop), the kernel kills everything it
	 * started too (B4), a background child included. */
	int own = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);

	if (own < 0 || unshare(CLONE_NEWPID) < 0) {
		if (own >= 0)
			close(own);
		return -1;
	}
	pid = fork();
	/* Later children of dbio's (LeakSanitizer's tracer) in its own again:
	 * the writer's namespace dies with the writer. */
	if (pid != 0) {
		setns(own, CLONE_NEWPID);
		close(own);
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed dbio takes it along */
		if (chdir(dir) < 0 || dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0)
			_exit(127);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	*to = in[1];
	*from = fdopen(out[0], "r");
	return pid;
}

/* Read acknowledgements until the writer ends; 0, 1 (it failed), -errno. */
static int drive(struct powercut *pc, const char *cmd, unsigned cuts, struct tally *t)
{
	struct acks a = { 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int to, status, ret = 0;
	FILE *from;
	pid_t pid = start_writer(cmd, powercut_mount_path(pc), &to, &from);

	if (pid < 0 || !from) {
		cmd_error("crash: cannot start the writer: %s", strerror(errno));
		return -errno;
	}
	crash_writer = pid;
	if (crash_stop) /* a signal before the writer was known */
		kill(pid, SIGKILL);
	while (ret == 0 && !crash_stop && (n = getline(&line, &cap, from)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = 0;
		if (!strchr(line, ' ') || a.n == a.cap) {
			if (!strchr(line, ' ')) {
				cmd_error("crash: acknowledgement %zu: '%s': expected \"FILE RECORD\"",
					  a.n + 1, line);
				ret = 1;
				break;
			}
			a.cap = a.cap ? a.cap * 2 : 64;
			a.line = realloc(a.line, a.cap * sizeof(*a.line));
		}
		a.line[a.n++] = strdup(line);
		if (t->states < cuts)
			ret = check_state(pc, &a, t);
		if (write(to, "\n", 1) < 0 && errno != EPIPE)
			ret = -errno;
	}
	if (crash_stop)
		kill(pid, SIGKILL);
	close(to);
	fclose(from);
	waitpid(pid, &status, 0);
	crash_writer = 0;
	if (crash_stop)
		ret = 128 + crash_stop;
	if (ret == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		cmd_error("crash: the writer failed: exit status %d",
			  WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		ret = 1;
	}
	for (size_t i = 0; i < a.n; i++)
		free(a.line[i]);
	free(a.line);
	free(line);
	return ret;
}

struct crash_args {
	const char *exec, *dir;
	bool cleanup;
	unsigned cuts;
};

/* The directory: the one operand. */
static int crash_operand(const struct cmd_opts *spec, void *args, char *arg)
{
	struct crash_args *a = args;

	(void)spec;
	if (a->dir) {
		cmd_error("crash: '%s': unknown argument (see dbio crash --help)", arg);
		return 2;
	}
	a->dir = arg;
	return 0;
}

static int crash_parse_cuts(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	struct crash_args *a = args;
	char *end;
	unsigned long c = strtoul(v, &end, 10);

	(void)spec;
	(void)o;
	if (*end || !*v || c == 0 || c > 1000000) {
		cmd_error("crash: --cuts '%s': expected a count from 1 to 1000000", v);
		return 2;
	}
	a->cuts = (unsigned)c;
	return 0;
}

static int crash_parse_acks(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	(void)spec;
	(void)o;
	(void)args;
	cmd_error("crash: --acks '%s': for dbio crash JOBFILE, not --exec", v);
	return 2;
}

static const struct cmd_opt crash_rows[] = {
	{ .name = "--exec",
	  .value = "CMD",
	  .offset = offsetof(struct crash_args, exec),
	  .help = "the writer to run (with /bin/sh) in the layer's mount" },
	{ .name = "--cuts",
	  .value = "N",
	  .parse = crash_parse_cuts,
	  .help = "with --exec, cut the power after each of the first N acknowledgements; with JOBFILE, "
		  "after each of the first N durability points (fsync returns) of the run (default 100)" },
	{ .name = "--acks",
	  .value = "K",
	  .parse = crash_parse_acks,
	  .help = "with JOBFILE: cut too right after K of the run's acknowledgements (commits that "
		  "returned), chosen at random from the job's randseed (default 100)" },
	{ .name = "--cleanup",
	  .kind = CMD_OPT_FLAG,
	  .offset = offsetof(struct crash_args, cleanup),
	  .help = "remove what a killed dbio crash left in DIR, and nothing else" },
	{ 0 },
};

static const struct cmd_opt *const crash_tables[] = { crash_rows, cmd_opts_help_h, NULL };

static const struct cmd_opts cmd_crash_opts = {
	.name = "crash",
	.subject = "crash",
	.operands = "DIR",
	.synopsis = "       dbio crash [--cuts N] [--acks K] [--output FILE] [--format text|json] JOBFILE\n"
		    "                  [--KEY=VALUE...]\n"
		    "       dbio crash --cleanup DIR\n",
	.about = "Runs CMD (with /bin/sh) on the power-cut layer, a FUSE filesystem dbio mounts\n"
		 "privately in a directory it makes in DIR, which keeps what POSIX says is\n"
		 "durable: a file's data and size as of its last fsync/fdatasync (or O_SYNC/\n"
		 "O_DSYNC write), a directory's names as of its last fsync. CMD acknowledges a\n"
		 "record by printing a line \"FILE RECORD\" (FILE relative to its directory) and\n"
		 "then waits for a line on its stdin; before dbio sends it, it cuts the power:\n"
		 "keeps only the durable state, and looks for every record acknowledged so far,\n"
		 "as a line of its file. One line per crash state, for the first N (default 100)\n"
		 "acknowledgements, then a summary. --cleanup removes what a killed dbio crash\n"
		 "left in DIR.\n\n"
		 "With JOBFILE (one job of workload=kv or fileio, numjobs=1; run's --output, --format and\n"
		 "job keys), the job runs on the layer mounted in its directory, and at each\n"
		 "crash state (after each of the first N fsync returns, and after K commits chosen\n"
		 "at random) the engine is reopened on the cut (gdbm_open, mdb_env_open, SQLite\n"
		 "with PRAGMA integrity_check, RocksDB's and LevelDB's open replaying their logs)\n"
		 "and every acknowledged record looked for, its\n"
		 "checksum and value checked. A fileio job (rw=write or randwrite, one bs, psync,\n"
		 "sync, pvsync or pvsync2) seals each block (offset, sequence, crc32c); a block is\n"
		 "acknowledged when its fsync/fdatasync or its O_SYNC/O_DSYNC write returns, K\n"
		 "random cuts follow writes, and each acknowledged block is looked for in the cut,\n"
		 "what was written and lost counted too. The result is dbio run's with a\n"
		 "durability section.",
	.tables = crash_tables,
	.operand = crash_operand,
};

/* --exec or --cleanup (or --help) given: the writer's mode, else a job's. */
static bool writer_mode(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--exec") || !strncmp(argv[i], "--exec=", 7) ||
		    !strcmp(argv[i], "--cleanup") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return argc < 2;
}

static int crash_main(int argc, char **argv)
{
	struct crash_args args = { .cuts = 100 };
	struct tally t = { 0 };
	struct powercut *pc;
	const char *exec, *dir;
	bool cleanup;
	unsigned cuts;
	char err[256];
	int dirfd, ret;

	if (!writer_mode(argc, argv))
		return crash_job_main(argc, argv);
	if ((ret = cmd_opts_parse(&cmd_crash_opts, argc, argv, &args)))
		return ret < 0 ? 0 : ret;
	exec = args.exec;
	dir = args.dir;
	cleanup = args.cleanup;
	cuts = args.cuts;
	if (!dir || (!exec && !cleanup)) {
		cmd_error("crash: expected --exec CMD DIR or --cleanup DIR (see dbio crash --help)");
		return 2;
	}
	if (!powercut_built()) {
		cmd_error(
			"crash: the power-cut layer is left out of this build: install libfuse3-dev and build again");
		return 1;
	}
	if ((dirfd = crash_open_dir(dir)) < 0)
		return -dirfd;
	ret = powercut_cleanup(dirfd);
	if (ret < 0) {
		cmd_error("crash: %s: cannot remove a killed run's layer: %s", dir, strerror(-ret));
		close(dirfd);
		return 1;
	}
	if (cleanup) {
		printf("removed %d power-cut layer%s of a killed dbio in %s\n", ret, ret == 1 ? "" : "s",
		       dir);
		close(dirfd);
		return 0;
	}
	catch_stops();
	ret = powercut_open(dirfd, &pc, err, sizeof(err));
	if (ret < 0) {
		cmd_error("crash: %s: %s", dir, err);
		close(dirfd);
		return 1;
	}
	ret = drive(pc, exec, cuts, &t);
	powercut_close(pc);
	close(dirfd);
	if (ret > 128)
		return ret; /* 128 + the signal, the layer undone */
	if (ret != 0)
		return 1;
	printf("crash states checked: %u, with losses: %u, acknowledged lost: max %u, total %lu\n", t.states,
	       t.lossy, t.max_lost, t.lost);
	return 0;
}

const struct cmd cmd_crash = {
	.name = "crash",
	.summary =
		"is acknowledged data still there after a power cut (a FUSE layer that keeps only what was synced)",
	.main = crash_main,
	.opts = &cmd_crash_opts,
};
