/*
 * mem_limit's child process (run_limited in run_int.h). Memory cgroups
 * hold processes, not threads, and the kernel's OOM killer kills a
 * process: with dbio itself in the cgroup, a job that outgrew its limit
 * killed dbio (exit 137, no message, no result, files and cgroup left).
 * So the job's threads run in a child process: dbio lays out the files and
 * makes the cgroup (runner.c), forks; the child joins the cgroup, starts
 * the threads and the stall probe (under the same memory pressure as the
 * load), collects their statistics and writes them to a pipe; dbio reads
 * them, reaps the child and, whatever became of it, removes the files and
 * the cgroup. A child killed by the OOM killer is the job's failure, "the
 * job exceeded mem_limit=8m (peak …)", with a partial result.
 *
 * The wire: a head (the child's status, its error, exitall), then per job
 * its struct run_stats as it is in memory followed by what its pointers
 * hold, in a fixed order. Both ends are one binary (fork, no exec), so
 * the layout agrees and pointers to static data (phase names, the
 * database's name) stay valid; every owned pointer is replaced on reading.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/run_int.h"
#include "util/clock.h"
#include "util/units.h"

struct wire_head {
	int rc;
	int ended_all;
	struct dbio_err err;
};

/* Write all of p to fd; 0 or -errno. */
static int put(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len) {
		ssize_t n = write(fd, c, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

static int put_stats(int fd, const struct run_stats *s)
{
	int rc = put(fd, s, sizeof(*s));

	if (!rc && s->ntargets)
		rc = put(fd, s->targets, s->ntargets * sizeof(*s->targets));
	for (size_t i = 0; !rc && i < s->nseries; i++)
		if (!(rc = put(fd, &s->series[i], sizeof(s->series[i]))))
			rc = put(fd, s->series[i].points,
				 s->series[i].npoints * sizeof(*s->series[i].points));
	if (!rc && s->counters.nsamples)
		rc = put(fd, s->counters.samples, s->counters.nsamples * sizeof(*s->counters.samples));
	for (int m = 0; !rc && m < STEADY_NMETRICS; m++)
		if (s->steady.data[m])
			rc = put(fd, s->steady.data[m], s->steady.n * sizeof(uint64_t));
	if (!rc && s->probe.lat)
		rc = put(fd, s->probe.lat, sizeof(*s->probe.lat));
	if (!rc && s->probe.nstalls)
		rc = put(fd, s->probe.stalls, s->probe.nstalls * sizeof(*s->probe.stalls));
	for (unsigned i = 0; !rc && i < s->nphases; i++)
		if (s->phases[i].lat)
			rc = put(fd, s->phases[i].lat, sizeof(*s->phases[i].lat));
	return rc;
}

/* What the child sent, read whole. */
struct wire {
	const char *p;
	size_t left;
};

/* A copy of the next len bytes into *out (malloc'd; NULL for 0 bytes);
 * false when the wire ended first. */
static bool take_copy(struct wire *w, size_t len, void **out)
{
	*out = NULL;
	if (len > w->left)
		return false;
	if (len && !(*out = malloc(len)))
		return false;
	if (len)
		memcpy(*out, w->p, len);
	w->p += len;
	w->left -= len;
	return true;
}

static bool take(struct wire *w, void *dst, size_t len)
{
	if (len > w->left)
		return false;
	memcpy(dst, w->p, len);
	w->p += len;
	w->left -= len;
	return true;
}

/* The owned arrays of in (a flat copy from the wire, its pointers the
 * child's) read from the wire into fresh memory; false when the wire is
 * short or memory ran out, with every pointer of in ours or NULL. */
static bool take_arrays(struct wire *w, struct run_stats *in)
{
	bool lat = in->probe.lat != NULL, data[STEADY_NMETRICS], phase_lat[12], ok;

	_Static_assert(sizeof(phase_lat) / sizeof(phase_lat[0]) == sizeof(in->phases) / sizeof(in->phases[0]),
		       "a flag per phase");
	for (unsigned i = 0; i < sizeof(in->phases) / sizeof(in->phases[0]); i++) {
		phase_lat[i] = i < in->nphases && in->phases[i].lat != NULL;
		in->phases[i].lat = NULL;
	}

	for (int m = 0; m < STEADY_NMETRICS; m++) {
		data[m] = in->steady.data[m] != NULL;
		in->steady.data[m] = NULL;
	}
	in->probe.lat = NULL;
	in->trace = NULL; /* trace=block is refused with mem_limit */
	in->counters.cap = in->counters.nsamples;
	ok = take_copy(w, in->ntargets * sizeof(*in->targets), (void **)&in->targets);
	if (ok && in->nseries && !(in->series = calloc(in->nseries, sizeof(*in->series))))
		ok = false;
	if (!in->series)
		in->nseries = 0;
	for (size_t i = 0; ok && i < in->nseries; i++) {
		ok = take(w, &in->series[i], sizeof(in->series[i]));
		in->series[i].points = NULL;
		in->series[i].cap = in->series[i].npoints;
		ok = ok && take_copy(w, in->series[i].npoints * sizeof(*in->series[i].points),
				     (void **)&in->series[i].points);
	}
	ok = ok && take_copy(w, in->counters.nsamples * sizeof(*in->counters.samples),
			     (void **)&in->counters.samples);
	for (int m = 0; m < STEADY_NMETRICS; m++)
		ok = ok && (!data[m] ||
			    take_copy(w, in->steady.n * sizeof(uint64_t), (void **)&in->steady.data[m]));
	ok = ok && (!lat || take_copy(w, sizeof(*in->probe.lat), (void **)&in->probe.lat));
	ok = ok && take_copy(w, in->probe.nstalls * sizeof(*in->probe.stalls), (void **)&in->probe.stalls);
	for (unsigned i = 0; i < in->nphases && i < sizeof(phase_lat) / sizeof(phase_lat[0]); i++)
		ok = ok &&
		     (!phase_lat[i] || take_copy(w, sizeof(*in->phases[i].lat), (void **)&in->phases[i].lat));
	return ok;
}

/* One job's stats from the wire into *s (whose own are released); false
 * when the wire is short or memory ran out: *s is then as it was. */
static bool take_stats(struct wire *w, struct run_stats *s)
{
	struct run_stats in;

	if (!take(w, &in, sizeof(in)))
		return false;
	/* Nothing of the child's heap survives: every owned pointer is ours
	 * or NULL before anything can fail. */
	in.targets = NULL;
	in.series = NULL;
	in.counters.samples = NULL;
	in.probe.stalls = NULL;
	if (!take_arrays(w, &in)) {
		run_stats_release(&in);
		return false;
	}
	run_stats_release(s);
	*s = in;
	return true;
}

void run_reach_note(struct run_group *g)
{
	for (size_t j = 0; g->reach && j < g->n; j++) {
		uint64_t ops = 0, total = 0;

		for (size_t i = 0; i < g->started; i++)
			if (g->slots[i].w.job == &g->jobs[j]) {
				ops += atomic_load_explicit(&g->slots[i].w.progress_ops,
							    memory_order_relaxed);
				total += g->slots[i].w.ops_total;
			}
		atomic_store(&g->reach[j].ops, ops);
		atomic_store(&g->reach[j].total, total);
	}
}

/* " after 31000 of 100000 operations": how far the first job got before
 * its process died, from what it last noted; "" when nothing was. */
static void fmt_reach(char *buf, size_t len, const struct run_group *g)
{
	const uint64_t ops = g->reach ? atomic_load(&g->reach[0].ops) : 0,
		       total = g->reach ? atomic_load(&g->reach[0].total) : 0;

	if (!ops)
		snprintf(buf, len, "%s", "");
	else if (total)
		snprintf(buf, len, " after %llu of %llu operations", (unsigned long long)ops,
			 (unsigned long long)total);
	else
		snprintf(buf, len, " after %llu operations", (unsigned long long)ops);
}

/* The child: join the cgroup, run the group, send what it measured. Never
 * returns. */
static void child_main(struct run_group *g, int fd, int (*body)(struct run_group *, struct dbio_err *))
{
	struct wire_head head = { 0 };
	int rc = 0;

	/* dbio gone (killed twice): the job goes too, not on unwatched. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(1);
	run_signals_install_child();
	if ((rc = memlimit_join(&g->mem)))
		head.rc = dbio_err_set(&head.err, rc, "mem_limit: cannot move the job into cgroup %s: %s",
				       g->mem.path, strerror(-rc));
	else
		head.rc = body(g, &head.err);
	head.ended_all = atomic_load(&g->ended_all);
	rc = put(fd, &head, sizeof(head));
	for (size_t j = 0; !rc && j < g->n; j++)
		rc = put_stats(fd, &g->stats[j]);
	/* Nothing to release: the process ends, dbio removes the files. */
	_exit(rc ? 1 : 0);
}

/* Read the child's pipe to its end into *buf, passing dbio's stop signals
 * on to the child (its threads poll them there). 0 or -ENOMEM. */
static int read_all(int fd, pid_t child, char **buf, size_t *len)
{
	size_t cap = 1 << 16;
	int forwarded = 0;

	*len = 0;
	if (!(*buf = malloc(cap)))
		return -ENOMEM;
	for (;;) {
		int sig = atomic_load(&run_stop_signal);
		ssize_t n;

		if (sig && sig != forwarded) {
			kill(child, sig);
			forwarded = sig;
		}
		if (*len == cap) {
			char *more = realloc(*buf, cap * 2);

			if (!more)
				return -ENOMEM;
			*buf = more;
			cap *= 2;
		}
		n = read(fd, *buf + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		*len += (size_t)n;
	}
}

/* "8m", "1g", "4096": a limit as a user writes it. */
static void fmt_limit(char *buf, size_t len, uint64_t bytes)
{
	static const char units[] = "kmgt";
	int u = -1;

	while (u < 3 && bytes && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)bytes, units[u]);
}

/* The child's end: what it sent, or why it sent nothing whole. */
static int child_ended(struct run_group *g, int status, uint64_t elapsed_ns, struct wire *w,
		       struct dbio_err *err)
{
	struct wire_head head;
	uint64_t kills = 0, peak = 0;
	char lim[32], pk[32], reach[96];
	bool whole = take(w, &head, sizeof(head));

	for (size_t j = 0; whole && j < g->n; j++)
		whole = take_stats(w, &g->stats[j]);
	memlimit_peak(&g->mem, &peak);
	fmt_limit(lim, sizeof(lim), g->mem.limit_bytes);
	units_fmt_bytes(pk, sizeof(pk), peak);
	if (whole && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		atomic_store(&g->ended_all, head.ended_all);
		if (!head.rc || head.rc == DBIO_ESTOPPED || peak < g->mem.limit_bytes) {
			*err = head.err;
			return head.rc;
		}
		/* Full to the limit, a write the kernel cannot charge can fail
		 * (gdbm: "File write error") instead of an OOM kill: say so. */
		return dbio_err_set(err, head.rc,
				    "%s (the job filled its mem_limit=%s: peak %s, page cache included)",
				    head.err.msg, lim, pk);
	}
	for (size_t j = 0; j < g->n; j++)
		g->stats[j].elapsed_ns = elapsed_ns; /* the process's life: no thread reported */
	fmt_reach(reach, sizeof(reach), g);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL &&
	    (memlimit_oom_kills(&g->mem, &kills) || kills > 0))
		return dbio_err_set(
			err, -ENOMEM,
			"the job exceeded mem_limit=%s (peak %s, page cache included)%s: the kernel killed its threads; give a larger mem_limit, or fewer records or threads",
			lim, pk, reach);
	if (WIFSIGNALED(status))
		return dbio_err_set(err, -EINTR,
				    "the job's process was killed by signal %d (mem_limit=%s, peak %s)",
				    WTERMSIG(status), lim, pk);
	return dbio_err_set(err, -EIO, "the job's process ended without its result (exit status %d)",
			    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int run_limited(struct run_group *g, int (*body)(struct run_group *, struct dbio_err *), struct dbio_err *err)
{
	struct wire w = { 0 };
	char *buf = NULL;
	size_t len = 0;
	int fds[2], status = 0, rc;
	uint64_t start_ns;
	pid_t pid;

	g->reach = mmap(NULL, g->n * sizeof(*g->reach), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			-1, 0);
	if (g->reach == MAP_FAILED)
		g->reach = NULL; /* the message then says less */
	if (pipe2(fds, O_CLOEXEC)) {
		rc = dbio_err_set(err, -errno, "mem_limit: cannot make a pipe: %s", strerror(errno));
		goto out_unmap;
	}
	fflush(NULL); /* nothing buffered is printed twice */
	start_ns = clock_now_ns();
	for (size_t j = 0; j < g->n; j++)
		g->stats[j].started_wall_ns = clock_wall_ns(); /* the child's own, when it reports */
	if ((pid = fork()) < 0) {
		rc = -errno;
		close(fds[0]);
		close(fds[1]);
		rc = dbio_err_set(err, rc, "mem_limit: cannot start the job's process: %s", strerror(-rc));
		goto out_unmap;
	}
	if (pid == 0) {
		close(fds[0]);
		child_main(g, fds[1], body);
	}
	close(fds[1]);
	rc = read_all(fds[0], pid, &buf, &len);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	g->started = g->nworkers; /* for the steps after: the threads ran, in the child */
	if (rc) {
		rc = dbio_err_set(err, rc, "mem_limit: out of memory reading the job's result");
	} else {
		w.p = buf;
		w.left = len;
		rc = child_ended(g, status, clock_now_ns() - start_ns, &w, err);
	}
	free(buf);
out_unmap:
	if (g->reach)
		munmap(g->reach, g->n * sizeof(*g->reach));
	g->reach = NULL;
	return rc;
}
