/*
 * Where a thread of a file workload does its next I/O, and how much it does:
 * fio's "how much and where" for fileio. The budget ends a job bound by
 * size where fio ends it: passes over the thread's region of its files
 * (size bytes each, or less when the files are done first), until loops
 * passes are done and io_size is reached, never past io_size * loops bytes
 * nor number_ios * loops I/Os. Each file's region starts at fio's
 * file_offset (offset + thread * offset_increment).
 *
 * Two ways to the next offset. The plain one, offgen's blocks of one size
 * (a sequential walk, a random map, a distribution), inline. fio's, for
 * what needs its byte-by-byte state (where.c): rw's offset modifier
 * (holes, backwards, rw=randread:8 with rw_sequencer), as fio 3.33 computes
 * it, its wrap at the end of the file included; sizes that vary (bs=R,W
 * in a mixed job, bsrange, bssplit) drawn by fio's rule, random offsets
 * aligned to blockalign, and a random map that an I/O of several blocks
 * marks and is cut at, as fio's.
 *
 * fileio makes one in prepare (where_init), asks it for every I/O in the
 * measured loop (where_next: no allocation, no system call) and starts it
 * over when the ramp ends (where_restart).
 */
#ifndef DBIO_WORKLOAD_WHERE_H
#define DBIO_WORKLOAD_WHERE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "stats/opstats.h"
#include "util/taus.h"
#include "workload/offgen.h"

struct worker;

struct where {
	/* The thread's files, from the runner (struct worker). */
	uint64_t bpf;	       /* blocks of each file's region */
	uint64_t slice_first;  /* the thread's blocks: [slice_first, +slice_len) */
	uint64_t ops_per_pass; /* blocks of a pass: size / bs */
	uint64_t file_off;     /* fio's file_offset: where each file's region starts */
	uint64_t start_off;    /* where it starts at the start of a pass */
	uint64_t region;       /* bytes of each file's region (fio's io_size of a file) */
	uint64_t file_bytes;   /* each file's size (fio's real_file_size) */
	uint64_t bs;
	bool plain; /* offgen's blocks; else fio's offsets (where_next_fio) */
	/* The budget; a time_based job has none (limit and max_ops the largest). */
	bool time_based;
	uint64_t pass_limit; /* bytes of a pass: fio's size */
	uint64_t limit;	     /* bytes in all: (io_size or size) * loops */
	uint64_t io_bytes;   /* the thread's io_size; 0: none */
	uint64_t max_ops;    /* number_ios * loops */
	uint64_t loops;	     /* loops= */
	uint64_t loops_left; /* passes still owed to loops= */
	uint64_t pass;	     /* passes begun before this one: the tag of its writes in the read back */
	/* fio reads each pass's writes back before the next pass, and those
	 * reads count toward io_size: a job that only writes, with verify=
	 * and do_verify=1 (fio 3.33's keep_running, measured) */
	bool readback_counts;
	bool pass_is_io_size; /* io_size's further passes are one pass to the read back */
	uint64_t bytes, ops;  /* issued since the start (or the end of the ramp) */
	uint64_t pass_bytes;  /* issued in this pass (fio's offsets) */
	/* A pass ends where fio finds its files done (the end of a sequential
	 * region, a full random map), and fio's synchronous engines then issue
	 * a due sync once more when the next pass starts: resync says so. */
	bool ends_at_files;
	bool resync;
	/* fio's offsets: its state per direction (read, write) of the file. */
	bool random;	       /* a random pattern */
	bool identical;	       /* rw_sequencer=identical */
	int64_t seq_add;       /* rw=read:N: bytes added after each sequential I/O */
	uint64_t seq_nr;       /* rw=randread:N: a random offset every seq_nr I/Os */
	uint64_t seq_left;     /* I/Os until the next random offset */
	uint64_t perc_rand[2]; /* percentage_random: of a random pattern's I/Os */
	bool zoned;	       /* random_distribution=zoned or zoned_abs */
	bool sequence;	       /* random_distribution=sequence */
	uint64_t issues[2];    /* I/Os of each direction issued (fio's io_issues) */
	/* zonemode=strided: zone_size bytes in a zone, then zone_range +
	 * zone_skip on (file_off moves); zone_bytes done in this one */
	uint64_t zone_size, zone_range, zone_skip, zone_bytes;
	uint64_t last_pos[2];	/* fio's last_pos: the end of the last I/O */
	uint64_t last_start[2]; /* where it started; UINT64_MAX: none yet */
	/* fio's sizes and alignments per direction (bs=R,W, bsrange, bssplit,
	 * blockalign); the job holds bssplit's table. */
	const struct job *job;
	uint64_t ba[2];	   /* random offsets are multiples of this */
	uint64_t lastb[2]; /* how many: fio's last_block */
	bool offgen_ok[2]; /* gen covers them (ba is bs); else uniform draws */
	bool mapped;	   /* a random map of blocks of bs that I/Os of several
			    * blocks mark (fio's axmap): each block done once */
	uint64_t *map;	   /* gen.nblocks bits; owned */
	uint64_t map_free; /* its blocks not done yet */
	struct rng rng;	   /* offsets that offgen does not draw */
	/* fio's generators, seeded as fio seeds them (and again each pass
	 * with randrepeat, as fio's clear_io_state): random offsets of the
	 * map (random_state), the sizes of reads, writes and trims
	 * (bsrange_state), read or write of a mixed job (rwmix_state) */
	struct where_taus {
		struct taus offs, sizes[3], mix;
	} taus, taus0;
	bool reseed;	   /* randrepeat */
	bool mixed;	   /* rw=randrw or readwrite: where_mix_op's draws */
	unsigned mix_read; /* rwmixread */
	int mix_dir;	   /* fio's rwmix_ddir: 0 read, 1 write */
	uint64_t mix_due;  /* fio's rwmix_issues, against issues[] */
	/* before the last draw: a draw for a pass that ended by its bytes,
	 * which fio makes in the next pass only */
	struct taus mix_was;
	int mix_dir_was;
	struct offgen gen;
};

