/*
 * The keys of the workloads that lay out files and drive an I/O engine
 * (fileio, and oltp, which borrows them): files.c's table, whose values a
 * job holds in struct fileio_files, reached by fileio_files(job). The
 * fields are grouped by the table's sections: layout (rw, bs, size, the
 * files, syncs), where (how much and where, block sizes, distributions),
 * pacing (rates, threads, flow), verify, logs, steady (steady state), numa
 * and latency (latency_target). Each section's parsed and derived fields
 * sit beside the keys they come from; the checks that fill them are the
 * check_*.c files (check.c calls them in order). A key only fileio honours
 * is keys.h's struct fileio_conf instead.
 */
#ifndef DBIO_WORKLOAD_FILEIO_FILES_H
#define DBIO_WORKLOAD_FILEIO_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/job.h"
#include "util/err.h"

/* The bytes of buffer_pattern and verify_pattern: written forms (0x hex,
 * "text", numbers) up to fio 3.33's 512, fio's file form ('name') up to
 * 64 KiB (newer fio's cap is 128 MiB; a pattern is repeated over each
 * block, so one larger than the largest block is no use). */
#define FILEIO_PATTERN_TEXT_MAX 512
#define FILEIO_PATTERN_MAX	65536

enum rw_mode {
	RW_READ,
	RW_WRITE,
	RW_RANDREAD,
	RW_RANDWRITE,
	RW_RANDRW,
	RW_READWRITE,
	RW_REWRITE,
	/* fio's trim modes (workload/fileio/check_trim.c) */
	RW_TRIM,
	RW_RANDTRIM,
	RW_TRIMWRITE,
	RW_RANDTRIMWRITE,
};
enum sync_mode { SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };
enum falloc_mode { FALLOC_NONE, FALLOC_NATIVE, FALLOC_POSIX, FALLOC_KEEP };
enum prefill_mode { PREFILL_AUTO, PREFILL_ON, PREFILL_OFF };
enum distribution {
	DIST_UNIFORM,
	DIST_ZIPF,
	DIST_PARETO,
	DIST_NORMAL,
	DIST_ZONED,
	DIST_ZONED_ABS,
	DIST_SEQUENCE
};
enum rw_sequencer { RW_SEQ_SEQUENTIAL, RW_SEQ_IDENTICAL };
enum zone_mode { ZONE_NONE, ZONE_STRIDED, ZONE_ZBD };
enum random_generator { RANDGEN_TAUSWORTHE, RANDGEN_LFSR, RANDGEN_TAUSWORTHE64 };
enum cpus_policy { CPUS_SHARED, CPUS_SPLIT };
enum io_class { IOCLASS_NONE, IOCLASS_RT, IOCLASS_BE, IOCLASS_IDLE };
enum exit_what { EXIT_GROUP, EXIT_STONEWALL, EXIT_ALL };
enum ss_metric { SS_IOPS, SS_BW, SS_LAT }; /* what fio's steadystate judges */
/* fio's verify= values, numbered as fio numbers them (verify.h), which
 * dbio writes in each block's header. */
enum verify_type {
	VERIFY_NONE = 0,
	VERIFY_META = 1,
	VERIFY_MD5 = 2,
	VERIFY_CRC64 = 3,
	VERIFY_CRC32 = 4,
	VERIFY_CRC32C = 5,
	VERIFY_CRC32C_INTEL = 6,
	VERIFY_CRC16 = 7,
	VERIFY_CRC7 = 8,
	VERIFY_SHA256 = 9,
	VERIFY_SHA512 = 10,
	VERIFY_SHA3_224 = 11,
	VERIFY_SHA3_256 = 12,
	VERIFY_SHA3_384 = 13,
	VERIFY_SHA3_512 = 14,
	VERIFY_XXHASH = 15,
	VERIFY_SHA1 = 16,
	VERIFY_PATTERN_HDR = 17,
	VERIFY_PATTERN = 18,
	VERIFY_NULL = 19,
	VERIFY_ON = 100, /* "1": workload=kv's switch, not a check of fio's */
};
enum fsync_scope { FSYNC_SCOPE_FILE, FSYNC_SCOPE_JOB };

