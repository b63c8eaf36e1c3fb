/*
 * The MPI job itself (mpi.h): joining it, agreeing at each phase, the
 * ranks' directories and the gather at rank 0. Only the main thread calls
 * MPI (MPI_THREAD_FUNNELED); the workers never do. Built with MPI=1
 * (DBIO_HAVE_MPI); without it dbio is never under MPI and only the
 * answer "not under MPI" is compiled.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi/mpi.h"

#ifndef DBIO_HAVE_MPI

bool mpi_launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

/* A build without MPI never joins an MPI job: there is no world, and the
 * calls below are never reached with one (cmd/ checks). They answer as
 * for the only rank. */
int mpi_world_start(struct mpi_world **out, struct dbio_err *err)
{
	*out = NULL;
	if (mpi_launched())
		return dbio_err_set(
			err, DBIO_EINPUT,
			"mpi: started by an MPI launcher, but this dbio is built without MPI: every rank would run alone in the same directory; build dbio-mpi with make MPI=1 (libopenmpi-dev) and launch that");
	return 0;
}

void mpi_world_end(struct mpi_world *w)
{
	(void)w;
}

int mpi_rank(const struct mpi_world *w)
{
	(void)w;
	return 0;
}

int mpi_size(const struct mpi_world *w)
{
	(void)w;
	return 1;
}

int mpi_agree(struct mpi_world *w, int rc, struct dbio_err *err)
{
	(void)w;
	(void)err;
	return rc;
}

int mpi_agree_plan(struct mpi_world *w, const char *plan, size_t len, struct dbio_err *err)
{
	(void)w;
	(void)plan;
	(void)len;
	(void)err;
	return 0;
}

int mpi_phase(void *ctx, const char *phase, int rc, struct dbio_err *err)
{
	(void)ctx;
	(void)phase;
	(void)err;
	return rc;
}

int mpi_rank_dirs(struct mpi_world *w, struct jobset *set, struct dbio_err *err)
{
	(void)w;
	(void)set;
	(void)err;
	return 0;
}

void mpi_rank_dirs_remove(struct mpi_world *w, bool keep)
{
	(void)w;
	(void)keep;
}

bool mpi_poll(void *ctx, bool failed)
{
	(void)ctx;
	(void)failed;
	return false;
}

bool mpi_any(struct mpi_world *w, bool mine)
{
	(void)w;
	return mine;
}

uint64_t mpi_most(void *ctx, uint64_t mine)
{
	(void)ctx;
	return mine;
}

int mpi_note_run(struct mpi_world *w, size_t job, size_t run, const struct run_stats *st)
{
	(void)w;
	(void)job;
	(void)run;
	(void)st;
	return 0;
}

int mpi_gather(struct mpi_world *w, json_t *result, json_t **merged, struct dbio_err *err)
{
	(void)w;
	(void)err;
	*merged = json_incref(result);
	return 0;
}

const struct run_coord *mpi_coord(struct mpi_world *w)
{
	(void)w;
	return NULL;
}

#else

#include <limits.h>
#include <mpi.h>

#include <signal.h>
#include <time.h>

#include "result/result.h"
#include "util/clock.h"
#include "util/safepath.h"

#define MPI_HOST_LEN  64
#define MPI_STOP_TAG  1000
#define MPI_STOP_TAGS 30000 /* MPI_TAG_UB is at least 32767 */

struct mpi_world {
	int rank, size;
	char (*hosts)[MPI_HOST_LEN]; /* every rank's host name, by rank */
	uint64_t gate_ns;	     /* CLOCK_MONOTONIC when this rank passed the last start barrier */
	/* a failure while the threads run, told to the others at once (a
	 * message tagged with the group's number, MPI_STOP_TAG + seq) */
	MPI_Request stop_req;
	int stop_msg;
	bool stop_posted, told;
	unsigned seq;
	json_t *spans; /* [[job, run, start_ns, end_ns], ...] */
	/* mpi_rank_dirs: what it made, to remove, and the user's strings */
	char **made;
	size_t nmade;
	bool made_scratch;
	char **dirs;
	size_t ndirs;
	/* the launcher ended the job (another rank died, or mpirun was
	 * stopped): no collective completes any more, each rank ends alone */
	bool abandoned;
	struct run_coord coord; /* mpi_coord: this world as the runner's coordinator */
};

