/*
 * The runner: lays out a group's files, starts every thread of every job in
 * the group at one gate, waits, merges the threads' statistics per job and
 * removes the files. Signals only raise run_stop_signal; workers poll it.
 */
#include <dirent.h>
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>

#include "job/option.h"
#include "run/memlimit.h"
#include "run/run_int.h"
#include "util/clock.h"
#include "workload/workload.h"

atomic_int run_stop_signal;

/* The stop signals, one list for the handlers and the names. A run under
 * nohup inherits SIGHUP ignored and must outlive the terminal, so an
 * ignored SIGHUP stays ignored; SIGINT and SIGQUIT, which a shell ignores
 * for its background jobs, are caught all the same (as SIGINT always was):
 * sent on purpose, they should stop the run cleanly. */
static const struct {
	int sig;
	const char *name;
	bool keep_ignored;
} stop_signals[] = {
	{ SIGINT, "SIGINT", false },
	{ SIGTERM, "SIGTERM", false },
	{ SIGHUP, "SIGHUP", true },
	{ SIGQUIT, "SIGQUIT", false },
};

static void on_signal(int sig)
{
	atomic_store(&run_stop_signal, sig);
}

void run_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C kills at once */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		struct sigaction old;

		if (stop_signals[i].keep_ignored && sigaction(stop_signals[i].sig, NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(stop_signals[i].sig, &sa, NULL);
	}
}

const char *run_signal_name(int sig)
{
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		if (stop_signals[i].sig == sig)
			return stop_signals[i].name;
	return "a signal";
}