/* continue_on_error's kinds of I/O (job->continue_on). */
enum { CONTINUE_READ = 1u << 0, CONTINUE_WRITE = 1u << 1, CONTINUE_TRIM = 1u << 2 };

struct files_layout {
	/* Keys of the file workloads (fileio_files_table): rw, bs, size, the files. */
	char ioengine[32];
	int rw;		    /* enum rw_mode */
	uint64_t rwmixread; /* percent of reads in mixed modes */
	uint64_t bs;	    /* bytes */
	uint64_t size;	    /* bytes of I/O per pass, per thread unless share_files */
	uint64_t filesize;  /* bytes per file */
	uint64_t nrfiles;
	bool direct;
	int sync;		  /* enum sync_mode */
	uint64_t fsync;		  /* fsync the file after every N writes; 0 = never */
	uint64_t fdatasync;	  /* fdatasync the file after every N writes */
	char sync_file_range[48]; /* as given: "wait_before,write:8", or "" */
	uint64_t sfr_every;	  /* parsed: sync_file_range after every N writes; 0 never */
	unsigned sfr_flags;	  /* parsed: SYNC_FILE_RANGE_* */
	bool end_fsync;
	uint64_t loops;
	bool norandommap;
	int fallocate; /* enum falloc_mode */
	int prefill;   /* enum prefill_mode */
	bool share_files;
	char random_distribution[512]; /* as given: random, zipf:1.2, pareto:0.9, zoned:50/5:50/ ... */
	int dist;		       /* parsed: enum distribution */
	double dist_param;	       /* zipf's exponent or pareto's h */
	uint64_t iodepth;	       /* I/Os in flight per thread (queued engines) */
	/* -- sysbench -- */
	int fsync_scope; /* enum fsync_scope: what fsync=N and fdatasync=N count and sync */
	/* -- end of sysbench -- */
	/* -- fio: files -- */
	/* fio's filename: names in directory, ':' between them; "" = dbio's.
	 * 16 KiB: sysbench's --file-num=1024 is 1024 names here */
	char filename[16384];
	bool unlink;	     /* fio_noop: dbio always removes what it made, unless --keep */
	bool create_on_open; /* fio_noop: dbio lays files out before the measured phase */
	bool buffered;	     /* fio's inverse of direct */
	uint64_t rwmixwrite; /* fio's 100 - rwmixread */
	bool fsync_on_close; /* fio's: fsync each file when closing it, as end_fsync */
	bool overwrite;	     /* fio's: lay the files out before writing, as prefill=1 */
	uint64_t openfiles;  /* fio's: files open at once; dbio keeps all open (0 = all) */
};