/* Whether the launcher (this rank's parent: mpirun, orted, slurmstepd)
 * sent the stop signal: Open MPI 4.1 does so to every rank left when one
 * dies, and kills them odls_base_sigkill_timeout (1 s) later, so waiting
 * for the dead rank at a barrier would leave this rank's files behind. */
static bool abandoned(struct mpi_world *w)
{
	if (!w->abandoned && atomic_load(&run_stop_signal) && atomic_load(&run_stop_sender) == (int)getppid())
		w->abandoned = true;
	return w->abandoned;
}

/* Wait for req to complete, or until the launcher stops this rank (false:
 * the world is abandoned, req is left as it is: MPI is not finalized). */
static bool wait_req(struct mpi_world *w, MPI_Request *req)
{
	const struct timespec pause = { .tv_nsec = 20000 };

	for (int done = 0;;) {
		if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || done)
			return true;
		if (abandoned(w))
			return false;
		nanosleep(&pause, NULL);
	}
}

/* MPI_Allreduce and MPI_Bcast on MPI_COMM_WORLD that give up when the
 * launcher stops this rank (false). */
static bool allreduce(struct mpi_world *w, const void *in, void *out, int n, MPI_Datatype type, MPI_Op op)
{
	MPI_Request req;

	return !abandoned(w) && MPI_Iallreduce(in, out, n, type, op, MPI_COMM_WORLD, &req) == MPI_SUCCESS &&
	       wait_req(w, &req);
}

static bool bcast(struct mpi_world *w, void *buf, int n, MPI_Datatype type, int root)
{
	MPI_Request req;

	return !abandoned(w) && MPI_Ibcast(buf, n, type, root, MPI_COMM_WORLD, &req) == MPI_SUCCESS &&
	       wait_req(w, &req);
}

/* This rank's error once the world is abandoned: the launcher's stop in
 * place of the signal's own words, another failure kept. */
static int alone(int rc, struct dbio_err *err)
{
	if (!rc || rc == DBIO_ESTOPPED) /* not "interrupted by SIGTERM": say who and why */
		err->code = 0;
	return dbio_err_set(
		err, rc ? rc : DBIO_ESTOPPED,
		"mpi: the launcher stopped this rank (%s): another rank ended or mpirun was stopped; each rank removed its own files, and rank 0's result holds its own figures alone",
		run_signal_name(atomic_load(&run_stop_signal)));
}

bool mpi_launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

/* A rank other than 0 prints nothing: rank 0 speaks for all. */
static void silence(void)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	fflush(stdout);
	fflush(stderr);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
}

int mpi_world_start(struct mpi_world **out, struct dbio_err *err)
{
	struct mpi_world *w;
	char host[MPI_HOST_LEN] = "";
	int provided = 0;

	*out = NULL;
	if (!mpi_launched())
		return 0;
	if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
		return dbio_err_set(err, -EIO, "mpi: cannot join the MPI job: MPI_Init_thread failed");
	if (!(w = calloc(1, sizeof(*w))) || !(w->spans = json_array())) {
		free(w);
		MPI_Abort(MPI_COMM_WORLD, 1);
		return dbio_err_set(err, -ENOMEM, "mpi: out of memory");
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &w->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &w->size);
	gethostname(host, sizeof(host) - 1);
	w->hosts = calloc((size_t)w->size, sizeof(*w->hosts));
	if (!w->hosts) {
		MPI_Abort(MPI_COMM_WORLD, 1);
		return dbio_err_set(err, -ENOMEM, "mpi: out of memory");
	}
	MPI_Allgather(host, MPI_HOST_LEN, MPI_CHAR, w->hosts, MPI_HOST_LEN, MPI_CHAR, MPI_COMM_WORLD);
	if (w->rank)
		silence();
	*out = w;
	return 0;
}

