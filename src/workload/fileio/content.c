/* What a file workload's writes carry; see content.h. */
#include "workload/fileio/content.h"

#include <string.h>

#include "job/job.h"
#include "workload/fileio/keys.h"
#include "workload/fileio/files.h"

#define SECTOR 512

/* Thread t's j-th unique page: every page of the run has its own seed. */
static uint64_t seed_of(const struct content *c, uint64_t t, uint64_t j)
{
	uint64_t x = c->seed ^ (t * 0x9e3779b97f4a7c15ull);

	x += rng_splitmix64(&j);
	return rng_splitmix64(&x);
}

/* len random bytes from seed (len a multiple of 8 or not). */
static void fill_random(void *buf, uint64_t len, uint64_t seed)
{
	char *p = buf;
	uint64_t i = 0;

	for (; i + 8 <= len; i += 8) {
		const uint64_t x = rng_splitmix64(&seed);

		memcpy(p + i, &x, 8);
	}
	if (i < len) {
		const uint64_t x = rng_splitmix64(&seed);

		memcpy(p + i, &x, len - i);
	}
}

/* The write's data from its page seed: chunk by chunk, each from a seed of
 * its own, random bytes and then compress % zeros (fio's
 * fill_random_buf_percentage). */
static void fill_page(const struct content *c, char *buf, uint64_t len, uint64_t seed)
{
	uint64_t n = 0;

	if (!c->compress && !c->dedupe) {
		fill_random(buf, len, seed);
		return;
	}
	for (uint64_t off = 0; off < len; off += c->chunk, n++) {
		const uint64_t this = len - off < c->chunk ? len - off : c->chunk;
		const uint64_t rnd = this * (100 - c->compress) / 100;
		uint64_t s = seed + n;

		fill_random(buf + off, rnd, rng_splitmix64(&s));
		memset(buf + off + rnd, 0, this - rnd);
	}
}

void content_init(struct content *c, const struct job *job, unsigned index)
{
	const struct fileio_conf *conf = fileio_conf(job);
	const uint64_t wbs = fileio_files(job)->where.min_bs_rw[1] ? fileio_files(job)->where.min_bs_rw[1]
								   : fileio_files(job)->where.min_bs;

	*c = (struct content){
		.zero = conf->zero_buffers,
		.scramble = conf->scramble_buffers,
		.refill = conf->refill_buffers && !conf->zero_buffers,
		.compress = (unsigned)conf->compress_pct,
		.chunk = conf->compress_chunk && conf->compress_chunk < wbs ? conf->compress_chunk : wbs,
		.dedupe = (unsigned)conf->dedupe_pct,
		.working_set = conf->dedupe_mode == DEDUPE_WORKING_SET,
		.thread = fileio_files(job)->pacing.thread_base + index,
		.threads = fileio_files(job)->latency.threads_all
				   ? fileio_files(job)->latency.threads_all
				   : fileio_files(job)->pacing.thread_base + job->numjobs,
		.seed = job->randseed ^ 0xc0471e47ull,
	};
	if (conf->bpattern_len) {
		c->pattern = conf->bpattern;
		c->pattern_len = conf->bpattern_len;
	}
	/* a pattern is put back before each write of a job that reads too:
	 * a read into the buffer would leave its data there (fio refills) */
	c->per_write = c->scramble || c->refill || (c->pattern && job_reads(job));
	c->last = seed_of(c, c->thread, 0);
	rng_seed(&c->rng, c->seed + c->thread);
	if (c->dedupe && c->working_set) {
		c->ws_pages = fileio_files(job)->layout.size * conf->dedupe_ws_pct / 100 / wbs;
		if (!c->ws_pages)
			c->ws_pages = 1;
		/* dedupe_global: the working set's pages are those of every
		 * thread's stream in turn, ws_per of each (fio's pages_per_seed) */
		c->ws_per = c->ws_pages;
		if (conf->dedupe_global)
			c->ws_per = c->ws_pages / c->threads ? c->ws_pages / c->threads : 1;
	}
}

/* The pattern repeated over len bytes from its first byte. */
static void fill_pattern(const struct content *c, char *buf, uint64_t len)
{
	for (uint64_t i = 0; i < len; i += c->pattern_len)
		memcpy(buf + i, c->pattern, len - i < c->pattern_len ? len - i : c->pattern_len);
}

void content_first(struct content *c, void *buf, uint64_t len)
{
	if (c->pattern)
		fill_pattern(c, buf, len);
	else if (c->zero)
		memset(buf, 0, len);
	else
		fill_page(c, buf, len, c->last);
}

/* The seed of the next write's data (fio's get_buf_state). */
static uint64_t next_seed(struct content *c)
{
	if (c->dedupe == 100)
		return c->last; /* fio: every write the first */
	if (c->dedupe && rng_below(&c->rng, 100) < c->dedupe) {
		if (!c->working_set)
			return c->last;
		const uint64_t i = rng_below(&c->rng, c->ws_pages), k = i / c->ws_per;

		return seed_of(c, (c->thread + k) % c->threads, i - k * c->ws_per);
	}
	c->last = seed_of(c, c->thread, c->unique++);
	return c->last;
}

void content_write(struct content *c, void *buf, uint64_t len, uint64_t off)
{
	char *p = buf;

	c->writes++;
	if (c->pattern) {
		fill_pattern(c, p, len);
		return;
	}
	if (c->refill) {
		fill_page(c, p, len, next_seed(c));
		return;
	}
	/* fio's small_content_scramble: in each sector, its offset at the
	 * start and the thread's and write's numbers at the end of the first
	 * 64 bytes. fio puts the offset in one of the sector's 64-byte lines
	 * at random; the same place each time keeps a buffer's data free of
	 * what earlier writes left, so every engine writes the same bytes. */
	const uint64_t stamp[2] = { c->thread, c->writes };

	for (uint64_t s = 0; s + SECTOR <= len; s += SECTOR) {
		const uint64_t where = off + s;

		memcpy(p + s, &where, 8);
		memcpy(p + s + 64 - sizeof(stamp), stamp, sizeof(stamp));
	}
}