struct files_where {
	/* -- fio: how much and where -- */
	uint64_t io_size;	   /* bytes of I/O per thread in all (fio's io_size, io_limit); 0: size */
	uint64_t number_ios;	   /* stop a thread after this many reads and writes per loop; 0: never */
	char offset[32];	   /* as given: bytes into each file where the I/O starts */
	uint64_t offset_increment; /* thread i of numjobs starts offset + i * offset_increment */
	uint64_t offset_align;	   /* fio_noop: fio aligns only a percentage offset (refused) */
	char rw_mod[24];	   /* rw's offset modifier as given (rw=read:-8k): "-8k"; "" none */
	int rw_sequencer;	   /* enum rw_sequencer */
	uint64_t bs_write;	   /* bs's write size (fio's bs=READ,WRITE); bs is the read size */
	uint64_t bs_trim;	   /* bs's trim size (fio's bs=READ,WRITE,TRIM) */
	char bsrange[80];	   /* as given: LO-HI[,LO-HI] (fio's bsrange, blocksize_range) */
	char bssplit[512];	   /* as given: BS/PERCENT:...[,...] */
	uint64_t blockalign;	   /* random offsets' alignment (fio's ba); 0: the block size */
	uint64_t blockalign_write;
	bool bs_unaligned;			/* sizes of bsrange not multiples of the smallest */
	uint64_t perc_rand, perc_rand_write;	/* fio's percentage_random: of a random pattern's I/Os */
	int zonemode;				/* enum zone_mode */
	uint64_t zonesize, zonerange, zoneskip; /* zonemode=strided: bytes of each zone, its span, the gap */
	int random_generator;			/* enum random_generator */
	/* Derived by job_validate_where. */
	int64_t seq_add;	   /* sequential: bytes added after each I/O (rw=read:-8k: -8192) */
	uint64_t seq_nr;	   /* random: a random offset every seq_nr I/Os (rw=randread:8) */
	uint64_t offset_bytes;	   /* offset, parsed */
	bool region_from_filesize; /* filesize= given: a file's region is filesize - its offset */
	/* Derived by job_validate_sizes, per direction (0 read, 1 write). */
	uint64_t min_bs_rw[2], max_bs_rw[2], ba_rw[2];
	unsigned nsplit[2]; /* bssplit's sizes, by share ascending (fio's order) */
	uint64_t split_bs[2][64];
	unsigned split_perc[2][64];
	uint64_t min_bs, max_bs; /* over the directions the job does: its block, its largest I/O */
	bool sizes_vary;	 /* not one size and alignment for all its I/Os */
	uint64_t mean_bs;	 /* the mean size of its I/Os, for estimates */
	/* random_distribution=zoned (percent of the region) or zoned_abs (bytes):
	 * per direction, each zone's share of the accesses, start and length;
	 * derived by job_parse_fio_distribution. */
	unsigned nzones[2];
	unsigned zone_access[2][256];
	uint64_t zone_start[2][256], zone_len[2][256];
	/* random_distribution=sequence:B,B,...: the blocks, in order; derived
	 * by job_parse_fio_distribution. */
	unsigned nseq_blocks;
	unsigned seq_blocks[64];
	bool random_sequence_stride; /* each round of the sequence a group further */
				     /* -- end of how much and where -- */
};

struct files_pacing {
	/* -- fio: pacing and threads -- */
	char startdelay[64]; /* as given: "2s" or "1s-5s" */
	char rate[96];	     /* as given: "R", "R,W", "R," or ",W" (bytes/s) */
	char rate_iops[96];
	char rate_min[96];
	char rate_iops_min[96];
	char cpus_allowed[256];	 /* as given: "0,5,8-15" */
	char cpumask[32];	 /* as given: a bit mask, decimal or 0x hex */
	int cpus_allowed_policy; /* enum cpus_policy */
	char nice[16];		 /* as given: -20 to 19 */
	uint64_t prio;		 /* I/O priority within prioclass, 0 (highest) to 7 */
	int prioclass;		 /* enum io_class */
	bool exitall;
	int exit_what; /* enum exit_what */
	bool exitall_on_error;
	char continue_on_error[16];
	/* Parsed by job_validate_pacing ([0] reads, [1] writes; 0: none). */
	uint64_t startdelay_lo_ns, startdelay_hi_ns;
	uint64_t rate_bps[2];	   /* rate, else rate_iops * bs */
	uint64_t rate_min_bps[2];  /* rate_min */
	uint64_t rate_min_iops[2]; /* rate_iops_min, when rate_min is not given */
	uint64_t cpus[16];	   /* the CPUs of cpus_allowed or cpumask, a bit each */
	bool cpus_set;		   /* cpus_allowed or cpumask was given */
	int nice_inc;		   /* nice, as a number */
	/* Resolved by plan_groups: fio's thread number of the job's first
	 * thread, counted over every job of the job files from 0, and
	 * whether any job of them says exitall (a switch of fio's whole
	 * run). */
	uint64_t thread_base;
	bool exitall_any;
	/* -- end of pacing and threads -- */
	/* -- fio: flow and submission -- */
	uint64_t flow;	      /* weight among the jobs of its flow_id; 0: no flow control */
	uint64_t flow_id;     /* the jobs of one id share a count of their I/Os */
	unsigned continue_on; /* continue_on_error: CONTINUE_READ | CONTINUE_WRITE | CONTINUE_TRIM */
			      /* -- end of flow and submission -- */
};