void mpi_world_end(struct mpi_world *w)
{
	if (!w)
		return;
	if (!w->abandoned) /* else it would wait for the rank that is gone */
		MPI_Finalize();
	for (size_t i = 0; i < w->nmade; i++)
		free(w->made[i]);
	for (size_t i = 0; i < w->ndirs; i++)
		free(w->dirs[i]);
	free(w->made);
	free(w->dirs);
	json_decref(w->spans);
	free(w->hosts);
	free(w);
}

int mpi_rank(const struct mpi_world *w)
{
	return w ? w->rank : 0;
}

int mpi_size(const struct mpi_world *w)
{
	return w ? w->size : 1;
}

int mpi_agree(struct mpi_world *w, int rc, struct dbio_err *err)
{
	struct {
		int code, sig;
		char msg[sizeof(err->msg)];
	} * first_err;
	int mine = rc ? w->rank : w->size, first, failed = rc != 0, nfailed;

	if (!allreduce(w, &mine, &first, 1, MPI_INT, MPI_MIN))
		return alone(rc, err);
	if (first == w->size)
		return 0;
	if (!allreduce(w, &failed, &nfailed, 1, MPI_INT, MPI_SUM))
		return alone(rc, err);
	if (!(first_err = calloc(1, sizeof(*first_err))))
		MPI_Abort(MPI_COMM_WORLD, 1); /* cannot tell the others otherwise */
	if (w->rank == first) {
		first_err->code = rc;
		first_err->sig = rc == DBIO_ESTOPPED ? atomic_load(&run_stop_signal) : 0;
		snprintf(first_err->msg, sizeof(first_err->msg), "%s", err->msg);
	}
	if (!bcast(w, first_err, (int)sizeof(*first_err), MPI_BYTE, first)) {
		free(first_err);
		return alone(rc, err);
	}
	/* a rank stopped by a signal stops every rank as that signal would:
	 * partial result, files removed, exit 128 + the signal */
	if (first_err->sig && !atomic_load(&run_stop_signal))
		atomic_store(&run_stop_signal, first_err->sig);
	err->code = 0;
	/* first_err->msg is a message dbio_err_set made (escaped), perhaps of
	 * several lines (every bad key of a job file): kept as it is. */
	if (nfailed == w->size)
		dbio_err_set_lines(err, first_err->code, "%s", first_err->msg);
	else
		dbio_err_set_lines(err, first_err->code, "rank %d on %s: %s", first, w->hosts[first],
				   first_err->msg);
	rc = first_err->code;
	free(first_err);
	return rc;
}

/* FNV-1a over text[0..len): the plan's digest. */
static uint64_t digest(const char *text, size_t len)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
	return h;
}

/* Line n's end in text[0..len) from *at: its subject (to the tab) and
 * value; false past the end. */
static bool next_line(const char *text, size_t len, size_t *at, const char **line, size_t *n)
{
	const char *nl;

	if (*at >= len)
		return false;
	*line = text + *at;
	nl = memchr(*line, '\n', len - *at);
	*n = nl ? (size_t)(nl - *line) : len - *at;
	*at += *n + 1;
	return true;
}

/* The first line where mine and theirs (rank 0's) differ, as the error. */
static int plan_difference(const char *mine, size_t mlen, const char *theirs, size_t tlen,
			   struct dbio_err *err)
{
	size_t ma = 0, ta = 0, mn = 0, tn = 0;
	const char *ml = "", *tl = "";

	for (;;) {
		bool hm = next_line(mine, mlen, &ma, &ml, &mn), ht = next_line(theirs, tlen, &ta, &tl, &tn);

		if (!hm)
			ml = "(nothing)", mn = strlen(ml);
		if (!ht)
			tl = "(nothing)", tn = strlen(tl);
		if (!hm || !ht || mn != tn || memcmp(ml, tl, mn))
			break;
	}
	const char *mt = memchr(ml, '\t', mn), *tt = memchr(tl, '\t', tn);
	int ms = mt ? (int)(mt - ml) : (int)mn, ts = tt ? (int)(tt - tl) : (int)tn;

