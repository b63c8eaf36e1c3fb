/*
 * oltp: the I/O shape of a transactional database without the engine.
 * Threads 1..numjobs-1 run transactions — oltp_reads random page reads and
 * oltp_writes random page writes of the job's data files (bs, 8 KiB by
 * default; pages picked by random_distribution, since databases have hot
 * pages), then a commit that waits until the log is durable. Thread 0 is
 * the log writer: it appends the waiting commits' records (at most
 * group_commit per write) to a log file and calls fdatasync, then wakes the
 * committers — group commit, as write-ahead logging databases do it.
 *
 * Op types: read, write (pages), commit (from asking for it to being
 * durable), transaction (a whole transaction), log (log writes) and
 * fdatasync (log syncs).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/syscalls.h"
#include "workload/fileio/keys.h"
#include "workload/fileio/logs.h"
#include "workload/fileio/pace.h"
#include "workload/workload.h"
#include "workload/workload_int.h"
#include "workload/fileio/files.h"

/* oltp's own keys. */
struct oltp_conf {
	uint64_t oltp_reads;   /* page reads per transaction */
	uint64_t oltp_writes;  /* page writes per transaction */
	uint64_t group_commit; /* most commit records per log write + fdatasync */
	uint64_t log_record;   /* bytes of a commit record */
};

#define F(field) offsetof(struct oltp_conf, field)

#define OLTP_NUMJOBS_DEFAULT	5	       /* numjobs when not given: the log writer and 4 */
#define OLTP_SIZE_DEFAULT	(256ull << 20) /* size when neither it nor filesize is given */
#define OLTP_RUNTIME_DEFAULT_NS 10000000000ull /* runtime when neither it nor time_based is given */

/* clang-format off */
static const struct option_def oltp_defs[] = {
	{ .name = "oltp_reads", .type = OPT_UINT, .offset = F(oltp_reads), .def = "4", .min = 0, .max = 1000, .dbio_own = 1, .brief = 1,
	  .help = "random page reads per transaction." },
	{ .name = "oltp_writes", .type = OPT_UINT, .offset = F(oltp_writes), .def = "2", .min = 0, .max = 1000, .dbio_own = 1, .brief = 1,
	  .help = "random page writes per transaction (buffered, no sync: a database's checkpoint does that)." },
	{ .name = "group_commit", .type = OPT_UINT, .offset = F(group_commit), .def = "1", .min = 1, .max = 100000, .dbio_own = 1, .brief = 1,
	  .help = "the most commit records the log writer puts in one write + fdatasync; 1 syncs every commit on its own, larger lets waiting commits share a sync." },
	{ .name = "log_record", .type = OPT_SIZE, .offset = F(log_record), .def = "512", .min = 16, .max = 1u << 20, .dbio_own = 1, .brief = 1,
	  .help = "bytes of one commit record appended to the log." },
};
/* clang-format on */

static const struct option_table oltp_options = OPTION_TABLE(oltp_defs, struct oltp_conf);

struct oltp_log {
	pthread_mutex_t lock;
	pthread_cond_t to_writer;  /* a commit is waiting, or a worker ended */
	pthread_cond_t to_workers; /* the log moved on */
	uint64_t requested;	   /* commits asked for */
	uint64_t durable;	   /* commits on stable storage */
	unsigned active;	   /* transaction threads still running */
	int failed;		   /* the log writer's error: no commit will complete */
};

static int oltp_shared_init(void *shared, const struct job *job, struct dbio_err *err)
{
	struct oltp_log *log = shared;

	if (pthread_mutex_init(&log->lock, NULL) || pthread_cond_init(&log->to_writer, NULL) ||
	    pthread_cond_init(&log->to_workers, NULL))
		return dbio_err_set(err, -ENOMEM, "oltp: cannot set up the log's locks");
	log->active = (unsigned)job->numjobs - 1;
	return 0;
}

