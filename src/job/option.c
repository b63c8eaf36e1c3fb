/*
 * The job's own option tables (keys of every job, keys of the file
 * workloads) and fio's other names for keys; see option.h. The parsers
 * behind every table are option_parse.c.
 * Adding a key of every job is one row here plus its field in struct job;
 * an engine's or workload's own key is one row and one field in that
 * plug-in's file.
 */
#include "job/option.h"

#include <string.h>

#include "job/job.h"

#define F(field) offsetof(struct job, field)
#define S(field) sizeof(((struct job *)0)->field)
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
	{ "tausworthe", RANDGEN_TAUSWORTHE, "fio's default; dbio's own generator" },
	{ "lfsr", RANDGEN_LFSR, "each block once a pass, also with norandommap" },
	{ "tausworthe64", RANDGEN_TAUSWORTHE64, "fio's for more than 2^32 blocks; dbio's own generator" },
	{ NULL, 0, NULL },
};

/* fio's verify= values (checked by job/fio_verify.c; kv's verify key too). */
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

static const struct opt_enum cache_values[] = {
	{ "fadvise", CACHE_FADVISE, "drop the job's files from the page cache (POSIX_FADV_DONTNEED)" },
	{ "drop", CACHE_DROP, "sync, then drop the whole page cache (/proc/sys/vm/drop_caches; root)" },
	{ "keep", CACHE_KEEP, "leave the page cache as the layout left it (warm)" },
	{ NULL, 0, NULL },
};

