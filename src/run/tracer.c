/* The block-layer tracer of trace=block; see tracer.h. */
#include "run/tracer.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/clock.h"

#define TRACER_READY	 "dbio: probes attached"
#define TRACER_OUT_MAX	 (16u << 20)	   /* more output than this is refused */
#define TRACER_ATTACH_NS (120000000000ull) /* a loaded machine compiles slowly */
#define TRACER_END_NS	 (60000000000ull)  /* from SIGINT to its last map */

/* tracefs's two places; the tracepoint's directory proves both the
 * mount and a kernel with the block tracepoints. */
static const char *const tracepoint_dirs[] = { "/sys/kernel/tracing/events/block/block_rq_issue",
					       "/sys/kernel/debug/tracing/events/block/block_rq_issue" };

/* bpftrace's environment, whatever dbio's is: no BPFTRACE_* setting of
 * someone else's, the C locale. */
static char *const tracer_env[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", NULL };

static const char *const op_names[TRACE_NOPS] = { "read", "write", "flush", "discard", "other" };

const char *trace_op_name(enum trace_op op)
{
	return op < TRACE_NOPS ? op_names[op] : "other";
}

/* Whether root may run the program at real (a path without symlinks): a
 * regular executable file of root's that no one else can write, in
 * directories no one else can write, so that what was checked is what
 * runs. 0, or -1 with why. */
static int path_checked(const char *shown, const char *real, char *why, size_t len)
{
	char dir[PATH_MAX];
	struct stat st;
	char *slash;

	if (stat(real, &st) || !S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR))
		return snprintf(why, len, "%s is not an executable file", shown), -1;
	if (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))
		return snprintf(
			       why, len,
			       "%s is not root's or others can write it: dbio runs it as root only when it is",
			       shown),
		       -1;
	snprintf(dir, sizeof(dir), "%s", real);
	while ((slash = strrchr(dir, '/'))) {
		slash[slash == dir] = '\0'; /* "/usr/bin/x" -> "/usr/bin" -> "/usr" -> "/" */
		if (stat(dir, &st) || st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))
			return snprintf(
				       why, len,
				       "%s is in %s, which is not root's or others can write: dbio runs it as root only when no one else can replace it",
				       shown, dir),
			       -1;
		if (slash == dir)
			break;
	}
	return 0;
}

/* The first bpftrace of PATH's absolute directories into path (its real
 * name, checked by path_checked): 0, or -1 with why (none there, or the
 * first one refused). */
static int find_bpftrace(char *path, char *why, size_t len)
{
	const char *env = getenv("PATH");
	char *copy = strdup(env ? env : "/usr/bin:/bin"), *dir, *save = NULL;
	int rc = -1;

	snprintf(why, len, "no bpftrace on PATH (%s): install bpftrace", env ? env : "unset");
	if (!copy)
		return -1;
	for (dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		char cand[PATH_MAX + 16];

		if (dir[0] != '/')
			continue; /* "." or a relative directory: never for root */
		snprintf(cand, sizeof(cand), "%s/bpftrace", dir);
		if (access(cand, F_OK))
			continue;
		if (!realpath(cand, path))
			snprintf(why, len, "%s: %s", cand, strerror(errno));
		else
			rc = path_checked(cand, path, why, len);
		break;
	}
	free(copy);
	return rc;
}

static const char *tracepoint_dir(void)
{
	for (size_t i = 0; i < sizeof(tracepoint_dirs) / sizeof(tracepoint_dirs[0]); i++)
		if (!access(tracepoint_dirs[i], F_OK))
			return tracepoint_dirs[i];
	return NULL;
}

int tracer_check(const char *where, const char *job, struct dbio_err *err)
{
	char why[2 * PATH_MAX + 256], path[PATH_MAX];

	if (find_bpftrace(path, why, sizeof(why)))
		return dbio_err_set(err, DBIO_EINPUT, "%s: key 'trace': block needs bpftrace: %s (job '%s')",
				    where, why, job);
	if (!tracepoint_dir())
		return dbio_err_set(
			err, DBIO_EINPUT,
			"%s: key 'trace': block needs the kernel's block tracepoints in tracefs, and neither /sys/kernel/tracing nor /sys/kernel/debug/tracing has them: mount it (mount -t tracefs nodev /sys/kernel/tracing), or give trace=none (job '%s')",
			where, job);
	return 0;
}

