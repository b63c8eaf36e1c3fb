/* Where the next I/O of a file workload goes, and fio's budget; see where.h. */
#include "workload/fileio/where.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "workload/workload.h"
#include "workload/workload_int.h"
#include "workload/fileio/files.h"

#define NONE UINT64_MAX

/* The random offsets of each direction: multiples of its alignment, as
 * many as fio's last_block counts in the region (in a zone: its span);
 * offgen draws them when they are its blocks, and a map of them is kept
 * when I/Os of several blocks mark it. */
static int init_random(struct where *wh, const struct job *job)
{
	const uint64_t span = wh->zone_range ? wh->zone_range : wh->region;
	bool all_ok = true;

	for (int d = 0; d < 2; d++) {
		const uint64_t lo = fileio_files(job)->where.min_bs_rw[d],
			       ba = fileio_files(job)->where.ba_rw[d];
		const uint64_t cut = lo > ba ? lo - ba : 0;

		wh->ba[d] = ba;
		wh->lastb[d] = span > cut ? (span - cut) / ba : 0;
		wh->offgen_ok[d] = ba == wh->bs && wh->lastb[d] == wh->gen.nblocks;
		if (d ? job_writes(job) : job_reads(job))
			all_ok = all_ok && wh->offgen_ok[d];
	}
	wh->mapped = fileio_files(job)->where.sizes_vary && wh->random &&
		     !fileio_files(job)->layout.norandommap && wh->gen.mode == OFFGEN_RANDMAP && all_ok;
	if (!wh->mapped)
		return 0;
	wh->map = calloc((wh->gen.nblocks + 63) / 64, sizeof(*wh->map));
	return wh->map ? 0 : -ENOMEM;
}

/* fio's end of a job bound by size: size bytes a pass (or what the region
 * holds), io_size (or size) * loops bytes, number_ios * loops I/Os. */
static void init_budget(struct where *wh, const struct job *job, const struct worker *w)
{
	wh->pass_limit = w->ops_per_pass * fileio_files(job)->where.min_bs;
	/* sizes that vary: fio's pass is size bytes, whatever the sizes */
	if (fileio_files(job)->where.sizes_vary)
		wh->pass_limit = fileio_files(job)->layout.size < wh->region ? fileio_files(job)->layout.size
									     : wh->region;
	wh->limit = wh->max_ops = UINT64_MAX;
	if (job->time_based)
		return;
	const uint64_t per_loop = w->io_bytes ? w->io_bytes : wh->pass_limit;

	if (per_loop <= UINT64_MAX / fileio_files(job)->layout.loops)
		wh->limit = per_loop * fileio_files(job)->layout.loops;
	if (fileio_files(job)->where.number_ios &&
	    fileio_files(job)->where.number_ios <= UINT64_MAX / fileio_files(job)->layout.loops)
		wh->max_ops = fileio_files(job)->where.number_ios * fileio_files(job)->layout.loops;
	/* verify_state_load: no read past the writes the saved job completed */
	if (w->vstate && w->vstate_writes < wh->max_ops)
		wh->max_ops = w->vstate_writes;
}

/* The generator of blocks: sequential, a random map (lfsr keeps one even
 * with norandommap, as fio's LFSR never repeats), uniform, a skewed
 * distribution; over the thread's blocks, or a zone's. */
static void init_gen(struct where *wh, const struct job *job, const struct worker *w, uint64_t seed)
{
	static const enum offgen_mode skewed[] = {
		[DIST_ZIPF] = OFFGEN_ZIPF, [DIST_PARETO] = OFFGEN_PARETO, [DIST_NORMAL] = OFFGEN_NORMAL
	};
	const uint64_t nblocks = wh->zone_range ? wh->zone_range / wh->bs : w->slice_len;
	enum offgen_mode mode = OFFGEN_SEQ;

	if (job_is_random(job))
		mode = fileio_files(job)->layout.norandommap &&
				       fileio_files(job)->where.random_generator != RANDGEN_LFSR
			       ? OFFGEN_UNIFORM
			       : OFFGEN_RANDMAP;
	if (fileio_files(job)->layout.dist == DIST_ZONED ||
	    fileio_files(job)->layout.dist == DIST_ZONED_ABS ||
	    fileio_files(job)->layout.dist == DIST_SEQUENCE)
		mode = OFFGEN_UNIFORM; /* fio keeps no map for a distribution */
	wh->ends_at_files = wh->plain && !job->time_based && w->ops_per_pass == w->slice_len &&
			    (mode == OFFGEN_SEQ ||
			     (mode == OFFGEN_RANDMAP && fileio_files(job)->layout.dist == DIST_UNIFORM));
	if (job_is_random(job) && fileio_files(job)->layout.dist != DIST_UNIFORM && mode != OFFGEN_UNIFORM)
		offgen_init_skewed(&wh->gen, skewed[fileio_files(job)->layout.dist],
				   fileio_files(job)->layout.dist_param, nblocks, seed);
	else
		offgen_init(&wh->gen, mode, nblocks, seed);
}

