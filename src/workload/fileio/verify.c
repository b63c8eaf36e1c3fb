/* fio's data verification for fileio; see verify.h. */
#include "workload/fileio/verify.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/syscalls.h"
#include "util/termesc.h"
#include "workload/fileio/where.h"
#include "workload/workload.h"
#include "workload/workload_int.h"
#include "workload/fileio/files.h"

#define VERIFY_MAGIC 0xacca /* fio's */
/* 2: pad became the crc32c of the file's name; a block of version 1
 * (dbio before it) is refused as of another version */
#define VERIFY_VERSION 2

/* The header at the start of each block (at verify_offset, swapped with
 * the bytes there, as fio). Little-endian, as the machine. */
struct verify_hdr {
	uint16_t magic;
	uint8_t version;
	uint8_t type; /* fio's verify type number */
	uint32_t len; /* bytes of the block */
	uint64_t offset;
	uint64_t seed;	   /* the job's randseed */
	uint32_t thread;   /* fio's number of the writing thread */
	uint32_t sum_len;  /* bytes of checksum after the header */
	uint32_t name_crc; /* crc32c of the file's name, its last component */
	uint32_t crc;	   /* crc32c of the header before this field */
};

_Static_assert(sizeof(struct verify_hdr) == 40, "the header is 40 bytes on disk");

static enum csum_kind csum_of(int type)
{
	switch (type) {
	case VERIFY_CRC32C:
	case VERIFY_CRC32C_INTEL:
		return CSUM_CRC32C;
	case VERIFY_XXHASH:
		return CSUM_XXH64;
	case VERIFY_MD5:
		return CSUM_MD5;
	case VERIFY_SHA1:
		return CSUM_SHA1;
	case VERIFY_SHA256:
		return CSUM_SHA256;
	case VERIFY_SHA512:
		return CSUM_SHA512;
	case VERIFY_SHA3_224:
		return CSUM_SHA3_224;
	case VERIFY_SHA3_256:
		return CSUM_SHA3_256;
	case VERIFY_SHA3_384:
		return CSUM_SHA3_384;
	case VERIFY_SHA3_512:
		return CSUM_SHA3_512;
	default:
		return CSUM_NONE;
	}
}

static const char *type_name(int type)
{
	for (size_t i = 0; job_verify_values[i].name; i++)
		if (job_verify_values[i].value == type)
			return job_verify_values[i].name;
	return "?";
}

static bool has_header(int type)
{
	return type != VERIFY_PATTERN && type != VERIFY_NULL;
}

static void swap_bytes(uint8_t *a, uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t t = a[i];

		a[i] = b[i];
		b[i] = t;
	}
}

/* The crc32c of the name (its last component) of each of w's files, for
 * the headers: made once in prepare, not per block. */
static uint32_t *name_crcs(const struct worker *w)
{
	uint32_t *crc = calloc(w->nfiles ? w->nfiles : 1, sizeof(*crc));

	for (size_t i = 0; crc && i < w->nfiles; i++) {
		const char *path = w->files[i].path, *slash = strrchr(path, '/');
		const char *name = slash ? slash + 1 : path;

		crc[i] = csum_crc32c(0, name, strlen(name));
	}
	return crc;
}

/* verify_pattern over the first len bytes of buf. */
static void fill_pattern(const struct verify *v, void *buf, uint64_t len)
{
	const uint8_t *pat = fileio_files(v->job)->verify.vpattern;
	const unsigned plen = fileio_files(v->job)->verify.vpattern_len;

	for (uint64_t i = 0; i < len; i++)
		((uint8_t *)buf)[i] = pat[i % plen];
}

/* experimental_verify: no log; a second where, made as the thread's,
 * makes the offsets again after the writes, with the draws of reads and
 * writes as they were at the start. */
static int replay_prepare(struct verify *v, struct worker *w)
{
	if (!(v->replay = calloc(1, sizeof(*v->replay))) || where_init(v->replay, w, worker_seed(w)))
		return dbio_err_set(&w->err, -ENOMEM,
				    "worker %u: out of memory for experimental_verify's offsets", w->index);
	return 0;
}

