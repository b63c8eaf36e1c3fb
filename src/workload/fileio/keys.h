/*
 * workload=fileio's own keys (keys.c's table, workload_fileio.options):
 * the values a job of fileio holds as job->wl_conf, as every workload's
 * own keys. A key only fileio honours is a row in keys.c and a field
 * here; the keys fileio shares with oltp (the layout: rw, bs, size,
 * nrfiles ...) are files.c's table, which fills struct fileio_files
 * (files.h, fileio_files(job)), so that both workloads, the runner's
 * layout and plan/ reach them.
 */
#ifndef DBIO_WORKLOAD_FILEIO_KEYS_H
#define DBIO_WORKLOAD_FILEIO_KEYS_H

#include <stdbool.h>
#include <stdint.h>

#include "job/job.h"
#include "workload/fileio/files.h"

/* fio's fadvise_hint= values, in fio's order (F_ADV_*). */
enum fileio_fadvise { FADVISE_NONE, FADVISE_TYPE, FADVISE_RANDOM, FADVISE_SEQUENTIAL };

enum fileio_think_count { FILEIO_THINK_COMPLETE, FILEIO_THINK_ISSUE };
enum fileio_rate_process { FILEIO_RATE_LINEAR, FILEIO_RATE_POISSON };

/* fio's unified_rw_reporting= values (views/ read the result's option). */
enum fileio_unified { FILEIO_UNIFIED_NONE, FILEIO_UNIFIED_MIXED, FILEIO_UNIFIED_BOTH };

enum dedupe_mode { DEDUPE_REPEAT, DEDUPE_WORKING_SET };

struct fileio_conf {
	/* -- fio: thinktime and the rate's process -- */
	uint64_t thinktime_ns;	      /* pause after every thinktime_blocks I/Os; 0: none */
	uint64_t thinktime_spin_ns;   /* the part of the pause spent spinning */
	uint64_t thinktime_blocks;    /* I/Os between two pauses */
	int thinktime_blocks_type;    /* enum fileio_think_count */
	uint64_t thinktime_iotime_ns; /* or a pause after this long of I/O; 0: by blocks only */
	int rate_process;	      /* enum fileio_rate_process */
	uint64_t rate_cycle_ns;	      /* the window of rate_min and rate_iops_min */
	bool rate_ignore_thinktime;
	/* -- fio: the queued engines' batches (completed by pace_validate) -- */
	uint64_t iodepth_batch_submit; /* submit when this many are queued */
	uint64_t iodepth_batch_complete_min;
	uint64_t iodepth_batch_complete_max;
	uint64_t iodepth_low;
	/* -- fio: submission and flow -- */
	char io_submit_mode[16]; /* inline or offload */
	bool offload;		 /* io_submit_mode=offload, parsed by pace_validate */
	bool serialize_overlap;	 /* queued engines: no two I/Os in flight share a byte */
	uint64_t flow_sleep_ns;	 /* how long a thread over its flow share waits; 0: yield and look again */
	/* -- fio: iologs (replay.c: read_iolog's replay, write_iolog's capture) -- */
	char read_iolog[4096];	    /* fio's iolog v2 or v3 to replay; "" none */
	bool read_iolog_chunked;    /* fio reads it bit by bit; dbio whole, the same I/O */
	bool replay_no_stall;	    /* v3's timestamps and v2's waits not kept */
	uint64_t replay_time_scale; /* percent of the log's pace */
	char replay_redirect[4096]; /* every I/O to this one file; "" none */
	uint64_t replay_align;	    /* offsets rounded down to this power of 2; 0 none */
	uint64_t replay_scale;	    /* offsets divided by this */
	char replay_skip[64];	    /* as given: read,write,sync,trim */
	unsigned replay_skip_ops;   /* parsed: 1 << REPLAY_* of the skipped actions */
	char write_iolog[4096];	    /* where fio's v3 iolog of the job goes; "" none */
	/* -- fio: filename_format (fname.c; the layout names the files by it) -- */
	char filename_format[256]; /* as given, then its names' part; "" dbio's names */
	bool fname_per_thread;	   /* parsed: each thread's names its own ($jobnum) */
	/* -- fio: buffer contents (content.c fills the writes) -- */
	bool scramble_buffers;	 /* stamp each 512-byte sector of a write */
	bool refill_buffers;	 /* new data each write */
	bool zero_buffers;	 /* writes carry zeros */
	uint64_t compress_pct;	 /* buffer_compress_percentage */
	uint64_t compress_chunk; /* buffer_compress_chunk, bytes */
	uint64_t dedupe_pct;	 /* dedupe_percentage */
	int dedupe_mode;	 /* enum dedupe_mode */
	uint64_t dedupe_ws_pct;	 /* dedupe_working_set_percentage */
	bool dedupe_global;
	char buffer_pattern[512];	      /* as given: 0xdeadbeef, "text", 42 (fio's forms) */
	uint8_t bpattern[FILEIO_PATTERN_MAX]; /* its bytes (fileio_validate_buffers) */
	unsigned bpattern_len;		      /* 0: none */
	/* -- fio: fadvise_hint (at open, fileio_pages.c) -- */
	int fadvise_hint; /* enum fileio_fadvise */
	/* -- fio: unified_rw_reporting -- */
	int unified_rw; /* enum fileio_unified */
};

extern const struct option_table fileio_options;

/* The values of fileio's keys for job: job->wl_conf for a job of
 * workload=fileio; for a workload that borrows fileio's keys
 * (workload_ops.borrows: oltp, which refuses them by name and runs
 * fileio's checks), the conf of fileio's table among job->keys. Never
 * NULL once plan_job_init has made the job's tables. */
struct fileio_conf *fileio_conf(const struct job *job);

/* fio's buffer keys (buffers.c), for the writes of workload/fileio/content.c:
 * checked and fixed up as fio does (100 % compressible is zero_buffers,
 * compression and dedupe refill, a refilled write is not scrambled). 0 or
 * DBIO_EINPUT. fileio_buffer_key_given: the first of them given, for a
 * workload that borrows fileio's keys and does not honour them (oltp). */
int fileio_validate_buffers(struct job *job, struct dbio_err *err);
const char *fileio_buffer_key_given(const struct job *job);

#endif