struct files_verify {
	/* -- fio: verify -- */
	int verify;		       /* enum verify_type: fio's verify= */
	bool do_verify;		       /* read back and check what a writing job wrote */
	bool verify_fatal;	       /* stop at the first bad block */
	bool verify_dump;	       /* reports show the bad header's bytes (dbio writes no dump files) */
	uint64_t verify_backlog;       /* check after every N blocks written; 0: after the writes */
	uint64_t verify_backlog_batch; /* blocks a backlog check reads back; 0: verify_backlog */
	bool experimental_verify;      /* read back by replaying the offsets, no log */
	uint64_t verify_interval;      /* bytes of a checked block; 0: the write block size */
	uint64_t verify_offset;	       /* the header this many bytes into the block */
	char verify_pattern[512];      /* as given: 0xaa555aa5, "text", 42 (fio's forms) */
	bool verify_only;	       /* read back what an earlier run wrote; write nothing */
	bool verify_state_save;	       /* with --keep: save the writes each thread completed (run/vstate.c) */
	uint64_t verify_async;	       /* fio_noop: dbio checks in the worker thread */
	char verify_async_cpus[256];   /* fio_noop: as given */
	bool fill_device;	       /* write until ENOSPC (fio's fill_device, fill_fs) */
	bool create_serialize;	       /* fio_noop: dbio lays files out before the measured phase */
	uint8_t vpattern[FILEIO_PATTERN_MAX]; /* verify_pattern's bytes (job_validate_verify) */
	unsigned vpattern_len;		      /* 0: none */
	/* Resolved by plan_carry_files: a job of a later group names the
	 * same files (they are kept after this job's group), or this job
	 * names the files of an earlier group (they are opened again). */
	bool files_for_later;
	bool files_from_earlier;
	bool verify_state_load; /* read back only the writes verify_state_save saved, on kept files */
				/* -- end of verify -- */
};

struct files_logs {
	/* -- fio: logs -- */
	char write_lat_log[256];  /* NAME of NAME_lat.N.log, _clat, _slat; "" given: the job's name */
	char write_bw_log[256];	  /* NAME of NAME_bw.N.log */
	char write_iops_log[256]; /* NAME of NAME_iops.N.log */
	uint64_t log_avg_msec;	  /* one line per window of this many ms per direction; 0: per I/O */
	int log_max_value;	  /* with log_avg_msec: enum iolog_window_value (fio's log_window_value) */
	bool log_offset;	  /* an offset column */
	bool log_issue_time;	  /* a last column: each I/O's issue time (ns), in its clat and slat lines */
	bool log_prio;		  /* the priority column is the I/O's ioprio value, not 0/1 for RT */
	bool log_unix_epoch;	  /* times from the Unix epoch (ms), not from the thread's start */
	bool log_alternate_epoch; /* times from the epoch of log_alternate_epoch_clock_id */
	uint64_t log_alternate_epoch_clock_id;
	bool per_job_logs;	     /* the .N of the thread in the names; 0: one file for every thread */
	uint64_t log_entries;	     /* lines reserved per thread before the run (fio's initial entries) */
	char cmdprio_percentage[16]; /* as given: P or R,W percent of I/Os at the command priority */
	char cmdprio_class[16];	     /* as given: C or R,W, 1 (RT) to 3 (idle) */
	char cmdprio[16];	     /* as given: L or R,W, 0 (highest) to 7 */
	char cmdprio_hint[24];	     /* as given: H or R,W, 0 to 1023 */
	char cmdprio_bssplit[512];   /* as given: BS/PERC[/CLASS/LEVEL[/HINT]]:...[,...] */
	/* Derived by job_validate_logs. */
	unsigned nlogs;		      /* files a thread writes: lat+clat+slat, bw, iops */
	unsigned cmdprio_default;     /* the ioprio value of the other I/Os (prioclass, prio), 0: none */
	unsigned cmdprio_n[2];	      /* per direction: entries of cmdprio_bs, cmdprio_perc, cmdprio_val */
	uint64_t cmdprio_bs[2][64];   /* the block size of an entry; 0: any size (cmdprio_percentage) */
	unsigned cmdprio_perc[2][64]; /* its percent of the I/Os of its size */
	uint16_t cmdprio_val[2][64];  /* its ioprio value: class << 13 | hint << 3 | level */
				      /* -- end of logs -- */
};