int verify_prepare(struct verify **out, struct worker *w, struct where *wh, void *const *bufs, unsigned nbufs)
{
	const struct job *job = w->job;
	const uint64_t wbs = fileio_files(job)->where.min_bs_rw[1] ? fileio_files(job)->where.min_bs_rw[1]
								   : fileio_files(job)->where.min_bs;
	struct verify *v;
	int rc;

	*out = NULL;
	if (fileio_files(job)->verify.verify == VERIFY_NONE)
		return 0;
	if (!(*out = v = calloc(1, sizeof(*v))))
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	v->job = job;
	v->w = w;
	v->interval = fileio_files(job)->verify.verify_interval;
	v->thread = (uint32_t)(fileio_files(job)->pacing.thread_base + w->index);
	/* the job's threads on one set of files overwrite each other's
	 * blocks, as fio's: any of them may have written a block */
	v->thread_first = (uint32_t)fileio_files(job)->pacing.thread_base;
	v->threads_sharing = fileio_files(job)->layout.share_files || fileio_files(job)->layout.filename[0]
				     ? (uint32_t)job->numjobs
				     : 1;
	v->checks_pattern = fileio_files(job)->verify.vpattern_len &&
			    (fileio_files(job)->verify.verify == VERIFY_META ||
			     fileio_files(job)->verify.verify == VERIFY_PATTERN);
	/* fio's null engine fakes its I/O (a diskless engine), and fio then checks nothing */
	v->checks_reads = !job_writes(job) && fileio_files(job)->verify.verify != VERIFY_NULL &&
			  !(job->eng->caps & ENGINE_CAP_DISKLESS);
	v->overlap_risk = fileio_files(job)->layout.norandommap || fileio_files(job)->where.seq_add ||
			  fileio_files(job)->where.seq_nr > 1 ||
			  (fileio_files(job)->where.io_size &&
			   fileio_files(job)->where.io_size > fileio_files(job)->layout.size);
	if (!(v->name_crcs = name_crcs(w)))
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	if ((rc = csum_init(&v->sum, csum_of(fileio_files(job)->verify.verify))))
		return dbio_err_set(&w->err, rc, "verify=%s: cannot set the checksum up: %s",
				    type_name(fileio_files(job)->verify.verify), strerror(-rc));
	if (has_header(fileio_files(job)->verify.verify))
		v->hdr_bytes = sizeof(struct verify_hdr) + v->sum.len;
	for (unsigned b = 0; fileio_files(job)->verify.vpattern_len && b < nbufs; b++)
		fill_pattern(v, bufs[b], fileio_files(job)->where.max_bs);
	/* a read of a mixed job, or a read back, lands in the buffer a later
	 * write sends: the pattern goes in again before each write */
	v->repattern = fileio_files(job)->verify.vpattern_len && job_reads(job) && job_writes(job);
	if (!job_writes(job))
		return 0;
	v->bufs = bufs;
	v->nbufs = nbufs;
	if ((w->eng.ops->caps & ENGINE_CAP_QUEUE) && nbufs > 1 &&
	    (!(v->reqs = calloc(nbufs, sizeof(*v->reqs))) || !(v->done = calloc(nbufs, sizeof(*v->done))) ||
	     !(v->sub_ns = calloc(nbufs, sizeof(*v->sub_ns))) ||
	     !(v->free = calloc(nbufs, sizeof(*v->free)))))
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	if (fileio_files(job)->verify.experimental_verify && !fileio_files(job)->verify.verify_only)
		return replay_prepare(v, w);
	if (job->time_based) {
		/* no read back after the runtime, as fio: the log holds what
		 * verify_backlog has not read back yet (log_make_room) */
		const uint64_t most = fileio_files(job)->verify.verify_backlog_batch >
						      fileio_files(job)->verify.verify_backlog
					      ? fileio_files(job)->verify.verify_backlog_batch
					      : fileio_files(job)->verify.verify_backlog;

		v->cap = most ? 2 * (most + nbufs) + 16 : 0;
	} else {
		/* every write a thread can issue: its bytes in all over the
		 * smallest write, or number_ios */
		v->cap = wh->limit / wbs + 1;
		if (wh->max_ops < v->cap)
			v->cap = wh->max_ops;
	}
	v->log = calloc(v->cap ? v->cap : 1, sizeof(*v->log));
	v->order = v->overlap_risk ? calloc(v->cap ? v->cap : 1, sizeof(*v->order)) : NULL;
	if (!v->log || (v->overlap_risk && !v->order))
		return dbio_err_set(&w->err, -ENOMEM,
				    "worker %u: out of memory for the log of %zu writes to verify", w->index,
				    v->cap);
	if (fileio_files(job)->verify.verify_only)
		verify_dry_run(v, wh);
	return 0;
}

