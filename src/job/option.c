/*
 * The table of the keys of every job and fio's other names for keys; see
 * option.h. The parsers behind every table are option_parse.c.
 * Adding a key of every job is one row here plus its field in struct job;
 * a key of the file workloads is one row and one field in
 * workload/fileio/files.c and files.h; an engine's or workload's own key
 * is one row and one field in that plug-in's file.
 */
#include "job/option.h"

#include <string.h>

#include "job/job.h"

#define F(field) offsetof(struct job, field)
#define S(field) sizeof(((struct job *)0)->field)
#define NS_PER_S 1000000000ull

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

static const struct opt_enum trace_values[] = {
	{ "none", TRACE_MODE_NONE, "no tracer" },
	{ "block", TRACE_MODE_BLOCK,
	  "bpftrace on the block layer's tracepoints of the devices under the job's directories" },
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
	  .help = "Seed of dbio's random draws (offsets, data); each thread, of every workload, uses randseed + its fio thread number (counted over all jobs of the job files from 0), so the jobs of one file draw apart, as in fio. The sizes of bsrange and bssplit, a mixed job's reads or writes, and the offsets of varying sizes are drawn as fio 3.33 draws them, from fio's generator and per-thread seeds: of randseed when given (or drawn by randrepeat=0), else of fio's default 137 (0x89), so that their op counts are fio's." },
	{ .name = "crash", .type = OPT_BOOL, .offset = F(crash), .def = "0", .dbio_own = 1,
	  .help = "Run the job on dbio crash's power-cut layer in dbio run and dbio sweep too: each run is checked at its first 100 durability points and 100 of its acknowledgements, as dbio crash does by default, and its result has the durability section beside ops/s (a sweep's table: a column lost after a cut). For what dbio crash checks: workload=kv, fileio or postgres, numjobs=1, a job of a group of its own; refused, with the reason, elsewhere, and in a build without the layer (libfuse3-dev). docs/crash.md." },
	{ .name = "crash_model", .type = OPT_STR, .offset = F(crash_model), .size = S(crash_model), .def = "", .dbio_own = 1,
	  .help = "dbio crash's crash model: what a cut keeps of each file's writes since its last fsync. lose (nothing; the default), reorder (each write or not, at random from randseed: a later may survive an earlier), torn512 or torn4k (in order up to one write at random, of which a prefix of its 512 B or 4 KiB sectors). --model overrides it; dbio run and sweep follow it under crash=1. docs/crash.md." },
	{ .name = "crash_fault", .type = OPT_STR, .offset = F(crash_fault), .size = S(crash_fault), .def = "", .dbio_own = 1,
	  .help = "dbio crash's injected fault: eio-fsync@N (the N-th fsync or fdatasync of a file on the layer fails with EIO and, as on Linux, the file's writes since its last durable point are dropped; later fsyncs succeed), enospc-write@N (the N-th write fails with ENOSPC, nothing written), none. The durability section says whether it hit, whether the workload saw an error, and what the states after it lost. --fault overrides it; dbio run and sweep follow it under crash=1. docs/crash.md." },
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
	{ .name = "trace", .type = OPT_ENUM, .offset = F(trace), .def = "none", .values = trace_values, .dbio_own = 1,
	  .help = "block: while the job's threads run, bpftrace (root's, from PATH) counts every request the block layer issues to the devices under the job's directories (tracepoints block:block_rq_issue and block_rq_complete): per device and request type the requests, bytes, a histogram of their sizes and one of their device latencies, issue to completion; the result's runs[].trace, the text report and the counters device_time and device_wait (dbio help counters). Refused before anything is written when bpftrace or the block tracepoints (tracefs) are missing, and with mem_limit (bpftrace would run under the limit). Costs bpftrace's start (a second or more) before each run and a little per request (bench/tracer-overhead.sh)." },
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

/* clang-format on */

const struct option_table option_job_table = OPTION_TABLE(job_defs, struct job);

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
	/* fio: logs (newer fio's name) */
	{ "log_window_value", "log_max_value" },
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