/* Set wh up for worker w of a file workload (its job validated, its files
 * and slice assigned by the runner), with seed for dbio's random offsets
 * (the sizes of bsrange and bssplit, the offsets of varying sizes and a
 * mixed job's directions draw from fio's seeds, worker_fio_seed). 0 or
 * -ENOMEM (the random map of varying sizes); where_release frees what it
 * holds either way. */
int where_init(struct where *wh, const struct worker *w, uint64_t seed);
void where_release(struct where *wh);

/* Start over, as at the start: the ramp's I/O does not count. */
void where_restart(struct where *wh);

/* A pass is over (files_done: fio found its files done, rather than size
 * issued): start the next one if fio would (the passes loops= owes, then
 * while io_size has a whole block left); false when the job is done. */
bool where_new_pass(struct where *wh, bool files_done);

/* The op of every I/O of a job that does not mix reads and writes
 * (OP_TRIM for fio's trim modes); for rewrite and trimwrite the first of a
 * pair at one offset, the second a write (where_pairs). */
enum op_type where_first_op(const struct job *job);
bool where_pairs(const struct job *job);

/* Read or write, the next I/O of a mixed job (rw=randrw, readwrite) as
 * fio chooses (get_rw_ddir): a new draw of rwmixread's odds when the
 * direction drawn last has had its share of the I/Os issued. where_next
 * draws again when the I/O starts a pass, as fio. */
enum op_type where_mix_op(struct where *wh);

/* The next pass begins (where_new_pass) before the I/O of op: for a mixed
 * job, op drawn again after it, into io->op, the draw of op undone first
 * when the pass ended by its bytes (by_bytes), which fio checks before it
 * draws; false when the job is done. For where_next. */
bool where_next_pass(struct where *wh, bool files_done, bool by_bytes, enum op_type *op, struct io_req *io);

/* where_next for fio's offsets (where.c). */
bool where_next_fio(struct where *wh, enum op_type op, struct io_req *io);

/* Whether the budget allows another I/O after those issued: as fio, a sync
 * due after the last write of a job bound by size is not issued. */
static inline bool where_more(const struct where *wh)
{
	return wh->bytes < wh->limit && wh->ops < wh->max_ops;
}

/* The next I/O of op (OP_READ, OP_WRITE or OP_TRIM, as the caller drew it): its
 * file, offset and length into io (and, in a mixed job whose pass ended,
 * io->op drawn again, see where_next_pass; nothing else of it), counted in
 * the budget as issued; false when the thread's I/O is done (never for a
 * time_based job). */
static inline bool where_next(struct where *wh, enum op_type op, struct io_req *io)
{
	if (!where_more(wh))
		return false;
	if (!wh->plain)
		return where_next_fio(wh, op, io);
	if (wh->gen.pos == wh->ops_per_pass && !where_next_pass(wh, true, true, &op, io))
		return false;
	uint64_t block = wh->slice_first + offgen_next(&wh->gen);

	io->file = (unsigned)(block / wh->bpf);
	io->off = wh->file_off + block % wh->bpf * wh->bs;
	io->len = wh->bs;
	wh->bytes += io->len;
	wh->ops++;
	wh->issues[op != OP_READ]++;
	return true;
}

#endif