void verify_free(struct verify *v)
{
	if (!v)
		return;
	csum_release(&v->sum);
	if (v->replay)
		where_release(v->replay);
	free(v->replay);
	free(v->reqs);
	free(v->done);
	free(v->sub_ns);
	free(v->free);
	free(v->name_crcs);
	free(v->log);
	free(v->order);
	free(v);
}

/* What the header of a block of the file of w->files[file] says of it. */
/* The header and checksum of the block at p, which goes to offset off of
 * file (w's). */
static void stamp(struct verify *v, const struct worker *w, unsigned file, uint8_t *p, uint64_t off)
{
	struct verify_hdr h = { .magic = VERIFY_MAGIC,
				.version = VERIFY_VERSION,
				.type = (uint8_t)fileio_files(v->job)->verify.verify,
				.len = (uint32_t)v->interval,
				.offset = off,
				.seed = v->job->randseed,
				.thread = v->thread,
				.sum_len = (uint32_t)v->sum.len,
				.name_crc = v->name_crcs[file] };

	h.crc = csum_crc32c(0, &h, offsetof(struct verify_hdr, crc));
	memcpy(p, &h, sizeof(h));
	if (v->sum.len)
		csum_compute(&v->sum, p + v->hdr_bytes, v->interval - v->hdr_bytes, p + sizeof(h));
	if (fileio_files(v->job)->verify.verify_offset)
		swap_bytes(p, p + fileio_files(v->job)->verify.verify_offset, v->hdr_bytes);
}

/* A time_based job's log is a window: when full, what was read back
 * goes and the rest moves to the front. */
static void log_make_room(struct verify *v)
{
	memmove(v->log, v->log + v->next, (v->n - v->next) * sizeof(*v->log));
	v->n -= v->next;
	v->next = 0;
}

void verify_write(struct verify *v, const struct io_req *req, uint64_t loop)
{
	if (v->repattern)
		fill_pattern(v, req->buf, req->len);
	if (v->hdr_bytes)
		for (uint64_t k = 0; k < req->len / v->interval; k++)
			stamp(v, v->w, req->file, (uint8_t *)req->buf + k * v->interval,
			      req->off + k * v->interval);
	v->written += req->len;
	if (v->n == v->cap && v->next && v->job->time_based)
		log_make_room(v);
	if (v->n < v->cap)
		v->log[v->n++] = (struct verify_entry){ .off = req->off,
							.len = (uint32_t)req->len,
							.file = (uint16_t)req->file,
							.loop = (uint8_t)loop };
}

void verify_dry_run(struct verify *v, struct where *wh)
{
	struct io_req req = { .op = OP_WRITE };

	while (v->n < v->cap && where_next(wh, OP_WRITE, &req))
		v->log[v->n++] = (struct verify_entry){ .off = req.off,
							.len = (uint32_t)req.len,
							.file = (uint16_t)req.file,
							.loop = (uint8_t)wh->pass };
}

