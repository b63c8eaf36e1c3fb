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
	unsigned torn_states,
		reordered; /* states with a torn record, with a later kept and an earlier lost */
	unsigned long torn;
	unsigned errors;	     /* "error: ..." lines the writer printed */
	unsigned after, after_lossy; /* states after the fault hit, of them with losses */
	unsigned max_after;	     /* the most acknowledged lost in one of them */
	bool fault_seen;
};

/* What one crash state found. */
struct state {
	long lost, torn;
	bool reordered;
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

/* Whether an acknowledgement before i, of the same file, was lost. */
static bool earlier_lost(const struct acks *a, const char *lostv, size_t i)
{
	size_t fl = (size_t)(strchr(a->line[i], ' ') - a->line[i]);

	for (size_t j = 0; j < i; j++)
		if (lostv[j] && !strncmp(a->line[j], a->line[i], fl + 1))
			return true;
	return false;
}

/* Whether the file of acknowledgement i is first named there. */
static bool first_of_file(const struct acks *a, size_t i)
{
	size_t fl = (size_t)(strchr(a->line[i], ' ') - a->line[i]);

	for (size_t j = 0; j < i; j++)
		if (!strncmp(a->line[j], a->line[i], fl + 1))
			return false;
	return true;
}

/* The acknowledged records missing from the cut, the files ending in a
 * torn record, whether a record survived an earlier one of its file that
 * was lost: 0 or -errno. */
static int judge_cut(int cutfd, const struct acks *a, struct state *s)
{
	char *lostv = calloc(a->n ? a->n : 1, 1);
	int r = 0;

	if (!lostv)
		return -ENOMEM;
	*s = (struct state){ 0 };
	for (size_t i = 0; i < a->n && r >= 0; i++) {
		char *sp = strchr(a->line[i], ' ');
		bool first = first_of_file(a, i);

		*sp = 0;
		r = powercut_has_line(cutfd, a->line[i], sp + 1);
		if (r >= 0 && first) {
			int t = powercut_torn_tail(cutfd, a->line[i]);

			s->torn += t > 0;
			r = t < 0 ? t : r;
		}
		*sp = ' ';
		lostv[i] = r == 0;
		s->lost += r == 0;
		s->reordered |= r > 0 && earlier_lost(a, lostv, i);
	}
	free(lostv);
	return r < 0 ? r : 0;
}

/* One crash state cut and judged, its line printed ("state 3" or, after
 * the writer ended, "end"). */
static int check_state(struct powercut *pc, const struct acks *a, struct tally *t, bool end)
{
	int cutfd, ret = powercut_cut(pc, &cutfd);
	unsigned long points;
	struct state s;
	char what[128];

	if (ret < 0) {
		cmd_error("crash: cut %u: %s", t->states + 1, strerror(-ret));
		return ret;
	}
	ret = judge_cut(cutfd, a, &s);
	close(cutfd);
	if (ret < 0) {
		cmd_error("crash: cut %u: cannot check it: %s", t->states + 1, strerror(-ret));
		return ret;
	}
	t->states++;
	t->lossy += s.lost > 0;
	t->lost += (unsigned long)s.lost;
	if ((unsigned)s.lost > t->max_lost)
		t->max_lost = (unsigned)s.lost;
	t->torn_states += s.torn > 0;
	t->torn += (unsigned long)s.torn;
	t->reordered += s.reordered;
	if (powercut_fault_fired(pc, what, sizeof(what), &points)) {
		t->after++;
		t->after_lossy += s.lost > 0;
		if ((unsigned)s.lost > t->max_after)
			t->max_after = (unsigned)s.lost;
	}
	if (end)
		printf("end: acknowledged %zu, lost %ld", a->n, s.lost);
	else
		printf("state %u: acknowledged %zu, lost %ld", t->states, a->n, s.lost);
	if (s.torn)
		printf(", torn %ld", s.torn);
	puts(s.reordered ? ", a later record kept where an earlier was lost" : "");
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
static int drive(struct powercut *pc, const char *cmd, unsigned cuts, bool fault, struct tally *t)
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
		if (!strncmp(line, "error: ", 7)) { /* the writer saw an error: no record, no answer */
			printf("writer: %s\n", line);
			t->errors++;
			continue;
		}
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
			ret = check_state(pc, &a, t, false);
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
	/* With a fault, the state the writer left: is what it acknowledged
	 * after the fault there, its later fsyncs done? */
	if (ret == 0 && fault)
		ret = check_state(pc, &a, t, true);
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
	struct powercut_conf conf;
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

static int crash_parse_model(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	(void)spec;
	(void)o;
	return crash_model_arg(v, &((struct crash_args *)args)->conf);
}

static int crash_parse_fault(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	(void)spec;
	(void)o;
	return crash_fault_arg(v, &((struct crash_args *)args)->conf);
}

static int crash_parse_seed(const struct cmd_opts *spec, const struct cmd_opt *o, const char *v, void *args)
{
	struct crash_args *a = args;
	char *end;

	(void)spec;
	(void)o;
	errno = 0;
	a->conf.seed = strtoull(v, &end, 10);
	if (*end || !*v || *v == '-' || errno) {
		cmd_error("crash: --seed '%s': expected a number from 0 to 18446744073709551615", v);
		return 2;
	}
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
	{ .name = "--model",
	  .value = "MODEL",
	  .parse = crash_parse_model,
	  .help = "what a cut keeps of each file's writes since its last fsync: lose (none, the default), "
		  "reorder (each or not, at random: a later may survive an earlier), torn512, torn4k (in "
		  "order up to one at random, torn: a prefix of its 512 B or 4 KiB sectors)" },
	{ .name = "--seed",
	  .value = "N",
	  .parse = crash_parse_seed,
	  .help = "with --exec, the seed of the model's random choices (default 1; a job uses its randseed)" },
	{ .name = "--fault",
	  .value = "FAULT",
	  .parse = crash_parse_fault,
	  .help = "inject one fault: eio-fsync@N (the N-th fsync or fdatasync of a file fails with EIO and, "
		  "as on Linux, its writes since the last durable point are dropped), enospc-write@N (the "
		  "N-th write fails with ENOSPC), none (the default)" },
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
	.synopsis =
		"       dbio crash [--cuts N] [--acks K] [--model MODEL] [--fault FAULT] [--output FILE]\n"
		"                  [--format text|json] JOBFILE [--KEY=VALUE...]\n"
		"       dbio crash --cleanup DIR\n",
	.about =
		"Runs CMD (with /bin/sh) on the power-cut layer, a FUSE filesystem dbio mounts\n"
		"privately in a directory it makes in DIR, which keeps what POSIX says is\n"
		"durable: a file's data and size as of its last fsync/fdatasync (or O_SYNC/\n"
		"O_DSYNC write), a directory's names as of its last fsync. CMD acknowledges a\n"
		"record by printing a line \"FILE RECORD\" (FILE relative to its directory) and\n"
		"then waits for a line on its stdin; before dbio sends it, it cuts the power:\n"
		"keeps only the durable state, and looks for every record acknowledged so far,\n"
		"as a line of its file. One line per crash state, for the first N (default 100)\n"
		"acknowledgements, then a summary. --cleanup removes what a killed dbio crash\n"
		"left in DIR.\n\n"
		"With JOBFILE (one job of workload=kv, fileio or postgres, numjobs=1; run's --output, --format and\n"
		"job keys), the job runs on the layer mounted in its directory, and at each\n"
		"crash state (after each of the first N fsync returns, and after K commits chosen\n"
		"at random) the engine is reopened on the cut (gdbm_open, mdb_env_open, SQLite\n"
		"with PRAGMA integrity_check, RocksDB's and LevelDB's open replaying their logs,\n"
		"a PostgreSQL server started on the cut replaying its WAL: each row inserted in\n"
		"a commit that returned) and every acknowledged record looked for, its\n"
		"checksum and value checked. A fileio job (rw=write or randwrite, one bs, psync,\n"
		"sync, pvsync or pvsync2) seals each block (offset, sequence, crc32c); a block is\n"
		"acknowledged when its fsync/fdatasync or its O_SYNC/O_DSYNC write returns, K\n"
		"random cuts follow writes, and each acknowledged block is looked for in the cut,\n"
		"what was written and lost counted too. The result is dbio run's with a\n"
		"durability section. The job key crash=1 does the same in dbio run and at each\n"
		"point of dbio sweep (100 cuts, 100 acknowledgements), whose table then gives a\n"
		"row per point with ops/s and \"lost after a cut\".\n\n"
		"--model says what a cut keeps of each file's writes since its last fsync\n"
		"(the job key crash_model= too), --fault injects an EIO at the N-th fsync or\n"
		"an ENOSPC at the N-th write (crash_fault=); a writer that sees an error may\n"
		"print a line \"error: TEXT\" instead of acknowledging. See docs/crash.md.",
	.tables = crash_tables,
	.operand = crash_operand,
};

/* The summary lines: the states, the model's, the fault's. */
static void summary(struct powercut *pc, const struct powercut_conf *c, const struct tally *t)
{
	unsigned long points = 0;
	char fault[48], what[128];

	printf("crash states checked: %u, with losses: %u, acknowledged lost: max %u, total %lu\n", t->states,
	       t->lossy, t->max_lost, t->lost);
	if (c->model != POWERCUT_LOSE)
		printf("model %s (seed %llu): states with torn records: %u (torn records: %lu), with a later "
		       "record kept where an earlier was lost: %u\n",
		       powercut_model_name(c->model), (unsigned long long)c->seed, t->torn_states, t->torn,
		       t->reordered);
	if (c->fault == POWERCUT_NO_FAULT)
		return;
	powercut_fault_name(c, fault, sizeof(fault));
	if (!powercut_fault_fired(pc, what, sizeof(what), &points)) {
		printf("fault %s: never hit (the writer made fewer)\n", fault);
		return;
	}
	printf("fault %s: hit %s after %lu durability points; errors the writer reported: %u; states after it: "
	       "%u, with losses: %u, acknowledged lost: max %u\n",
	       fault, what, points, t->errors, t->after, t->after_lossy, t->max_after);
}

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
	struct crash_args args = { .cuts = 100, .conf = { .seed = 1 } };
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
	ret = powercut_open(dirfd, &args.conf, &pc, err, sizeof(err));
	if (ret < 0) {
		cmd_error("crash: %s: %s", dir, err);
		close(dirfd);
		return 1;
	}
	ret = drive(pc, exec, cuts, args.conf.fault != POWERCUT_NO_FAULT, &t);
	if (ret == 0)
		summary(pc, &args.conf, &t);
	powercut_close(pc);
	close(dirfd);
	if (ret > 128)
		return ret; /* 128 + the signal, the layer undone */
	return ret != 0;
}

const struct cmd cmd_crash = {
	.name = "crash",
	.summary =
		"is acknowledged data still there after a power cut (a FUSE layer that keeps only what was synced)",
	.main = crash_main,
	.opts = &cmd_crash_opts,
};