/* fio's generators, seeded as fio's td_fill_rand_seeds: the sizes, one
 * per direction (a job that verifies draws its writes' from the reads'
 * seed, a trimwrite its trims' from the writes'), the random offsets and
 * the direction of a mixed job. */
static void init_taus(struct where *wh, const struct job *job, const struct worker *w)
{
	const bool wide = fileio_files(job)->where.random_generator == RANDGEN_TAUSWORTHE64;
	const uint64_t r = worker_fio_seed(w, TAUS_BS_READ);
	const uint64_t wr =
		fileio_files(job)->verify.verify != VERIFY_NONE ? r : worker_fio_seed(w, TAUS_BS_WRITE);
	const bool trimwrite = fileio_files(job)->layout.rw == RW_TRIMWRITE ||
			       fileio_files(job)->layout.rw == RW_RANDTRIMWRITE;

	taus_seed(&wh->taus.sizes[0], r, wide);
	taus_seed(&wh->taus.sizes[1], wr, wide);
	taus_seed(&wh->taus.sizes[2], trimwrite ? wr : worker_fio_seed(w, TAUS_BS_TRIM), wide);
	/* fio's random offsets: randrepeat's seed, else randseed's */
	taus_seed(&wh->taus.offs,
		  job->randrepeat ? TAUS_REPEAT_SEED * (fileio_files(job)->pacing.thread_base + w->index + 1)
				  : worker_fio_seed(w, TAUS_BLOCK),
		  wide);
	taus_seed(&wh->taus.mix, worker_fio_seed(w, TAUS_MIX), false); /* 32 bits, as fio */
	wh->taus0 = wh->taus;
	wh->reseed = job->randrepeat;
	wh->mixed = fileio_files(job)->layout.rw == RW_RANDRW || fileio_files(job)->layout.rw == RW_READWRITE;
	wh->mix_read = (unsigned)fileio_files(job)->layout.rwmixread;
}

enum op_type where_mix_op(struct where *wh)
{
	wh->mix_was = wh->taus.mix;
	wh->mix_dir_was = wh->mix_dir;
	if (wh->issues[wh->mix_dir] >= wh->mix_due) {
		const int d = taus_1_100(&wh->taus.mix) <= wh->mix_read ? 0 : 1;

		/* fio's set_rwmix_bytes: the new direction's share of the
		 * I/Os the old one issued */
		if (d != wh->mix_dir)
			wh->mix_due = wh->issues[wh->mix_dir] * (d ? 100 - wh->mix_read : wh->mix_read) / 100;
		wh->mix_dir = d;
	}
	return wh->mix_dir ? OP_WRITE : OP_READ;
}