/* One bad block: counted, and a line of the report while it fits. */
static void report(struct verify *v, const struct worker *w, unsigned file, uint64_t off, const uint8_t *p,
		   const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void report(struct verify *v, const struct worker *w, unsigned file, uint64_t off, const uint8_t *p,
		   const char *fmt, ...)
{
	char what[256], dump[2 * sizeof(struct verify_hdr) + 32] = "";
	const size_t room = sizeof(v->reports) - v->reports_len;
	va_list ap;
	int n;

	if (!v->bad++) {
		snprintf(v->first_path, sizeof(v->first_path), "%s", w->files[file].path);
		termesc_fix(v->first_path, sizeof(v->first_path));
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (fileio_files(v->job)->verify.verify_dump && v->hdr_bytes) {
		size_t d = (size_t)snprintf(dump, sizeof(dump), "; header bytes found: ");

		for (size_t i = 0; i < sizeof(struct verify_hdr); i++)
			d += (size_t)snprintf(dump + d, sizeof(dump) - d, "%02x", p[i]);
	}
	/* a line of its own, escaped (the file's name is input); verify_finish
	 * joins the lines with dbio_err_set_lines */
	char line[1024];

	snprintf(line, sizeof(line), "%s: verify=%s: block of %llu bytes at offset %llu: %s%s",
		 w->files[file].path, type_name(fileio_files(v->job)->verify.verify),
		 (unsigned long long)v->interval, (unsigned long long)off, what, dump);
	termesc_fix(line, sizeof(line));
	n = snprintf(v->reports + v->reports_len, room, "\n%s", line);
	if (n < 0 || (size_t)n >= room) {
		v->reports[v->reports_len] = '\0';
		v->unreported++;
	} else {
		v->reports_len += (size_t)n;
	}
}

static void hex(char *buf, size_t len, const uint8_t *p, size_t n)
{
	size_t used = (size_t)snprintf(buf, len, "0x");

	for (size_t i = 0; i < n && used + 3 <= len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%02x", p[i]);
}

/* The header of the block at p against what the block at off must say;
 * false (reported) when it is wrong. A job that writes (its read back,
 * verify_only) knows who wrote each block: itself, this thread, into this
 * file, with its seed. A job that only reads checks what the block says
 * of itself, as fio does (it takes the seed from the header). */
static bool check_header(struct verify *v, const struct worker *w, unsigned file, uint64_t off,
			 const uint8_t *p)
{
	const bool own = !v->checks_reads;
	struct verify_hdr h;

	memcpy(&h, p, sizeof(h));
	if (h.magic != VERIFY_MAGIC) {
		report(v, w, file, off, p, "no header: magic expected 0x%04x, found 0x%04x", VERIFY_MAGIC,
		       h.magic);
		return false;
	}
	const uint32_t crc = csum_crc32c(0, &h, offsetof(struct verify_hdr, crc));
	const uint32_t name = v->name_crcs[file];

	if (crc != h.crc)
		report(v, w, file, off, p, "header checksum (crc32c) expected 0x%08x, found 0x%08x", h.crc,
		       crc);
	else if (h.version != VERIFY_VERSION)
		report(v, w, file, off, p,
		       "header version expected %u, found %u (written by another version of dbio)",
		       VERIFY_VERSION, h.version);
	else if (h.type != fileio_files(v->job)->verify.verify)
		report(v, w, file, off, p, "verify type expected %s, found %s",
		       type_name(fileio_files(v->job)->verify.verify), type_name(h.type));
	else if (h.len != v->interval)
		report(v, w, file, off, p, "block length expected %llu, found %u",
		       (unsigned long long)v->interval, h.len);
	else if (h.sum_len != v->sum.len)
		report(v, w, file, off, p, "checksum length expected %zu, found %u", v->sum.len, h.sum_len);
	else if (h.offset != off)
		report(v, w, file, off, p,
		       "offset in the header expected %llu, found %llu (a block written elsewhere)",
		       (unsigned long long)off, (unsigned long long)h.offset);
	else if (own && h.name_crc != name)
		report(v, w, file, off, p,
		       "file name checksum in the header expected 0x%08x, found 0x%08x (a block of another file)",
		       name, h.name_crc);
	else if (own && h.seed != v->job->randseed)
		report(v, w, file, off, p,
		       "seed in the header expected %llu, found %llu (a block of another run or job: randseed differs)",
		       (unsigned long long)v->job->randseed, (unsigned long long)h.seed);
	else if (own && v->threads_sharing == 1 && h.thread != v->thread)
		report(v, w, file, off, p,
		       "thread in the header expected %u, found %u (a block another thread or job wrote)",
		       v->thread, h.thread);
	else if (own && v->threads_sharing > 1 &&
		 (h.thread < v->thread_first || h.thread - v->thread_first >= v->threads_sharing))
		report(v, w, file, off, p,
		       "thread in the header expected one of this job's %u to %u, found %u (a block another job wrote)",
		       v->thread_first, v->thread_first + v->threads_sharing - 1, h.thread);
	else
		return true;
	return false;
}

/* Check the block at p (block k of its I/O), which was read at off. */
static void check_block(struct verify *v, const struct worker *w, unsigned file, uint64_t off, uint64_t k,
			uint8_t *p)
{
	uint8_t sum[CSUM_MAX];

	v->checked++;
	if (fileio_files(v->job)->verify.verify == VERIFY_NULL)
		return;
	if (v->hdr_bytes && fileio_files(v->job)->verify.verify_offset)
		swap_bytes(p, p + fileio_files(v->job)->verify.verify_offset, v->hdr_bytes);
	if (v->hdr_bytes && !check_header(v, w, file, off, p))
		return;
	if (v->sum.len) {
		csum_compute(&v->sum, p + v->hdr_bytes, v->interval - v->hdr_bytes, sum);
		if (memcmp(sum, p + sizeof(struct verify_hdr), v->sum.len)) {
			char want[2 * CSUM_MAX + 3], got[2 * CSUM_MAX + 3];

			hex(want, sizeof(want), p + sizeof(struct verify_hdr), v->sum.len);
			hex(got, sizeof(got), sum, v->sum.len);
			report(v, w, file, off, p, "%s of the data expected %s, found %s",
			       type_name(fileio_files(v->job)->verify.verify), want, got);
			return;
		}
	}
	if (!v->checks_pattern)
		return;
	const uint8_t *pat = fileio_files(v->job)->verify.vpattern;
	const unsigned plen = fileio_files(v->job)->verify.vpattern_len;

	for (uint64_t i = v->hdr_bytes; i < v->interval; i++) {
		const uint8_t want = pat[(k * v->interval + i) % plen];

		if (p[i] != want) {
			report(v, w, file, off, p,
			       "verify_pattern at byte %llu expected 0x%02x, found 0x%02x",
			       (unsigned long long)i, want, p[i]);
			return;
		}
	}
}

/* Check the blocks of one read; 0, or -EIO when verify_fatal stops at a
 * bad one. */
static int check_io(struct verify *v, struct worker *w, const struct io_req *req)
{
	const uint64_t bad = v->bad;

	for (uint64_t k = 0; k < req->len / v->interval; k++)
		check_block(v, w, req->file, req->off + k * v->interval, k,
			    (uint8_t *)req->buf + k * v->interval);
	if (v->bad > bad && fileio_files(v->job)->verify.verify_fatal) {
		atomic_store(w->job_stop, 1);
		return verify_finish(v, w);
	}
	return 0;
}

int verify_read_done(struct verify *v, struct worker *w, const struct io_req *req)
{
	return v->checks_reads ? check_io(v, w, req) : 0;
}

static int cmp_entry(const void *a, const void *b, void *ctx)
{
	const struct verify_entry *log = ctx, *x = &log[*(const uint32_t *)a],
				  *y = &log[*(const uint32_t *)b];

	if (x->loop != y->loop)
		return x->loop < y->loop ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/* fio's sorted log: of the writes from next on that overlap within a
 * loop, only the last one is read back. */
static void replace_overlaps(struct verify *v)
{
	const size_t n = v->n - v->next;

	for (size_t i = 0; i < n; i++)
		v->order[i] = (uint32_t)(v->next + i);
	qsort_r(v->order, n, sizeof(*v->order), cmp_entry, v->log);
	for (size_t i = 0; i < n; i++) {
		struct verify_entry *a = &v->log[v->order[i]];

		for (size_t j = i + 1; j < n; j++) {
			struct verify_entry *b = &v->log[v->order[j]];

			if (b->loop != a->loop || b->file != a->file || b->off >= a->off + a->len)
				break;
			if (v->order[j] > v->order[i])
				a->dead = 1;
			else
				b->dead = 1;
		}
	}
}

/* Read one logged write back through the engine into buf; 0 or -errno. */
static int read_back(struct worker *w, struct io_req *req)
{
	const struct engine_ops *ops = w->eng.ops;
	struct io_req *done;
	int n;

	if (!(ops->caps & ENGINE_CAP_QUEUE))
		return ops->io(&w->eng, req);
	if ((n = ops->queue(&w->eng, req)) || (n = ops->submit(&w->eng)) < 0)
		return n;
	if ((n = ops->reap(&w->eng, &done, 1, 1)) < 0)
		return n;
	return n == 1 ? done->rc : -EIO;
}

/* As fio before it reads back: the writes on the disk, the cache dropped. */
static void flush_files(struct worker *w)
{
	for (size_t i = 0; i < w->nfiles; i++) {
		if (w->eng.ops->sync(&w->eng, w->files[i].fd, OP_FSYNC))
			continue;
		if (w->job->invalidate)
			dbio_sys->posix_fadvise(w->files[i].fd, 0, 0, POSIX_FADV_DONTNEED);
	}
}

/* The failed read back of req: w->err. */
static int read_failed(struct worker *w, const struct io_req *req, int rc)
{
	return dbio_err_set(&w->err, rc, "%s: verify: read back of %llu bytes at offset %llu: %s",
			    w->files[req->file].path, (unsigned long long)req->len,
			    (unsigned long long)req->off, strerror(-rc));
}

/* A read back done at t (started at t0): counted when measuring, checked.
 * 1 when verify_fatal stops at a bad block, else 0. */
static int read_done(struct verify *v, struct worker *w, struct io_req *req, bool measuring, uint64_t t0,
		     uint64_t t)
{
	if (measuring) {
		op_stats_add(&w->stats[OP_READ], req->len, t - t0);
		if (series_on(&w->series))
			series_add(&w->series, OP_READ, req->len, t - t0, t);
	}
	return fileio_files(v->job)->verify.verify != VERIFY_NULL &&
			       !(w->job->eng->caps & ENGINE_CAP_DISKLESS) && check_io(v, w, req)
		       ? 1
		       : 0;
}

/* Read req back into its buffer, counted and timed as a read when
 * measuring, and check it. 0, -errno of the read (w->err set), or 1 when
 * verify_fatal stops at a bad block. */
static int read_check(struct verify *v, struct worker *w, struct io_req *req, bool measuring, uint64_t *now)
{
	const uint64_t t0 = *now;
	int rc;

	if ((rc = read_back(w, req)))
		return read_failed(w, req, rc);
	*now = clock_now_ns();
	return read_done(v, w, req, measuring, t0, *now);
}

/* The logged writes from v->next to end read back through a queued engine
 * (its queue drained), nbufs in flight, each in the buffer of its slot; a
 * slot is filled again as soon as its read is reaped. 0, -errno (w->err
 * set), or 1 when verify_fatal stopped. Whatever was queued is reaped
 * before it returns, also after a bad block or a failure. */
static int readback_queued(struct verify *v, struct worker *w, size_t end, bool measuring, uint64_t *now)
{
	const struct engine_ops *ops = w->eng.ops;
	unsigned nfree = v->nbufs, inflight = 0;
	int stop = 0, rc = 0, n;

	for (unsigned i = 0; i < v->nbufs; i++)
		v->free[i] = i;
	for (;;) {
		unsigned k = 0;

		while (!stop && !rc && nfree && v->next < end &&
		       !atomic_load_explicit(w->stop, memory_order_relaxed)) {
			const struct verify_entry *e = &v->log[v->next++];
			const unsigned slot = v->free[nfree - 1];

			if (e->dead)
				continue;
			v->reqs[slot] = (struct io_req){ .fd = w->files[e->file].fd,
							 .op = OP_READ,
							 .buf = v->bufs[slot],
							 .len = e->len,
							 .off = e->off,
							 .file = e->file,
							 .slot = slot };
			v->sub_ns[slot] = *now;
			if ((n = ops->queue(&w->eng, &v->reqs[slot]))) {
				rc = read_failed(w, &v->reqs[slot], n);
				break;
			}
			nfree--;
			k++;
		}
		if (k && (n = ops->submit(&w->eng)) < 0) {
			/* nothing of them is in flight */
			rc = rc ? rc : read_failed(w, &v->reqs[v->free[nfree]], n);
			nfree += k;
		} else {
			inflight += k;
		}
		if (!inflight)
			break;
		if ((n = ops->reap(&w->eng, v->done, inflight, 1)) < 0)
			return rc ? rc : read_failed(w, &v->reqs[v->free[nfree]], n);
		*now = clock_now_ns();
		for (int i = 0; i < n; i++) {
			struct io_req *req = v->done[i];

			inflight--;
			v->free[nfree++] = req->slot;
			if (req->rc && !rc)
				rc = read_failed(w, req, req->rc);
			else if (!rc && !stop)
				stop = read_done(v, w, req, measuring, v->sub_ns[req->slot], *now);
		}
	}
	return rc ? rc : stop;
}

int verify_readback(struct verify *v, struct worker *w, void *buf, bool all, bool measuring, uint64_t *now)
{
	const size_t end = all || v->n - v->next < v->pending ? v->n : v->next + v->pending;

	if (all) {
		flush_files(w);
		if (v->overlap_risk)
			replace_overlaps(v);
		*now = clock_now_ns();
	} else {
		v->pending -= end - v->next;
	}
	if (v->reqs)
		return readback_queued(v, w, end, measuring, now) < 0 ? w->err.code : 0;
	for (; v->next < end; v->next++) {
		const struct verify_entry *e = &v->log[v->next];
		struct io_req req = { .fd = w->files[e->file].fd,
				      .op = OP_READ,
				      .buf = buf,
				      .len = e->len,
				      .off = e->off,
				      .file = e->file };
		int rc;

		if (e->dead || atomic_load_explicit(w->stop, memory_order_relaxed))
			continue;
		if ((rc = read_check(v, w, &req, measuring, now)) < 0)
			return rc;
		if (rc) {
			v->next++;
			break;
		}
	}
	return 0;
}

int verify_backlog_run(struct verify *v, struct worker *w, void *buf, bool measuring, uint64_t *now)
{
	if (!v->pending)
		v->pending = fileio_files(v->job)->verify.verify_backlog_batch
				     ? fileio_files(v->job)->verify.verify_backlog_batch
				     : fileio_files(v->job)->verify.verify_backlog;
	return verify_readback(v, w, buf, false, measuring, now);
}

/* experimental_verify's read back, as fio's: the offsets made again from
 * the start, the draws of reads and writes too; each write becomes a read
 * of its block, a read is passed over; as many bytes as were written. */
static int replay(struct verify *v, struct worker *w, void *buf, bool measuring, uint64_t *now)
{
	const struct job *job = v->job;
	const bool mixed =
		fileio_files(job)->layout.rw == RW_RANDRW || fileio_files(job)->layout.rw == RW_READWRITE;
	const enum op_type fixed_op = where_first_op(job);
	uint64_t read = 0;
	struct io_req req = { .buf = buf };

	flush_files(w);
	*now = clock_now_ns();
	while (read + fileio_files(job)->where.min_bs <= v->written &&
	       !atomic_load_explicit(w->stop, memory_order_relaxed)) {
		req.op = mixed ? where_mix_op(v->replay) : fixed_op;
		if (!where_next(v->replay, req.op, &req))
			break;
		if (req.op != OP_WRITE)
			continue;
		req.op = OP_READ;
		req.fd = w->files[req.file].fd;
		read += req.len;
		int rc = read_check(v, w, &req, measuring, now);

		if (rc)
			return rc < 0 ? rc : 0;
	}
	return 0;
}

int verify_end(struct verify *v, struct worker *w, void *buf, bool measuring, uint64_t *now)
{
	int rc;

	/* a time_based job spent its runtime: fio's verify phase never
	 * starts (verify_backlog checks during the run) */
	if (job_writes(v->job) && fileio_files(v->job)->verify.do_verify && !v->job->time_based &&
	    !w->err.code && !atomic_load(w->stop) && !atomic_load(w->job_stop) &&
	    (rc = v->replay ? replay(v, w, buf, measuring, now)
			    : verify_readback(v, w, buf, true, measuring, now)))
		return rc;
	return verify_finish(v, w);
}

int verify_finish(struct verify *v, struct worker *w)
{
	if (!v->bad)
		return 0;
	return dbio_err_set_lines(
		&w->err, -EIO,
		"%s: verify=%s: %llu of %llu blocks read back did not match what was written%s%s%s",
		v->first_path, type_name(fileio_files(v->job)->verify.verify), (unsigned long long)v->bad,
		(unsigned long long)v->checked,
		fileio_files(v->job)->verify.verify_fatal ? " (verify_fatal: stopped at the first)" : "",
		v->reports, v->unreported ? "\n(more bad blocks than fit here)" : "");
}

int verify_validate(struct job *job, struct dbio_err *err)
{
	int rc = job_validate_verify(job, err);

	if (rc || fileio_files(job)->verify.verify == VERIFY_NONE)
		return rc;
	if (job->wl != &workload_fileio)
		return job_fail(job, "verify", err, "for workload=fileio only; this job is workload=%s",
				job->wl->name);
	if (!csum_built(csum_of(fileio_files(job)->verify.verify)))
		return job_fail_choice(job, "verify", type_name(fileio_files(job)->verify.verify),
				       "crc32c, meta, pattern, null", err);
	if (fileio_files(job)->verify.experimental_verify && job->ramp_ns)
		return job_fail(
			job, "experimental_verify", err,
			"not with ramp_time: the read back makes the offsets again from the start, and the ramp's writes came first");
	if (fileio_files(job)->verify.verify_offset && fileio_files(job)->verify.vpattern_len)
		return job_fail(job, "verify_offset", err,
				"not with verify_pattern in dbio: give one of the two");
	/* a time_based job logs a window of verify_backlog (verify_prepare),
	 * experimental_verify nothing */
	if (!job_writes(job) || job->time_based ||
	    (fileio_files(job)->verify.experimental_verify && !fileio_files(job)->verify.verify_only))
		return 0;
	/* the log of the writes (verify_prepare): an entry a write, at most */
	const uint64_t wbs = fileio_files(job)->where.min_bs_rw[1] ? fileio_files(job)->where.min_bs_rw[1]
								   : fileio_files(job)->where.min_bs;
	const uint64_t per_loop = (fileio_files(job)->where.io_size ? fileio_files(job)->where.io_size
								    : fileio_files(job)->layout.size) /
					  wbs +
				  1;
	const uint64_t most =
		UINT64_MAX / sizeof(struct verify_entry) / job->numjobs / fileio_files(job)->layout.loops;

	return workload_check_memory(job, fileio_files(job)->where.io_size ? "io_size" : "size",
				     "(size or io_size) * loops / bs * 16 bytes * numjobs",
				     "verify's log of the writes",
				     per_loop > most ? UINT64_MAX
						     : per_loop * fileio_files(job)->layout.loops *
							       sizeof(struct verify_entry) * job->numjobs,
				     "lower size, loops or numjobs, or raise bs", err);
}
