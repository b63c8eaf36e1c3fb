/* dbio crash's check of workload=fileio; see durable.h. */
#include "workload/fileio/durable.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/checksum.h"
#include "workload/durable.h"
#include "workload/fileio/files.h"
#include "workload/fileio/keys.h"
#include "workload/fileio/where.h"
#include "workload/workload.h"

#define SEAL_MAGIC "dbiocut1"

/* The first bytes of each block written under dbio crash. */
struct seal {
	char magic[8];
	uint64_t off;
	uint64_t seq;
	uint32_t file;
	uint32_t crc; /* crc32c of the seal before it, then of the block after the seal */
};

_Static_assert(sizeof(struct seal) == 32, "the seal is 32 bytes on disk");

static void check(const char *cut);

static struct fileio_durable {
	struct durable_checker c;
	struct worker *w;
	uint64_t bs, nblocks; /* the block size; blocks of a file */
	uint64_t *acked;      /* per block (file * nblocks + off / bs): sequence of its acknowledged write */
	uint64_t *written;    /* and of its last write that returned */
	uint64_t *pend;	      /* the blocks written and not acknowledged yet */
	size_t npend;
	uint8_t *chosen; /* per write: cut right after it */
	uint64_t nchosen, seq, acked_blocks, written_blocks;
	bool osync; /* O_SYNC or O_DSYNC: a write is acknowledged when it returns */
	uint8_t *back;
} fd_ = { .c = { .lock = PTHREAD_MUTEX_INITIALIZER, .check = check } };

/* why, with *key = k: the key a refusal is about. */
static const char *about(const char **key, const char *k, const char *why)
{
	*key = k;
	return why;
}

/* Why job is not one the check knows, with *key the key it is about, or
 * NULL. */
static const char *refusal(const struct job *job, const char **key)
{
	const struct fileio_files *f = fileio_files(job);
	static const char *const engines[] = { "psync", "sync", "pvsync", "pvsync2", "vsync" };
	bool known = false;

	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		known |= !strcmp(job->eng->name, engines[i]);
	if (f->layout.rw != RW_WRITE && f->layout.rw != RW_RANDWRITE)
		return about(key, "rw",
			     "dbio crash checks fileio jobs that only write (rw=write or rw=randwrite)");
	if (!known)
		return about(
			key, "ioengine",
			"dbio crash checks fileio through psync, sync, pvsync, pvsync2 or vsync for now");
	if (fileio_conf(job)->read_iolog[0])
		return about(key, "read_iolog", "dbio crash checks the job's own writes, not a replayed log");
	if (f->verify.verify != VERIFY_NONE)
		return about(
			key, "verify",
			"verify= is for dbio run: dbio crash seals every block and reads it back at each cut");
	if (f->where.sizes_vary || f->where.min_bs != f->where.max_bs)
		return about(
			key, "bs",
			"dbio crash checks writes of one block size (no bsrange, bssplit or blockalign below bs)");
	if (f->where.min_bs < 64)
		return about(key, "bs", "below 64 bytes leaves no room for the block's seal");
	if (job->time_based)
		return about(key, "time_based",
			     "dbio crash checks a job bound by size (its cuts are chosen among its writes)");
	return NULL;
}

/* "fileio fsync=16", "fileio O_DSYNC writes", "fileio no sync". */
static void setting_of(const struct job *job, char *buf, size_t len)
{
	const struct files_layout *l = &fileio_files(job)->layout;
	int n = snprintf(buf, len, "fileio");

#define ADD(...) (n += snprintf(buf + n, len - (size_t)n, __VA_ARGS__))
	if (l->sync)
		ADD(" %s writes", l->sync == SYNC_DSYNC ? "O_DSYNC" : "O_SYNC");
	if (l->fsync)
		ADD(" fsync=%llu", (unsigned long long)l->fsync);
	if (l->fdatasync)
		ADD(" fdatasync=%llu", (unsigned long long)l->fdatasync);
	if ((l->fsync || l->fdatasync) && l->fsync_scope == FSYNC_SCOPE_JOB)
		ADD(" fsync_scope=job");
	if (l->end_fsync)
		ADD(" end_fsync");
	if (!l->sync && !l->fsync && !l->fdatasync && !l->end_fsync)
		ADD(" no sync");
#undef ADD
}

/* K of the job's writes at random from seed (all of them when K is as
 * many): the writes a cut follows. */
static int choose(uint64_t n, unsigned k, uint64_t seed)
{
	fd_.nchosen = n;
	fd_.chosen = durable_choose(n, k, seed);
	return fd_.chosen ? 0 : -ENOMEM;
}

/* Blocks of a file: the larger of its size now and the job's filesize. */
static uint64_t blocks_of(const struct worker *w, uint64_t bs)
{
	uint64_t most = fileio_files(w->job)->layout.filesize;
	struct stat sb;

	for (size_t i = 0; i < w->nfiles; i++)
		if (!fstat(w->files[i].fd, &sb) && (uint64_t)sb.st_size > most)
			most = (uint64_t)sb.st_size;
	return most / bs + 1;
}

