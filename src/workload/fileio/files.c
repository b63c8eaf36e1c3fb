/*
 * The keys of the file workloads (fileio, and oltp that borrows them):
 * their table, fileio_files_table, the values the enums take, and
 * fileio_files(job); see files.h. Adding a key of the file workloads is
 * one row here, its field in files.h's section and the code that reads
 * it in this folder; `make docs` brings docs/options.md, the man page and
 * the result schema along.
 */
#include "workload/fileio/files.h"

#include <stddef.h>

#include "stats/iolog.h"

#define F(field) offsetof(struct fileio_files, field)
#define S(field) sizeof(((struct fileio_files *)0)->field)
#define NS_PER_S 1000000000ull

static const struct opt_enum rw_values[] = {
	{ "read", RW_READ, "sequential reads" },
	{ "write", RW_WRITE, "sequential writes" },
	{ "randread", RW_RANDREAD, "random reads" },
	{ "randwrite", RW_RANDWRITE, "random writes" },
	{ "randrw", RW_RANDRW, "random reads and writes, mixed by rwmixread" },
	{ "readwrite", RW_READWRITE, "sequential reads and writes, mixed by rwmixread" },
	{ "rw", RW_READWRITE, NULL },
	{ "rewrite", RW_REWRITE,
	  "sequential: read each block, then write it back (bonnie++'s Rewrite); a read and a write per block" },
	{ "trim", RW_TRIM, "sequential trims (fio's; ioengine=falloc punches holes)" },
	{ "randtrim", RW_RANDTRIM, "random trims (fio's; ioengine=falloc punches holes)" },
	{ "trimwrite", RW_TRIMWRITE, "sequential: trim each block, then write it (fio's)" },
	{ "randtrimwrite", RW_RANDTRIMWRITE, "trimwrite at random blocks (fio's)" },
	{ NULL, 0, NULL },
};

static const struct opt_enum rw_sequencer_values[] = {
	{ "sequential", RW_SEQ_SEQUENTIAL, "continue after the I/O before" },
	{ "identical", RW_SEQ_IDENTICAL, "repeat the offset of the I/O before" },
	{ NULL, 0, NULL },
};

static const struct opt_enum zonemode_values[] = {
	{ "none", ZONE_NONE, "no zones" },
	{ "strided", ZONE_STRIDED, "zonesize bytes of I/O in each zonerange, zoneskip between" },
	{ "zbd", ZONE_ZBD, "zoned block devices: refused (dbio does not drive them)" },
	{ NULL, 0, NULL },
};

static const struct opt_enum random_generator_values[] = {
	{ "tausworthe", RANDGEN_TAUSWORTHE,
	  "fio's default, 32 bits: fio's draws of sizes and of the offsets of varying sizes" },
	{ "lfsr", RANDGEN_LFSR, "each block once a pass, also with norandommap" },
	{ "tausworthe64", RANDGEN_TAUSWORTHE64,
	  "fio's 64-bit one, for more than 2^32 blocks: the same draws, 64 bits" },
	{ NULL, 0, NULL },
};

/* fio's verify= values (checked by workload/fileio/check_verify.c; kv's verify key too). */
const struct opt_enum job_verify_values[] = {
	{ "0", VERIFY_NONE, "no verification" },
	{ "md5", VERIFY_MD5, "an md5 sum of each block (libcrypto)" },
	{ "crc64", VERIFY_CRC64, "fio's crc64 (refused: use crc32c or xxhash)" },
	{ "crc32", VERIFY_CRC32, "fio's crc32 (refused: use crc32c)" },
	{ "crc32c-intel", VERIFY_CRC32C_INTEL, "crc32c; dbio uses the CPU's instruction where it has one" },
	{ "crc32c", VERIFY_CRC32C, "a crc32c of each block (the CPU's instruction where it has one)" },
	{ "crc16", VERIFY_CRC16, "fio's crc16 (refused: use crc32c)" },
	{ "crc7", VERIFY_CRC7, "fio's crc7 (refused: use crc32c)" },
	{ "sha1", VERIFY_SHA1, "a sha1 sum of each block (libcrypto)" },
	{ "sha256", VERIFY_SHA256, "a sha256 sum of each block (libcrypto)" },
	{ "sha512", VERIFY_SHA512, "a sha512 sum of each block (libcrypto)" },
	{ "sha3-224", VERIFY_SHA3_224, "a sha3-224 sum of each block (libcrypto)" },
	{ "sha3-256", VERIFY_SHA3_256, "a sha3-256 sum of each block (libcrypto)" },
	{ "sha3-384", VERIFY_SHA3_384, "a sha3-384 sum of each block (libcrypto)" },
	{ "sha3-512", VERIFY_SHA3_512, "a sha3-512 sum of each block (libcrypto)" },
	{ "xxhash", VERIFY_XXHASH, "an XXH64 sum of each block (libxxhash)" },
	{ "meta", VERIFY_META, "the header only (offset, length, writer), and verify_pattern when given" },
	{ "pattern", VERIFY_PATTERN, "verify_pattern only, no header" },
	{ "pattern_hdr", VERIFY_PATTERN_HDR,
	  "fio's header and pattern (refused: use meta with verify_pattern)" },
	{ "null", VERIFY_NULL, "read back, check nothing (fio's test of its own machinery)" },
	{ "1", VERIFY_ON, NULL }, /* workload=kv: read every record back */
	{ NULL, 0, NULL },
};

static const struct opt_enum fsync_scope_values[] = {
	{ "file", FSYNC_SCOPE_FILE, "fio's: every N writes of a thread, the file just written" },
	{ "job", FSYNC_SCOPE_JOB,
	  "sysbench's: every N reads and writes of all threads together, every file" },
	{ NULL, 0, NULL },
};

static const struct opt_enum sync_values[] = {
	{ "none", SYNC_NONE, "no O_SYNC or O_DSYNC" },
	{ "sync", SYNC_SYNC, "open files with O_SYNC" },
	{ "dsync", SYNC_DSYNC, "open files with O_DSYNC" },
	{ "0", SYNC_NONE, NULL },
	{ "1", SYNC_SYNC, NULL },
	{ NULL, 0, NULL },
};

static const struct opt_enum fallocate_values[] = {
	{ "native", FALLOC_NATIVE, "fallocate(2); fails where the filesystem lacks it" },
	{ "posix", FALLOC_POSIX, "posix_fallocate(3), which writes zeroes where needed" },
	{ "keep", FALLOC_KEEP, "fallocate(2) with FALLOC_FL_KEEP_SIZE" },
	{ "none", FALLOC_NONE, "no preallocation: the file is extended with ftruncate (sparse)" },
	{ "0", FALLOC_NONE, NULL },
	{ "1", FALLOC_POSIX, NULL },
	{ NULL, 0, NULL },
};

