/*
 * What a file workload's writes carry, with fio's buffer keys: data that
 * neither compresses nor deduplicates by default (random, each write
 * stamped per 512-byte sector: scramble_buffers), or new random data each
 * write (refill_buffers), zeros (zero_buffers), a share of each chunk that
 * compresses (buffer_compress_percentage, buffer_compress_chunk), a share
 * of the writes that repeats earlier ones (dedupe_percentage, dedupe_mode,
 * dedupe_working_set_percentage, dedupe_global), or a pattern of bytes
 * repeated from the start of each write (buffer_pattern).
 *
 * The content of a write comes from a 64-bit seed: thread t's j-th unique
 * write has seed_of(t, j). A write that deduplicates takes the seed of the
 * thread's last unique write (dedupe_mode=repeat) or of a page of its
 * working set (working_set: the first pages of its own stream, or with
 * dedupe_global pages of every thread's stream in turn, as fio spreads
 * them), so its data is byte for byte one written before. Nothing is
 * stored per write: the working set is a formula.
 */
#ifndef DBIO_WORKLOAD_CONTENT_H
#define DBIO_WORKLOAD_CONTENT_H

#include <stdbool.h>
#include <stdint.h>

#include "util/rng.h"

struct job;

struct content {
	bool per_write;		/* anything to do before each write */
	bool zero;		/* zeros (zero_buffers) */
	bool scramble;		/* stamp each 512-byte sector */
	bool refill;		/* new data each write */
	unsigned compress;	/* percent of each chunk that is zeros */
	uint64_t chunk;		/* bytes of a chunk: its random part, then zeros */
	unsigned dedupe;	/* percent of writes that repeat */
	bool working_set;	/* dedupe from the working set, else the last unique */
	uint64_t ws_pages;	/* pages of the working set */
	uint64_t ws_per;	/* dedupe_global: pages of each thread in turn */
	uint64_t thread;	/* fio's thread number of this thread */
	uint64_t threads;	/* of the run, for dedupe_global */
	uint64_t seed;		/* the run's: randseed */
	uint64_t unique;	/* unique writes so far */
	uint64_t last;		/* the seed of the last unique write */
	uint64_t writes;	/* writes so far (scramble's stamp) */
	struct rng rng;		/* which writes repeat, which page */
	const uint8_t *pattern; /* buffer_pattern's bytes (the job's), or NULL */
	unsigned pattern_len;
};

/* Set c up for thread index (0-based, of job's numjobs). */
void content_init(struct content *c, const struct job *job, unsigned index);

/* Fill the len bytes at buf once, before the first write: what every write
 * carries when nothing changes per write. */
void content_first(struct content *c, void *buf, uint64_t len);

/* Make the len bytes at buf the data of the next write, at off; only when
 * c->per_write. */
void content_write(struct content *c, void *buf, uint64_t len, uint64_t off);

#endif