static void oltp_shared_release(void *shared)
{
	struct oltp_log *log = shared;

	pthread_cond_destroy(&log->to_workers);
	pthread_cond_destroy(&log->to_writer);
	pthread_mutex_destroy(&log->lock);
}

static int oltp_validate(struct job *job, struct dbio_err *err)
{
	const struct oltp_conf *conf = job->wl_conf;
	const char *key;

	if (pace_refuse(job, err) || logs_refuse(job, err))
		return err->code;
	if (fileio_files(job)->steady.ss_dur_ns)
		return job_fail(
			job, "steadystate_duration", err,
			"not for workload=oltp (yet): only workload=fileio takes steady-state samples");
	/* Defaults that run: a log writer and four transaction threads on a
	 * 256 MiB database for ten seconds (a job that gives neither runtime
	 * nor time_based asked for no time). */
	if (!job_is_set(job, "size") && !job_is_set(job, "filesize"))
		fileio_files(job)->layout.size = OLTP_SIZE_DEFAULT;
	if (!job_is_set(job, "numjobs"))
		job->numjobs = OLTP_NUMJOBS_DEFAULT;
	if (!job_is_set(job, "runtime") && !job_is_set(job, "time_based")) {
		job->runtime_ns = OLTP_RUNTIME_DEFAULT_NS;
		job->time_based = true;
	}
	if (job->numjobs < 2)
		return job_fail(
			job, "numjobs", err,
			"%llu: workload=oltp needs at least 2 threads: one log writer and the transactions",
			(unsigned long long)job->numjobs);
	if (!job->time_based || !job->runtime_ns)
		return job_fail(job, "runtime", err,
				"workload=oltp runs for a time: give runtime= and time_based");
	if (job->ramp_ns)
		return job_fail(job, "ramp_time", err, "not for workload=oltp (yet): measure from the start");
	if (job->eng->caps & ENGINE_CAP_QUEUE)
		return job_fail(
			job, "ioengine", err,
			"%s queues I/O; workload=oltp issues one page I/O at a time from each thread: "
			"give an engine that keeps one I/O in flight (psync, the default)",
			job->eng->name);
	if (fileio_files(job)->latency.latency_target_ns)
		return job_fail(
			job, "latency_target", err,
			"not for workload=oltp: it searches for a queue depth, and oltp keeps one I/O in "
			"flight per thread");
	if ((key = fileio_buffer_key_given(job)))
		return job_fail(job, key, err,
				"not for workload=oltp: its pages and log records carry data of their own");
	if ((key = job_where_key_given(job)))
		return job_fail(
			job, key, err,
			"not for workload=oltp: its transactions pick their pages over the whole database, for runtime=");
	if (!job_is_set(job, "bs"))
		fileio_files(job)->layout.bs = 8192;  /* a database page */
	fileio_files(job)->layout.share_files = true; /* one database: every thread works on the same files */
	fileio_files(job)->layout.rw = RW_RANDRW;
	/* The log writer's buffer holds a whole group (prepare): with both
	 * keys near their bounds that is ~98 GiB. */
	int rc = workload_check_memory(job, job_is_set(job, "group_commit") ? "group_commit" : "log_record",
				       "group_commit * log_record", "log buffer",
				       conf->group_commit * conf->log_record,
				       "lower group_commit or log_record", err);

	/* The page I/O is fileio's, buffers included. */
	return rc ? rc : workload_fileio.validate(job, err);
}

struct oltp_state {
	struct fileio_state *pages; /* the page I/O: fileio's */
	int log_fd;		    /* the log writer's */
	char log_path[4096];
	char *log_buf;
};