	if (mt && tt && ms == ts && !memcmp(ml, tl, (size_t)ms))
		return dbio_err_set(
			err, DBIO_EINPUT,
			"the plan differs from rank 0's: %.*s: '%.*s' here, '%.*s' on rank 0: every rank must run the same jobs with the same keys (docs/mpi.md)",
			ms, ml, (int)(mn - (size_t)ms - 1 > 200 ? 200 : mn - (size_t)ms - 1), mt + 1,
			(int)(tn - (size_t)ts - 1 > 200 ? 200 : tn - (size_t)ts - 1), tt + 1);
	return dbio_err_set(
		err, DBIO_EINPUT,
		"the plan differs from rank 0's: %.*s here, %.*s on rank 0: every rank must run the same jobs with the same keys (docs/mpi.md)",
		ms > 200 ? 200 : ms, ml, ts > 200 ? 200 : ts, tl);
}

int mpi_agree_plan(struct mpi_world *w, const char *plan, size_t len, struct dbio_err *err)
{
	uint64_t mine[2] = { digest(plan, len), len }, first[2] = { mine[0], mine[1] };
	int differs, any = 0, rc = 0;
	char *theirs;

	if (!bcast(w, first, 2, MPI_UINT64_T, 0))
		return alone(0, err);
	differs = first[0] != mine[0] || first[1] != mine[1];
	if (!allreduce(w, &differs, &any, 1, MPI_INT, MPI_MAX))
		return alone(0, err);
	if (!any)
		return 0;
	/* some rank differs: rank 0's plan to all, each that differs names
	 * its first difference */
	if (first[1] > INT_MAX || !(theirs = malloc(first[1] + 1)))
		MPI_Abort(MPI_COMM_WORLD, 1);
	if (!w->rank)
		memcpy(theirs, plan, len);
	if (!bcast(w, theirs, (int)first[1], MPI_CHAR, 0)) {
		free(theirs);
		return alone(0, err);
	}
	if (differs)
		rc = plan_difference(plan, len, theirs, first[1], err);
	free(theirs);
	return mpi_agree(w, rc, err);
}

int mpi_phase(void *ctx, const char *phase, int rc, struct dbio_err *err)
{
	struct mpi_world *w = ctx;

	if (!strcmp(phase, "end") && w->stop_posted && !abandoned(w)) {
		MPI_Cancel(&w->stop_req);
		MPI_Wait(&w->stop_req, MPI_STATUS_IGNORE);
		w->stop_posted = false;
	}
	rc = mpi_agree(w, rc, err);
	if (!strcmp(phase, "start")) {
		w->gate_ns = clock_now_ns();
		w->told = false;
		w->seq = (w->seq + 1) % MPI_STOP_TAGS;
		if (!rc && w->size > 1 && !w->abandoned &&
		    MPI_Irecv(&w->stop_msg, 1, MPI_INT, MPI_ANY_SOURCE, MPI_STOP_TAG + (int)w->seq,
			      MPI_COMM_WORLD, &w->stop_req) == MPI_SUCCESS)
			w->stop_posted = true;
	}
	return rc;
}

bool mpi_any(struct mpi_world *w, bool mine)
{
	int in = mine, out = 0;

	if (!allreduce(w, &in, &out, 1, MPI_INT, MPI_LOR))
		return mine;
	return out != 0;
}

uint64_t mpi_most(void *ctx, uint64_t mine)
{
	uint64_t most = mine;

	if (!allreduce(ctx, &mine, &most, 1, MPI_UINT64_T, MPI_MAX))
		return mine;
	return most;
}