/* The kernel's dev_t of a tracepoint: major in the high 12 bits of 32. */
static unsigned kdev(unsigned major, unsigned minor)
{
	return (major << 20) | minor;
}

/* The program: dbio's text and the devices' numbers, nothing else. Issue
 * and completion meet on (device, sector); a request whose issue came
 * before the start is not timed. The request's type is decided from the
 * kernel's rwbs letters (blk_fill_rwbs: an optional F, a preflush, before
 * the operation's W, R, D or a flush's own F; flags after) into an
 * integer key: rwbs itself as a key is all ten bytes of the array, so the
 * bytes after its NUL made "W" two keys that print alike. The type rides
 * in the issue time's low three bits: one map update and one delete per
 * request fewer than a map of its own (bench/tracer-overhead.sh). */
static int program(char *buf, size_t len, const struct sampler *s)
{
	/* BEGIN runs once every probe is attached: bpftrace's attached_probes
	 * line comes before they are, and the first requests would be lost */
	size_t n = (size_t)snprintf(
		buf, len, "BEGIN { printf(\"%s\\n\"); }\ntracepoint:block:block_rq_issue /", TRACER_READY);

	for (unsigned k = 0; k < s->ndev && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, "%sargs->dev == %u", k ? " || " : "",
				      kdev(s->major[k], s->minor[k]));
	if (n < len)
		n += (size_t)snprintf(
			buf + n, len - n,
			"/ {\n"
			"\t$op = %d;\n"
			"\tif (strncmp(args->rwbs, \"W\", 1) == 0 || strncmp(args->rwbs, \"FW\", 2) == 0) { $op = %d; }\n"
			"\telse if (strncmp(args->rwbs, \"R\", 1) == 0 || strncmp(args->rwbs, \"FR\", 2) == 0) { $op = %d; }\n"
			"\telse if (strncmp(args->rwbs, \"D\", 1) == 0 || strncmp(args->rwbs, \"FD\", 2) == 0) { $op = %d; }\n"
			"\telse if (strncmp(args->rwbs, \"F\", 1) == 0) { $op = %d; }\n"
			"\t@start[args->dev, args->sector] = (nsecs << 3) | $op;\n"
			"\t@size[args->dev, $op] = hist(args->bytes);\n"
			"\t@bytes[args->dev, $op] = sum(args->bytes);\n"
			"}\n"
			"tracepoint:block:block_rq_complete /@start[args->dev, args->sector]/ {\n"
			"\t$v = @start[args->dev, args->sector];\n"
			"\t$ns = nsecs - ($v >> 3);\n"
			"\t@lat[args->dev, $v & 7] = hist($ns);\n"
			"\t@devns[args->dev, $v & 7] = sum($ns);\n"
			"\tdelete(@start[args->dev, args->sector]);\n"
			"}\n"
			"END { clear(@start); }\n",
			TRACE_OTHER, TRACE_WRITE, TRACE_READ, TRACE_DISCARD, TRACE_FLUSH);
	return n < len ? 0 : -1;
}

/* In the child, between fork and exec: only system calls. */
static void child(const char *exe, int out, int errfd, char *const argv[], pid_t parent)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	sigset_t none;

	/* its own process group: a terminal's ^C reaches dbio, which stops it */
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0 || setpgid(0, 0))
		_exit(126);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(126); /* a killed dbio takes bpftrace along */
	for (int sig = 1; sig < 32; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (close_range(3, ~0u, 0))
		_exit(126);
	execve(exe, argv, tracer_env);
	_exit(127);
}

/* The last line of bpftrace's standard error that says ERROR (else its
 * last line), at most len bytes. */
static void last_error(const struct tracer *t, char *buf, size_t len)
{
	char text[8192];
	ssize_t n = pread(t->err_fd, text, sizeof(text) - 1, 0);
	char *line, *save = NULL, *best = NULL, *last = NULL;

	text[n > 0 ? n : 0] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		last = line;
		if (strstr(line, "ERROR:") && !strstr(line, "RLIMIT_MEMLOCK"))
			best = line;
	}
	snprintf(buf, len, "%s", best ? best : last ? last : "(it printed nothing)");
}