struct files_steady {
	/* -- fio: steady state -- */
	char steadystate[64];	 /* as given: MODE:LIMIT (fio's ss=iops:10%) */
	uint64_t ss_dur_ns;	 /* the window of samples; 0: no steady state (fio's ss_dur) */
	uint64_t ss_ramp_ns;	 /* from the job's start, before the samples start (fio's ss_ramp) */
	uint64_t ss_interval_ns; /* one sample per interval (fio's ss_interval) */
	/* Parsed by job_validate_steady. */
	int ss_metric;	 /* enum ss_metric */
	bool ss_slope;	 /* MODE_slope: the least-squares slope, else the largest deviation */
	bool ss_pct;	 /* LIMIT was N%: percent of the window's mean */
	double ss_limit; /* IOPS, bytes per second, ns; or percent */
			 /* -- end of steady state -- */
};

struct files_numa {
	/* -- fio: engines and NUMA -- */
	char numa_cpu_nodes[128];  /* as given: NUMA nodes "0-1,3" or "all"; "" none */
	char numa_mem_policy[160]; /* as given: "bind:0-1", "interleave", "local" … */
	/* Parsed by job_validate_numa. */
	uint64_t numa_cpus[16]; /* the CPUs of numa_cpu_nodes' nodes, a bit each */
	bool numa_mem_set;	/* numa_mem_policy makes a set_mempolicy call (not default) */
	int numa_mode;		/* its MPOL_* (linux/mempolicy.h) */
	uint64_t numa_nodes;	/* its nodes, a bit each */
				/* -- end of engines and NUMA -- */
};

struct files_latency {
	/* -- fio: latency target (the buffer keys are fileio's) -- */
	uint64_t threads_all;	    /* resolved by plan_threads: the threads of every job of the files */
	uint64_t latency_target_ns; /* 0: no search for a queue depth */
	uint64_t latency_window_ns;
	char latency_percentile[32]; /* as given; parsed into latency_pct */
	double latency_pct;
	bool latency_run;
	/* -- end of buffers and latency target -- */
};
/* fio's exec_prerun and exec_postrun (run/exec.c runs them). */
struct files_exec {
	char prerun[4096];  /* "": none */
	char postrun[4096]; /* "": none */
};

struct fileio_files {
	struct files_exec exec;
	struct files_layout layout;
	struct files_where where;
	struct files_pacing pacing;
	struct files_verify verify;
	struct files_logs logs;
	struct files_steady steady;
	struct files_numa numa;
	struct files_latency latency;
};

/* The table of the file workloads' keys (plan_table_at's second table). */
extern const struct option_table fileio_files_table;

/* The values of the file keys for job: the conf of fileio_files_table
 * among job->keys. Never NULL once plan_job_init has made the job's
 * tables. */
struct fileio_files *fileio_files(const struct job *job);

/* The file checks of the file workloads (sizes, blocks, direct alignment,
 * random_distribution), completing filesize, size, dist and dist_param. */
int job_validate_files(struct job *job, struct dbio_err *err);

/* fio's file keys (workload/fileio/check_files.c), first thing of job_validate_files:
 * filename (names, nrfiles from their count, an absolute path splits into
 * directory and name), buffered into direct, rwmixwrite into rwmixread,
 * fsync_on_close into end_fsync, overwrite into prefill. */
