/* fio's log files of one thread; see iolog.h. The line format and the
 * windows follow fio's stat.c (add_log_sample, __add_stat_to_log) and
 * iolog.c (flush_samples). */
#include "stats/iolog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_MS   1000000ull
#define CHUNK_FIRST 64
#define CHUNK_MAX   (1u << 20) /* records of the largest chunk grown */

static struct iolog_chunk *chunk_new(size_t cap, size_t rec_size)
{
	struct iolog_chunk *c = malloc(sizeof(*c) + cap * rec_size);

	if (c)
		*c = (struct iolog_chunk){ .cap = cap };
	return c;
}

int iolog_init(struct iolog *l, uint64_t window_ms, size_t hint, const uint64_t *epoch_ns)
{
	memset(l, 0, sizeof(*l));
	l->epoch_ns = epoch_ns;
	l->window_ms = window_ms;
	l->rec_size = window_ms ? sizeof(struct iolog_win) : sizeof(struct iolog_io);
	l->head = l->tail = chunk_new(hint > CHUNK_FIRST ? hint : CHUNK_FIRST, l->rec_size);
	for (int d = 0; d < IOLOG_NDIRS; d++)
		l->cur[d].dir = (uint8_t)d;
	return l->head ? 0 : -ENOMEM;
}

void iolog_release(struct iolog *l)
{
	for (struct iolog_chunk *c = l->head, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	memset(l, 0, sizeof(*l));
}

void *iolog_grow(struct iolog *l)
{
	const size_t cap = l->tail->cap < CHUNK_MAX ? l->tail->cap * 2 : l->tail->cap;
	struct iolog_chunk *c = chunk_new(cap, l->rec_size);

	if (!c) {
		l->lost++;
		return NULL;
	}
	l->tail->next = c;
	l->tail = c;
	c->n = 1;
	return c + 1;
}

void iolog_close_window(struct iolog *l, int dir, uint64_t now_ms)
{
	struct iolog_win *w = &l->cur[dir], *rec;

	if (w->ios && (rec = iolog_slot(l))) {
		*rec = *w;
		rec->spent_ms = now_ms - w->end_ms;
		rec->end_ms = now_ms;
	}
	*w = (struct iolog_win){ .end_ms = now_ms, .dir = (uint8_t)dir };
}

void iolog_window_add(struct iolog *l, const struct iolog_io *io)
{
	struct iolog_win *w = &l->cur[io->dir];
	const uint64_t ms = io->end_ns / NS_PER_MS;
	const uint64_t lat[3] = { io->clat_ns + io->slat_ns, io->clat_ns, io->slat_ns };

	w->ios++;
	w->bytes += io->bs;
	for (int k = 0; k < 3; k++) {
		w->sum_ns[k] += lat[k];
		if (lat[k] > w->max_ns[k])
			w->max_ns[k] = lat[k];
	}
	/* As fio: the I/O that ends a window is in it; the next window
	 * starts at the last boundary of the grid before it. */
	if (ms >= l->last_ms[io->dir] + l->window_ms) {
		iolog_close_window(l, io->dir, ms);
		l->last_ms[io->dir] = ms - ms % l->window_ms;
	}
}

void iolog_finish(struct iolog *l, uint64_t end_ns)
{
	if (!l->window_ms)
		return;
	for (int d = 0; d < IOLOG_NDIRS; d++)
		iolog_close_window(l, d, (end_ns - *l->epoch_ns) / NS_PER_MS);
}

const char *iolog_kind_name(enum iolog_kind kind)
{
	static const char *const names[IOLOG_NKINDS] = { "lat", "clat", "slat", "bw", "iops" };

	return names[kind];
}

/* An I/O's value in a log of kind: ns, KiB/s over its completion latency
 * (fio's bytes * 10^6 / clat), or 1. */
static uint64_t io_value(const struct iolog_io *io, enum iolog_kind kind)
{
	switch (kind) {
	case IOLOG_LAT:
		return io->clat_ns + io->slat_ns;
	case IOLOG_CLAT:
		return io->clat_ns;
	case IOLOG_SLAT:
		return io->slat_ns;
	case IOLOG_BW:
		return io->clat_ns ? (uint64_t)io->bs * 1000000 / io->clat_ns : 0;
	default:
		return 1;
	}
}

/* A window's value: the mean latency rounded (or its largest), KiB/s or
 * I/Os per second over the time since the last window closed (one figure
 * a window, so its mean and its largest are the same, as fio's). */
static uint64_t win_value(const struct iolog_win *w, enum iolog_kind kind, bool max)
{
	if (kind == IOLOG_BW)
		return w->spent_ms ? w->bytes * 1000 / w->spent_ms / 1024 : 0;
	if (kind == IOLOG_IOPS)
		return w->spent_ms ? w->ios * 1000 / w->spent_ms : 0;
	return max ? w->max_ns[kind] : (w->sum_ns[kind] + w->ios / 2) / w->ios;
}

/* One line's columns, as fio prints them. */
struct line {
	uint64_t ms, value, value1;
	unsigned dir;
	uint64_t bs, off;
	unsigned prio;
	uint64_t issue_ns; /* fio's issue time: only clat and slat lines of single I/Os have it */
};

static int put_line(FILE *f, const struct iolog_format *fmt, const struct line *l)
{
	int rc = fprintf(f, "%" PRIu64 ", %" PRIu64, l->ms + fmt->base_ms, l->value);

	if (rc >= 0 && fmt->window_value == IOLOG_WIN_BOTH)
		rc = fprintf(f, ", %" PRIu64, l->value1);
	if (rc >= 0)
		rc = fprintf(f, ", %u, %" PRIu64, l->dir, l->bs);
	if (rc >= 0 && fmt->offset)
		rc = fprintf(f, ", %" PRIu64, l->off);
	if (rc >= 0)
		rc = fmt->prio ? fprintf(f, ", 0x%04x", l->prio) : fprintf(f, ", %u", (l->prio >> 13) == 1);
	if (rc >= 0 && fmt->issue_time)
		rc = fprintf(f, ", %" PRIu64, l->issue_ns);
	if (rc >= 0)
		rc = fputc('\n', f);
	return rc < 0 ? -EIO : 0;
}

/* The line of a window, or of a single I/O. */
static struct line win_line(const struct iolog_win *w, enum iolog_kind kind, const struct iolog_format *fmt)
{
	const uint64_t mean = win_value(w, kind, false), max = win_value(w, kind, true);

	return (struct line){ .ms = w->end_ms,
			      .value = fmt->window_value == IOLOG_WIN_MAX ? max : mean,
			      .value1 = max,
			      .dir = w->dir };
}

static struct line io_line(const struct iolog_io *io, enum iolog_kind kind)
{
	/* the issue: the end of the submit (queued engines), the start of a
	 * synchronous I/O: clat before the completion either way */
	const bool issued = kind == IOLOG_CLAT || kind == IOLOG_SLAT;

	return (struct line){ .ms = io->end_ns / NS_PER_MS,
			      .value = io_value(io, kind),
			      .value1 = io_value(io, kind),
			      .dir = io->dir,
			      .bs = io->bs,
			      .off = io->off,
			      .prio = io->prio,
			      .issue_ns = issued ? io->end_ns - io->clat_ns : 0 };
}

int iolog_write(const struct iolog *l, enum iolog_kind kind, const struct iolog_format *fmt, FILE *f)
{
	int rc = 0;

	if (kind == IOLOG_SLAT && !fmt->slat)
		return 0;
	for (const struct iolog_chunk *c = l->head; c && !rc; c = c->next) {
		for (size_t i = 0; i < c->n && !rc; i++) {
			const void *r = (const char *)(c + 1) + l->rec_size * i;

			const struct line line = l->window_ms ? win_line(r, kind, fmt) : io_line(r, kind);

			rc = put_line(f, fmt, &line);
		}
	}
	return rc;
}