/* Read what bpftrace printed until deadline: 1 at its end (EOF), 0 with
 * a new line in t->buf or at the deadline, negative errno. */
static int read_some(struct tracer *t, uint64_t deadline, const atomic_int *stop)
{
	while (1) {
		struct pollfd p = { .fd = t->out_fd, .events = POLLIN };
		uint64_t now = clock_now_ns();
		ssize_t n;

		if (now >= deadline || (stop && atomic_load(stop)))
			return 0;
		if (poll(&p, 1, 100) < 0 && errno != EINTR)
			return -errno;
		if (!(p.revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		if (t->len + 4096 >= t->cap) {
			char *grown;

			if (t->cap >= TRACER_OUT_MAX)
				return -EFBIG;
			if (!(grown = realloc(t->buf, t->cap ? t->cap * 2 : 65536)))
				return -ENOMEM;
			t->buf = grown;
			t->cap = t->cap ? t->cap * 2 : 65536;
		}
		n = read(t->out_fd, t->buf + t->len, t->cap - t->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 1;
		t->len += (size_t)n;
		t->buf[t->len] = '\0';
		if (memchr(t->buf + t->len - (size_t)n, '\n', (size_t)n))
			return 0;
	}
}

/* Reap bpftrace (already told to end, or killed): its wait status. */
static int reap(struct tracer *t)
{
	int status = 0;

	while (waitpid(t->pid, &status, 0) < 0 && errno == EINTR)
		;
	t->pid = 0;
	return status;
}

/* bpftrace ended before it should: reaped, and the error says what it said. */
static int ended_early(struct tracer *t, const char *when, struct dbio_err *err)
{
	char said[1024];
	int status = reap(t);

	last_error(t, said, sizeof(said));
	return dbio_err_set(err, -EIO, "trace=block: bpftrace %s %s %d: %s", when,
			    WIFSIGNALED(status) ? "died of signal" : "exited with status",
			    WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), said);
}

static int spawn(struct tracer *t, const char *prog, struct dbio_err *err)
{
	char *const argv[] = { "bpftrace", "-f", "json", "-e", (char *)prog, NULL };
	char why[2 * PATH_MAX + 256], exe[PATH_MAX];
	const pid_t parent = getpid();
	int pipefd[2];

	if (find_bpftrace(exe, why, sizeof(why)))
		return dbio_err_set(err, DBIO_EINPUT, "trace=block needs bpftrace: %s", why);
	t->err_fd = memfd_create("dbio-bpftrace.err", MFD_CLOEXEC);
	if (t->err_fd < 0 || pipe2(pipefd, O_CLOEXEC)) {
		return dbio_err_set(err, -errno, "trace=block: cannot start bpftrace: %s", strerror(errno));
	}
	t->out_fd = pipefd[0];
	t->pid = fork();
	if (t->pid == 0)
		child(exe, pipefd[1], t->err_fd, argv, parent);
	close(pipefd[1]);
	if (t->pid < 0) {
		t->pid = 0;
		return dbio_err_set(err, -errno, "trace=block: cannot start bpftrace: %s", strerror(errno));
	}
	return 0;
}

int tracer_start(struct tracer *t, const struct sampler *s, const atomic_int *stop, struct dbio_err *err)
{
	const uint64_t deadline = clock_now_ns() + TRACER_ATTACH_NS;
	char prog[4096];
	int rc;

	memset(t, 0, sizeof(*t));
	t->out_fd = t->err_fd = -1;
	t->started = true;
	if (!s->ndev)
		return dbio_err_set(
			err, DBIO_EINPUT,
			"trace=block: the job's directories are on no block device (tmpfs?): nothing to trace");
	if (!(t->stats = calloc(1, sizeof(*t->stats))))
		return dbio_err_set(err, -ENOMEM, "out of memory");
	t->stats->ndev = s->ndev;
	for (unsigned k = 0; k < s->ndev; k++) {
		t->stats->dev[k].major = s->major[k];
		t->stats->dev[k].minor = s->minor[k];
	}
	if (program(prog, sizeof(prog), s))
		return dbio_err_set(err, -E2BIG, "trace=block: too many devices for bpftrace's program");
	if ((rc = spawn(t, prog, err)))
		return rc;
	/* ready when bpftrace says its probes are attached */
	while (!strstr(t->buf ? t->buf : "", "{\"type\": \"printf\", \"data\": \"" TRACER_READY "\\n\"}")) {
		rc = read_some(t, deadline, stop);
		if (rc == 1)
			return ended_early(t, "ended before its probes were attached:", err);
		if (rc < 0)
			return dbio_err_set(err, rc, "trace=block: reading bpftrace's output: %s",
					    strerror(-rc));
		if (stop && atomic_load(stop))
			return dbio_err_set(err, DBIO_ESTOPPED,
					    "trace=block: stopped while bpftrace started");
		if (clock_now_ns() >= deadline)
			return dbio_err_set(err, -ETIMEDOUT,
					    "trace=block: bpftrace did not attach its probes within %llu s",
					    (unsigned long long)(TRACER_ATTACH_NS / 1000000000u));
	}
	return 0;
}

/* The bucket of a bpftrace hist entry {min, max, count}, or -1. */
static int bucket_of(const json_t *b, uint64_t *count)
{
	const json_t *min = json_object_get(b, "min"), *max = json_object_get(b, "max"),
		     *n = json_object_get(b, "count");
	json_int_t lo, hi;

	if (!json_is_object(b) || json_object_size(b) != 3 || !json_is_integer(min) ||
	    !json_is_integer(max) || !json_is_integer(n) || json_integer_value(n) < 0)
		return -1;
	lo = json_integer_value(min);
	hi = json_integer_value(max);
	*count = (uint64_t)json_integer_value(n);
	if (lo == 0 && hi == 0)
		return 0;
	for (int k = 1; k < TRACE_NBUCKETS; k++) {
		const uint64_t low = 1ull << (k - 1);

		if (lo > 0 && (uint64_t)lo == low && (uint64_t)hi == 2 * low - 1)
			return k;
	}
	return -1;
}

/* "DEV,OP" of a map key (OP an enum trace_op): the device's stats of
 * that type, or NULL. */
static struct trace_op_stats *key_of(struct trace_stats *ts, const char *key)
{
	unsigned long dev, op;
	char *end;

	if (key[0] < '0' || key[0] > '9')
		return NULL;
	errno = 0;
	dev = strtoul(key, &end, 10);
	if (errno || *end != ',' || dev > UINT32_MAX || end[1] < '0' || end[1] > '9')
		return NULL;
	op = strtoul(end + 1, &end, 10);
	if (errno || *end != '\0' || op >= TRACE_NOPS)
		return NULL;
	for (unsigned k = 0; k < ts->ndev; k++)
		if (kdev(ts->dev[k].major, ts->dev[k].minor) == dev)
			return &ts->dev[k].op[op];
	return NULL;
}

/* A map of sums: @bytes (issued bytes) or @devns (latencies, summed). */
static int parse_sums(struct trace_stats *ts, const char *name, const json_t *map, char *why, size_t len)
{
	const bool bytes = !strcmp(name, "@bytes");
	const char *key;
	const json_t *v;

	if (!bytes && strcmp(name, "@devns"))
		return snprintf(why, len, "a map dbio did not ask for: %s", name), -1;
	json_object_foreach ((json_t *)map, key, v) {
		struct trace_op_stats *op = key_of(ts, key);

		if (!op || !json_is_integer(v) || json_integer_value(v) < 0)
			return snprintf(why, len, "%s: a bad entry '%s'", name, key), -1;
		*(bytes ? &op->bytes : &op->device_ns) += (uint64_t)json_integer_value(v);
	}
	return 0;
}

/* A map of histograms: @size (bytes per request) or @lat (ns). */
static int parse_hists(struct trace_stats *ts, const char *name, const json_t *map, char *why, size_t len)
{
	const bool size = !strcmp(name, "@size");
	const char *key;
	const json_t *v;

	if (!size && strcmp(name, "@lat"))
		return snprintf(why, len, "a histogram dbio did not ask for: %s", name), -1;
	json_object_foreach ((json_t *)map, key, v) {
		struct trace_op_stats *op = key_of(ts, key);
		const json_t *b;
		size_t i;

		if (!op || !json_is_array(v))
			return snprintf(why, len, "%s: a bad entry '%s'", name, key), -1;
		json_array_foreach (v, i, b) {
			uint64_t n;
			int k = bucket_of(b, &n);

			if (k < 0)
				return snprintf(why, len, "%s['%s']: a bad bucket", name, key), -1;
			(size ? op->size_hist : op->lat_hist)[k] += n;
			*(size ? &op->requests : &op->completed) += n;
		}
	}
	return 0;
}

int trace_parse_line(struct trace_stats *ts, const char *line, char *why, size_t len)
{
	json_error_t jerr;
	json_t *o, *data, *map;
	const char *type, *name;
	int rc = -1;

	if (line[strspn(line, " \t\r")] == '\0')
		return 0;
	if (!(o = json_loads(line, JSON_REJECT_DUPLICATES, &jerr)))
		return snprintf(why, len, "not JSON: %s", jerr.text), -1;
	type = json_string_value(json_object_get(o, "type"));
	data = json_object_get(o, "data");
	if (!type || !data || json_object_size(o) != 2) {
		snprintf(why, len, "not a line of bpftrace's JSON output");
	} else if (!strcmp(type, "attached_probes")) {
		rc = 0;
	} else if (!strcmp(type, "printf") && json_is_string(json_object_get(o, "data")) &&
		   !strcmp(json_string_value(json_object_get(o, "data")), TRACER_READY "\n")) {
		rc = 0;
	} else if ((!strcmp(type, "map") || !strcmp(type, "hist")) && json_is_object(data) &&
		   json_object_size(data) == 1) {
		name = json_object_iter_key(json_object_iter(data));
		map = json_object_iter_value(json_object_iter(data));
		if (!json_is_object(map))
			snprintf(why, len, "%s: not an object", name);
		else
			rc = !strcmp(type, "map") ? parse_sums(ts, name, map, why, len)
						  : parse_hists(ts, name, map, why, len);
	} else if (!strcmp(type, "lost_events")) {
		snprintf(why, len, "bpftrace lost %lld events: its counts are short",
			 (long long)json_integer_value(json_object_get(data, "events")));
	} else {
		snprintf(why, len, "an unexpected line of type '%.40s'", type);
	}
	json_decref(o);
	return rc;
}

/* Every line of t->buf into t->stats. */
static int parse_all(struct tracer *t, struct dbio_err *err)
{
	char why[512];
	unsigned lineno = 0;

	for (char *line = t->buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (trace_parse_line(t->stats, line, why, sizeof(why)))
			return dbio_err_set(err, DBIO_EFORMAT, "trace=block: bpftrace's output, line %u: %s",
					    lineno, why);
	}
	return 0;
}

int tracer_stop(struct tracer *t, struct trace_stats **out, struct dbio_err *err)
{
	const uint64_t deadline = clock_now_ns() + TRACER_END_NS;
	int rc = 0, status;

	*out = NULL;
	if (!t->pid)
		return dbio_err_set(err, -ESRCH, "trace=block: bpftrace is not running");
	kill(t->pid, SIGINT); /* it prints its maps and ends */
	while ((rc = read_some(t, deadline, NULL)) == 0 && clock_now_ns() < deadline)
		;
	if (rc < 0)
		return dbio_err_set(err, rc, "trace=block: reading bpftrace's output: %s", strerror(-rc));
	if (rc == 0) { /* the deadline: killed and reaped by tracer_release */
		return dbio_err_set(err, -ETIMEDOUT,
				    "trace=block: bpftrace did not end within %llu s of SIGINT",
				    (unsigned long long)(TRACER_END_NS / 1000000000u));
	}
	status = reap(t);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char said[1024];

		last_error(t, said, sizeof(said));
		return dbio_err_set(err, -EIO, "trace=block: bpftrace failed (status 0x%x): %s", status,
				    said);
	}
	if ((rc = parse_all(t, err)))
		return rc;
	*out = t->stats;
	t->stats = NULL;
	return 0;
}

void tracer_release(struct tracer *t)
{
	if (!t->started)
		return;
	if (t->pid > 0) {
		kill(t->pid, SIGKILL);
		reap(t);
	}
	if (t->out_fd >= 0)
		close(t->out_fd);
	if (t->err_fd >= 0)
		close(t->err_fd);
	t->out_fd = t->err_fd = -1;
	free(t->buf);
	free(t->stats);
	t->buf = NULL;
	t->stats = NULL;
	t->len = t->cap = 0;
	t->started = false;
}