int job_validate_fio_files(struct job *job, struct dbio_err *err);

/* fio's block size keys (workload/fileio/check_bs.c), before the file checks: bs's
 * READ,WRITE form, bsrange, bssplit, blockalign and bs_unaligned into the
 * sizes of each direction and min_bs, the job's block. 0 or DBIO_EINPUT
 * naming the key. */
int job_validate_sizes(struct job *job, struct dbio_err *err);

/* random_distribution's zoned:ACCESS/PERCENT:... and zoned_abs:ACCESS/SIZE:...
 * forms, READ,WRITE lists apart (workload/fileio/check_dist.c), into the zone tables;
 * normal:DEV into dist_param. 0 or DBIO_EINPUT naming the key. */
int job_parse_fio_distribution(struct job *job, struct dbio_err *err);

/* fio's "how much and where" keys (workload/fileio/check_where.c), last thing of
 * job_validate_files: io_size, number_ios, offset, offset_increment. 0 or
 * DBIO_EINPUT naming the key. */
int job_validate_where(struct job *job, struct dbio_err *err);

/* The first of fio's "how much and where" keys given for job, or NULL; for
 * a workload that does not honour them (oltp). */
const char *job_where_key_given(const struct job *job);

/* Where the I/O of thread t (0 <= t < numjobs) starts in each of its files
 * (fio's file_offset: offset + t * offset_increment), how many bytes from
 * there it covers (fio's io_size of a file: the region), and how big each
 * file is: filesize when given (the region is what the offset leaves of
 * it), else the offset and the region. job_validate_where must have run. */
uint64_t job_file_offset(const struct job *job, uint64_t t);
uint64_t job_region_bytes(const struct job *job, uint64_t t);
uint64_t job_file_bytes(const struct job *job, uint64_t t);

/* The reads and writes a thread does in all in a job bound by size, by
 * fio's rule, when a pass over its files is pass_ops blocks and the
 * thread's share of io_size is io_bytes (0: none): passes of size until
 * loops passes are done and io_size is reached, never past io_size * loops
 * bytes (the op that reaches it counted) nor number_ios * loops ops. For
 * the progress line; the worker's budget (workload/fileio/where.h) decides. */
uint64_t job_ops_total(const struct job *job, uint64_t pass_ops, uint64_t io_bytes);

/* The i-th name of job's filename (0 <= i < nrfiles) into buf; buf. */
const char *job_filename_at(const struct job *job, size_t i, char *buf, size_t len);

/* Parse sync_file_range (FLAGS:N) into sfr_every and sfr_flags; 0 or
 * DBIO_EINPUT naming the key. */
int job_parse_sync_file_range(struct job *job, struct dbio_err *err);

/* fio's trim modes (workload/fileio/check_trim.c): refused on an engine that cannot
 * trim a file (engine_trims false; engine names it), and with the rate
 * keys, which dbio does not apply to trims. 0 or DBIO_EINPUT naming the
 * key. */
int job_validate_trims(struct job *job, bool engine_trims, const char *engine, struct dbio_err *err);

/* fio's NUMA keys (workload/fileio/check_numa.c): numa_cpu_nodes into the CPUs of its
 * nodes, numa_mem_policy into its mode and nodes, each node checked
 * against the nodes of this machine (util/numa.h, under sysfs_dir). 0 or
 * DBIO_EINPUT naming the key. */
int job_validate_numa(struct job *job, const char *sysfs_dir, struct dbio_err *err);

/* fio's keys of pacing and threads (workload/fileio/check_pacing.c): parse rate,
 * rate_iops, rate_min and rate_iops_min (fio's R,W forms), startdelay,
 * cpus_allowed or cpumask and nice into their parsed fields, refuse the
 * values dbio does not do (continue_on_error other than none), parse
 * (io_submit_mode and the queued engines' batch keys are fileio's own:
 * workload/fileio/keys.h). 0 or DBIO_EINPUT naming the key. */
