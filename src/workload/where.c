/* Where the next I/O of a file workload goes, and fio's budget; see where.h. */
#include "workload/where.h"

#include "job/job.h"
#include "workload/workload.h"

#define NONE UINT64_MAX

void where_init(struct where *wh, const struct worker *w, uint64_t seed)
{
	const struct job *job = w->job;
	const uint64_t t = job->share_files ? 0 : w->index;
	enum offgen_mode mode = OFFGEN_SEQ;

	*wh = (struct where){ .bpf = w->blocks_per_file,
			      .slice_first = w->slice_first,
			      .ops_per_pass = w->ops_per_pass,
			      .file_off = job_file_offset(job, t),
			      .region = job_region_bytes(job, t),
			      .file_bytes = job_file_bytes(job, t),
			      .bs = job->bs,
			      .plain = job->seq_add == 0 && job->seq_nr == 1,
			      .time_based = job->time_based,
			      .pass_limit = w->ops_per_pass * job->bs,
			      .limit = UINT64_MAX,
			      .io_bytes = w->io_bytes,
			      .max_ops = UINT64_MAX,
			      .loops = job->loops,
			      .random = job_is_random(job),
			      .identical = job->rw_sequencer == RW_SEQ_IDENTICAL,
			      .seq_add = job->seq_add,
			      .seq_nr = job->seq_nr };
	if (!job->time_based) {
		const uint64_t per_loop = w->io_bytes ? w->io_bytes : wh->pass_limit;

		if (per_loop <= UINT64_MAX / job->loops)
			wh->limit = per_loop * job->loops;
		if (job->number_ios && job->number_ios <= UINT64_MAX / job->loops)
			wh->max_ops = job->number_ios * job->loops;
	}
	if (job_is_random(job))
		mode = job->norandommap ? OFFGEN_UNIFORM : OFFGEN_RANDMAP;
	wh->ends_at_files = wh->plain && !job->time_based && w->ops_per_pass == w->slice_len &&
			    (mode == OFFGEN_SEQ || (mode == OFFGEN_RANDMAP && job->dist == DIST_UNIFORM));
	if (job_is_random(job) && job->dist != DIST_UNIFORM)
		offgen_init_skewed(&wh->gen, job->dist == DIST_ZIPF ? OFFGEN_ZIPF : OFFGEN_PARETO,
				   job->dist_param, w->slice_len, seed);
	else
		offgen_init(&wh->gen, mode, w->slice_len, seed);
	wh->seq_left = 1; /* as fio: the first I/O takes a new (random) offset */
	where_restart(wh);
}

/* A pass starts: fio opens its files again (fio_file_reset). */
static void start_pass(struct where *wh)
{
	wh->pass_bytes = 0;
	for (int d = 0; d < 2; d++) {
		wh->last_pos[d] = wh->file_off;
		wh->last_start[d] = NONE;
	}
}

void where_restart(struct where *wh)
{
	wh->bytes = wh->ops = 0;
	wh->resync = false;
	wh->loops_left = wh->loops - 1;
	wh->gen.pos = 0;
	start_pass(wh);
}

bool where_new_pass(struct where *wh, bool files_done)
{
	/* fio's keep_running: the passes loops= owes first, then more while
	 * io_size (else size) has a whole block left, but not after a pass
	 * that found its files done without io_size. */
	const uint64_t lim = wh->io_bytes ? wh->io_bytes : wh->pass_limit;

	if (wh->time_based || wh->loops_left) {
		if (!wh->time_based)
			wh->loops_left--;
	} else if (wh->bytes >= lim || lim - wh->bytes < wh->bs || (files_done && !wh->io_bytes)) {
		return false;
	}
	offgen_new_pass(&wh->gen);
	start_pass(wh);
	wh->resync = wh->ends_at_files;
	return true;
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

	if (wh->time_based && wh->last_pos[d] >= wh->region + fo)
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

/* A random block of the region, as a relative offset; false when the
 * random map is full. */
static bool random_offset(struct where *wh, uint64_t *rel)
{
	if (wh->gen.mode == OFFGEN_RANDMAP && wh->gen.pos >= wh->gen.nblocks)
		return false;
	*rel = offgen_next(&wh->gen) * wh->bs;
	return true;
}

/* fio's offset of the next I/O of len bytes in direction d (get_next_offset
 * with the checks of fill_io_u); false when the file is done. */
static bool fio_offset(struct where *wh, int d, uint64_t len, uint64_t *off)
{
	const bool hit = --wh->seq_left == 0;
	uint64_t rel;

	if (hit)
		wh->seq_left = wh->seq_nr;
	if (hit && wh->random) {
		if (!random_offset(wh, &rel))
			return false;
	} else if (hit) {
		if (!seq_offset(wh, d, &rel))
			return false;
	} else if (wh->identical) {
		rel = wh->last_start[d] != NONE ? wh->last_start[d] - wh->file_off : 0;
	} else if (!seq_offset(wh, d, &rel) && !random_offset(wh, &rel)) {
		return false;
	}
	if (rel >= wh->region || rel + wh->file_off >= wh->file_bytes ||
	    len > wh->file_bytes - (rel + wh->file_off))
		return false;
	*off = rel + wh->file_off;
	return true;
}

bool where_next_fio(struct where *wh, enum op_type op, struct where_io *io)
{
	const int d = op == OP_WRITE;
	const uint64_t len = wh->bs;
	bool files_done = false;
	uint64_t off;

	/* A pass of size (fio's queued engines; its synchronous ones go on
	 * until the files are done, for the same count), or the files done:
	 * then the next pass, if any, and a second try in it. */
	for (int tries = 0;; tries++) {
		if (wh->pass_bytes < wh->pass_limit && fio_offset(wh, d, len, &off))
			break;
		files_done = wh->pass_bytes < wh->pass_limit;
		if (tries || !where_new_pass(wh, files_done))
			return false;
	}
	io->file = 0;
	io->off = off;
	io->len = len;
	wh->last_start[d] = off;
	wh->last_pos[d] = off + len;
	wh->pass_bytes += len;
	wh->bytes += len;
	wh->ops++;
	return true;
}