static const struct opt_enum prefill_values[] = {
	{ "auto", PREFILL_AUTO, "write the files fully when the job reads, else not" },
	{ "1", PREFILL_ON, "always write the files fully before the measured phase" },
	{ "0", PREFILL_OFF, "never; reads of unwritten ranges read holes or preallocated zeroes" },
	{ NULL, 0, NULL },
};

/* log_max_value (fio's log_window_value): enum iolog_window_value */
static const struct opt_enum window_values[] = {
	{ "avg", IOLOG_WIN_AVG, "the mean latency of the window" },
	{ "max", IOLOG_WIN_MAX, "its largest latency" },
	{ "both", IOLOG_WIN_BOTH, "the mean, then the largest" },
	{ "0", IOLOG_WIN_AVG, NULL },
	{ "1", IOLOG_WIN_MAX, NULL },
	{ NULL, 0, NULL },
};

static const struct opt_enum cpus_policy_values[] = {
	{ "shared", CPUS_SHARED, "every thread may run on every CPU of the set" },
	{ "split", CPUS_SPLIT, "each thread runs on one CPU of the set, handed out in turn" },
	{ NULL, 0, NULL },
};

static const struct opt_enum io_class_values[] = {
	{ "0", IOCLASS_NONE, "none given: best effort, as fio" },
	{ "1", IOCLASS_RT, "realtime (needs CAP_SYS_ADMIN)" },
	{ "2", IOCLASS_BE, "best effort" },
	{ "3", IOCLASS_IDLE, "idle: only when the disk has nothing else to do (prio is ignored)" },
	{ NULL, 0, NULL },
};

static const struct opt_enum exit_what_values[] = {
	{ "group", EXIT_GROUP, "the jobs of its reporting group (fio's groupid)" },
	{ "stonewall", EXIT_STONEWALL,
	  "every job running with it; the next group after a stonewall starts as usual" },
	{ "all", EXIT_ALL,
	  "every job running with it, and the groups not started do not run (the result marks them skipped)" },
	{ NULL, 0, NULL },
};