int job_validate_pacing(struct job *job, struct dbio_err *err);

/* fio's steady-state keys (workload/fileio/check_steady.c): steadystate's MODE:LIMIT
 * into ss_metric, ss_slope, ss_pct and ss_limit (always, as fio parses it
 * whether or not ss_dur is given), and, with ss_dur, the window against
 * the interval and numjobs without group_reporting. 0 or DBIO_EINPUT
 * naming the key. */
int job_validate_steady(struct job *job, struct dbio_err *err);

/* fio's rule that the jobs of one reporting group (b after a, same
 * groupid) agree on steady state, and all jobs on its check interval; 0
 * or DBIO_EINPUT naming b's key. */
int job_check_steady_pair(const struct job *a, const struct job *b, struct dbio_err *err);
/* fio's verify keys (workload/fileio/check_verify.c): verify_pattern into vpattern,
 * verify_interval completed (the write block size) and checked against
 * the block sizes, and the values dbio does not do refused (crc64, crc32,
 * crc16, crc7, pattern_hdr, time_based, the null engine ...). 0 or
 * DBIO_EINPUT naming the key. */
int job_validate_verify(struct job *job, struct dbio_err *err);

/* fio's verify_pattern (lib/pattern.c) into out (room bytes): runs of 0x
 * hex (digits in the order written), "quoted text" and decimal numbers
 * (little-endian, as few bytes as hold them), optionally apart by blanks;
 * *n bytes. 0, -EINVAL (*bad: where it went wrong) or -ERANGE. */
int job_parse_verify_pattern(const char *s, uint8_t *out, size_t room, size_t *n, const char **bad);

/* fio's file form of buffer_pattern and verify_pattern (pattern_file.c):
 * value is a name in single quotes ('pattern.bin'); the file's bytes, 1
 * to room of them, into out, *n of them. The path is walked as root may
 * (util/safepath.h: no symlink of another user), only a regular file is
 * opened. 0, or DBIO_EINPUT (or the walk's error) naming job's key. */
int job_pattern_file(const struct job *job, const char *key, const char *value, uint8_t *out, size_t room,
		     size_t *n, struct dbio_err *err);

/* fio's verify= values (files.c, beside the table), for the option
 * tables (verify, kv's verify). */
extern const struct opt_enum job_verify_values[];

/* fio's R,W form of a rate into out[0] (reads) and out[1] (writes), 0 for
 * none: "V" is both, "R,W" each, "R," reads only, ",W" writes only; each
 * a number with an optional binary k, m, g or t suffix. 0, -EINVAL or
 * -ERANGE. */
int job_parse_rw_pair(const char *s, uint64_t out[2]);

/* True when the job issues reads / changes its files (writes or trims) /
 * trims. */
bool job_reads(const struct job *job);
bool job_writes(const struct job *job);
bool job_trims(const struct job *job);
/* A job that only writes and reads its writes back after each pass (fio's
 * verify phase), those reads counting toward io_size's further passes. */
bool job_readback_counts(const struct job *job);
/* Whether the job reads back files an earlier run kept (--keep):
 * verify_only, or verify_state_load. */
bool job_reads_kept(const struct job *job);
/* Whether the job only reads and checks what it reads (verify=): such a
 * job reads back a file of its own name that an earlier run kept (the
 * mark --keep leaves), as fio reads the files it finds, and lays out
 * the others. */
bool job_verifies_reads(const struct job *job);
/* Whether the job saves its verify state when its files are kept: it
 * writes with verify= and verify_state_save (fio's default), and is not
 * verify_only (which writes nothing). */
bool job_saves_vstate(const struct job *job);
/* A random job that writes with norandommap: fio's pass (and its read
 * back's log) is io_size, not size (do_io's total_bytes). */
bool job_pass_is_io_size(const struct job *job);
bool job_is_random(const struct job *job);

#endif