static int oltp_prepare(struct worker *w)
{
	const struct job *job = w->job;
	const struct oltp_conf *conf = job->wl_conf;
	struct oltp_state *st = calloc(1, sizeof(*st));
	int rc;

	w->priv = st;
	if (!st)
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	st->log_fd = -1;
	if (w->index == 0) {
		snprintf(st->log_path, sizeof(st->log_path), "%s/%slog", w->dir_path, w->prefix);
		st->log_fd = dbio_sys->openat(w->dirfd, st->log_path + strlen(w->dir_path) + 1,
					      O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0644);
		st->log_buf = malloc(conf->group_commit * conf->log_record);
		if (st->log_fd < 0 || !st->log_buf) {
			rc = st->log_fd < 0 ? (errno == EEXIST ? DBIO_EUNSAFE : -errno) : -ENOMEM;
			return dbio_err_set(&w->err, rc, "%s: cannot create the log: %s", st->log_path,
					    rc == -ENOMEM ? "out of memory" : strerror(-rc));
		}
		memset(st->log_buf, 0x4c, conf->group_commit * conf->log_record);
	}
	/* The page I/O goes through fileio's machinery: files, engine,
	 * buffer. The log writer opens the data files too (unused). */
	if ((rc = fileio_pages_setup(w, &st->pages)))
		return rc;
	if (fileio_files(job)->layout.dist != DIST_UNIFORM)
		offgen_init_skewed(&w->gen,
				   fileio_files(job)->layout.dist == DIST_ZIPF ? OFFGEN_ZIPF : OFFGEN_PARETO,
				   fileio_files(job)->layout.dist_param, w->slice_len, worker_seed(w));
	else
		offgen_init(&w->gen, OFFGEN_UNIFORM, w->slice_len, worker_seed(w));
	return 0;
}

static void stop_log(struct worker *w, struct oltp_log *log, int failed)
{
	pthread_mutex_lock(&log->lock);
	if (failed && !log->failed)
		log->failed = failed;
	pthread_cond_broadcast(&log->to_workers);
	pthread_mutex_unlock(&log->lock);
	(void)w;
}

static int run_log_writer(struct worker *w)
{
	struct oltp_state *st = w->priv;
	struct oltp_log *log = w->shared;
	const struct oltp_conf *conf = w->job->wl_conf;
	uint64_t off = 0, now;
	int rc = 0;

	for (;;) {
		pthread_mutex_lock(&log->lock);
		while (log->requested == log->durable && log->active > 0 && !workload_stopped(w))
			pthread_cond_wait(&log->to_writer, &log->lock);
		if (log->requested == log->durable && (log->active == 0 || workload_stopped(w))) {
			pthread_mutex_unlock(&log->lock);
			break;
		}
		uint64_t from = log->durable;
		uint64_t to = log->requested - from > conf->group_commit ? from + conf->group_commit
									 : log->requested;

		pthread_mutex_unlock(&log->lock);
		size_t bytes = (size_t)((to - from) * conf->log_record);

		now = clock_now_ns();
		for (size_t done = 0; done < bytes && !rc;) {
			ssize_t n = dbio_sys->pwrite(st->log_fd, st->log_buf + done, bytes - done,
						     (off_t)(off + done));

			if (n < 0 && errno != EINTR)
				rc = -errno;
			else if (n > 0)
				done += (size_t)n;
		}
		uint64_t t = clock_now_ns();

		if (!rc)
			workload_record(w, OP_LOG, bytes, t - now, t);
		now = t;
		if (!rc && dbio_sys->fdatasync(st->log_fd))
			rc = -errno;
		t = clock_now_ns();
		if (rc) {
			dbio_err_set(&w->err, rc, "%s: log write: %s", st->log_path, strerror(-rc));
			atomic_store(w->job_stop, 1);
			stop_log(w, log, rc);
			return rc;
		}
		workload_record(w, OP_FDATASYNC, 0, t - now, t);
		off += bytes;
		pthread_mutex_lock(&log->lock);
		log->durable = to;
		pthread_cond_broadcast(&log->to_workers);
		pthread_mutex_unlock(&log->lock);
	}
	stop_log(w, log, 0);
	return 0;
}