/* clang-format off */
static const struct option_def files_defs[] = {
	{ .name = "rw", .type = OPT_ENUM, .offset = F(layout.rw), .def = "read", .values = rw_values, .brief = 1,
	  .suffix_offset = F(where.rw_mod), .suffix_size = S(where.rw_mod),
	  .help = "I/O pattern. As in fio, :N after it is an offset modifier: after each sequential I/O, skip N bytes (rw=write:4k writes every other block; negative goes backwards: rw=read:-8k), or for a random pattern, a new random offset only every N I/Os (rw=randread:8; see rw_sequencer)." },
	{ .name = "rwmixread", .type = OPT_UINT, .offset = F(layout.rwmixread), .def = "50", .min = 0, .max = 100,
	  .help = "Percentage of reads in the mixed patterns randrw and readwrite; each operation is a read with this probability." },
	{ .name = "bs", .type = OPT_SIZE, .offset = F(layout.bs), .def = "4k", .min = 1, .max = 1ull << 30, .brief = 1,
	  .pair_offset = F(where.bs_write), .trim_offset = F(where.bs_trim),
	  .help = "Block size: bytes per read or write; READ,WRITE[,TRIM] (fio's form, bs=8k,32k) gives reads and writes each their own, and trims the TRIM one (a missing one is the last given: bs=4k,8k trims 8k). A job of the trim patterns trims with the TRIM size as fio's does, and rw=trimwrite and randtrimwrite write what they trimmed (fio's randtrimwrite does; fio 3.33's trimwrite writes WRITE-sized blocks instead)." },
	{ .name = "size", .type = OPT_SIZE, .offset = F(layout.size), .def = "0", .min = 0, .max = OPT_MAX, .brief = 1,
	  .help = "Bytes of I/O in one pass, per thread (or for all threads together with share_files=1). The files are this big together unless filesize says otherwise. One of size and filesize is required." },
	{ .name = "filesize", .type = OPT_SIZE, .offset = F(layout.filesize), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Size of each file. Defaults to size / nrfiles, rounded up to whole blocks." },
	{ .name = "nrfiles", .type = OPT_UINT, .offset = F(layout.nrfiles), .def = "1", .min = 1, .max = 1000000, .brief = 1,
	  .help = "Number of files per thread (or in all with share_files=1). Offsets run over the files as one space: block b is in file b / (filesize / bs)." },
	{ .name = "ioengine", .type = OPT_STR, .offset = F(layout.ioengine), .size = S(layout.ioengine), .def = "psync", .brief = 1,
	  .help = "How the I/O is issued: psync (pread/pwrite), sync (lseek + read/write), pvsync2 (preadv2/pwritev2), io_uring, libaio (queues with direct=1; buffered it runs one I/O at a time, with a warning), mmap (copies to/from a shared mapping) or null (no I/O: measures dbio's own cost). `dbio --version` lists the engines this build has; docs/engines.md describes each." },
	{ .name = "iodepth", .type = OPT_UINT, .offset = F(layout.iodepth), .def = "1", .min = 1, .max = 4096,
	  .help = "I/Os kept in flight per thread by a queued engine (io_uring, libaio): submitted in batches, reaped as they complete. More than 1 with an engine that cannot queue (psync, sync, mmap, null) is an error." },
	{ .name = "direct", .type = OPT_BOOL, .offset = F(layout.direct), .def = "0",
	  .help = "Open files with O_DIRECT, bypassing the page cache. bs must be a multiple of the device's logical block size." },
	{ .name = "sync", .type = OPT_ENUM, .offset = F(layout.sync), .def = "none", .values = sync_values,
	  .help = "Synchronous writes through the open flags O_SYNC or O_DSYNC." },
	{ .name = "fsync", .type = OPT_UINT, .offset = F(layout.fsync), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Call fsync on the file just written after every N writes of a thread; 0 never." },
	{ .name = "fdatasync", .type = OPT_UINT, .offset = F(layout.fdatasync), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Call fdatasync on the file just written after every N writes of a thread; 0 never." },
	{ .name = "sync_file_range", .type = OPT_STR, .offset = F(layout.sync_file_range), .size = S(layout.sync_file_range), .def = "",
	  .help = "FLAGS:N (fio's form): call sync_file_range(2) on the file just written after every N writes of a thread, over the whole file (fio: the range written since the last call), with FLAGS any of wait_before, write, wait_after joined by commas (SYNC_FILE_RANGE_WAIT_BEFORE, _WRITE, _WAIT_AFTER). It starts or waits for writeback of the file's dirty pages; it writes no metadata and does not flush the disk's cache, so it is not durable. Not with ioengine=mmap. Empty: never." },
	{ .name = "end_fsync", .type = OPT_BOOL, .offset = F(layout.end_fsync), .def = "0",
	  .help = "When a thread's I/O is done and it wrote anything, fsync every file of the thread; counted and timed as fsync operations, inside the measured time." },
	{ .name = "loops", .type = OPT_UINT, .offset = F(layout.loops), .def = "1", .min = 1, .max = OPT_MAX,
	  .help = "Number of passes over size when not time_based." },
	{ .name = "norandommap", .type = OPT_BOOL, .offset = F(layout.norandommap), .def = "0",
	  .help = "Pick random blocks independently (some twice, some never). By default a pass visits every block exactly once in random order." },
	{ .name = "random_distribution", .type = OPT_STR, .offset = F(layout.random_distribution), .size = S(layout.random_distribution), .def = "random",
	  .help = "How random blocks are picked: random (uniform), zipf:THETA (P(rank k) proportional to k^-THETA, 0 < THETA <= 10; zipf:1.2 puts about 89 % of 1,000 blocks' accesses on the hottest 20 %) or pareto:H (0 < H < 1; rank = n * u^(1/(1-H)) for uniform u, so pareto:0.9 sends about 85 % to the hottest 20 %). Hot blocks are scattered over the files by a seeded permutation. Skewed distributions draw blocks independently (no random map). fio's forms too: normal:DEV, zoned:ACCESS/PERCENT:..., zoned_abs:ACCESS/SIZE:... and sequence:B,B,... (these blocks in this order, up to 64; see random_sequence_stride); docs/fio.md says how." },
	{ .name = "fallocate", .type = OPT_ENUM, .offset = F(layout.fallocate), .def = "native", .values = fallocate_values,
	  .help = "How files are preallocated when dbio creates them." },
	{ .name = "prefill", .type = OPT_ENUM, .offset = F(layout.prefill), .def = "auto", .values = prefill_values, .dbio_own = 1,
	  .help = "Whether dbio writes the files fully before the measured phase (the layout); the writes are not measured." },
	{ .name = "share_files", .type = OPT_BOOL, .offset = F(layout.share_files), .def = "0", .dbio_own = 1,
	  .help = "All threads share one set of nrfiles files whose total is size, as sysbench fileio does; each thread does 1/numjobs of the I/O, on its own slice of the blocks. 0: each thread has its own files, as in fio." },
	/* -- sysbench -- */
	{ .name = "fsync_scope", .type = OPT_ENUM, .offset = F(layout.fsync_scope), .def = "file", .values = fsync_scope_values, .dbio_own = 1,
	  .help = "What fsync=N (or fdatasync=N) counts and syncs. file: as fio, after every N writes of a thread, the file just written. job: as sysbench fileio's --file-fsync-freq, after every N reads and writes counted over all threads of the job together, the thread that made the N-th syncs every file of the job, once each, if any was written since the last such round (none after a job's last I/O). job needs every thread on all the files (filename=, or numjobs=1) and one of fsync and fdatasync." },
	/* -- end of sysbench -- */
	/* -- fio: pacing and threads (rate, startdelay, cpus_allowed, nice, prio ...; thinktime is fileio's) -- */
	{ .name = "startdelay", .never_brief = 1, .type = OPT_STR, .offset = F(pacing.startdelay), .size = S(pacing.startdelay), .def = "0",
	  .help = "Start the job's threads this long after their group starts (bare number: seconds). A range lo-hi (5-10, 500ms-2s) gives each thread its own delay drawn from it, seeded by randseed. The time each thread's I/O starts is the start of its measured phase and runtime. fio counts the delay from the start of the whole run: for the jobs of the first group the two are the same. workload=fileio only." },
	{ .name = "rate", .type = OPT_STR, .offset = F(pacing.rate), .size = S(pacing.rate), .def = "",
	  .help = "Cap the bandwidth of each thread, in bytes per second (k, m, g suffixes, binary). One value caps reads and writes each; R,W caps them apart; R, caps reads only, ,W writes only. Before an I/O that would run ahead of the rate, the thread waits (a queued engine first waits for what is in flight); the wait is not counted in any latency, which runs from the I/O's issue, as in fio. A mixed job whose next direction is ahead and whose other direction is not switches direction, as fio does. Empty: no cap. workload=fileio only." },
	{ .name = "rate_iops", .type = OPT_STR, .offset = F(pacing.rate_iops), .size = S(pacing.rate_iops), .def = "",
	  .help = "Cap each thread's reads and writes per second; the forms of rate (R,W ...). The same as rate=IOPS*bs; where both are given for a direction, rate wins, as in fio. Empty: no cap. workload=fileio only." },
	{ .name = "rate_min", .type = OPT_STR, .offset = F(pacing.rate_min), .size = S(pacing.rate_min), .def = "",
	  .help = "Fail the job when a thread's bandwidth in a direction it does I/O in falls below this (bytes per second; the forms of rate), as fio does: after 2 s of measured phase, over every rate_cycle. The job stops and dbio exits 1, naming the rate it got. Empty: no floor. workload=fileio only." },
	{ .name = "rate_iops_min", .type = OPT_STR, .offset = F(pacing.rate_iops_min), .size = S(pacing.rate_iops_min), .def = "",
	  .help = "As rate_min, in reads or writes per second; where rate_min is given for a direction, rate_min is checked instead, as in fio. Empty: no floor. workload=fileio only." },
	{ .name = "cpus_allowed", .never_brief = 1, .type = OPT_STR, .offset = F(pacing.cpus_allowed), .size = S(pacing.cpus_allowed), .def = "",
	  .help = "Run the job's threads on these CPUs (sched_setaffinity before the thread prepares): numbers from 0 and ranges, e.g. 0,5,8-15. Each must be below the CPUs the machine has configured. Empty: where dbio may run." },
	{ .name = "cpumask", .never_brief = 1, .type = OPT_STR, .offset = F(pacing.cpumask), .size = S(pacing.cpumask), .def = "",
	  .help = "cpus_allowed as a bit mask of CPUs 0 to 31, decimal or 0x hex: 34 or 0x22 is CPUs 1 and 5. Not with cpus_allowed." },
	{ .name = "cpus_allowed_policy", .never_brief = 1, .type = OPT_ENUM, .offset = F(pacing.cpus_allowed_policy), .def = "shared", .values = cpus_policy_values,
	  .help = "How the CPUs of cpus_allowed or cpumask go to threads. split gives thread n its own CPU, the (n mod CPUs)-th of the set, counting n over every thread of the job files in order, as fio numbers its threads." },
	{ .name = "nice", .type = OPT_STR, .offset = F(pacing.nice), .size = S(pacing.nice), .def = "0",
	  .help = "Add this to the nice value of each of the job's threads before it prepares (nice(2), as fio), from -20 to 19; below 0 needs CAP_SYS_NICE." },
	{ .name = "prio", .type = OPT_UINT, .offset = F(pacing.prio), .def = "0", .min = 0, .max = 7,
	  .help = "I/O priority of each of the job's threads within prioclass, 0 (highest) to 7, set with ioprio_set(2) before the thread prepares; only when prio or prioclass is given." },
	{ .name = "prioclass", .type = OPT_ENUM, .offset = F(pacing.prioclass), .def = "0", .values = io_class_values,
	  .help = "I/O priority class of each of the job's threads (ioprio_set(2), as ionice(1)); only when prio or prioclass is given." },
	{ .name = "exitall", .never_brief = 1, .type = OPT_BOOL, .offset = F(pacing.exitall), .def = "0",
	  .help = "When a thread finishes, stop the other jobs running with it (which ones: exit_what), as fio. As in fio, one job saying it makes it so for every job of the job files, each stopping others by its own exit_what; the threads of the finishing job's own group stop too. A job stopped so ends normally, with what it did." },
	{ .name = "exit_what", .never_brief = 1, .type = OPT_ENUM, .offset = F(pacing.exit_what), .def = "group", .values = exit_what_values,
	  .help = "What exitall or exitall_on_error stops when this job's thread finishes." },
	{ .name = "exitall_on_error", .never_brief = 1, .type = OPT_BOOL, .offset = F(pacing.exitall_on_error), .def = "0",
	  .help = "When a thread of this job fails, stop the other jobs running with it (which ones: exit_what); without it a failure stops the failing job's own threads only." },
	{ .name = "continue_on_error", .type = OPT_STR, .offset = F(pacing.continue_on_error), .size = S(pacing.continue_on_error), .def = "none",
	  .help = "none (or 0): stop the job at its first I/O error. read, write, io (both, and trims): as fio, go on after an EIO or EILSEQ of those, counted in the run's errors (by errno, with the first one's message) and not as I/O done; any other error still stops the job, and so does a failed fsync (the data may be lost) and a verify mismatch, so fio's verify, all and 1 are refused. workload=fileio only." },
	/* -- end of pacing and threads -- */
	/* -- fio: how much and where (io_size, number_ios, offset, bsrange, bssplit, zones ...) -- */
	{ .name = "io_size", .type = OPT_SIZE, .offset = F(where.io_size), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Bytes of I/O per thread, as in fio, apart from size, which stays the region the I/O covers: less than size stops early, more starts the files over (a new pass) until io_size is done. With loops, io_size * loops in all. A verifying job that only writes counts its read back too, as fio. Not with time_based. With share_files=1, for all threads together. 0: size." },
	{ .name = "number_ios", .type = OPT_UINT, .offset = F(where.number_ios), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Stop a thread after this many reads and writes (number_ios * loops with loops), as in fio, if size or io_size has not stopped it before. Not with time_based. 0: no limit." },
	{ .name = "offset", .type = OPT_STR, .offset = F(where.offset), .size = S(where.offset), .def = "0",
	  .help = "Where the I/O starts in each file, in bytes (4k, 1m), as in fio: the bytes before it are not touched. Without filesize= a file is offset + its share of size; with filesize=, the I/O covers filesize - offset of it. fio's percentage (offset=25%) is refused: fio takes it of the size a file has before the job lays it out, which for a new file (dbio makes every file) is 0." },
	{ .name = "offset_increment", .type = OPT_SIZE, .offset = F(where.offset_increment), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Thread i of numjobs starts its I/O at offset + i * offset_increment, as in fio: with filename= the threads work on disjoint parts of the same files. Not with share_files=1. A percentage is refused (see offset)." },
	{ .name = "rw_sequencer", .type = OPT_ENUM, .offset = F(where.rw_sequencer), .def = "sequential", .values = rw_sequencer_values,
	  .help = "With rw=randread:N (a random pattern with an offset modifier), what the N - 1 I/Os between two random offsets do, as in fio. A sequential pattern is sequential either way." },
	{ .name = "bsrange", .type = OPT_STR, .offset = F(where.bsrange), .size = S(where.bsrange), .def = "",
	  .help = "A range of block sizes, LO-HI (4k-16k), or READ,WRITE ranges (1k-4k,2k-8k), as in fio: each I/O's size is drawn by fio's rule (LO + HI * a uniform draw, cut to HI), a multiple of LO unless bs_unaligned. Over bs. With one file (nrfiles=1). Empty: bs." },
	{ .name = "bssplit", .type = OPT_STR, .offset = F(where.bssplit), .size = S(where.bssplit), .def = "",
	  .help = "Block sizes by weight, as in fio: SIZE/PERCENT:SIZE/PERCENT (4k/10:64k/50:32k/40), READ,WRITE lists apart with a comma; a size without a percentage shares what the others leave, and what the percentages leave below 100 goes to the size with the largest share. Over bs and bsrange. With one file (nrfiles=1). Empty: bs." },
	{ .name = "blockalign", .type = OPT_SIZE, .offset = F(where.blockalign), .def = "0", .min = 0, .max = 1ull << 30,
	  .pair_offset = F(where.blockalign_write),
	  .help = "Where random I/Os start: multiples of this, as in fio; other than the block size it turns the random map off, as in fio. Sequential I/O ignores it. With one file (nrfiles=1). 0: the block size." },
	{ .name = "bs_unaligned", .type = OPT_BOOL, .offset = F(where.bs_unaligned), .def = "0",
	  .help = "Sizes drawn from bsrange may be any number of bytes in it, not only multiples of its smallest, as in fio. Not with direct=1." },
	{ .name = "percentage_random", .type = OPT_UINT, .offset = F(where.perc_rand), .def = "100", .min = 0, .max = 100,
	  .pair_offset = F(where.perc_rand_write),
	  .help = "Of a random pattern's I/Os, this percentage at a random offset and the others after the I/O before, as in fio (READ,WRITE apart: 50,100). A sequential pattern ignores it, as in fio. With one file (nrfiles=1)." },
	{ .name = "zonemode", .type = OPT_ENUM, .offset = F(where.zonemode), .def = "none", .values = zonemode_values,
	  .help = "Confine the I/O to zones of the file, as in fio: strided does zonesize bytes in a zone, then moves zonerange + zoneskip on (back to the start at the end of the file). zonesize alone is strided, as in fio 3.34 and later. With one file (nrfiles=1)." },
	{ .name = "zonesize", .type = OPT_SIZE, .offset = F(where.zonesize), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "zonemode=strided: bytes of I/O in a zone before the next; above zonerange, a zone is done several times over. 0: no zones." },
	{ .name = "zonerange", .type = OPT_SIZE, .offset = F(where.zonerange), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "zonemode=strided: the span of a zone, where its I/O goes (random offsets inside it). 0: zonesize." },
	{ .name = "zoneskip", .type = OPT_SIZE, .offset = F(where.zoneskip), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "zonemode=strided: bytes skipped after a zone's span, before the next zone." },
	{ .name = "random_generator", .type = OPT_ENUM, .offset = F(where.random_generator), .def = "tausworthe", .values = random_generator_values,
	  .help = "fio's generator of random numbers. The sizes of bsrange and bssplit and the random offsets of varying sizes are fio's draws of its Tausworthe generator (the 64-bit one with tausworthe64; lfsr: the 32-bit one, not fio's LFSR); a mixed job's reads or writes are fio's 32-bit draws whichever is named; the offsets of one block size are dbio's own permutation whichever is named. lfsr keeps its promise, each block once a pass also with norandommap." },
	{ .name = "random_sequence_stride", .type = OPT_BOOL, .offset = F(where.random_sequence_stride), .def = "0",
	  .help = "random_distribution=sequence: 0 repeats the blocks as given; 1 moves them a group (the sequence's length in blocks) further each round, as in fio: sequence:2,0,1 is blocks 2 0 1 5 3 4 8 6 7 ..., until the region ends." },
	{ .name = "offset_align", .type = OPT_SIZE, .offset = F(where.offset_align), .def = "0", .min = 0, .max = OPT_MAX, .fio_noop = 1,
	  .help = "fio's alignment of an offset given as a percentage; fio leaves an offset in bytes as it is, and dbio takes offsets in bytes only. Recorded, changes nothing measured." },
	/* -- end of how much and where -- */
	/* -- fio: files (filename, filename_format, unlink, create_on_open ...) -- */
	{ .name = "filename", .never_brief = 1, .type = OPT_STR, .offset = F(layout.filename), .size = S(layout.filename), .def = "",
	  .help = "Names of the job's files in directory, ':' between them, as in fio; nrfiles is their count, and every thread of the job (numjobs) does its I/O on these same files. dbio creates them (refusing a name that exists), lays them out and removes them, as its own dbio.<job>.<thread>.<n> files. An absolute path names the directory too (filename=/mnt/t/data is directory=/mnt/t filename=data). Not a device: dbio formats devices only in `dbio matrix --device ... --destroy-data`. Empty: dbio's names, a set per thread." },
	{ .name = "unlink", .type = OPT_BOOL, .offset = F(layout.unlink), .def = "1", .fio_noop = 1,
	  .help = "fio's switch to delete the job's files when it is done. dbio always removes the files it made after each run, unless --keep; recorded, changes nothing measured." },
	{ .name = "create_on_open", .type = OPT_BOOL, .offset = F(layout.create_on_open), .def = "0", .fio_noop = 1,
	  .help = "fio's switch to create files when the job opens them. dbio creates and lays out the files before the measured phase, either way; recorded, changes nothing measured." },
	{ .name = "buffered", .type = OPT_BOOL, .offset = F(layout.buffered), .def = "1",
	  .help = "Use buffered I/O, as in fio: buffered=0 is direct=1 (giving both, they must agree)." },
	{ .name = "rwmixwrite", .type = OPT_UINT, .offset = F(layout.rwmixwrite), .def = "50", .min = 0, .max = 100,
	  .help = "Percentage of writes in the mixed patterns, as in fio: rwmixwrite=30 is rwmixread=70 (giving both, they must add up to 100)." },
	{ .name = "fsync_on_close", .type = OPT_BOOL, .offset = F(layout.fsync_on_close), .def = "0",
	  .help = "fsync each file when the job closes it, as in fio: in dbio the same as end_fsync=1 (each file of each thread, once, at the end)." },
	{ .name = "overwrite", .type = OPT_BOOL, .offset = F(layout.overwrite), .def = "0",
	  .help = "Writes overwrite data that is there, as in fio: the files are written fully before the measured phase (prefill=1) also for a job that only writes." },
	{ .name = "openfiles", .type = OPT_UINT, .offset = F(layout.openfiles), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Files a thread keeps open at once, as in fio. dbio opens a thread's nrfiles files before the measured phase and keeps them open, so it takes openfiles of at least nrfiles (0: all); fio's metadata engines (ioengine=filecreate ...) open one file at a time, which openfiles=1 says." },
	/* -- end of files -- */
	/* -- fio: verify (verify, do_verify, verify_pattern, verify_backlog ...) -- */
	{ .name = "verify", .type = OPT_ENUM, .offset = F(verify.verify), .def = "0", .values = job_verify_values,
	  .help = "Check what the job wrote, as in fio: each block of verify_interval bytes it writes carries a header (fio's magic, type, length, offset, the writer) and a checksum of the rest; after the writes (or every verify_backlog of them) the job reads them back and checks them, and those reads count as reads, as in fio. A job that only reads checks each block it reads. A bad block is reported (file, offset, expected, found) and fails the run (exit 1). fileio only." },
	{ .name = "do_verify", .type = OPT_BOOL, .offset = F(verify.do_verify), .def = "1",
	  .help = "With verify=, read back and check after the writes, as in fio; 0 writes the headers only (for a later job that reads and checks)." },
	{ .name = "verify_fatal", .type = OPT_BOOL, .offset = F(verify.verify_fatal), .def = "0",
	  .help = "Stop the job at the first bad block, as in fio; else every block is checked and each bad one reported." },
	{ .name = "verify_dump", .type = OPT_BOOL, .offset = F(verify.verify_dump), .def = "0",
	  .help = "fio writes the bad block to files; dbio writes no files there: each report shows the bytes of the header found, in hex." },
	{ .name = "verify_backlog", .type = OPT_UINT, .offset = F(verify.verify_backlog), .def = "0", .min = 0, .max = OPT_MAX, .suffixes = 1,
	  .help = "Read back and check after every N blocks written, as in fio (a queued engine drains its queue first); the rest after the writes. fio's suffixes count too: 1m is 1048576 blocks. 0: all after the writes." },
	{ .name = "verify_backlog_batch", .type = OPT_UINT, .offset = F(verify.verify_backlog_batch), .def = "0", .min = 0, .max = OPT_MAX, .suffixes = 1,
	  .help = "Blocks each verify_backlog check reads back, as in fio: fewer than verify_backlog leave the rest of the backlog for later checks and the end (a check comes every N of them once the backlog is full), more read back the next writes as they come. 0: verify_backlog. With verify_backlog." },
	{ .name = "verify_interval", .type = OPT_SIZE, .offset = F(verify.verify_interval), .def = "0", .min = 0, .max = 1ull << 30,
	  .help = "Bytes of each checked block (its header and checksum), as in fio; must divide every block size. 0: the write block size." },
	{ .name = "verify_offset", .type = OPT_SIZE, .offset = F(verify.verify_offset), .def = "0", .min = 0, .max = 1ull << 30,
	  .help = "Put the header this many bytes into each block (swapped with the bytes there), as in fio." },
	{ .name = "verify_pattern", .type = OPT_STR, .offset = F(verify.verify_pattern), .size = S(verify.verify_pattern), .def = "",
	  .help = "Fill written blocks with this pattern and check it, as in fio: 0x hex (0xaa555aa5), \"text\", decimal numbers, run together (at most 512 bytes); or fio's file form 'NAME' alone: the bytes of the regular file NAME, 1 to 65536 of them. With verify=meta or pattern." },
	{ .name = "verify_only", .type = OPT_BOOL, .offset = F(verify.verify_only), .def = "0",
	  .help = "Write nothing: read back and check the blocks the job would write, as fio, e.g. in a later group of the same run on the same filename=, or on files an earlier run kept (--keep; run with --force)." },
	{ .name = "experimental_verify", .type = OPT_BOOL, .offset = F(verify.experimental_verify), .def = "0",
	  .help = "Read back by replaying the job's offsets from the start, as fio's experimental verify, instead of a log of the writes: as many bytes as were written, the reads of a mixed job skipped; no log kept (verify_backlog does not apply). Refused where a block may be written twice (norandommap ...)." },
	{ .name = "verify_state_save", .type = OPT_BOOL, .offset = F(verify.verify_state_save), .def = "1",
	  .help = "When the run keeps its files (--keep), save the writes each thread of a job that writes with verify= completed, as fio, in dbio.<job>.verify.<thread>.state beside the files, for a later run's verify_state_load." },
	{ .name = "verify_state_load", .type = OPT_BOOL, .offset = F(verify.verify_state_load), .def = "0",
	  .help = "A job that only reads with verify= reads back the files an earlier run kept (--keep) and checks only the writes its job of the same name saved with verify_state_save (dbio.<job>.verify.<thread>.state), as fio." },
	{ .name = "verify_async", .type = OPT_UINT, .offset = F(verify.verify_async), .def = "0", .min = 0, .max = 1024, .fio_noop = 1,
	  .help = "fio's threads that check blocks apart from the I/O; dbio checks in the job's threads. Recorded, changes nothing measured." },
	{ .name = "verify_async_cpus", .never_brief = 1, .type = OPT_STR, .offset = F(verify.verify_async_cpus), .size = S(verify.verify_async_cpus), .def = "", .fio_noop = 1,
	  .help = "fio's CPUs for the verify_async threads; dbio checks in the job's own threads (cpus_allowed places them). Recorded, changes nothing measured." },
	{ .name = "fill_device", .type = OPT_BOOL, .offset = F(verify.fill_device), .def = "0",
	  .help = "Write until the filesystem is full (ENOSPC), then end the writes normally, as fio's fill_device and fill_fs." },
	{ .name = "create_serialize", .type = OPT_BOOL, .offset = F(verify.create_serialize), .def = "1", .fio_noop = 1,
	  .help = "fio's switch to lay out the jobs' files one after another; dbio lays out every file before the measured phase either way. Recorded, changes nothing measured." },
	/* -- end of verify -- */
	/* -- fio: log files and command priorities (write_lat_log, write_bw_log, log_avg_msec, cmdprio ...) -- */
	{ .name = "write_lat_log", .never_brief = 1, .bare_empty = 1, .type = OPT_STR, .offset = F(logs.write_lat_log), .size = S(logs.write_lat_log), .def = "",
	  .help = "Write fio's latency logs NAME_lat.N.log, NAME_clat.N.log and NAME_slat.N.log (N: fio's thread number, from 1), in fio's format: time (ms), latency (ns), direction (0 read, 1 write), block size (bytes)[, offset (bytes)], priority; a path in NAME is taken from the current directory, as fio. Empty or bare (write_lat_log alone): the job's name. A file there is replaced only when it is a regular file (as --output). workload=fileio only." },
	{ .name = "write_bw_log", .never_brief = 1, .bare_empty = 1, .type = OPT_STR, .offset = F(logs.write_bw_log), .size = S(logs.write_bw_log), .def = "",
	  .help = "Write fio's bandwidth log NAME_bw.N.log (KiB/s; per I/O its bytes over its completion latency), as write_lat_log." },
	{ .name = "write_iops_log", .never_brief = 1, .bare_empty = 1, .type = OPT_STR, .offset = F(logs.write_iops_log), .size = S(logs.write_iops_log), .def = "",
	  .help = "Write fio's IOPS log NAME_iops.N.log (1 per I/O, or I/Os per second of each log_avg_msec window), as write_lat_log." },
	{ .name = "log_avg_msec", .type = OPT_UINT, .offset = F(logs.log_avg_msec), .def = "0", .max = 86400000,
	  .help = "Write one line per direction per window of this many milliseconds to the logs: the mean latency (or the largest, log_max_value), the bandwidth and IOPS over the window; block size and offset are then 0, as fio. 0: a line per I/O." },
	{ .name = "log_max_value", .type = OPT_ENUM, .offset = F(logs.log_max_value), .def = "avg", .values = window_values,
	  .help = "With log_avg_msec, what a window's line of the latency logs holds: avg its mean latency, max its largest, both the mean and then the largest in a column of its own (the bandwidth and IOPS logs then repeat their one figure), as fio's log_window_value (another name of this key); 0 and 1 are avg and max, fio 3.33's form." },
	{ .name = "log_offset", .type = OPT_BOOL, .offset = F(logs.log_offset), .def = "0",
	  .help = "Add each I/O's offset in its file (bytes) to the log lines, before the priority." },
	{ .name = "log_issue_time", .type = OPT_BOOL, .offset = F(logs.log_issue_time), .def = "0",
	  .help = "Add a last column to the log lines: in the clat and slat logs each I/O's issue time (ns from the start of the thread's measured phase: the end of the submit that carried it, or the start of a synchronous I/O), 0 in the others and in windows, as newer fio than 3.33. Needs write_lat_log and log_offset, as fio." },
	{ .name = "log_prio", .type = OPT_BOOL, .offset = F(logs.log_prio), .def = "0",
	  .help = "The logs' last column is each I/O's priority as ioprio(2)'s value in hex (class << 13 | level), instead of 1 for the real-time class and 0 for others." },
	{ .name = "log_unix_epoch", .type = OPT_BOOL, .offset = F(logs.log_unix_epoch), .def = "0",
	  .help = "The logs' times count from the Unix epoch (ms), not from the start of the thread's measured phase." },
	{ .name = "log_alternate_epoch", .type = OPT_BOOL, .offset = F(logs.log_alternate_epoch), .def = "0",
	  .help = "The logs' times count from the epoch of the clock log_alternate_epoch_clock_id (ms), not from the start of the thread's measured phase." },
	{ .name = "log_alternate_epoch_clock_id", .type = OPT_UINT, .offset = F(logs.log_alternate_epoch_clock_id), .def = "0", .max = 11,
	  .help = "The clock of log_alternate_epoch, as clock_gettime(2) numbers them: 0 CLOCK_REALTIME, 1 CLOCK_MONOTONIC, 7 CLOCK_BOOTTIME, 11 CLOCK_TAI ..." },
	{ .name = "per_job_logs", .type = OPT_BOOL, .offset = F(logs.per_job_logs), .def = "1",
	  .help = "Name each thread's logs with its thread number (NAME_bw.N.log); 0: one file NAME_bw.log holds the lines of every thread of the job, thread by thread (fio appends to it; dbio replaces it)." },
	{ .name = "log_entries", .type = OPT_UINT, .offset = F(logs.log_entries), .def = "1024", .min = 1, .max = 1u << 28,
	  .help = "Log lines reserved per thread before the run (more are allocated as needed, as fio); a job bound by size reserves a line per I/O anyway." },
	{ .name = "cmdprio_percentage", .type = OPT_STR, .offset = F(logs.cmdprio_percentage), .size = S(logs.cmdprio_percentage), .def = "",
	  .help = "Issue this percent of the I/Os (0 to 100; R,W for reads and writes apart) with the command priority of cmdprio_class and cmdprio, as fio: io_uring's sqe ioprio, libaio's aio_reqprio. ioengine=io_uring and libaio only." },
	{ .name = "cmdprio_class", .type = OPT_STR, .offset = F(logs.cmdprio_class), .size = S(logs.cmdprio_class), .def = "",
	  .help = "The I/O priority class of cmdprio_percentage's and cmdprio_bssplit's I/Os: 1 real-time (the default), 2 best-effort, 3 idle; R,W for reads and writes apart." },
	{ .name = "cmdprio", .type = OPT_STR, .offset = F(logs.cmdprio), .size = S(logs.cmdprio), .def = "",
	  .help = "The I/O priority level within cmdprio_class, 0 (highest, the default) to 7; R,W for reads and writes apart." },
	{ .name = "cmdprio_hint", .type = OPT_STR, .offset = F(logs.cmdprio_hint), .size = S(logs.cmdprio_hint), .def = "",
	  .help = "The I/O priority hint of cmdprio's I/Os (ioprio's hint bits, 0 to 1023; 0 none); R,W for reads and writes apart." },
	{ .name = "cmdprio_bssplit", .type = OPT_STR, .offset = F(logs.cmdprio_bssplit), .size = S(logs.cmdprio_bssplit), .def = "",
	  .help = "Percent of the I/Os of each block size issued with a command priority, as fio: BS/PERCENT:... with cmdprio_class and cmdprio, or BS/PERCENT/CLASS/LEVEL[/HINT]:... each with its own; READS,WRITES apart. Not with cmdprio_percentage." },
	/* -- end of logs -- */
	/* -- fio: steady state (steadystate, ss_dur, ss_ramp ...) -- */
	{ .name = "steadystate", .type = OPT_STR, .offset = F(steady.steadystate), .size = S(steady.steadystate), .def = "iops_slope:0.01%",
	  .help = "fio's steady state, MODE:LIMIT: with steadystate_duration, stop the job once the samples of its last window settle. MODE iops, bw or lat judges the largest deviation of a sample from the window's mean; iops_slope, bw_slope or lat_slope the least-squares slope of the samples (per interval). LIMIT is IOPS, bytes per second (bw; k, m, g binary), a time (lat; bare: microseconds), or N% of the window's mean. As fio, the job's threads are judged together (numjobs above 1 needs group_reporting), and with group_reporting the jobs of the reporting group. workload=fileio only." },
	{ .name = "steadystate_duration", .type = OPT_TIME, .offset = F(steady.ss_dur_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = NS_PER_S,
	  .help = "The window of steady state (bare number: seconds): steadystate judges the last steadystate_duration / steadystate_check_interval samples, a whole number of at least 2. 0: no steady state." },
	{ .name = "steadystate_ramp_time", .type = OPT_TIME, .offset = F(steady.ss_ramp_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = NS_PER_S,
	  .help = "Time after the job's start (after ramp_time) before the first steady-state sample's interval starts (bare number: seconds)." },
	{ .name = "steadystate_check_interval", .type = OPT_TIME, .offset = F(steady.ss_interval_ns), .def = "1", .max = OPT_MAX, .bare_unit_ns = NS_PER_S,
	  .help = "One steady-state sample per this interval (bare number: seconds), at least 1 s, as in fio; the same for every job." },
	/* -- end of steady state -- */
	/* -- fio: flow and submission (flow, flow_id; flow_sleep and io_submit_mode are fileio's: workload/fileio/keys.c) -- */
	{ .name = "flow", .type = OPT_UINT, .offset = F(pacing.flow), .def = "0", .min = 0, .max = 1000,
	  .help = "Weight of each thread of the job in its flow_id, as in fio: the threads of one flow_id running at the same time share a count of their reads and writes, and before each I/O a thread whose share of that count is above its share of the flow's weights waits (flow_sleep) instead: flow=1 beside flow=8 does about 1 I/O for their 8. 0: no flow control. workload=fileio only." },
	{ .name = "flow_id", .type = OPT_UINT, .offset = F(pacing.flow_id), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "The flow whose count the job's threads share (flow=). workload=fileio only." },
	/* -- end of flow and submission -- */
	/* -- fio: falloc and ftruncate engines, trims, NUMA (numa_cpu_nodes, numa_mem_policy) -- */
	{ .name = "numa_cpu_nodes", .never_brief = 1, .type = OPT_STR, .offset = F(numa.numa_cpu_nodes), .size = S(numa.numa_cpu_nodes), .def = "",
	  .help = "Run the job's threads on the CPUs of these NUMA nodes (sched_setaffinity before the thread prepares, after cpus_allowed, as fio): numbers from 0 and ranges, e.g. 0 or 0-1,3, or all; each a node of this machine (/sys/devices/system/node). Empty: where dbio may run." },
	{ .name = "numa_mem_policy", .never_brief = 1, .type = OPT_STR, .offset = F(numa.numa_mem_policy), .size = S(numa.numa_mem_policy), .def = "",
	  .help = "The memory policy of the job's threads (set_mempolicy(2) before the thread prepares, so its buffers follow it): default (no call, as fio), prefer:NODE, bind:NODES, interleave[:NODES] (all nodes when none are given) or local; nodes as in numa_cpu_nodes." },
	/* -- end of engines and NUMA -- */
	/* -- fio: latency target (latency_target ...; the buffer keys are fileio's: workload/fileio/keys.c) -- */
	{ .name = "latency_target", .type = OPT_TIME, .offset = F(latency.latency_target_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = 1000,
	  .help = "Look for the deepest queue whose I/Os stay at or under this latency, as fio does (bare number: microseconds): from depth 1, deeper after each latency_window that meets it at latency_percentile, shallower after one that misses; once the depth settles, the measurement starts over for one last window and the job ends (unless latency_run). The depth found is in the result. Queued engines (io_uring, libaio); 0: off." },
	{ .name = "latency_window", .type = OPT_TIME, .offset = F(latency.latency_window_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = 1000,
	  .help = "latency_target: how long each depth is tried (bare number: microseconds, as fio). 0: as fio, every turn of the loop." },
	{ .name = "latency_percentile", .type = OPT_STR, .offset = F(latency.latency_percentile), .size = S(latency.latency_percentile), .def = "100",
	  .help = "latency_target: the percentage of a window's I/Os that must be at or under the target, 0 to 100, as fio. At 100 a single I/O over it lowers the depth at once, and at depth 1 fails the job." },
	{ .name = "latency_run", .type = OPT_BOOL, .offset = F(latency.latency_run), .def = "0",
	  .help = "latency_target: keep adjusting the depth until the job ends, as fio, instead of ending after a last window at the depth found." },
	/* -- end of buffers and latency target -- */
	/* -- fio: exec_prerun, exec_postrun (run/exec.c) -- */
	{ .name = "exec_prerun", .type = OPT_STR, .offset = F(exec.prerun), .size = S(exec.prerun), .def = "",
	  .help = "A shell command (sh -c, as fio's system(3)) run before each run of the job, once its files are laid out; its standard output and error go to JOBNAME.prerun.txt in the current directory, as fio. A job name with '/' is refused, and a symlink at that path is never followed. When it exits other than 0 the job runs no I/O, as in fio, and dbio fails the run. Its command and exit status are in the result (runs[].exec). \"\": none." },
	{ .name = "exec_postrun", .type = OPT_STR, .offset = F(exec.postrun), .size = S(exec.postrun), .def = "",
	  .help = "A shell command run after each run of the job, before its files are removed; its output goes to JOBNAME.postrun.txt, as exec_prerun's. Not run when exec_prerun failed, as fio. Its exit status is recorded, and does not fail the run. \"\": none." },
};
/* clang-format on */

const struct option_table fileio_files_table = OPTION_TABLE(files_defs, struct fileio_files);

struct fileio_files *fileio_files(const struct job *job)
{
	/* plan_table_at puts the table second: the lookup is one compare
	 * on the hot path. */
	if (job->nkeys > 1 && job->keys[1].table == &fileio_files_table)
		return job->keys[1].conf;
	for (size_t t = 0; t < job->nkeys; t++)
		if (job->keys[t].table == &fileio_files_table)
			return job->keys[t].conf;
	return NULL;
}

bool job_reads(const struct job *job)
{
	return fileio_files(job)->layout.rw != RW_WRITE && fileio_files(job)->layout.rw != RW_RANDWRITE &&
	       !job_trims(job);
}

bool job_writes(const struct job *job)
{
	return fileio_files(job)->layout.rw != RW_READ && fileio_files(job)->layout.rw != RW_RANDREAD;
}

bool job_readback_counts(const struct job *job)
{
	const struct fileio_files *f = fileio_files(job);

	return (f->layout.rw == RW_WRITE || f->layout.rw == RW_RANDWRITE) &&
	       f->verify.verify != VERIFY_NONE && f->verify.do_verify && !f->verify.verify_only &&
	       !job->time_based && !job_pass_is_io_size(job);
}

bool job_reads_kept(const struct job *job)
{
	return fileio_files(job)->verify.verify_only || fileio_files(job)->verify.verify_state_load;
}

bool job_verifies_reads(const struct job *job)
{
	return !job_writes(job) && fileio_files(job)->verify.verify != VERIFY_NONE;
}

bool job_saves_vstate(const struct job *job)
{
	const struct fileio_files *f = fileio_files(job);

	return job_writes(job) && f->verify.verify != VERIFY_NONE && f->verify.verify_state_save &&
	       !f->verify.verify_only;
}

bool job_pass_is_io_size(const struct job *job)
{
	return job_writes(job) && job_is_random(job) && fileio_files(job)->layout.norandommap;
}

bool job_trims(const struct job *job)
{
	return fileio_files(job)->layout.rw >= RW_TRIM && fileio_files(job)->layout.rw <= RW_RANDTRIMWRITE;
}

bool job_is_random(const struct job *job)
{
	return fileio_files(job)->layout.rw == RW_RANDREAD || fileio_files(job)->layout.rw == RW_RANDWRITE ||
	       fileio_files(job)->layout.rw == RW_RANDRW || fileio_files(job)->layout.rw == RW_RANDTRIM ||
	       fileio_files(job)->layout.rw == RW_RANDTRIMWRITE;
}