static void point(unsigned long n);

int fileio_durable_start(struct worker *w, const struct where *wh, bool *on)
{
	const struct durable_probe *p = durable_probe();
	const char *why, *key;
	uint64_t n, bs;
	int rc;

	*on = false;
	if (!p)
		return 0;
	if ((why = refusal(w->job, &key)))
		return job_fail(w->job, key, &w->err, "%s", why);
	memset(&fd_.c.t, 0, sizeof(fd_.c.t));
	fd_.c.probe = p;
	fd_.w = w;
	fd_.bs = bs = fileio_files(w->job)->where.min_bs;
	fd_.nblocks = blocks_of(w, bs);
	n = fd_.nblocks * w->nfiles;
	fd_.acked = calloc(n, sizeof(*fd_.acked));
	fd_.written = calloc(n, sizeof(*fd_.written));
	fd_.pend = calloc(n, sizeof(*fd_.pend));
	fd_.back = malloc(bs);
	if (!fd_.acked || !fd_.written || !fd_.pend || !fd_.back ||
	    choose(wh->limit / bs < wh->max_ops ? wh->limit / bs : wh->max_ops, p->acks, p->seed))
		return dbio_err_set(&w->err, -ENOMEM,
				    "crash: out of memory for the table of acknowledged blocks");
	fd_.osync = fileio_files(w->job)->layout.sync != SYNC_NONE;
	fd_.c.t.on = true;
	snprintf(fd_.c.t.unit, sizeof(fd_.c.t.unit), "block");
	snprintf(fd_.c.t.model, sizeof(fd_.c.t.model), "%s", p->model ? p->model : "lose");
	setting_of(w->job, fd_.c.t.setting, sizeof(fd_.c.t.setting));
	if ((rc = p->settle(p->arg)))
		return dbio_err_set(&w->err, rc, "crash: cannot make the laid out files durable: %s",
				    strerror(-rc));
	fd_.npend = 0;
	fd_.seq = fd_.acked_blocks = fd_.written_blocks = 0;
	pthread_mutex_lock(&fd_.c.lock);
	fd_.c.started = true;
	pthread_mutex_unlock(&fd_.c.lock);
	durable_listen(point);
	*on = true;
	return 0;
}

static uint32_t seal_crc(const uint8_t *block, uint64_t bs)
{
	uint32_t c = csum_crc32c(0, block, offsetof(struct seal, crc));

	return csum_crc32c(c, block + sizeof(struct seal), bs - sizeof(struct seal));
}

static void seal(uint8_t *block, uint64_t bs, uint64_t off, unsigned file, uint64_t seq)
{
	struct seal s = { .off = off, .seq = seq, .file = file };

	memcpy(s.magic, SEAL_MAGIC, sizeof(s.magic));
	memcpy(block, &s, sizeof(s));
	s.crc = seal_crc(block, bs);
	memcpy(block + offsetof(struct seal, crc), &s.crc, sizeof(s.crc));
}

/* The writes of file before now acknowledged (all files: file < 0). */
static void ack_file(long file)
{
	size_t keep = 0;

	for (size_t i = 0; i < fd_.npend; i++) {
		const uint64_t b = fd_.pend[i];

		if (file >= 0 && b / fd_.nblocks != (uint64_t)file) {
			fd_.pend[keep++] = b;
			continue;
		}
		fd_.acked_blocks += !fd_.acked[b];
		fd_.acked[b] = fd_.written[b];
	}
	fd_.npend = keep;
}

static void note_lost(uint64_t b, const char *cut, const char *why)
{
	char what[160];

	snprintf(what, sizeof(what), "%s of %s", why, fd_.w->files[b / fd_.nblocks].name);
	durable_tally_first(&fd_.c.t, b % fd_.nblocks * fd_.bs, fd_.acked[b], cut, what);
}

/* Block b as the cut's file fd holds it: the sequence of the write found
 * there (0: none of this run's: the block as laid out), or NULL and *why
 * (*torn: its seal is there but not whole). */
static uint64_t found(int fd, uint64_t b, const char **why, bool *torn)
{
	struct seal s;
	ssize_t n = fd < 0 ? 0 : pread(fd, fd_.back, fd_.bs, (off_t)(b % fd_.nblocks * fd_.bs));

	*torn = false;
	*why = "missing";
	if (n != (ssize_t)fd_.bs)
		return 0;
	memcpy(&s, fd_.back, sizeof(s));
	if (memcmp(s.magic, SEAL_MAGIC, sizeof(s.magic)))
		return 0;
	*torn = true;
	if (s.crc != seal_crc(fd_.back, fd_.bs))
		*why = "a bad checksum";
	else if (s.off != b % fd_.nblocks * fd_.bs || s.file != b / fd_.nblocks)
		*why = "a block written elsewhere";
	else if (s.seq > fd_.written[b])
		*why = "a write never made there";
	else {
		*torn = false;
		*why = "an older write";
		return s.seq;
	}
	return 0;
}