int where_init(struct where *wh, const struct worker *w, uint64_t seed)
{
	const struct job *job = w->job;
	const uint64_t t = fileio_files(job)->layout.share_files ? 0 : w->index;
	const bool random = job_is_random(job);

	*wh = (struct where){
		.bpf = w->blocks_per_file,
		.slice_first = w->slice_first,
		.ops_per_pass = w->ops_per_pass,
		.file_off = job_file_offset(job, t),
		.start_off = job_file_offset(job, t),
		.region = job_region_bytes(job, t),
		.file_bytes = job_file_bytes(job, t),
		.bs = fileio_files(job)->where.min_bs,
		.time_based = job->time_based,
		.io_bytes = w->io_bytes,
		.loops = fileio_files(job)->layout.loops,
		.readback_counts = job_readback_counts(job),
		.pass_is_io_size = job_pass_is_io_size(job),
		.random = random,
		.identical = fileio_files(job)->where.rw_sequencer == RW_SEQ_IDENTICAL,
		.seq_add = fileio_files(job)->where.seq_add,
		.seq_nr = fileio_files(job)->where.seq_nr,
		.perc_rand = { fileio_files(job)->where.perc_rand, fileio_files(job)->where.perc_rand_write },
		.zoned = fileio_files(job)->layout.dist == DIST_ZONED ||
			 fileio_files(job)->layout.dist == DIST_ZONED_ABS,
		.sequence = fileio_files(job)->layout.dist == DIST_SEQUENCE,
		.zone_size = fileio_files(job)->where.zonesize,
		.zone_range = fileio_files(job)->where.zonesize ? fileio_files(job)->where.zonerange : 0,
		.zone_skip = fileio_files(job)->where.zoneskip,
		.job = job,
	};
	/* offgen's blocks serve all but what fio draws byte by byte */
	wh->plain = fileio_files(job)->where.seq_add == 0 && fileio_files(job)->where.seq_nr == 1 &&
		    !fileio_files(job)->where.sizes_vary && !wh->zone_size && !wh->zoned && !wh->sequence &&
		    !(random && (wh->perc_rand[0] < 100 || wh->perc_rand[1] < 100));
	init_budget(wh, job, w);
	init_gen(wh, job, w, seed);
	rng_seed(&wh->rng, seed ^ 0xb10c51e5ull);
	init_taus(wh, job, w);
	wh->seq_left = 1; /* as fio: the first I/O takes a new (random) offset */
	int rc = init_random(wh, job);

	where_restart(wh);
	return rc;
}

void where_release(struct where *wh)
{
	free(wh->map);
	wh->map = NULL;
}

/* The random map of sizes that vary, every block free again. */
static void map_clear(struct where *wh)
{
	if (!wh->map)
		return;
	memset(wh->map, 0, (wh->gen.nblocks + 63) / 64 * sizeof(*wh->map));
	wh->map_free = wh->gen.nblocks;
}

/* A pass starts: fio opens its files again (fio_file_reset). */
static void start_pass(struct where *wh)
{
	wh->pass_bytes = 0;
	wh->file_off = wh->start_off;
	wh->zone_bytes = 0;
	for (int d = 0; d < 2; d++) {
		wh->last_pos[d] = wh->file_off;
		wh->last_start[d] = NONE;
	}
	map_clear(wh);
}

void where_restart(struct where *wh)
{
	wh->bytes = wh->ops = 0;
	wh->issues[0] = wh->issues[1] = 0;
	wh->mix_due = 0; /* fio's reset_all_stats */
	wh->resync = false;
	wh->loops_left = wh->loops - 1;
	wh->pass = 0;
	wh->gen.pos = 0;
	start_pass(wh);
}

bool where_new_pass(struct where *wh, bool files_done)
{
	/* fio's keep_running: the passes loops= owes first, then more while
	 * io_size (else size) has a whole block left, but not after a pass
	 * that found its files done without io_size. The read back of a
	 * job that only writes is as many bytes again (readback_counts). */
	const uint64_t lim = wh->io_bytes ? wh->io_bytes : wh->pass_limit;
	const uint64_t max_bs = fileio_files(wh->job)->where.max_bs;
	const uint64_t done = wh->readback_counts && wh->bytes <= UINT64_MAX / 2 ? 2 * wh->bytes : wh->bytes;

	if (wh->time_based || wh->loops_left) {
		if (!wh->time_based)
			wh->loops_left--;
		wh->pass++;
	} else if (done >= lim || lim - done < max_bs || (files_done && !wh->io_bytes)) {
		return false;
	} else if (!wh->pass_is_io_size) {
		wh->pass++;
	}
	offgen_new_pass(&wh->gen);
	start_pass(wh);
	if (wh->reseed)
		wh->taus = wh->taus0;
	wh->mix_due = 0; /* fio's clear_io_state: a new draw, its issues kept */
	wh->resync = wh->ends_at_files;
	return true;
}

bool where_next_pass(struct where *wh, bool files_done, bool by_bytes, enum op_type *op, struct io_req *io)
{
	if (wh->mixed && by_bytes) {
		wh->taus.mix = wh->mix_was;
		wh->mix_dir = wh->mix_dir_was;
	}
	if (!where_new_pass(wh, files_done))
		return false;
	if (wh->mixed)
		io->op = *op = where_mix_op(wh);
	return true;
}