static int page_io(struct worker *w, struct io_req *req, enum op_type op, uint64_t *now)
{
	uint64_t block = w->slice_first + offgen_next(&w->gen);
	size_t file = (size_t)(block / w->blocks_per_file);
	int rc;

	req->fd = w->files[file].fd;
	req->off = (block % w->blocks_per_file) * fileio_files(w->job)->layout.bs;
	req->op = op;
	rc = w->eng.ops->io(&w->eng, req);
	uint64_t t = clock_now_ns();

	if (rc) {
		atomic_store(w->job_stop, 1);
		return dbio_err_set(&w->err, rc, "%s: %s of %llu bytes at offset %llu: %s",
				    w->files[file].path, op_type_name(op), (unsigned long long)req->len,
				    (unsigned long long)req->off, strerror(-rc));
	}
	workload_record(w, op, req->len, t - *now, t);
	*now = t;
	return 0;
}

static int run_transactions(struct worker *w)
{
	const struct job *job = w->job;
	const struct oltp_conf *conf = job->wl_conf;
	const struct oltp_state *st = w->priv;
	struct oltp_log *log = w->shared;
	struct io_req req = { .buf = fileio_pages_buffer(st->pages), .len = fileio_files(job)->layout.bs };
	uint64_t now = clock_now_ns(), txns = 0;
	/* runtime from this thread's own start, as fio's and fileio's: from
	 * the gate's opening, a thread that started late ended early and the
	 * job's elapsed time (first start to last end) fell under runtime */
	const uint64_t deadline = w->start_ns + job->runtime_ns;
	int rc = 0;

	while (!rc && !workload_stopped(w) && now < deadline) {
		const uint64_t start = now;

		for (uint64_t i = 0; i < conf->oltp_reads && !rc; i++)
			rc = page_io(w, &req, OP_READ, &now);
		for (uint64_t i = 0; i < conf->oltp_writes && !rc; i++)
			rc = page_io(w, &req, OP_WRITE, &now);
		if (rc)
			break;
		pthread_mutex_lock(&log->lock);
		uint64_t mine = ++log->requested;

		pthread_cond_signal(&log->to_writer);
		while (log->durable < mine && !log->failed && !workload_stopped(w))
			pthread_cond_wait(&log->to_workers, &log->lock);
		bool done = log->durable >= mine;

		pthread_mutex_unlock(&log->lock);
		if (!done)
			break; /* stopped, or the log failed (its thread says why) */
		uint64_t t = clock_now_ns();

		workload_record(w, OP_COMMIT, 0, t - now, t);
		workload_record(w, OP_TXN, 0, t - start, t);
		now = t;
		atomic_store_explicit(&w->progress_ops, ++txns, memory_order_relaxed);
	}
	pthread_mutex_lock(&log->lock);
	log->active--;
	pthread_cond_signal(&log->to_writer);
	pthread_mutex_unlock(&log->lock);
	return rc;
}

static int oltp_run(struct worker *w)
{
	struct usage u0, u1;
	int rc;

	w->start_ns = clock_now_ns();
	usage_thread(&u0);
	series_start(&w->series, w->series.interval_ns ? w->origin_ns : w->start_ns);
	rc = w->index == 0 ? run_log_writer(w) : run_transactions(w);
	w->end_ns = clock_now_ns();
	if (series_on(&w->series))
		series_finish(&w->series, w->end_ns);
	usage_thread(&u1);
	w->usage = usage_sub(&u1, &u0);
	return rc;
}

static void oltp_cleanup(struct worker *w)
{
	struct oltp_state *st = w->priv;

	if (!st)
		return;
	fileio_pages_teardown(w, st->pages);
	if (st->log_fd >= 0)
		dbio_sys->close(st->log_fd);
	free(st->log_buf);
	free(st);
	w->priv = NULL;
}

const struct workload_ops workload_oltp = {
	.name = "oltp",
	.prepare = oltp_prepare,
	.run = oltp_run,
	.cleanup = oltp_cleanup,
	.caps = WORKLOAD_CAP_FILES,
	.validate = oltp_validate,
	.shared_size = sizeof(struct oltp_log),
	.shared_init = oltp_shared_init,
	.shared_release = oltp_shared_release,
	.options = &oltp_options,
	.borrows = "fileio",
};