/* The blocks of file i in the cut cutfd: those acknowledged and lost (and
 * into *wlost those written and lost). */
static uint64_t judge_file(int cutfd, size_t i, const char *cut, uint64_t *wlost)
{
	int fd = openat(cutfd, fd_.w->files[i].name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	uint64_t lost = 0;

	for (uint64_t b = i * fd_.nblocks; b < (i + 1) * fd_.nblocks; b++) {
		const char *why;
		bool torn;
		uint64_t seq;

		if (!fd_.written[b])
			continue;
		seq = found(fd, b, &why, &torn);
		fd_.c.t.torn += torn;
		*wlost += seq < fd_.written[b];
		if (fd_.acked[b] && seq < fd_.acked[b]) {
			lost++;
			note_lost(b, cut, why);
		}
	}
	if (fd >= 0)
		close(fd);
	return lost;
}

/* One crash state: cut, read every written block, judge. Under fd_.c.lock. */
static void check(const char *cut)
{
	const struct durable_probe *p = fd_.c.probe;
	uint64_t lost = 0, wlost = 0;
	int cutfd, rc = p->cut(p->arg, &cutfd);

	if (rc < 0) {
		snprintf(fd_.c.t.first_why, sizeof(fd_.c.t.first_why), "the cut failed: %s", strerror(-rc));
		return;
	}
	for (size_t i = 0; i < fd_.w->nfiles; i++)
		lost += judge_file(cutfd, i, cut, &wlost);
	close(cutfd);
	durable_tally_state(&fd_.c.t, lost);
	fd_.c.t.wlost += wlost;
	fd_.c.t.wlost_max = wlost > fd_.c.t.wlost_max ? wlost : fd_.c.t.wlost_max;
}

/* A write of req returned: noted, acknowledged under O_SYNC, maybe a cut. */
static int wrote(const struct io_req *req)
{
	const uint64_t b = req->file * fd_.nblocks + req->off / fd_.bs;
	char cut[32];

	pthread_mutex_lock(&fd_.c.lock);
	fd_.written_blocks += !fd_.written[b];
	if (fd_.written[b] <= fd_.acked[b])
		fd_.pend[fd_.npend++] = b;
	fd_.written[b] = fd_.seq;
	if (fd_.osync)
		ack_file((long)req->file);
	if (fd_.seq <= fd_.nchosen && fd_.chosen[fd_.seq - 1]) {
		snprintf(cut, sizeof(cut), "write %llu", (unsigned long long)fd_.seq);
		fd_.c.t.acks++;
		check(cut);
	}
	pthread_mutex_unlock(&fd_.c.lock);
	return 0;
}

int fileio_durable_io(struct worker *w, struct io_req *req)
{
	int rc;

	if (req->op != OP_WRITE)
		return w->eng.ops->io(&w->eng, req);
	if (req->off % fd_.bs || req->len != fd_.bs || req->off / fd_.bs >= fd_.nblocks)
		return dbio_err_set(
			&w->err, -EINVAL,
			"crash: a write of %llu bytes at offset %llu of %s: not one of the %llu blocks of %llu bytes dbio crash tracks",
			(unsigned long long)req->len, (unsigned long long)req->off, w->files[req->file].path,
			(unsigned long long)fd_.nblocks, (unsigned long long)fd_.bs);
	seal(req->buf, fd_.bs, req->off, req->file, ++fd_.seq);
	if ((rc = w->eng.ops->io(&w->eng, req)))
		return rc;
	return wrote(req);
}

void fileio_durable_synced(unsigned file, enum op_type op)
{
	if (!fd_.c.started || (op != OP_FSYNC && op != OP_FDATASYNC))
		return;
	pthread_mutex_lock(&fd_.c.lock);
	ack_file((long)file);
	pthread_mutex_unlock(&fd_.c.lock);
}

/* The layer's durability point n (workload/durable.c): a cut while the
 * run is started, for the first points of the probe. */
static void point(unsigned long n)
{
	durable_checker_point(&fd_.c, n);
}

void fileio_durable_finish(struct worker *w)
{
	pthread_mutex_lock(&fd_.c.lock);
	if (fd_.c.started) {
		fd_.c.t.acked = fd_.acked_blocks;
		fd_.c.t.written = fd_.written_blocks;
		w->durable = fd_.c.t;
	}
	fd_.c.started = false;
	fd_.c.probe = NULL;
	free(fd_.acked);
	free(fd_.written);
	free(fd_.pend);
	free(fd_.chosen);
	free(fd_.back);
	fd_.acked = fd_.written = fd_.pend = NULL;
	fd_.chosen = fd_.back = NULL;
	fd_.npend = 0;
	pthread_mutex_unlock(&fd_.c.lock);
}