/* fio's file reset: both directions start over at file_off, with a new
 * random map. */
static void reset_file(struct where *wh)
{
	for (int d = 0; d < 2; d++) {
		wh->last_pos[d] = wh->file_off;
		wh->last_start[d] = NONE;
	}
	offgen_new_pass(&wh->gen);
	map_clear(wh);
}

/* zonemode=strided before each I/O (fio's setup_strided_zone_mode): after
 * zone_size bytes, the next zone, back to the start past the end of the
 * file; in a zone, back to its start past its span; a new random map each
 * zone_range bytes. */
static void zone_step(struct where *wh, int d)
{
	if (wh->zone_bytes >= wh->zone_size) {
		wh->zone_bytes = 0;
		wh->file_off += wh->zone_range + wh->zone_skip;
		if (wh->file_off >= wh->file_bytes)
			wh->file_off = wh->start_off;
		wh->last_pos[d] = wh->file_off;
	}
	if (wh->last_pos[d] >= wh->file_off + wh->zone_range)
		wh->last_pos[d] = wh->file_off;
	if (wh->zone_bytes % wh->zone_range == 0)
		reset_file(wh);
}

/* fio's next sequential offset of direction d (get_next_seq_offset),
 * relative to the region, wrapping as fio 3.33 does; false when the file
 * is done. */
static bool seq_offset(struct where *wh, int d, uint64_t *rel)
{
	const uint64_t fo = wh->file_off, size = wh->file_bytes;
	/* where fio starts backwards I/O over: the region's length, which it
	 * takes for an offset in the file */
	const uint64_t back = size > wh->region ? wh->region : size;
	uint64_t pos;

	if (wh->time_based && wh->last_pos[d] >= wh->region + wh->start_off)
		wh->last_pos[d] = fo;
	if (wh->last_pos[d] >= size)
		return false;
	if (wh->last_pos[d] == fo && fo && wh->seq_add < 0)
		wh->last_pos[d] = back;
	/* unsigned, as in fio: a position before the start wraps past the end */
	pos = wh->last_pos[d] - fo;
	if (pos && wh->seq_add) {
		pos += (uint64_t)wh->seq_add;
		if (pos >= size)
			pos = wh->seq_add > 0 ? fo : back + (uint64_t)wh->seq_add;
	}
	*rel = pos;
	return true;
}

static bool map_isset(const struct where *wh, uint64_t b)
{
	return wh->map[b / 64] >> (b % 64) & 1;
}

/* The first free block after b, around the end (fio's axmap_next_free);
 * there is one. */
static uint64_t map_next_free(const struct where *wh, uint64_t b)
{
	const uint64_t words = (wh->gen.nblocks + 63) / 64;
	uint64_t n = b + 1 < wh->gen.nblocks ? b + 1 : 0;

	for (uint64_t i = 0; i <= words; i++) {
		const uint64_t w = n / 64, free = ~wh->map[w] & (~0ull << (n % 64));

		if (free && w * 64 + (uint64_t)__builtin_ctzll(free) < wh->gen.nblocks)
			return w * 64 + (uint64_t)__builtin_ctzll(free);
		n = (w + 1) * 64 < wh->gen.nblocks ? (w + 1) * 64 : 0;
	}
	return b; /* not reached: map_free counts a free block */
}

/* fio's zoned random offset: a zone by its share of the accesses, then a
 * uniform block in it (zoned: shares of last_block; zoned_abs: bytes). */
static bool zoned_offset(struct where *wh, int d, uint64_t *rel)
{
	const struct job *job = wh->job;
	const unsigned v = (unsigned)rng_below(&wh->rng, 100);
	unsigned i = 0, share = fileio_files(job)->where.zone_access[d][0];
	uint64_t start, len;

	while (v >= share && i + 1 < fileio_files(job)->where.nzones[d])
		share += fileio_files(job)->where.zone_access[d][++i];
	if (fileio_files(job)->layout.dist == DIST_ZONED) {
		start = fileio_files(job)->where.zone_start[d][i] * wh->lastb[d] / 100;
		len = wh->lastb[d] * fileio_files(job)->where.zone_len[d][i] / 100;
	} else {
		start = fileio_files(job)->where.zone_start[d][i] / wh->ba[d];
		len = (fileio_files(job)->where.zone_start[d][i] + fileio_files(job)->where.zone_len[d][i]) /
			      wh->ba[d] -
		      start;
	}
	*rel = (start + (len ? rng_below(&wh->rng, len) : 0)) * wh->ba[d];
	return true;
}