bool mpi_poll(void *ctx, bool failed)
{
	struct mpi_world *w = ctx;
	int arrived = 0;

	if (abandoned(w))
		return true; /* the launcher ends the job: stop, tell no one */
	if (failed && !w->told) {
		/* fire and forget: a rank that is past its threads never
		 * receives it, and cancels its receive at the end barrier */
		for (int r = 0; r < w->size; r++) {
			MPI_Request req;

			if (r != w->rank && MPI_Isend(&w->rank, 1, MPI_INT, r, MPI_STOP_TAG + (int)w->seq,
						      MPI_COMM_WORLD, &req) == MPI_SUCCESS)
				MPI_Request_free(&req);
		}
		w->told = true;
	}
	if (!w->stop_posted || MPI_Test(&w->stop_req, &arrived, MPI_STATUS_IGNORE) != MPI_SUCCESS || !arrived)
		return false;
	w->stop_posted = false;
	return true;
}

int mpi_note_run(struct mpi_world *w, size_t job, size_t run, const struct run_stats *st)
{
	uint64_t start = st->measured_start_ns > w->gate_ns ? st->measured_start_ns - w->gate_ns : 0;
	json_t *span = json_pack("[I, I, I, I]", (json_int_t)job, (json_int_t)run, (json_int_t)start,
				 (json_int_t)(start + st->elapsed_ns));

	return span && !json_array_append_new(w->spans, span) ? 0 : -ENOMEM;
}

/* Make (or take, when it is a real directory) rank<r> in dir, and put
 * "dir/rank<r>" into path. */
static int rank_dir(struct mpi_world *w, const struct job *job, const char *dir, char *path, size_t len,
		    struct dbio_err *err)
{
	char name[32], where[4200];
	struct stat st;
	int dfd, rc = 0;