static const struct opt_enum probe_values[] = {
	{ "none", PROBE_NONE, "no probe" },
	{ "write", PROBE_WRITE,
	  "a 4 KiB write + fdatasync of a small file, as an editor saving or a log line" },
	{ "read", PROBE_READ,
	  "a 4 KiB read of a small file dropped from the page cache first, as a program starting" },
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
static const struct option_def job_defs[] = {
	{ .name = "name", .never_brief = 1, .type = OPT_STR, .offset = F(name), .size = S(name), .def = "",
	  .help = "Name of the job, used in reports and file names. Defaults to the job file's section name, or 'job' on the command line." },
	{ .name = "directory", .never_brief = 1, .type = OPT_STR, .offset = F(directory), .size = S(directory), .def = "./dbio-scratch",
	  .help = "Directory for the job's files. Several directories separated by ':' spread the files over them round-robin (file i of the job in directory i mod N, as fio; a workload that makes its own files puts thread t in directory t mod N), as one job over several disks; fewer files (or threads) than directories is refused, since some would get no I/O. The result then gives each directory's reads, writes and throughput over the run, and its device's busy time. The directory must exist, except the default ./dbio-scratch, which dbio creates and removes." },
	{ .name = "workload", .never_brief = 1, .type = OPT_STR, .offset = F(workload), .size = S(workload), .def = "fileio", .dbio_own = 1,
	  .help = "What each thread does: fileio (reads and writes of files), kv (inserts, lookups and updates in a real embedded database), import (a SQLite bulk load with an index rebuild), oltp (page reads and writes with a commit log), meta (file creates, stats, reads, renames and deletes) or postgres (a real PostgreSQL server: COPY import, index build, pgbench-shaped transactions). Each workload takes the keys of every job, its own keys, and, when it lays out files (fileio, oltp), the file keys and those of its ioengine. See docs/workloads.md." },
	{ .name = "numjobs", .type = OPT_UINT, .offset = F(numjobs), .def = "1", .min = 1, .max = 4096, .brief = 1,
	  .help = "Number of threads running the job together. As in fio, each thread does the whole work on files or a database of its own (a file workload: unless share_files=1)." },
	{ .name = "runtime", .type = OPT_TIME, .offset = F(runtime_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = NS_PER_S,
	  .help = "Stop the measured phase after this long (bare number: seconds); 0 means no limit. Without time_based a job also stops when its size is done." },
	{ .name = "time_based", .type = OPT_BOOL, .offset = F(time_based), .def = "0",
	  .help = "Run for the whole runtime, starting the files over when a pass is done. Needs runtime." },
	{ .name = "ramp_time", .type = OPT_TIME, .offset = F(ramp_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = NS_PER_S,
	  .help = "Run this long before measuring (bare number: seconds); the I/O of the ramp is not counted, and a job bound by size does its whole size after the ramp." },
	{ .name = "stonewall_s", .type = OPT_TIME, .offset = F(stonewall_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = NS_PER_S, .dbio_own = 1,
	  .help = "IOR's stonewalling (-D): this long after the common start of the job's group (bare number: seconds), every thread of the job stops issuing I/O; under MPI every rank stops at the same moment after the start barrier, alone it cuts a job bound by size short like a deadline. Counted from the start, ramp_time included: it must be longer than ramp_time. The result's run.stonewall gives the work done by then. workload=fileio only. Not given: no stonewall." },
	{ .name = "stonewall_wearout", .type = OPT_BOOL, .offset = F(stonewall_wearout), .def = "0", .dbio_own = 1,
	  .help = "IOR's stoneWallingWearOut: at the stonewall the ranks agree on the most reads and writes any rank had done (its threads together), and every rank then goes on until it has done that many, so every rank does the same work and a straggler's time is measured. The job's threads share what is left to do. Needs stonewall_s. workload=fileio only." },
	{ .name = "repeat", .type = OPT_UINT, .offset = F(repeat), .def = "1", .min = 1, .max = 10000, .dbio_own = 1, .word = "auto",
	  .help = "Run the job this many times, laying out fresh files and handling the cache before each run; the report gives mean, standard deviation, min, max, 95 % confidence interval and coefficient of variation of every figure. auto: at least 3 runs, then one more at a time until the 95 % confidence interval's half-width of the headline figure (elapsed, or ops/s of every op type together when time_based) is within repeat_ci percent of its mean, or repeat_max runs were made, or repeat_time has passed since the first began; every run is kept, and the result's repeat says why it stopped." },
	{ .name = "repeat_max", .type = OPT_UINT, .offset = F(repeat_max), .def = "10", .min = 3, .max = 10000, .dbio_own = 1,
	  .help = "repeat=auto: the most runs, however wide the confidence interval still is." },
	{ .name = "repeat_ci", .type = OPT_UINT, .offset = F(repeat_ci_pct), .def = "5", .min = 1, .max = 100, .dbio_own = 1,
	  .help = "repeat=auto: the target, in percent of the headline figure's mean, for the half-width of its 95 % confidence interval." },
	{ .name = "repeat_time", .type = OPT_TIME, .offset = F(repeat_time_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = NS_PER_S, .dbio_own = 1,
	  .help = "repeat=auto: no run begins this long (bare number: seconds) after the first began, once 3 are done. 0: no limit." },
	{ .name = "cache", .type = OPT_ENUM, .offset = F(cache), .def = "fadvise", .values = cache_values, .dbio_own = 1,
	  .help = "What happens to the page cache before each run, after the layout. Without cache=, fio's invalidate decides: invalidate=1 is fadvise, invalidate=0 is keep." },
	{ .name = "invalidate", .type = OPT_BOOL, .offset = F(invalidate), .def = "1",
	  .help = "Drop the job's files from the page cache (POSIX_FADV_DONTNEED) before the measured phase, as fio does by default; cache= overrides it." },
	{ .name = "mem_limit", .type = OPT_SIZE, .offset = F(mem_limit), .def = "0", .min = 0, .max = OPT_MAX, .dbio_own = 1,
	  .help = "Run the job in a memory cgroup limited to this many bytes, page cache included (cgroup v1 memory.limit_in_bytes or v2 memory.max; root), so that data bigger than the limit cannot be cached. The job's threads and its stall probe run in a child process in the cgroup, dbio outside it: a job the kernel kills for exceeding the limit ends with exit 1, 'the job exceeded mem_limit=...', a partial result, and its files and cgroup removed. The result records the limit and the cgroup's peak use. Jobs of a group share the smallest limit among them. 0: no limit." },
	{ .name = "log_interval", .type = OPT_INTERVAL, .offset = F(log_interval), .def = "0", .dbio_own = 1, .bare_unit_ns = NS_PER_S,
	  .help = "Record a time series: per interval and op type, the operations, bytes, mean and max latency. A duration (1s, 100ms) makes a fixed time grid from the start of the measured phase; a count (1000ops) closes an interval after that many reads and writes of a thread, as in 'time for each 1,000 records'. The report names the worst and second-worst interval. 0: no series." },
	{ .name = "randseed", .type = OPT_UINT, .offset = F(randseed), .def = "24301", .min = 0, .max = OPT_MAX,
	  .help = "Seed of the random offsets and read/write choices; each thread, of every workload, uses randseed + its fio thread number (counted over all jobs of the job files from 0), so the jobs of one file draw apart, as in fio." },
	{ .name = "randrepeat", .type = OPT_BOOL, .offset = F(randrepeat), .def = "1",
	  .help = "Use randseed, so that runs repeat the same offsets. 0 seeds from the clock (unless randseed is given); the seed used is recorded in the result." },
	{ .name = "percentile_list", .type = OPT_PCT_LIST, .offset = F(percentiles), .def = "",
	  .help = "Extra latency percentiles to report, separated by ':', e.g. 99.5:99.99. p50, p90, p95, p99 and p99.9 are always reported." },
	{ .name = "probe", .type = OPT_ENUM, .offset = F(probe), .def = "none", .values = probe_values, .dbio_own = 1,
	  .help = "A light foreground task every probe_interval while the job runs, in a thread of its own on a file dbio.<job>.probe in the job's first directory; the result gives its latency percentiles and every stall longer than probe_stall with its time into the run." },
	{ .name = "probe_interval", .type = OPT_TIME, .offset = F(probe_interval_ns), .def = "100ms", .min = 1000000, .max = OPT_MAX, .bare_unit_ns = 1000000, .dbio_own = 1,
	  .help = "Time between two probes (bare number: milliseconds), at least 1 ms." },
	{ .name = "probe_stall", .type = OPT_TIME, .offset = F(probe_stall_ns), .def = "100ms", .min = 1, .max = OPT_MAX, .bare_unit_ns = 1000000, .dbio_own = 1,
	  .help = "A probe that takes this long or longer is a stall (bare number: milliseconds)." },
	{ .name = "stonewall", .never_brief = 1, .type = OPT_BOOL, .offset = F(stonewall), .def = "0",
	  .help = "Start this job only when every job before it in the job file has finished. As in fio, the jobs of a file run at the same time unless one says stonewall (or wait_for); the first job of every job file after the first has it implied." },
	{ .name = "new_group", .never_brief = 1, .type = OPT_BOOL, .offset = F(new_group), .def = "0",
	  .help = "Start a new reporting group at this job (fio's groupid, recorded in the result as the job's group), without waiting for the jobs before it; stonewall starts one too." },
	{ .name = "wait_for", .never_brief = 1, .type = OPT_STR, .offset = F(wait_for), .size = S(wait_for), .def = "",
	  .help = "Start this job only when the named job before it in the file has finished. dbio runs a job file as groups of jobs that start together, so wait_for must name a job that finishes before this one's group starts: one of an earlier group (then wait_for changes nothing), or the only job of the group running when this job comes (then it is a stonewall); any other is refused." },
	{ .name = "description", .type = OPT_STR, .offset = F(description), .size = S(description), .def = "", .fio_noop = 1,
	  .help = "Free text about the job, recorded in the result; changes nothing measured." },
	{ .name = "group_reporting", .never_brief = 1, .type = OPT_BOOL, .offset = F(group_reporting), .def = "0",
	  .help = "fio's switch to report the clones of numjobs (and the jobs of a group) as one. dbio always reports each job with its numjobs threads merged, and keeps the jobs of a group apart. With fio's steady state (steadystate_duration) it does what it does in fio: the jobs of the reporting group are judged together, and stop together." },
	{ .name = "gtod_reduce", .type = OPT_BOOL, .offset = F(gtod_reduce), .def = "0", .fio_noop = 1,
	  .help = "fio's switch to take fewer clock readings. dbio times every operation with one clock_gettime pair (vDSO, tens of ns); recorded, changes nothing measured." },
	{ .name = "thread", .type = OPT_BOOL, .offset = F(thread), .def = "0", .fio_noop = 1,
	  .help = "fio's switch to run jobs as threads instead of processes. dbio always uses threads; recorded, changes nothing measured." },
	{ .name = "threads", .type = OPT_UINT, .offset = F(threads), .def = "0", .min = 0, .max = OPT_MAX, .fio_noop = 1,
	  .help = "A key of fio's tiobench profile, which fio accepts (and ignores) in any job; recorded, changes nothing measured. The number of threads of a job is numjobs." },
	{ .name = "clat_percentiles", .type = OPT_BOOL, .offset = F(clat_percentiles), .def = "1", .fio_noop = 1,
	  .help = "fio's switch for completion-latency percentiles. dbio always reports latency percentiles (every op is timed into a histogram); recorded, changes nothing measured." },
	{ .name = "lat_percentiles", .type = OPT_BOOL, .offset = F(lat_percentiles), .def = "0", .fio_noop = 1,
	  .help = "fio's switch for total-latency percentiles; as clat_percentiles: recorded, changes nothing measured." },
	{ .name = "slat_percentiles", .type = OPT_BOOL, .offset = F(slat_percentiles), .def = "0", .fio_noop = 1,
	  .help = "fio's switch for submission-latency percentiles; as clat_percentiles: recorded, changes nothing measured." },
};

static const struct option_def files_defs[] = {
	{ .name = "rw", .type = OPT_ENUM, .offset = F(rw), .def = "read", .values = rw_values, .brief = 1,
	  .suffix_offset = F(rw_mod), .suffix_size = S(rw_mod),
	  .help = "I/O pattern. As in fio, :N after it is an offset modifier: after each sequential I/O, skip N bytes (rw=write:4k writes every other block; negative goes backwards: rw=read:-8k), or for a random pattern, a new random offset only every N I/Os (rw=randread:8; see rw_sequencer)." },
	{ .name = "rwmixread", .type = OPT_UINT, .offset = F(rwmixread), .def = "50", .min = 0, .max = 100,
	  .help = "Percentage of reads in the mixed patterns randrw and readwrite; each operation is a read with this probability." },
	{ .name = "bs", .type = OPT_SIZE, .offset = F(bs), .def = "4k", .min = 1, .max = 1ull << 30, .brief = 1,
	  .pair_offset = F(bs_write),
	  .help = "Block size: bytes per read or write; READ,WRITE (fio's form, bs=8k,32k) gives reads and writes each their own." },
	{ .name = "size", .type = OPT_SIZE, .offset = F(size), .def = "0", .min = 0, .max = OPT_MAX, .brief = 1,
	  .help = "Bytes of I/O in one pass, per thread (or for all threads together with share_files=1). The files are this big together unless filesize says otherwise. One of size and filesize is required." },
	{ .name = "filesize", .type = OPT_SIZE, .offset = F(filesize), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Size of each file. Defaults to size / nrfiles, rounded up to whole blocks." },
	{ .name = "nrfiles", .type = OPT_UINT, .offset = F(nrfiles), .def = "1", .min = 1, .max = 1000000, .brief = 1,
	  .help = "Number of files per thread (or in all with share_files=1). Offsets run over the files as one space: block b is in file b / (filesize / bs)." },
	{ .name = "ioengine", .type = OPT_STR, .offset = F(ioengine), .size = S(ioengine), .def = "psync", .brief = 1,
	  .help = "How the I/O is issued: psync (pread/pwrite), sync (lseek + read/write), pvsync2 (preadv2/pwritev2), io_uring, libaio (queues with direct=1; buffered it runs one I/O at a time, with a warning), mmap (copies to/from a shared mapping) or null (no I/O: measures dbio's own cost). `dbio --version` lists the engines this build has; docs/engines.md describes each." },
	{ .name = "iodepth", .type = OPT_UINT, .offset = F(iodepth), .def = "1", .min = 1, .max = 4096,
	  .help = "I/Os kept in flight per thread by a queued engine (io_uring, libaio): submitted in batches, reaped as they complete. More than 1 with an engine that cannot queue (psync, sync, mmap, null) is an error." },
	{ .name = "direct", .type = OPT_BOOL, .offset = F(direct), .def = "0",
	  .help = "Open files with O_DIRECT, bypassing the page cache. bs must be a multiple of the device's logical block size." },
	{ .name = "sync", .type = OPT_ENUM, .offset = F(sync), .def = "none", .values = sync_values,
	  .help = "Synchronous writes through the open flags O_SYNC or O_DSYNC." },
	{ .name = "fsync", .type = OPT_UINT, .offset = F(fsync), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Call fsync on the file just written after every N writes of a thread; 0 never." },
	{ .name = "fdatasync", .type = OPT_UINT, .offset = F(fdatasync), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Call fdatasync on the file just written after every N writes of a thread; 0 never." },
	{ .name = "sync_file_range", .type = OPT_STR, .offset = F(sync_file_range), .size = S(sync_file_range), .def = "",
	  .help = "FLAGS:N (fio's form): call sync_file_range(2) on the file just written after every N writes of a thread, over the whole file (fio: the range written since the last call), with FLAGS any of wait_before, write, wait_after joined by commas (SYNC_FILE_RANGE_WAIT_BEFORE, _WRITE, _WAIT_AFTER). It starts or waits for writeback of the file's dirty pages; it writes no metadata and does not flush the disk's cache, so it is not durable. Not with ioengine=mmap. Empty: never." },
	{ .name = "end_fsync", .type = OPT_BOOL, .offset = F(end_fsync), .def = "0",
	  .help = "When a thread's I/O is done and it wrote anything, fsync every file of the thread; counted and timed as fsync operations, inside the measured time." },
	{ .name = "loops", .type = OPT_UINT, .offset = F(loops), .def = "1", .min = 1, .max = OPT_MAX,
	  .help = "Number of passes over size when not time_based." },
	{ .name = "norandommap", .type = OPT_BOOL, .offset = F(norandommap), .def = "0",
	  .help = "Pick random blocks independently (some twice, some never). By default a pass visits every block exactly once in random order." },
	{ .name = "random_distribution", .type = OPT_STR, .offset = F(random_distribution), .size = S(random_distribution), .def = "random",
	  .help = "How random blocks are picked: random (uniform), zipf:THETA (P(rank k) proportional to k^-THETA, 0 < THETA <= 10; zipf:1.2 puts about 89 % of 1,000 blocks' accesses on the hottest 20 %) or pareto:H (0 < H < 1; rank = n * u^(1/(1-H)) for uniform u, so pareto:0.9 sends about 85 % to the hottest 20 %). Hot blocks are scattered over the files by a seeded permutation. Skewed distributions draw blocks independently (no random map). fio's forms too: normal:DEV, zoned:ACCESS/PERCENT:..., zoned_abs:ACCESS/SIZE:... and sequence:B,B,... (these blocks in this order, up to 64; see random_sequence_stride); docs/fio.md says how." },
	{ .name = "fallocate", .type = OPT_ENUM, .offset = F(fallocate), .def = "native", .values = fallocate_values,
	  .help = "How files are preallocated when dbio creates them." },
	{ .name = "prefill", .type = OPT_ENUM, .offset = F(prefill), .def = "auto", .values = prefill_values, .dbio_own = 1,
	  .help = "Whether dbio writes the files fully before the measured phase (the layout); the writes are not measured." },
	{ .name = "share_files", .type = OPT_BOOL, .offset = F(share_files), .def = "0", .dbio_own = 1,
	  .help = "All threads share one set of nrfiles files whose total is size, as sysbench fileio does; each thread does 1/numjobs of the I/O, on its own slice of the blocks. 0: each thread has its own files, as in fio." },
	/* -- sysbench -- */
	{ .name = "fsync_scope", .type = OPT_ENUM, .offset = F(fsync_scope), .def = "file", .values = fsync_scope_values, .dbio_own = 1,
	  .help = "What fsync=N (or fdatasync=N) counts and syncs. file: as fio, after every N writes of a thread, the file just written. job: as sysbench fileio's --file-fsync-freq, after every N reads and writes counted over all threads of the job together, the thread that made the N-th syncs every file of the job, once each, if any was written since the last such round (none after a job's last I/O). job needs every thread on all the files (filename=, or numjobs=1) and one of fsync and fdatasync." },
	/* -- end of sysbench -- */
	/* -- fio: pacing and threads (rate, startdelay, cpus_allowed, nice, prio ...; thinktime is fileio's) -- */
	{ .name = "startdelay", .never_brief = 1, .type = OPT_STR, .offset = F(startdelay), .size = S(startdelay), .def = "0",
	  .help = "Start the job's threads this long after their group starts (bare number: seconds). A range lo-hi (5-10, 500ms-2s) gives each thread its own delay drawn from it, seeded by randseed. The time each thread's I/O starts is the start of its measured phase and runtime. fio counts the delay from the start of the whole run: for the jobs of the first group the two are the same. workload=fileio only." },
	{ .name = "rate", .type = OPT_STR, .offset = F(rate), .size = S(rate), .def = "",
	  .help = "Cap the bandwidth of each thread, in bytes per second (k, m, g suffixes, binary). One value caps reads and writes each; R,W caps them apart; R, caps reads only, ,W writes only. Before an I/O that would run ahead of the rate, the thread waits (a queued engine first waits for what is in flight); the wait is not counted in any latency, which runs from the I/O's issue, as in fio. A mixed job whose next direction is ahead and whose other direction is not switches direction, as fio does. Empty: no cap. workload=fileio only." },
	{ .name = "rate_iops", .type = OPT_STR, .offset = F(rate_iops), .size = S(rate_iops), .def = "",
	  .help = "Cap each thread's reads and writes per second; the forms of rate (R,W ...). The same as rate=IOPS*bs; where both are given for a direction, rate wins, as in fio. Empty: no cap. workload=fileio only." },
	{ .name = "rate_min", .type = OPT_STR, .offset = F(rate_min), .size = S(rate_min), .def = "",
	  .help = "Fail the job when a thread's bandwidth in a direction it does I/O in falls below this (bytes per second; the forms of rate), as fio does: after 2 s of measured phase, over every rate_cycle. The job stops and dbio exits 1, naming the rate it got. Empty: no floor. workload=fileio only." },
	{ .name = "rate_iops_min", .type = OPT_STR, .offset = F(rate_iops_min), .size = S(rate_iops_min), .def = "",
	  .help = "As rate_min, in reads or writes per second; where rate_min is given for a direction, rate_min is checked instead, as in fio. Empty: no floor. workload=fileio only." },
	{ .name = "cpus_allowed", .never_brief = 1, .type = OPT_STR, .offset = F(cpus_allowed), .size = S(cpus_allowed), .def = "",
	  .help = "Run the job's threads on these CPUs (sched_setaffinity before the thread prepares): numbers from 0 and ranges, e.g. 0,5,8-15. Each must be below the CPUs the machine has configured. Empty: where dbio may run." },
	{ .name = "cpumask", .never_brief = 1, .type = OPT_STR, .offset = F(cpumask), .size = S(cpumask), .def = "",
	  .help = "cpus_allowed as a bit mask of CPUs 0 to 31, decimal or 0x hex: 34 or 0x22 is CPUs 1 and 5. Not with cpus_allowed." },
	{ .name = "cpus_allowed_policy", .never_brief = 1, .type = OPT_ENUM, .offset = F(cpus_allowed_policy), .def = "shared", .values = cpus_policy_values,
	  .help = "How the CPUs of cpus_allowed or cpumask go to threads. split gives thread n its own CPU, the (n mod CPUs)-th of the set, counting n over every thread of the job files in order, as fio numbers its threads." },
	{ .name = "nice", .type = OPT_STR, .offset = F(nice), .size = S(nice), .def = "0",
	  .help = "Add this to the nice value of each of the job's threads before it prepares (nice(2), as fio), from -20 to 19; below 0 needs CAP_SYS_NICE." },
	{ .name = "prio", .type = OPT_UINT, .offset = F(prio), .def = "0", .min = 0, .max = 7,
	  .help = "I/O priority of each of the job's threads within prioclass, 0 (highest) to 7, set with ioprio_set(2) before the thread prepares; only when prio or prioclass is given." },
	{ .name = "prioclass", .type = OPT_ENUM, .offset = F(prioclass), .def = "0", .values = io_class_values,
	  .help = "I/O priority class of each of the job's threads (ioprio_set(2), as ionice(1)); only when prio or prioclass is given." },
	{ .name = "exitall", .never_brief = 1, .type = OPT_BOOL, .offset = F(exitall), .def = "0",
	  .help = "When a thread finishes, stop the other jobs running with it (which ones: exit_what), as fio. As in fio, one job saying it makes it so for every job of the job files, each stopping others by its own exit_what; the threads of the finishing job's own group stop too. A job stopped so ends normally, with what it did." },
	{ .name = "exit_what", .never_brief = 1, .type = OPT_ENUM, .offset = F(exit_what), .def = "group", .values = exit_what_values,
	  .help = "What exitall or exitall_on_error stops when this job's thread finishes." },
	{ .name = "exitall_on_error", .never_brief = 1, .type = OPT_BOOL, .offset = F(exitall_on_error), .def = "0",
	  .help = "When a thread of this job fails, stop the other jobs running with it (which ones: exit_what); without it a failure stops the failing job's own threads only." },
	{ .name = "continue_on_error", .type = OPT_STR, .offset = F(continue_on_error), .size = S(continue_on_error), .def = "none",
	  .help = "none (or 0): stop the job at its first I/O error. read, write, io (both, and trims): as fio, go on after an EIO or EILSEQ of those, counted in the run's errors (by errno, with the first one's message) and not as I/O done; any other error still stops the job, and so does a failed fsync (the data may be lost) and a verify mismatch, so fio's verify, all and 1 are refused. workload=fileio only." },
	/* -- end of pacing and threads -- */
	/* -- fio: how much and where (io_size, number_ios, offset, bsrange, bssplit, zones ...) -- */
	{ .name = "io_size", .type = OPT_SIZE, .offset = F(io_size), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Bytes of I/O per thread, as in fio, apart from size, which stays the region the I/O covers: less than size stops early, more starts the files over (a new pass) until io_size is done. With loops, io_size * loops in all. Not with time_based. With share_files=1, for all threads together. 0: size." },
	{ .name = "number_ios", .type = OPT_UINT, .offset = F(number_ios), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Stop a thread after this many reads and writes (number_ios * loops with loops), as in fio, if size or io_size has not stopped it before. Not with time_based. 0: no limit." },
	{ .name = "offset", .type = OPT_STR, .offset = F(offset), .size = S(offset), .def = "0",
	  .help = "Where the I/O starts in each file, in bytes (4k, 1m), as in fio: the bytes before it are not touched. Without filesize= a file is offset + its share of size; with filesize=, the I/O covers filesize - offset of it. fio's percentage (offset=25%) is refused: fio takes it of the size a file has before the job lays it out, which for a new file (dbio makes every file) is 0." },
	{ .name = "offset_increment", .type = OPT_SIZE, .offset = F(offset_increment), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Thread i of numjobs starts its I/O at offset + i * offset_increment, as in fio: with filename= the threads work on disjoint parts of the same files. Not with share_files=1. A percentage is refused (see offset)." },
	{ .name = "rw_sequencer", .type = OPT_ENUM, .offset = F(rw_sequencer), .def = "sequential", .values = rw_sequencer_values,
	  .help = "With rw=randread:N (a random pattern with an offset modifier), what the N - 1 I/Os between two random offsets do, as in fio. A sequential pattern is sequential either way." },
	{ .name = "bsrange", .type = OPT_STR, .offset = F(bsrange), .size = S(bsrange), .def = "",
	  .help = "A range of block sizes, LO-HI (4k-16k), or READ,WRITE ranges (1k-4k,2k-8k), as in fio: each I/O's size is drawn by fio's rule (LO + HI * a uniform draw, cut to HI), a multiple of LO unless bs_unaligned. Over bs. With one file (nrfiles=1). Empty: bs." },
	{ .name = "bssplit", .type = OPT_STR, .offset = F(bssplit), .size = S(bssplit), .def = "",
	  .help = "Block sizes by weight, as in fio: SIZE/PERCENT:SIZE/PERCENT (4k/10:64k/50:32k/40), READ,WRITE lists apart with a comma; a size without a percentage shares what the others leave, and what the percentages leave below 100 goes to the size with the largest share. Over bs and bsrange. With one file (nrfiles=1). Empty: bs." },
	{ .name = "blockalign", .type = OPT_SIZE, .offset = F(blockalign), .def = "0", .min = 0, .max = 1ull << 30,
	  .pair_offset = F(blockalign_write),
	  .help = "Where random I/Os start: multiples of this, as in fio; other than the block size it turns the random map off, as in fio. Sequential I/O ignores it. With one file (nrfiles=1). 0: the block size." },
	{ .name = "bs_unaligned", .type = OPT_BOOL, .offset = F(bs_unaligned), .def = "0",
	  .help = "Sizes drawn from bsrange may be any number of bytes in it, not only multiples of its smallest, as in fio. Not with direct=1." },
	{ .name = "percentage_random", .type = OPT_UINT, .offset = F(perc_rand), .def = "100", .min = 0, .max = 100,
	  .pair_offset = F(perc_rand_write),
	  .help = "Of a random pattern's I/Os, this percentage at a random offset and the others after the I/O before, as in fio (READ,WRITE apart: 50,100). A sequential pattern ignores it, as in fio. With one file (nrfiles=1)." },
	{ .name = "zonemode", .type = OPT_ENUM, .offset = F(zonemode), .def = "none", .values = zonemode_values,
	  .help = "Confine the I/O to zones of the file, as in fio: strided does zonesize bytes in a zone, then moves zonerange + zoneskip on (back to the start at the end of the file). zonesize alone is strided, as in fio 3.34 and later. With one file (nrfiles=1)." },
	{ .name = "zonesize", .type = OPT_SIZE, .offset = F(zonesize), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "zonemode=strided: bytes of I/O in a zone before the next; above zonerange, a zone is done several times over. 0: no zones." },
	{ .name = "zonerange", .type = OPT_SIZE, .offset = F(zonerange), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "zonemode=strided: the span of a zone, where its I/O goes (random offsets inside it). 0: zonesize." },
	{ .name = "zoneskip", .type = OPT_SIZE, .offset = F(zoneskip), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "zonemode=strided: bytes skipped after a zone's span, before the next zone." },
	{ .name = "random_generator", .type = OPT_ENUM, .offset = F(random_generator), .def = "tausworthe", .values = random_generator_values,
	  .help = "fio's generator of random offsets. dbio has its own (seeded by randseed), so the offsets differ from fio's whichever is named; lfsr keeps its promise, each block once a pass also with norandommap. Recorded." },
	{ .name = "random_sequence_stride", .type = OPT_BOOL, .offset = F(random_sequence_stride), .def = "0",
	  .help = "random_distribution=sequence: 0 repeats the blocks as given; 1 moves them a group (the sequence's length in blocks) further each round, as in fio: sequence:2,0,1 is blocks 2 0 1 5 3 4 8 6 7 ..., until the region ends." },
	{ .name = "offset_align", .type = OPT_SIZE, .offset = F(offset_align), .def = "0", .min = 0, .max = OPT_MAX, .fio_noop = 1,
	  .help = "fio's alignment of an offset given as a percentage; fio leaves an offset in bytes as it is, and dbio takes offsets in bytes only. Recorded, changes nothing measured." },
	/* -- end of how much and where -- */
	/* -- fio: files (filename, filename_format, unlink, create_on_open ...) -- */
	{ .name = "filename", .never_brief = 1, .type = OPT_STR, .offset = F(filename), .size = S(filename), .def = "",
	  .help = "Names of the job's files in directory, ':' between them, as in fio; nrfiles is their count, and every thread of the job (numjobs) does its I/O on these same files. dbio creates them (refusing a name that exists), lays them out and removes them, as its own dbio.<job>.<thread>.<n> files. An absolute path names the directory too (filename=/mnt/t/data is directory=/mnt/t filename=data). Not a device: dbio formats devices only in `dbio matrix --device ... --destroy-data`. Empty: dbio's names, a set per thread." },
	{ .name = "unlink", .type = OPT_BOOL, .offset = F(unlink), .def = "1", .fio_noop = 1,
	  .help = "fio's switch to delete the job's files when it is done. dbio always removes the files it made after each run, unless --keep; recorded, changes nothing measured." },
	{ .name = "create_on_open", .type = OPT_BOOL, .offset = F(create_on_open), .def = "0", .fio_noop = 1,
	  .help = "fio's switch to create files when the job opens them. dbio creates and lays out the files before the measured phase, either way; recorded, changes nothing measured." },
	{ .name = "buffered", .type = OPT_BOOL, .offset = F(buffered), .def = "1",
	  .help = "Use buffered I/O, as in fio: buffered=0 is direct=1 (giving both, they must agree)." },
	{ .name = "rwmixwrite", .type = OPT_UINT, .offset = F(rwmixwrite), .def = "50", .min = 0, .max = 100,
	  .help = "Percentage of writes in the mixed patterns, as in fio: rwmixwrite=30 is rwmixread=70 (giving both, they must add up to 100)." },
	{ .name = "fsync_on_close", .type = OPT_BOOL, .offset = F(fsync_on_close), .def = "0",
	  .help = "fsync each file when the job closes it, as in fio: in dbio the same as end_fsync=1 (each file of each thread, once, at the end)." },
	{ .name = "overwrite", .type = OPT_BOOL, .offset = F(overwrite), .def = "0",
	  .help = "Writes overwrite data that is there, as in fio: the files are written fully before the measured phase (prefill=1) also for a job that only writes." },
	{ .name = "openfiles", .type = OPT_UINT, .offset = F(openfiles), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Files a thread keeps open at once, as in fio. dbio opens a thread's nrfiles files before the measured phase and keeps them open, so it takes openfiles of at least nrfiles (0: all); fio's metadata engines (ioengine=filecreate ...) open one file at a time, which openfiles=1 says." },
	/* -- end of files -- */
	/* -- fio: verify (verify, do_verify, verify_pattern, verify_backlog ...) -- */
	{ .name = "verify", .type = OPT_ENUM, .offset = F(verify), .def = "0", .values = job_verify_values,
	  .help = "Check what the job wrote, as in fio: each block of verify_interval bytes it writes carries a header (fio's magic, type, length, offset, the writer) and a checksum of the rest; after the writes (or every verify_backlog of them) the job reads them back and checks them, and those reads count as reads, as in fio. A job that only reads checks each block it reads. A bad block is reported (file, offset, expected, found) and fails the run (exit 1). fileio only." },
	{ .name = "do_verify", .type = OPT_BOOL, .offset = F(do_verify), .def = "1",
	  .help = "With verify=, read back and check after the writes, as in fio; 0 writes the headers only (for a later job that reads and checks)." },
	{ .name = "verify_fatal", .type = OPT_BOOL, .offset = F(verify_fatal), .def = "0",
	  .help = "Stop the job at the first bad block, as in fio; else every block is checked and each bad one reported." },
	{ .name = "verify_dump", .type = OPT_BOOL, .offset = F(verify_dump), .def = "0",
	  .help = "fio writes the bad block to files; dbio writes no files there: each report shows the bytes of the header found, in hex." },
	{ .name = "verify_backlog", .type = OPT_UINT, .offset = F(verify_backlog), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "Read back and check after every N blocks written, as in fio (synchronous engines); the rest after the writes. 0: all after the writes." },
	{ .name = "verify_interval", .type = OPT_SIZE, .offset = F(verify_interval), .def = "0", .min = 0, .max = 1ull << 30,
	  .help = "Bytes of each checked block (its header and checksum), as in fio; must divide every block size. 0: the write block size." },
	{ .name = "verify_offset", .type = OPT_SIZE, .offset = F(verify_offset), .def = "0", .min = 0, .max = 1ull << 30,
	  .help = "Put the header this many bytes into each block (swapped with the bytes there), as in fio." },
	{ .name = "verify_pattern", .type = OPT_STR, .offset = F(verify_pattern), .size = S(verify_pattern), .def = "",
	  .help = "Fill written blocks with this pattern and check it, as in fio: 0x hex (0xaa555aa5), \"text\", decimal numbers, run together. With verify=meta or pattern." },
	{ .name = "verify_only", .type = OPT_BOOL, .offset = F(verify_only), .def = "0",
	  .help = "Write nothing: read back and check the blocks the job would write, as fio, e.g. in a later group of the same run on the same filename=, or on files an earlier run kept (--keep; run with --force)." },
	{ .name = "verify_state_save", .type = OPT_BOOL, .offset = F(verify_state_save), .def = "1", .fio_noop = 1,
	  .help = "fio saves its verify state to a file; dbio writes no state files. Recorded, changes nothing measured." },
	{ .name = "verify_async", .type = OPT_UINT, .offset = F(verify_async), .def = "0", .min = 0, .max = 1024, .fio_noop = 1,
	  .help = "fio's threads that check blocks apart from the I/O; dbio checks in the job's threads. Recorded, changes nothing measured." },
	{ .name = "fill_device", .type = OPT_BOOL, .offset = F(fill_device), .def = "0",
	  .help = "Write until the filesystem is full (ENOSPC), then end the writes normally, as fio's fill_device and fill_fs." },
	{ .name = "create_serialize", .type = OPT_BOOL, .offset = F(create_serialize), .def = "1", .fio_noop = 1,
	  .help = "fio's switch to lay out the jobs' files one after another; dbio lays out every file before the measured phase either way. Recorded, changes nothing measured." },
	/* -- end of verify -- */
	/* -- fio: log files and command priorities (write_lat_log, write_bw_log, log_avg_msec, cmdprio ...) -- */
	{ .name = "write_lat_log", .never_brief = 1, .bare_empty = 1, .type = OPT_STR, .offset = F(write_lat_log), .size = S(write_lat_log), .def = "",
	  .help = "Write fio's latency logs NAME_lat.N.log, NAME_clat.N.log and NAME_slat.N.log (N: fio's thread number, from 1), in fio's format: time (ms), latency (ns), direction (0 read, 1 write), block size (bytes)[, offset (bytes)], priority; a path in NAME is taken from the current directory, as fio. Empty or bare (write_lat_log alone): the job's name. A file there is replaced only when it is a regular file (as --output). workload=fileio only." },
	{ .name = "write_bw_log", .never_brief = 1, .bare_empty = 1, .type = OPT_STR, .offset = F(write_bw_log), .size = S(write_bw_log), .def = "",
	  .help = "Write fio's bandwidth log NAME_bw.N.log (KiB/s; per I/O its bytes over its completion latency), as write_lat_log." },
	{ .name = "write_iops_log", .never_brief = 1, .bare_empty = 1, .type = OPT_STR, .offset = F(write_iops_log), .size = S(write_iops_log), .def = "",
	  .help = "Write fio's IOPS log NAME_iops.N.log (1 per I/O, or I/Os per second of each log_avg_msec window), as write_lat_log." },
	{ .name = "log_avg_msec", .type = OPT_UINT, .offset = F(log_avg_msec), .def = "0", .max = 86400000,
	  .help = "Write one line per direction per window of this many milliseconds to the logs: the mean latency (or the largest, log_max_value), the bandwidth and IOPS over the window; block size and offset are then 0, as fio. 0: a line per I/O." },
	{ .name = "log_max_value", .type = OPT_BOOL, .offset = F(log_max_value), .def = "0",
	  .help = "With log_avg_msec, the latency logs hold each window's largest latency instead of its mean." },
	{ .name = "log_offset", .type = OPT_BOOL, .offset = F(log_offset), .def = "0",
	  .help = "Add each I/O's offset in its file (bytes) to the log lines, before the priority." },
	{ .name = "log_prio", .type = OPT_BOOL, .offset = F(log_prio), .def = "0",
	  .help = "The logs' last column is each I/O's priority as ioprio(2)'s value in hex (class << 13 | level), instead of 1 for the real-time class and 0 for others." },
	{ .name = "log_unix_epoch", .type = OPT_BOOL, .offset = F(log_unix_epoch), .def = "0",
	  .help = "The logs' times count from the Unix epoch (ms), not from the start of the thread's measured phase." },
	{ .name = "log_alternate_epoch", .type = OPT_BOOL, .offset = F(log_alternate_epoch), .def = "0",
	  .help = "The logs' times count from the epoch of the clock log_alternate_epoch_clock_id (ms), not from the start of the thread's measured phase." },
	{ .name = "log_alternate_epoch_clock_id", .type = OPT_UINT, .offset = F(log_alternate_epoch_clock_id), .def = "0", .max = 11,
	  .help = "The clock of log_alternate_epoch, as clock_gettime(2) numbers them: 0 CLOCK_REALTIME, 1 CLOCK_MONOTONIC, 7 CLOCK_BOOTTIME, 11 CLOCK_TAI ..." },
	{ .name = "per_job_logs", .type = OPT_BOOL, .offset = F(per_job_logs), .def = "1",
	  .help = "Name each thread's logs with its thread number (NAME_bw.N.log); 0: one file NAME_bw.log holds the lines of every thread of the job, thread by thread (fio appends to it; dbio replaces it)." },
	{ .name = "log_entries", .type = OPT_UINT, .offset = F(log_entries), .def = "1024", .min = 1, .max = 1u << 28,
	  .help = "Log lines reserved per thread before the run (more are allocated as needed, as fio); a job bound by size reserves a line per I/O anyway." },
	{ .name = "cmdprio_percentage", .type = OPT_STR, .offset = F(cmdprio_percentage), .size = S(cmdprio_percentage), .def = "",
	  .help = "Issue this percent of the I/Os (0 to 100; R,W for reads and writes apart) with the command priority of cmdprio_class and cmdprio, as fio: io_uring's sqe ioprio, libaio's aio_reqprio. ioengine=io_uring and libaio only." },
	{ .name = "cmdprio_class", .type = OPT_STR, .offset = F(cmdprio_class), .size = S(cmdprio_class), .def = "",
	  .help = "The I/O priority class of cmdprio_percentage's and cmdprio_bssplit's I/Os: 1 real-time (the default), 2 best-effort, 3 idle; R,W for reads and writes apart." },
	{ .name = "cmdprio", .type = OPT_STR, .offset = F(cmdprio), .size = S(cmdprio), .def = "",
	  .help = "The I/O priority level within cmdprio_class, 0 (highest, the default) to 7; R,W for reads and writes apart." },
	{ .name = "cmdprio_hint", .type = OPT_STR, .offset = F(cmdprio_hint), .size = S(cmdprio_hint), .def = "",
	  .help = "The I/O priority hint of cmdprio's I/Os (ioprio's hint bits, 0 to 1023; 0 none); R,W for reads and writes apart." },
	{ .name = "cmdprio_bssplit", .type = OPT_STR, .offset = F(cmdprio_bssplit), .size = S(cmdprio_bssplit), .def = "",
	  .help = "Percent of the I/Os of each block size issued with a command priority, as fio: BS/PERCENT:... with cmdprio_class and cmdprio, or BS/PERCENT/CLASS/LEVEL[/HINT]:... each with its own; READS,WRITES apart. Not with cmdprio_percentage." },
	/* -- end of logs -- */
	/* -- fio: steady state (steadystate, ss_dur, ss_ramp ...) -- */
	{ .name = "steadystate", .type = OPT_STR, .offset = F(steadystate), .size = S(steadystate), .def = "iops_slope:0.01%",
	  .help = "fio's steady state, MODE:LIMIT: with steadystate_duration, stop the job once the samples of its last window settle. MODE iops, bw or lat judges the largest deviation of a sample from the window's mean; iops_slope, bw_slope or lat_slope the least-squares slope of the samples (per interval). LIMIT is IOPS, bytes per second (bw; k, m, g binary), a time (lat; bare: microseconds), or N% of the window's mean. As fio, the job's threads are judged together (numjobs above 1 needs group_reporting), and with group_reporting the jobs of the reporting group. workload=fileio only." },
	{ .name = "steadystate_duration", .type = OPT_TIME, .offset = F(ss_dur_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = NS_PER_S,
	  .help = "The window of steady state (bare number: seconds): steadystate judges the last steadystate_duration / steadystate_check_interval samples, a whole number of at least 2. 0: no steady state." },
	{ .name = "steadystate_ramp_time", .type = OPT_TIME, .offset = F(ss_ramp_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = NS_PER_S,
	  .help = "Time after the job's start (after ramp_time) before the first steady-state sample's interval starts (bare number: seconds)." },
	{ .name = "steadystate_check_interval", .type = OPT_TIME, .offset = F(ss_interval_ns), .def = "1", .max = OPT_MAX, .bare_unit_ns = NS_PER_S,
	  .help = "One steady-state sample per this interval (bare number: seconds), at least 1 s, as in fio; the same for every job." },
	/* -- end of steady state -- */
	/* -- fio: flow and submission (flow, flow_id; flow_sleep and io_submit_mode are fileio's: workload/fileio/keys.c) -- */
	{ .name = "flow", .type = OPT_UINT, .offset = F(flow), .def = "0", .min = 0, .max = 1000,
	  .help = "Weight of each thread of the job in its flow_id, as in fio: the threads of one flow_id running at the same time share a count of their reads and writes, and before each I/O a thread whose share of that count is above its share of the flow's weights waits (flow_sleep) instead: flow=1 beside flow=8 does about 1 I/O for their 8. 0: no flow control. workload=fileio only." },
	{ .name = "flow_id", .type = OPT_UINT, .offset = F(flow_id), .def = "0", .min = 0, .max = OPT_MAX,
	  .help = "The flow whose count the job's threads share (flow=). workload=fileio only." },
	/* -- end of flow and submission -- */
	/* -- fio: falloc and ftruncate engines, trims, NUMA (numa_cpu_nodes, numa_mem_policy) -- */
	{ .name = "numa_cpu_nodes", .never_brief = 1, .type = OPT_STR, .offset = F(numa_cpu_nodes), .size = S(numa_cpu_nodes), .def = "",
	  .help = "Run the job's threads on the CPUs of these NUMA nodes (sched_setaffinity before the thread prepares, after cpus_allowed, as fio): numbers from 0 and ranges, e.g. 0 or 0-1,3, or all; each a node of this machine (/sys/devices/system/node). Empty: where dbio may run." },
	{ .name = "numa_mem_policy", .never_brief = 1, .type = OPT_STR, .offset = F(numa_mem_policy), .size = S(numa_mem_policy), .def = "",
	  .help = "The memory policy of the job's threads (set_mempolicy(2) before the thread prepares, so its buffers follow it): default (no call, as fio), prefer:NODE, bind:NODES, interleave[:NODES] (all nodes when none are given) or local; nodes as in numa_cpu_nodes." },
	/* -- end of engines and NUMA -- */
	/* -- fio: latency target (latency_target ...; the buffer keys are fileio's: workload/fileio/keys.c) -- */
	{ .name = "latency_target", .type = OPT_TIME, .offset = F(latency_target_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = 1000,
	  .help = "Look for the deepest queue whose I/Os stay at or under this latency, as fio does (bare number: microseconds): from depth 1, deeper after each latency_window that meets it at latency_percentile, shallower after one that misses; once the depth settles, the measurement starts over for one last window and the job ends (unless latency_run). The depth found is in the result. Queued engines (io_uring, libaio); 0: off." },
	{ .name = "latency_window", .type = OPT_TIME, .offset = F(latency_window_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = 1000,
	  .help = "latency_target: how long each depth is tried (bare number: microseconds, as fio). 0: as fio, every turn of the loop." },
	{ .name = "latency_percentile", .type = OPT_STR, .offset = F(latency_percentile), .size = S(latency_percentile), .def = "100",
	  .help = "latency_target: the percentage of a window's I/Os that must be at or under the target, 0 to 100, as fio. At 100 a single I/O over it lowers the depth at once, and at depth 1 fails the job." },
	{ .name = "latency_run", .type = OPT_BOOL, .offset = F(latency_run), .def = "0",
	  .help = "latency_target: keep adjusting the depth until the job ends, as fio, instead of ending after a last window at the depth found." },
	/* -- end of buffers and latency target -- */
};
/* clang-format on */

const struct option_table option_job_table = OPTION_TABLE(job_defs, struct job);
const struct option_table option_files_table = OPTION_TABLE(files_defs, struct job);

/* fio's other names for keys dbio has: a job file may use either. */
static const struct {
	const char *alias, *name;
} aliases[] = {
	{ "allrandrepeat", "randrepeat" },
	{ "ba", "blockalign" },
	{ "blocksize", "bs" },
	{ "blocksize_range", "bsrange" },
	{ "blocksize_unaligned", "bs_unaligned" },
	{ "io_limit", "io_size" },
	{ "nr_files", "nrfiles" },
	{ "readwrite", "rw" },
	{ "timeout", "runtime" },
	{ "wait_for_previous", "stonewall" },
	/* fio: pacing and threads */
	{ "iodepth_batch", "iodepth_batch_submit" },
	{ "iodepth_batch_complete", "iodepth_batch_complete_min" },
	{ "ratecycle", "rate_cycle" },
	{ "ratemin", "rate_min" },
	/* fio: steady state */
	{ "ss", "steadystate" },
	{ "ss_dur", "steadystate_duration" },
	{ "ss_interval", "steadystate_check_interval" },
	{ "ss_ramp", "steadystate_ramp_time" },
};

const char *option_canonical(const char *name)
{
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(aliases[i].alias, name))
			return aliases[i].name;
	return name;
}

const char *option_alias_of(const char *name)
{
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(aliases[i].name, name))
			return aliases[i].alias;
	return NULL;
}