/* fio's sequence distribution: the I/O's turn in the sequence, a group of
 * its length further each round with random_sequence_stride; false past
 * the region's blocks. */
static bool sequence_offset(struct where *wh, int d, uint64_t *rel)
{
	const struct job *job = wh->job;
	const uint64_t n = fileio_files(job)->where.nseq_blocks, turn = wh->issues[d] % n;
	const uint64_t b = (fileio_files(job)->where.random_sequence_stride ? wh->issues[d] / n * n : 0) +
			   fileio_files(job)->where.seq_blocks[turn];

	if (b >= wh->region / fileio_files(job)->where.min_bs_rw[d])
		return false;
	*rel = b * wh->ba[d];
	return true;
}

/* A random offset of direction d, relative to the region; false when the
 * random map is full. */
static bool random_offset(struct where *wh, int d, uint64_t *rel)
{
	uint64_t b;

	if (wh->sequence)
		return sequence_offset(wh, d, rel);
	if (wh->zoned && fileio_files(wh->job)->where.nzones[d])
		return zoned_offset(wh, d, rel);
	if (!wh->offgen_ok[d]) {
		/* another alignment than the block: uniform, as fio without a map */
		if (!wh->lastb[d])
			return false;
		*rel = taus_below(&wh->taus.offs, wh->lastb[d]) * wh->ba[d];
		return true;
	}
	if (wh->mapped) {
		/* fio's axmap: a uniform block, else the next free after it */
		if (!wh->map_free)
			return false;
		b = taus_below(&wh->taus.offs, wh->gen.nblocks);
		*rel = (map_isset(wh, b) ? map_next_free(wh, b) : b) * wh->bs;
		return true;
	}
	if (wh->gen.mode == OFFGEN_UNIFORM) {
		/* no map (norandommap): fio's uniform block */
		*rel = taus_below(&wh->taus.offs, wh->gen.nblocks) * wh->bs;
		return true;
	}
	if (wh->gen.mode == OFFGEN_RANDMAP && wh->gen.pos >= wh->gen.nblocks)
		return false;
	*rel = offgen_next(&wh->gen) * wh->bs;
	return true;
}

/* Mark the blocks of an I/O of len at block b in the map, up to the first
 * one done before, as fio does; the length cut to them. */
static uint64_t map_mark(struct where *wh, uint64_t b, uint64_t len)
{
	uint64_t n = 0;

	while (n * wh->bs < len && b + n < wh->gen.nblocks && !map_isset(wh, b + n)) {
		wh->map[(b + n) / 64] |= 1ull << ((b + n) % 64);
		wh->map_free--;
		n++;
	}
	return n * wh->bs < len ? n * wh->bs : len;
}

/* One draw of bssplit's table for an I/O at off (fio: the first entry
 * whose running share passes the draw, r / share <= max / 100 in whole
 * numbers, and that fits; else the last). */
static uint64_t split_draw(const struct job *job, int d, uint64_t r, uint64_t max, uint64_t off, uint64_t end)
{
	uint64_t n = fileio_files(job)->where.min_bs_rw[d];
	uint64_t share = 0;

	for (unsigned i = 0; i < fileio_files(job)->where.nsplit[d]; i++) {
		if (!fileio_files(job)->where.split_perc[d][i])
			continue;
		n = fileio_files(job)->where.split_bs[d][i];
		share += fileio_files(job)->where.split_perc[d][i];
		if (r / share <= max / 100 && off + n <= end)
			break;
	}
	return n;
}

/* The size of direction d's I/O at off (fio's get_next_buflen), drawn
 * with r: fixed, or from bssplit or bsrange, aligned to the smallest
 * unless bs_unaligned, and inside the region; false when not even the
 * smallest fits. */