	job_where(job_origin_of(job, "directory"), where, sizeof(where));
	if (!strcmp(dir, RUN_SCRATCH_DEFAULT) && mkdir(dir, 0755) == 0)
		w->made_scratch = true;
	/* every component: no symlink of another user (util/safepath.h) */
	strncat(where, ": key 'directory':", sizeof(where) - strlen(where) - 1);
	dfd = safepath_open_dir(where, dir, err);
	where[strlen(where) - strlen(": key 'directory':")] = '\0';
	if (dfd < 0)
		return dbio_err_set(err, DBIO_EINPUT, "%s: key 'directory': %s: %s (job '%s')", where, dir,
				    strerror(-dfd), job->name);
	snprintf(name, sizeof(name), "rank%d", w->rank);
	if ((size_t)snprintf(path, len, "%s/%s", dir, name) >= len)
		rc = dbio_err_set(err, DBIO_EINPUT, "%s: key 'directory': %s/%s: too long (job '%s')", where,
				  dir, name, job->name);
	else if (mkdirat(dfd, name, 0700) == 0) {
		char **made = realloc(w->made, (w->nmade + 1) * sizeof(*made));

		if (!made || !(made[w->nmade] = strdup(path)))
			rc = dbio_err_set(err, -ENOMEM, "out of memory");
		else
			w->nmade++;
		if (made)
			w->made = made;
	} else if (errno != EEXIST)
		rc = dbio_err_set(err, -errno, "%s: cannot make the rank's directory: %s", path,
				  strerror(errno));
	else if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		rc = dbio_err_set(err, -errno, "%s: %s", path, strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		rc = dbio_err_set(
			err, DBIO_EUNSAFE,
			"%s: is %s, not the rank's directory: refusing to work there; remove it and run again",
			path, S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
	close(dfd);
	return rc;
}

int mpi_rank_dirs(struct mpi_world *w, struct jobset *set, struct dbio_err *err)
{
	int rc = 0;

	char **dirs = realloc(w->dirs, (w->ndirs + set->njobs + 1) * sizeof(*dirs));

	if (!dirs)
		return dbio_err_set(err, -ENOMEM, "out of memory");
	w->dirs = dirs;
	for (size_t j = 0; j < set->njobs && !rc; j++) {
		struct job *job = &set->jobs[j];
		char out[sizeof(job->directory)] = "", path[sizeof(job->directory)];
		char **names = NULL;
		int n = job_split_dirs(job->directory, &names);

		if (n < 0 || !(w->dirs[w->ndirs++] = strdup(job->directory)))
			rc = dbio_err_set(err, -ENOMEM, "out of memory");
		for (int i = 0; i < n; i++) {
			if (!rc && !(rc = rank_dir(w, job, names[i], path, sizeof(path), err)) &&
			    strlen(out) + strlen(path) + 2 > sizeof(out))
				rc = dbio_err_set(err, DBIO_EINPUT,
						  "key 'directory': too long with rank%d (job '%s')", w->rank,
						  job->name);
			if (!rc)
				snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", i ? ":" : "",
					 path);
			free(names[i]);
		}
		free(names);
		if (!rc)
			memcpy(job->directory, out, sizeof(out));
	}
	return rc;
}

void mpi_rank_dirs_remove(struct mpi_world *w, bool keep)
{
	for (size_t i = w->nmade; !keep && i-- > 0;)
		rmdir(w->made[i]); /* left when not empty: the runner said why */
	/* the default scratch directory holds every rank's: its maker
	 * removes it once all have removed theirs */
	MPI_Request req;

	if (!abandoned(w) && MPI_Ibarrier(MPI_COMM_WORLD, &req) == MPI_SUCCESS)
		wait_req(w, &req);
	if (!keep && w->made_scratch)
		rmdir(RUN_SCRATCH_DEFAULT);
}

/* Rank 0: every rank's text (at buf + displs[i]) back into parts. */
static int parse_parts(const struct mpi_world *w, const char *buf, const int *displs, struct mpi_part *parts,
		       struct dbio_err *err)
{
	for (int i = 0; i < w->size; i++) {
		json_error_t jerr;
		json_t *p = json_loads(buf + displs[i], 0, &jerr);

		parts[i].rank = i;
		parts[i].host = w->hosts[i];
		parts[i].result = json_incref(json_object_get(p, "result"));
		parts[i].spans = json_object_get(p, "spans");
		json_incref((json_t *)parts[i].spans);
		json_decref(p);
		if (!parts[i].result || !json_is_array(parts[i].spans))
			return dbio_err_set(err, DBIO_EFORMAT,
					    "rank %d on %s: its result did not arrive whole", i, w->hosts[i]);
	}
	return 0;
}

static void release_parts(struct mpi_part *parts, int n)
{
	for (int i = 0; parts && i < n; i++) {
		json_decref(parts[i].result);
		json_decref((json_t *)parts[i].spans);
	}
	free(parts);
}

/* What this rank sends: its result (trimmed but on rank 0, which keeps
 * its counters) and its runs' spans, as compact JSON text; NULL when out
 * of memory. */
static char *part_text(struct mpi_world *w, json_t *result)
{
	json_t *mine;
	char *text;

	if (w->rank)
		mpi_part_trim(result);
	mine = json_pack("{s:O, s:O}", "result", result, "spans", w->spans);
	text = mine ? json_dumps(mine, JSON_COMPACT) : NULL;
	json_decref(mine);
	return text;
}

/* MPI_Gather of every rank's length and MPI_Gatherv of the texts at rank
 * 0, giving up when the launcher stops this rank (false). */
static bool gather_lens(struct mpi_world *w, int *len, int *lens)
{
	MPI_Request req;

	return !abandoned(w) &&
	       MPI_Igather(len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD, &req) == MPI_SUCCESS &&
	       wait_req(w, &req);
}

static bool gather_texts(struct mpi_world *w, const char *text, int len, char *buf, const int *lens,
			 const int *displs)
{
	MPI_Request req;

	return !abandoned(w) &&
	       MPI_Igatherv(text, len, MPI_CHAR, buf, lens, displs, MPI_CHAR, 0, MPI_COMM_WORLD, &req) ==
		       MPI_SUCCESS &&
	       wait_req(w, &req);
}

int mpi_gather(struct mpi_world *w, json_t *result, json_t **merged, struct dbio_err *err)
{
	char *text = part_text(w, result), *buf = NULL;
	int len = text ? (int)strlen(text) + 1 : 0, *lens = NULL, *displs = NULL, rc = 0;
	struct mpi_part *parts = NULL;
	uint64_t t0, t1, t2, total = 0, most = 0;

	*merged = NULL;
	if (!text)
		rc = dbio_err_set(err, -ENOMEM, "out of memory for the result");
	if (!w->rank && (!(lens = calloc((size_t)w->size, sizeof(int))) ||
			 !(displs = calloc((size_t)w->size, sizeof(int))) ||
			 !(parts = calloc((size_t)w->size, sizeof(*parts)))))
		MPI_Abort(MPI_COMM_WORLD, 1); /* rank 0 cannot gather: nothing to say it with */
	t0 = clock_now_ns();
	if (!gather_lens(w, &len, lens)) {
		/* the launcher ends the job: rank 0's own result, marked
		 * partial by its error, is all there is to write */
		*merged = w->rank ? NULL : json_incref(result);
		goto out;
	}
	for (int i = 0; !w->rank && i < w->size; i++) {
		displs[i] = (int)total;
		total += (uint64_t)lens[i];
		most = (uint64_t)lens[i] > most ? (uint64_t)lens[i] : most;
	}
	if (!w->rank && (total > INT_MAX || !(buf = malloc(total ? total : 1))))
		MPI_Abort(MPI_COMM_WORLD, 1);
	if (!gather_texts(w, text ? text : "", len, buf, lens, displs)) {
		*merged = w->rank ? NULL : json_incref(result);
		goto out;
	}
	t1 = clock_now_ns();
	if (!w->rank && !rc && !(rc = parse_parts(w, buf, displs, parts, err)) &&
	    !(*merged = mpi_merge(parts, (size_t)w->size, w->dirs, w->ndirs, err)))
		rc = err->code;
	t2 = clock_now_ns();
	if (*merged)
		json_object_set_new(json_object_get(*merged, "ranks"), "gather",
				    json_pack("{s:I, s:I, s:I, s:I}", "bytes", (json_int_t)total,
					      "max_bytes_per_rank", (json_int_t)most, "gather_ns",
					      (json_int_t)(t1 - t0), "merge_ns", (json_int_t)(t2 - t1)));
out:
	release_parts(parts, w->rank ? 0 : w->size);
	free(buf);
	free(displs);
	free(lens);
	free(text);
	return w->abandoned ? rc : mpi_agree(w, rc, err);
}

/* The coordinator's ops (run/coord.h): this file's calls on the world. */
static int coord_agree(void *ctx, int rc, struct dbio_err *err)
{
	return mpi_agree(ctx, rc, err);
}

static int coord_agree_plan(void *ctx, const char *plan, size_t len, struct dbio_err *err)
{
	return mpi_agree_plan(ctx, plan, len, err);
}

static bool coord_any(void *ctx, bool mine)
{
	return mpi_any(ctx, mine);
}

static int coord_note_run(void *ctx, size_t job, size_t run, const struct run_stats *st)
{
	return mpi_note_run(ctx, job, run, st);
}

static int coord_dirs(void *ctx, struct jobset *set, struct dbio_err *err)
{
	return mpi_rank_dirs(ctx, set, err);
}

static void coord_dirs_remove(void *ctx, bool keep)
{
	mpi_rank_dirs_remove(ctx, keep);
}

static int coord_gather(void *ctx, json_t *result, json_t **merged, struct dbio_err *err)
{
	return mpi_gather(ctx, result, merged, err);
}

static const struct run_coord_ops mpi_coord_ops = {
	.agree = coord_agree,
	.agree_plan = coord_agree_plan,
	.any = coord_any,
	.barrier = mpi_phase,
	.poll = mpi_poll,
	.most = mpi_most,
	.note_run = coord_note_run,
	.dirs = coord_dirs,
	.dirs_remove = coord_dirs_remove,
	.gather = coord_gather,
};

const struct run_coord *mpi_coord(struct mpi_world *w)
{
	if (!w)
		return NULL;
	w->coord = (struct run_coord){ .ops = &mpi_coord_ops, .ctx = w, .rank = w->rank };
	return &w->coord;
}

#endif