void run_warn(const struct run_opts *opts, const char *fmt, ...)
{
	char msg[4608];
	va_list ap;

	if (!opts || !opts->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	opts->warn(opts->warn_ctx, msg);
}

void run_stats_release(struct run_stats *stats)
{
	free(stats->probe.lat);
	free(stats->probe.stalls);
	memset(&stats->probe, 0, sizeof(stats->probe));
	sampler_release(&stats->counters);
	for (size_t i = 0; i < stats->nseries; i++)
		series_release(&stats->series[i]);
	free(stats->series);
	stats->series = NULL;
	stats->nseries = 0;
	free(stats->targets);
	stats->targets = NULL;
	stats->ntargets = 0;
}

void run_stats_init(struct run_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	for (int t = 0; t < OP_NTYPES; t++)
		op_stats_init(&stats->ops[t]);
	hist_init(&stats->slat_ns);
}

/* "<thread>.<rest>" or "shared.<rest>": what follows dbio.<job>. in the
 * names of a job's files (so job 'a' does not claim job 'a.b''s). */
static bool is_file_suffix(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (!n && !strcmp(s, "probe"))
		return true;
	if (!n && !strncmp(s, "shared", 6))
		n = 6;
	if (!n || s[n] != '.')
		return false;
	return s[n + 1] != '\0';
}

/* direct=1 where the files live in RAM: tmpfs accepts O_DIRECT (since
 * Linux 6.6) but has no device to bypass the cache for, so the job would
 * measure memory copies while the result says direct I/O. Worth a warning,
 * not a refusal: it can be what the user wants to compare against. ramfs
 * refuses O_DIRECT, which the open then says. statfs_path is where the
 * directory is or will be made. */
static void warn_ram(const struct job *job, const char *path, const char *statfs_path,
		     const struct run_opts *opts)
{
	struct statfs fs;
	const char *type;

	if (!job->direct || statfs(statfs_path, &fs))
		return;
	if (fs.f_type == TMPFS_MAGIC)
		type = "tmpfs";
	else if (fs.f_type == RAMFS_MAGIC)
		type = "ramfs";
	else
		return;
	run_warn(
		opts,
		"%s: direct=1 on %s, which keeps its files in RAM: the job measures memory, not storage (job '%s')",
		path, type, job->name);
}

static int check_dir(const struct job *job, const char *path, const struct run_opts *opts,
		     struct dbio_err *err)
{
	char where[4200], prefix[160];
	const char *foreign = NULL, *leftover = NULL;
	struct stat st;
	DIR *d;
	int rc = 0;

	option_where(job_is_set(job, "directory") ? &job->origin[option_index(option_find("directory"))]
						  : &job->section,
		     where, sizeof(where));
	if (stat(path, &st)) {
		if (errno == ENOENT && !strcmp(path, RUN_SCRATCH_DEFAULT)) {
			warn_ram(job, path, ".", opts);
			return 0;
		}
		return dbio_err_set(err, DBIO_EINPUT, "%s: key 'directory': %s: %s (job '%s')", where, path,
				    strerror(errno), job->name);
	}
	if (!S_ISDIR(st.st_mode))
		return dbio_err_set(err, DBIO_EINPUT, "%s: key 'directory': %s: not a directory (job '%s')",
				    where, path, job->name);
	if (!(d = opendir(path)))
		return dbio_err_set(err, -errno, "%s: cannot read directory: %s", path, strerror(errno));
	snprintf(prefix, sizeof(prefix), "dbio.%s.", job->name);
	for (struct dirent *e; (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (strncmp(e->d_name, "dbio.", 5)) {
			if (!foreign && !(foreign = strdup(e->d_name)))
				foreign = "?";
		} else if (!strncmp(e->d_name, prefix, strlen(prefix)) &&
			   is_file_suffix(e->d_name + strlen(prefix)) && !leftover) {
			if (!(leftover = strdup(e->d_name)))
				leftover = "?";
		}
	}
	closedir(d);
	if (foreign && !opts->force)
		rc = dbio_err_set(
			err, DBIO_EUNSAFE,
			"%s: holds files that are not dbio's (such as '%s'): refusing to work there; choose an empty directory or pass --force",
			path, foreign);
	else if (leftover)
		rc = dbio_err_set(err, DBIO_EUNSAFE,
				  "%s/%s: already exists: left by an earlier run? remove it and run again",
				  path, leftover);
	if (!rc)
		warn_ram(job, path, path, opts);
	if (foreign && strcmp(foreign, "?"))
		free((char *)foreign);
	if (leftover && strcmp(leftover, "?"))
		free((char *)leftover);
	return rc;
}

int run_drop_caches(struct dbio_err *err)
{
	int fd;

	sync();
	fd = open(RUN_DROP_CACHES, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3", 1) != 1) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return dbio_err_set(err, -e, "cache=drop: cannot write %s: %s", RUN_DROP_CACHES, strerror(e));
	}
	close(fd);
	return 0;
}

int run_check_targets(const struct jobset *set, const struct run_opts *opts, struct dbio_err *err)
{
	for (size_t j = 0; j < set->njobs; j++) {
		struct memlimit probe;
		int rc;

		if (set->jobs[j].mem_limit && (rc = memlimit_check(&probe, err)))
			return rc;
		if (set->jobs[j].cache == CACHE_DROP && access(RUN_DROP_CACHES, W_OK)) {
			char where[4200];
			const struct job *job = &set->jobs[j];

			option_where(&job->origin[option_index(option_find("cache"))], where, sizeof(where));
			return dbio_err_set(
				err, DBIO_EINPUT,
				"%s: key 'cache': drop needs write access to %s (run as root), or use cache=fadvise (job '%s')",
				where, RUN_DROP_CACHES, job->name);
		}
	}
	for (size_t j = 0; j < set->njobs; j++) {
		char **dirs = NULL;
		int n = job_split_dirs(set->jobs[j].directory, &dirs);
		int rc = n < 0 ? dbio_err_set(err, n, "out of memory") : 0;

		for (int i = 0; i < n; i++) {
			if (!rc)
				rc = check_dir(&set->jobs[j], dirs[i], opts, err);
			free(dirs[i]);
		}
		free(dirs);
		if (rc)
			return rc;
	}
	return 0;
}

/* The start gate: every worker prepares, then waits until all have. */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned ready;
	bool open;
	uint64_t open_ns;
	unsigned finished;
	atomic_int failed;
};

struct slot {
	struct worker w;
	struct gate *gate;
	const struct workload_ops *wl;
	int rc;
};

static void *worker_main(void *arg)
{
	struct slot *s = arg;
	int rc = s->wl->prepare(&s->w);

	if (rc)
		atomic_store(&s->gate->failed, 1);
	pthread_mutex_lock(&s->gate->lock);
	s->gate->ready++;
	pthread_cond_broadcast(&s->gate->cond);
	while (!s->gate->open)
		pthread_cond_wait(&s->gate->cond, &s->gate->lock);
	s->w.origin_ns = s->gate->open_ns;
	pthread_mutex_unlock(&s->gate->lock);
	if (!rc && !atomic_load(&s->gate->failed))
		rc = s->wl->run(&s->w);
	s->wl->cleanup(&s->w);
	s->rc = rc;
	pthread_mutex_lock(&s->gate->lock);
	s->gate->finished++;
	pthread_cond_broadcast(&s->gate->cond);
	pthread_mutex_unlock(&s->gate->lock);
	return NULL;
}

/* One status line: the first job's name, time, ETA, rate over the last
 * second. */
static void progress_line(const struct job *jobs, const struct slot *slots, size_t started,
			  uint64_t elapsed_ns, uint64_t *last_ops, uint64_t *last_ns)
{
	uint64_t ops = 0, total = 0;
	double rate, secs = (double)elapsed_ns / 1e9;

	for (size_t i = 0; i < started; i++) {
		const struct job *job = slots[i].w.job;

		ops += atomic_load_explicit(&((struct slot *)&slots[i])->w.progress_ops,
					    memory_order_relaxed);
		if (!job->time_based)
			total += slots[i].w.ops_per_pass * job->loops;
	}
	rate = elapsed_ns > *last_ns ? (double)(ops - *last_ops) / ((double)(elapsed_ns - *last_ns) / 1e9)
				     : 0;
	fprintf(stderr, "\r\033[K%s: %.0f s", jobs[0].name, secs);
	if (jobs[0].runtime_ns) {
		double limit = (double)(jobs[0].runtime_ns + jobs[0].ramp_ns) / 1e9;

		fprintf(stderr, " of %.0f s, ETA %.0f s", limit, limit > secs ? limit - secs : 0);
	} else if (total && ops) {
		fprintf(stderr, ", %.0f %% done, ETA %.0f s", 100.0 * (double)ops / (double)total,
			secs * (double)(total - ops) / (double)ops);
	}
	fprintf(stderr, ", %.0f ops/s, %.1f MiB/s", rate, rate * (double)jobs[0].bs / 1048576.0);
	*last_ops = ops;
	*last_ns = elapsed_ns;
}

/* Between the gate and the last thread's end, the main thread samples the
 * system counters at the sampler's interval and refreshes the progress
 * line every second. Called and returns with gate->lock held. */
static void watch(struct gate *gate, struct sampler *sampler, const struct job *jobs,
		  const struct slot *slots, size_t started, bool progress)
{
	uint64_t next_sample = gate->open_ns + sampler->interval_ns,
		 next_line = gate->open_ns + 1000000000ull;
	uint64_t last_ops = 0, last_ns = 0;
	bool printed = false;

	while (gate->finished < started) {
		uint64_t wake = progress && next_line < next_sample ? next_line : next_sample;
		struct timespec ts = { .tv_sec = (time_t)(wake / 1000000000u),
				       .tv_nsec = (long)(wake % 1000000000u) };

		pthread_cond_timedwait(&gate->cond, &gate->lock, &ts);
		uint64_t now = clock_now_ns();

		if (gate->finished >= started)
			break;
		if (now >= next_sample) {
			sampler_take(sampler, now);
			while (next_sample <= now)
				next_sample += sampler->interval_ns;
		}
		if (progress && now >= next_line) {
			progress_line(jobs, slots, started, now - gate->open_ns, &last_ops, &last_ns);
			printed = true;
			while (next_line <= now)
				next_line += 1000000000ull;
		}
	}
	if (printed)
		fprintf(stderr, "\r\033[K");
}

/* Hand thread t of job its files and its slice of the blocks. */
static void assign(struct worker *w, const struct job *job, struct layout *l, struct wfile *files, unsigned t)
{
	const uint64_t bpf = job->filesize / job->bs;
	const uint64_t pass_ops = job->size / job->bs;
	uint64_t first_file, last_file;

	w->job = job;
	w->index = t;
	w->dirfd = l->dirs[t % l->ndirs].fd;
	w->dir_path = l->dirs[t % l->ndirs].path;
	snprintf(w->prefix, sizeof(w->prefix), "dbio.%s.%u.", job->name, t);
	if (!(workload_find(job->workload)->caps & WORKLOAD_CAP_FILES)) {
		w->ops_per_pass = job_work_items(job);
		return;
	}
	w->blocks_per_file = bpf;
	if (job->share_files) {
		uint64_t total = bpf * job->nrfiles;
		uint64_t lo = total * t / job->numjobs, hi = total * (t + 1) / job->numjobs;

		first_file = lo / bpf;
		last_file = (hi - 1) / bpf;
		w->slice_first = lo - first_file * bpf;
		w->slice_len = hi - lo;
		w->ops_per_pass = pass_ops * (t + 1) / job->numjobs - pass_ops * t / job->numjobs;
		if (w->ops_per_pass > w->slice_len)
			w->ops_per_pass = w->slice_len;
	} else {
		first_file = (uint64_t)t * job->nrfiles;
		last_file = first_file + job->nrfiles - 1;
		w->slice_first = 0;
		w->slice_len = bpf * job->nrfiles;
		w->ops_per_pass = pass_ops;
	}
	w->files = files;
	w->nfiles = (size_t)(last_file - first_file + 1);
	for (size_t i = 0; i < w->nfiles; i++) {
		struct layout_file *lf = &l->files[first_file + i];

		files[i] = (struct wfile){ .dirfd = l->dirs[lf->dir].fd,
					   .name = lf->name,
					   .path = lf->path,
					   .fd = -1,
					   .dir = (unsigned)lf->dir };
	}
}

/* Points to reserve so that a series normally never grows while running. */
static size_t series_hint(const struct job *job, const struct worker *w)
{
	uint64_t n = 64;

	if (job->log_interval.ns && job->runtime_ns)
		n = (job->ramp_ns + job->runtime_ns) / job->log_interval.ns + 2;
	else if (job->log_interval.ops && !job->time_based)
		n = w->ops_per_pass * job->loops / job->log_interval.ops + 2;
	return n > (1u << 20) ? 1u << 20 : (size_t)n;
}

/* Copy what a probe measured into the job's stats. */
static int collect_probe(struct run_probe *rp, const struct probe *p)
{
	rp->kind = p->job->probe;
	rp->lat = malloc(sizeof(*rp->lat));
	rp->stalls = malloc((p->nstalls ? p->nstalls : 1) * sizeof(*rp->stalls));
	if (!rp->lat || !rp->stalls)
		return -ENOMEM;
	*rp->lat = p->lat;
	memcpy(rp->stalls, p->stalls, p->nstalls * sizeof(*rp->stalls));
	rp->nstalls = p->nstalls;
	rp->stalls_dropped = p->stalls_dropped;
	rp->error = p->error;
	return 0;
}

/* Per-phase figures (databases: insert, lookup, update): elapsed from the
 * earliest start to the latest end of a phase, rusage summed. */
static void collect_phases(struct run_stats *st, const struct worker *w, bool first)
{
	for (unsigned i = 0; i < w->nphases && i < 4; i++) {
		const struct phase *p = &w->phases[i];
		struct run_phase *r = &st->phases[i];

		if (first || i >= st->nphases) {
			r->name = p->name;
			r->usage = p->usage;
			r->ops = p->ops;
			r->start_ns = p->start_ns;
			r->end_ns = p->end_ns;
		} else {
			usage_add(&r->usage, &p->usage);
			r->ops += p->ops;
			r->start_ns = p->start_ns < r->start_ns ? p->start_ns : r->start_ns;
			r->end_ns = p->end_ns > r->end_ns ? p->end_ns : r->end_ns;
		}
		r->elapsed_ns = r->end_ns - r->start_ns;
	}
	if (w->nphases > st->nphases)
		st->nphases = w->nphases;
}

/* log_interval's grid, or for workloads without files (databases) one
 * point per batch when no log_interval is given. */
static int init_series(const struct job *job, const struct workload_ops *wl, struct worker *w)
{
	if (!(wl->caps & WORKLOAD_CAP_FILES) && !job->log_interval.ns && !job->log_interval.ops)
		return series_init_manual(&w->series,
					  job_work_items(job) / (job->batch ? job->batch : 1) + 8);
	return series_init(&w->series, job->log_interval.ns, job->log_interval.ops, series_hint(job, w));
}

/* Hand the threads' series to the job's stats: merged on a time grid (the
 * threads share the origin), one per thread on a count grid. started: how
 * many of the nthreads threads ran. */
static int collect_series(struct run_stats *st, struct slot *slots, size_t nthreads, size_t started)
{
	struct series *first = &slots[0].w.series;

	if (!series_on(first))
		return 0;
	if (first->interval_ns) {
		st->series = calloc(1, sizeof(*st->series));
		if (!st->series || series_init(st->series, first->interval_ns, 0, first->npoints + 1))
			return -ENOMEM;
		st->nseries = 1;
		st->series->origin_ns = first->origin_ns;
		for (size_t t = 0; t < started; t++)
			if (series_merge(st->series, &slots[t].w.series))
				return -ENOMEM;
		return 0;
	}
	st->series = calloc(nthreads, sizeof(*st->series));
	if (!st->series)
		return -ENOMEM;
	for (size_t t = 0; t < nthreads; t++) {
		st->series[t] = slots[t].w.series; /* ownership moves */
		memset(&slots[t].w.series, 0, sizeof(slots[t].w.series));
	}
	st->nseries = nthreads;
	return 0;
}

int run_group(const struct job *jobs, size_t n, const struct run_opts *opts, struct run_stats *stats,
	      struct dbio_err *err)
{
	struct layout *layouts = calloc(n, sizeof(*layouts));
	atomic_int *job_stop = calloc(n, sizeof(*job_stop));
	struct gate gate = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct sampler sampler;
	pthread_condattr_t cattr;
	struct slot *slots = NULL;
	struct wfile *wfiles = NULL;
	pthread_t *threads = NULL;
	size_t nworkers = 0, nfiles = 0, started = 0, laid = 0;
	struct memlimit mem = { 0 };
	struct probe *probes = calloc(n, sizeof(*probes));
	void **shared = calloc(n, sizeof(*shared));
	bool drop = false;
	int rc = 0;

	pthread_condattr_init(&cattr);
	pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
	pthread_cond_init(&gate.cond, &cattr);
	pthread_condattr_destroy(&cattr);
	sampler_init(&sampler, jobs, n);
	for (size_t j = 0; j < n; j++) {
		run_stats_init(&stats[j]);
		stats[j].threads = (unsigned)jobs[j].numjobs;
		nworkers += jobs[j].numjobs;
		/* A shared slice can straddle a file boundary: one extra each. */
		nfiles += (jobs[j].nrfiles + 1) * jobs[j].numjobs;
	}
	slots = calloc(nworkers, sizeof(*slots));
	threads = calloc(nworkers, sizeof(*threads));
	wfiles = calloc(nfiles, sizeof(*wfiles));
	for (size_t j = 0; probes && j < n; j++)
		probes[j].fd = -1;
	if (!layouts || !job_stop || !slots || !threads || !wfiles || !probes || !shared) {
		rc = dbio_err_set(err, -ENOMEM, "out of memory for %zu threads", nworkers);
		goto out_free;
	}

	uint64_t limit = 0;

	for (size_t j = 0; j < n; j++)
		if (jobs[j].mem_limit && (!limit || jobs[j].mem_limit < limit))
			limit = jobs[j].mem_limit;
	if (limit && (rc = memlimit_enter(&mem, limit, err)))
		goto out_layout;
	for (laid = 0; laid < n && !rc; laid++) {
		const bool files = workload_find(jobs[laid].workload)->caps & WORKLOAD_CAP_FILES;

		rc = layout_init(&layouts[laid], &jobs[laid], files, opts->keep, err);
		if (!rc && files)
			rc = layout_create(&layouts[laid], err);
		if (!rc && files && jobs[laid].cache == CACHE_FADVISE)
			rc = layout_invalidate(&layouts[laid], err);
		if (jobs[laid].cache == CACHE_DROP)
			drop = true;
	}
	for (size_t j = 0; j < n && !rc; j++) {
		const struct workload_ops *wl = workload_find(jobs[j].workload);

		if (!wl->shared_size)
			continue;
		if (!(shared[j] = calloc(1, wl->shared_size)))
			rc = dbio_err_set(err, -ENOMEM, "out of memory");
		else if ((rc = wl->shared_init(shared[j], &jobs[j], err))) {
			free(shared[j]);
			shared[j] = NULL;
		}
	}
	for (size_t j = 0; j < n && !rc; j++)
		if (jobs[j].probe != PROBE_NONE)
			rc = probe_init(&probes[j], &jobs[j], layouts[j].dirs[0].fd, layouts[j].dirs[0].path,
					err);
	if (!rc && drop)
		rc = run_drop_caches(err);
	if (rc)
		goto out_layout;

	size_t s = 0, fi = 0;

	for (size_t j = 0; j < n; j++) {
		/* A file job over several directories counts per directory. */
		const size_t ndirs = layouts[j].ndirs;
		const bool per_dir =
			ndirs > 1 && (workload_find(jobs[j].workload)->caps & WORKLOAD_CAP_FILES);

		if (!rc && per_dir) {
			if ((stats[j].targets = calloc(ndirs, sizeof(struct target_io))))
				stats[j].ntargets = ndirs;
			else
				rc = dbio_err_set(err, -ENOMEM, "out of memory");
		}
		for (unsigned t = 0; t < jobs[j].numjobs; t++, s++) {
			assign(&slots[s].w, &jobs[j], &layouts[j], &wfiles[fi], t);
			fi += slots[s].w.nfiles;
			slots[s].w.stop = &run_stop_signal;
			slots[s].w.job_stop = &job_stop[j];
			slots[s].gate = &gate;
			slots[s].wl = workload_find(jobs[j].workload);
			slots[s].w.shared = shared[j];
			if (!rc && init_series(&jobs[j], slots[s].wl, &slots[s].w))
				rc = dbio_err_set(err, -ENOMEM, "out of memory for the time series");
			if (!rc && per_dir && !(slots[s].w.tio = calloc(ndirs, sizeof(struct target_io))))
				rc = dbio_err_set(err, -ENOMEM, "out of memory");
		}
	}
	if (rc)
		goto out_layout;
	for (size_t j = 0; j < n; j++)
		stats[j].started_wall_ns = clock_wall_ns();

	/* A lone worker thread would get a malloc arena of its own, which
	 * made gdbm inserts 7-8 % slower than the same calls on the main
	 * thread (bench/README.md); with one thread there is nothing to
	 * contend for, so it shares the main arena. */
	if (nworkers == 1)
		mallopt(M_ARENA_MAX, 1);
	for (started = 0; started < nworkers; started++) {
		int prc = pthread_create(&threads[started], NULL, worker_main, &slots[started]);

		if (prc) {
			atomic_store(&gate.failed, 1);
			rc = dbio_err_set(err, -prc, "cannot start thread %zu of %zu: %s", started + 1,
					  nworkers, strerror(prc));
			break;
		}
	}
	pthread_mutex_lock(&gate.lock);
	while (gate.ready < started)
		pthread_cond_wait(&gate.cond, &gate.lock);
	gate.open = true;
	gate.open_ns = clock_now_ns();
	sampler.origin_ns = gate.open_ns;
	sampler_take(&sampler, gate.open_ns);
	pthread_cond_broadcast(&gate.cond);
	for (size_t j = 0; j < n; j++)
		if (jobs[j].probe != PROBE_NONE && !rc)
			rc = probe_start(&probes[j], gate.open_ns, err);
	watch(&gate, &sampler, jobs, slots, started, opts->progress);
	pthread_mutex_unlock(&gate.lock);
	for (size_t j = 0; j < n; j++)
		probe_stop(&probes[j]);
	sampler_take(&sampler, clock_now_ns());
	for (size_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);

	s = 0;
	for (size_t j = 0; j < n; j++) {
		uint64_t first = UINT64_MAX, last = 0;

		for (unsigned t = 0; t < jobs[j].numjobs; t++, s++) {
			struct worker *w = &slots[s].w;

			if (s >= started)
				continue;
			if (slots[s].rc)
				rc = dbio_err_set(err, slots[s].rc, "%s", w->err.msg);
			for (int op = 0; op < OP_NTYPES; op++)
				op_stats_merge(&stats[j].ops[op], &w->stats[op]);
			for (size_t d = 0; w->tio && d < stats[j].ntargets; d++) {
				struct target_io *sum = &stats[j].targets[d];

				for (int k = 0; k < 2; k++) {
					sum->ops[k] += w->tio[d].ops[k];
					sum->bytes[k] += w->tio[d].bytes[k];
				}
				if (w->tio[d].last_ns > sum->last_ns)
					sum->last_ns = w->tio[d].last_ns;
			}
			hist_merge(&stats[j].slat_ns, &w->slat_ns);
			usage_add(&stats[j].usage, &w->usage);
			stats[j].disk_bytes += w->disk_bytes;
			if (w->db_engine)
				stats[j].db_engine = w->db_engine;
			collect_phases(&stats[j], w, t == 0);
			if (w->start_ns && w->start_ns < first)
				first = w->start_ns;
			if (w->end_ns > last)
				last = w->end_ns;
		}
		stats[j].elapsed_ns = last > first ? last - first : 0;
		for (size_t d = 0; d < stats[j].ntargets; d++)
			stats[j].targets[d].elapsed_ns =
				stats[j].targets[d].last_ns > first ? stats[j].targets[d].last_ns - first : 0;
		if (probes[j].stalls && collect_probe(&stats[j].probe, &probes[j]))
			rc = dbio_err_set(err, -ENOMEM, "out of memory for the probe");
		if (sampler_copy(&stats[j].counters, &sampler))
			rc = dbio_err_set(err, -ENOMEM, "out of memory for the system counters");
		size_t base = s - jobs[j].numjobs;
		size_t ran = started <= base			? 0
			     : started - base < jobs[j].numjobs ? started - base
								: jobs[j].numjobs;

		if (collect_series(&stats[j], &slots[base], jobs[j].numjobs, ran))
			rc = dbio_err_set(err, -ENOMEM, "out of memory for the time series");
	}

out_layout:
	if (atomic_load(&run_stop_signal) && (!rc || rc == DBIO_ESTOPPED))
		rc = dbio_err_set(err, DBIO_ESTOPPED, "interrupted by %s",
				  run_signal_name(atomic_load(&run_stop_signal)));
	if (rc)
		for (size_t j = 0; j < n; j++)
			stats[j].partial = true;
	if (mem.entered) {
		uint64_t peak = 0;

		memlimit_peak(&mem, &peak);
		for (size_t j = 0; j < n; j++) {
			stats[j].mem_limit_bytes = mem.limit_bytes;
			stats[j].mem_peak_bytes = peak;
		}
	}
	for (size_t j = 0; probes && j < n; j++)
		probe_release(&probes[j]);
	for (size_t j = 0; shared && j < n; j++)
		if (shared[j]) {
			workload_find(jobs[j].workload)->shared_release(shared[j]);
			free(shared[j]);
		}
	while (laid-- > 0) {
		layout_remove_thread_files(&layouts[laid]); /* what the threads made themselves */
		layout_release(&layouts[laid], opts);
	}
	memlimit_leave(&mem);
out_free:
	for (size_t i = 0; slots && i < nworkers; i++) {
		series_release(&slots[i].w.series);
		free(slots[i].w.tio);
	}
	sampler_release(&sampler);
	pthread_cond_destroy(&gate.cond);
	free(wfiles);
	free(threads);
	free(slots);
	free(job_stop);
	free(probes);
	free(shared);
	free(layouts);
	return rc;
}