static bool next_len(struct where *wh, int d, struct taus *r, uint64_t off, uint64_t *len)
{
	const struct job *job = wh->job;
	const uint64_t lo = fileio_files(job)->where.min_bs_rw[d], hi = fileio_files(job)->where.max_bs_rw[d];
	const uint64_t end = wh->start_off + wh->region; /* fio's io_u_fits */
	const uint64_t max = taus_max(r);

	if (lo == hi) {
		*len = lo;
		return true;
	}
	if (off + lo > end)
		return false;
	for (int tries = 0;; tries++) {
		const uint64_t x = taus_next(r);
		/* fio's bsrange: LO + HI * x / (max + 1), cut to HI */
		uint64_t n = fileio_files(job)->where.nsplit[d]
				     ? split_draw(job, d, x, max, off, end)
				     : lo + (uint64_t)((double)hi * ((double)x / ((double)max + 1.0)));

		/* fio draws on; its shares of 0 for all that fit would never end */
		if (tries == 1000)
			n = lo;
		if (!fileio_files(job)->where.bs_unaligned)
			n = (lo & (lo - 1)) == 0 ? n & ~(lo - 1) : n - n % lo;
		if (n > hi)
			n = hi;
		if (off + n <= end) {
			*len = n;
			return true;
		}
	}
}

/* fio's offset and size of the next I/O in direction d (get_next_offset,
 * get_next_buflen and the checks of fill_io_u); false when the file is
 * done. */
static bool fio_offset(struct where *wh, int d, struct taus *sizes, uint64_t *off, uint64_t *len)
{
	const bool hit = --wh->seq_left == 0;
	bool picked = false; /* a random offset, which fio marks in its map */
	uint64_t rel;

	if (hit)
		wh->seq_left = wh->seq_nr;
	/* percentage_random: fio's should_do_random; else after the I/O before */
	if (hit && wh->random && wh->perc_rand[d] < 100 && rng_below(&wh->rng, 100) >= wh->perc_rand[d]) {
		if (!seq_offset(wh, d, &rel) && !random_offset(wh, d, &rel))
			return false;
	} else if (hit && wh->random) {
		if (!random_offset(wh, d, &rel))
			return false;
		picked = true;
	} else if (hit) {
		if (!seq_offset(wh, d, &rel))
			return false;
	} else if (wh->identical) {
		rel = wh->last_start[d] != NONE ? wh->last_start[d] - wh->file_off : 0;
	} else if (!seq_offset(wh, d, &rel)) {
		if (!random_offset(wh, d, &rel))
			return false;
	}
	if (rel >= wh->region || rel + wh->file_off >= wh->file_bytes)
		return false;
	*off = rel + wh->file_off;
	if (!next_len(wh, d, sizes, *off, len) || *len > wh->file_bytes - *off)
		return false;
	if (picked && wh->mapped)
		*len = map_mark(wh, rel / wh->bs, *len);
	return true;
}

enum op_type where_first_op(const struct job *job)
{
	if (job_trims(job))
		return OP_TRIM;
	return job_reads(job) ? OP_READ : OP_WRITE;
}

bool where_pairs(const struct job *job)
{
	return fileio_files(job)->layout.rw == RW_REWRITE || fileio_files(job)->layout.rw == RW_TRIMWRITE ||
	       fileio_files(job)->layout.rw == RW_RANDTRIMWRITE;
}

bool where_next_fio(struct where *wh, enum op_type op, struct io_req *io)
{
	/* trims take the write's sizes and offsets, as fio's bs=R,W does */
	int d = op != OP_READ;
	uint64_t off, len;

	/* A pass of size (fio's queued engines; its synchronous ones go on
	 * until the files are done, for the same count), or the files done:
	 * then the next pass, if any, and a second try in it. */
	for (int tries = 0;; tries++) {
		if (wh->zone_size)
			zone_step(wh, d);
		if (wh->pass_bytes < wh->pass_limit &&
		    fio_offset(wh, d, &wh->taus.sizes[op == OP_TRIM ? 2 : d], &off, &len))
			break;
		if (tries || !where_next_pass(wh, wh->pass_bytes < wh->pass_limit,
					      wh->pass_bytes >= wh->pass_limit, &op, io))
			return false;
		d = op != OP_READ;
	}
	io->file = 0;
	io->off = off;
	io->len = len;
	wh->last_start[d] = off;
	wh->last_pos[d] = off + len;
	wh->pass_bytes += len;
	wh->zone_bytes += len;
	wh->issues[d]++;
	wh->bytes += len;
	wh->ops++;
	return true;
}
