/*
 * workload=fileio's own keys: the table of workload_fileio.options and
 * struct fileio_conf (keys.h). Adding a key only fileio honours is a row
 * here, its field in keys.h and the code that reads it in this folder;
 * `make docs` brings docs/options.md, the man page and the result schema
 * along.
 */
#include "workload/fileio/keys.h"

#include <stddef.h>

#define F(field) offsetof(struct fileio_conf, field)
#define S(field) sizeof(((struct fileio_conf *)0)->field)
#define NS_PER_S 1000000000ull

static const struct opt_enum fadvise_values[] = {
	{ "0", FADVISE_NONE, "no hint (dbio's default; fio's is 1)" },
	{ "1", FADVISE_TYPE,
	  "POSIX_FADV_RANDOM for a random rw, POSIX_FADV_SEQUENTIAL for a sequential one" },
	{ "sequential", FADVISE_SEQUENTIAL, "POSIX_FADV_SEQUENTIAL, whatever rw is" },
	{ "random", FADVISE_RANDOM, "POSIX_FADV_RANDOM, whatever rw is" },
	{ NULL, 0, NULL },
};

/* fio's unified_rw_reporting= values, fio's names and numbers. */
static const struct opt_enum unified_values[] = {
	{ "none", FILEIO_UNIFIED_NONE, "reads, writes and trims apart (the default)" },
	{ "mixed", FILEIO_UNIFIED_MIXED, "reads, writes and trims together, as one \"mixed\" direction" },
	{ "both", FILEIO_UNIFIED_BOTH, "apart, then together as \"mixed\"" },
	{ "0", FILEIO_UNIFIED_NONE, "none" },
	{ "1", FILEIO_UNIFIED_MIXED, "mixed" },
	{ "2", FILEIO_UNIFIED_BOTH, "both" },
	{ NULL, 0, NULL },
};

static const struct opt_enum think_count_values[] = {
	{ "complete", FILEIO_THINK_COMPLETE, "count the I/Os completed" },
	{ "issue", FILEIO_THINK_ISSUE, "count the I/Os issued" },
	{ NULL, 0, NULL },
};

static const struct opt_enum rate_process_values[] = {
	{ "linear", FILEIO_RATE_LINEAR,
	  "I/O n is issued no sooner than n I/Os' worth of bytes at the rate after the start" },
	{ "poisson", FILEIO_RATE_POISSON,
	  "exponentially distributed gaps with the rate's mean (a Poisson process)" },
	{ NULL, 0, NULL },
};

static const struct opt_enum dedupe_mode_values[] = {
	{ "repeat", DEDUPE_REPEAT, "repeat the thread's last new write" },
	{ "working_set", DEDUPE_WORKING_SET, "repeat a page of the working set" },
	{ NULL, 0, NULL },
};

/* clang-format off */
static const struct option_def fileio_defs[] = {
	/* -- fio: thinktime and the rate's process (thinktime, rate_cycle ...) -- */
	{ .name = "thinktime", .type = OPT_TIME, .offset = F(thinktime_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = 1000,
	  .help = "Pause this long after every thinktime_blocks reads and writes of a thread, as an application that computes between its I/Os (bare number: microseconds, as in fio). A queued engine first waits for every I/O in flight, so that no I/O's latency includes the pause. The pause is not counted in any latency; the runtime includes it. 0: no pause. workload=fileio only." },
	{ .name = "thinktime_spin", .type = OPT_TIME, .offset = F(thinktime_spin_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = 1000,
	  .help = "Spend this much of each thinktime pause busy on the CPU (reading the clock), and sleep the rest (bare number: microseconds); longer than thinktime, the pause is this long. workload=fileio only." },
	{ .name = "thinktime_blocks", .type = OPT_UINT, .offset = F(thinktime_blocks), .def = "1", .min = 0, .max = OPT_MAX,
	  .help = "Reads and writes between two thinktime pauses (counted as thinktime_blocks_type says). With a queued engine this caps the I/Os in flight, as in fio: the queue drains before each pause. workload=fileio only." },
	{ .name = "thinktime_blocks_type", .type = OPT_ENUM, .offset = F(thinktime_blocks_type), .def = "complete", .values = think_count_values,
	  .help = "What thinktime_blocks counts. The same for a synchronous engine; with a queued one, issue pauses after thinktime_blocks I/Os are queued, complete after that many have completed. workload=fileio only." },
	{ .name = "thinktime_iotime", .type = OPT_TIME, .offset = F(thinktime_iotime_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = NS_PER_S,
	  .help = "Pause after this long of I/O since the last pause (bare number: seconds): thinktime_iotime=9s thinktime=1s repeats 9 s of I/O and 1 s of pause. With thinktime_blocks given too, whichever comes first. 0: by thinktime_blocks only. workload=fileio only." },
	{ .name = "rate_process", .type = OPT_ENUM, .offset = F(rate_process), .def = "linear", .values = rate_process_values,
	  .help = "How a capped rate spaces a thread's I/Os. workload=fileio only." },
	{ .name = "rate_cycle", .type = OPT_TIME, .offset = F(rate_cycle_ns), .def = "1000", .min = 1000000, .max = OPT_MAX, .bare_unit_ns = 1000000,
	  .help = "The window over which rate_min and rate_iops_min are checked (bare number: milliseconds, as in fio), at least 1 ms. workload=fileio only." },
	{ .name = "rate_ignore_thinktime", .type = OPT_BOOL, .offset = F(rate_ignore_thinktime), .def = "0",
	  .help = "Count the thinktime pauses as time spent at the rate, so that a capped thread does not catch up after a pause with a burst (fio's meaning, its one-block allowance included). workload=fileio only." },
	/* -- fio: the queued engines' batches (iodepth_batch_submit ...) -- */
	{ .name = "iodepth_batch_submit", .type = OPT_UINT, .offset = F(iodepth_batch_submit), .def = "0", .min = 0, .max = 4096,
	  .help = "Queued engines (io_uring, libaio): while filling the queue, submit each time this many I/Os are queued; what is left is submitted when the queue is full or before waiting. 0, or more than iodepth: iodepth (submit a full queue at once), which is dbio's default; fio's is 1. fio's iodepth_batch is the same key. workload=fileio only." },
	{ .name = "iodepth_batch_complete_min", .type = OPT_UINT, .offset = F(iodepth_batch_complete_min), .def = "1", .min = 0, .max = 4096,
	  .help = "Queued engines: wait for at least this many completions at once (never more than are in flight). 0 polls, as in fio: it reaps after every I/O queued, and fio's code then still waits for one. fio's iodepth_batch_complete is the same key. workload=fileio only." },
	{ .name = "iodepth_batch_complete_max", .type = OPT_UINT, .offset = F(iodepth_batch_complete_max), .def = "0", .min = 0, .max = 4096,
	  .help = "Queued engines: take at most this many completions at once; below iodepth_batch_complete_min it is that. Not given: iodepth (dbio takes every completion there is; fio's default is iodepth_batch_complete_min). workload=fileio only." },
	{ .name = "iodepth_low", .type = OPT_UINT, .offset = F(iodepth_low), .def = "0", .min = 0, .max = 4096,
	  .help = "Queued engines: once the queue is full, reap until no more than this many are in flight before filling it again. 0, or more than iodepth: iodepth (refill as soon as one completes), as in fio. workload=fileio only." },
	/* -- fio: submission and flow (io_submit_mode, flow_sleep) -- */
	{ .name = "io_submit_mode", .type = OPT_STR, .offset = F(io_submit_mode), .size = S(io_submit_mode), .def = "inline",
	  .help = "inline: before a rate wait, a queued engine waits for the I/O in flight, as fio's default. offload: it does not, as fio's pool of submitting threads: each I/O is issued at its time on the rate's schedule whatever is in flight, and completions are reaped as they come meanwhile. A synchronous engine keeps one I/O in flight either way (fio's offload with iodepth=1 too). workload=fileio only." },
	{ .name = "serialize_overlap", .type = OPT_BOOL, .offset = F(serialize_overlap), .def = "0",
	  .help = "Queued engines: an I/O that would share a byte of its file with one in flight waits until that one is reaped, as fio's, so no two I/Os in flight overlap (writes racing on the same bytes make what the file holds undefined). Each thread of the job keeps its own I/Os apart, as fio's jobs do inline; fio's offload mode also keeps apart the I/Os of every job with the key, dbio's threads do not look at each other's. A synchronous engine has one I/O in flight: nothing to do. workload=fileio only." },
	{ .name = "flow_sleep", .type = OPT_TIME, .offset = F(flow_sleep_ns), .def = "0", .max = OPT_MAX, .bare_unit_ns = 1000,
	  .help = "How long a thread held back by flow waits before it looks again (bare number: microseconds, as in fio); a queued engine first waits for what it has in flight, as fio. 0: it yields the CPU and looks again. workload=fileio only." },
	/* -- fio: iologs (read_iolog, write_iolog, replay_*; replay.c) -- */
	{ .name = "read_iolog", .type = OPT_STR, .offset = F(read_iolog), .size = S(read_iolog), .def = "",
	  .help = "Replay fio's iolog (version 2 or 3) at this path instead of making I/O from rw= and bs=, as fio: its files (its add lines) become the job's files, each checked as filename= is (in directory=, or in one directory of their own when the log names absolute paths; no device, no '..'), created and laid out by dbio, then its reads, writes, trims, syncs and datasyncs issued in order, each timed, at the times of a version 3 log (unless replay_no_stall). A bad line is refused with its line number. One log for every clone of numjobs (fio's ':' list of logs is refused). workload=fileio only." },
	{ .name = "read_iolog_chunked", .type = OPT_BOOL, .offset = F(read_iolog_chunked), .def = "0",
	  .help = "fio reads a large read_iolog bit by bit; dbio reads it whole before the run (so a bad line is refused before anything is written) and replays the same I/O either way." },
	{ .name = "replay_no_stall", .type = OPT_BOOL, .offset = F(replay_no_stall), .def = "0",
	  .help = "read_iolog: issue the log's I/O as fast as it completes, in order, instead of at its version 3 timestamps (and without version 2's wait lines), as fio." },
	{ .name = "replay_time_scale", .type = OPT_UINT, .offset = F(replay_time_scale), .def = "100", .min = 1, .max = 1000000,
	  .help = "read_iolog: the pace of a version 3 log's timestamps, in percent, as fio: 50 runs at half the logged rate (the gaps doubled), 200 at twice." },
	{ .name = "replay_redirect", .type = OPT_STR, .offset = F(replay_redirect), .size = S(replay_redirect), .def = "",
	  .help = "read_iolog: replay every I/O of the log onto this one file, whatever file the log names, as fio; checked as filename= is (dbio never replays onto a device)." },
	{ .name = "replay_align", .type = OPT_SIZE, .offset = F(replay_align), .def = "0", .min = 0, .max = 1ull << 30,
	  .help = "read_iolog: round each offset of the log down to a multiple of this power of 2, as fio. 0: as logged." },
	{ .name = "replay_scale", .type = OPT_UINT, .offset = F(replay_scale), .def = "1", .min = 1, .max = OPT_MAX,
	  .help = "read_iolog: divide each offset of the log by this, as fio (then replay_align, if given)." },
	{ .name = "replay_skip", .type = OPT_STR, .offset = F(replay_skip), .size = S(replay_skip), .def = "",
	  .help = "read_iolog: leave these actions of the log out, as fio: a comma list of read, write, sync, trim (sync leaves fsyncs out; datasyncs stay, as fio's)." },
	{ .name = "write_iolog", .type = OPT_STR, .offset = F(write_iolog), .size = S(write_iolog), .def = "",
	  .help = "Write fio's version 3 iolog of what the job did to this path, as fio 3.33 writes it (its add, open and close lines, each read, write, trim, sync and datasync with the microseconds since the start), so that fio's read_iolog or dbio's replays it. Written as --output is: a new file or a regular file replaced whole; a symlink of another user, a directory or a device is refused before the run. numjobs=1 only (fio's clones would intersperse their lines). workload=fileio only." },
	/* -- fio: filename_format (fname.c) -- */
	{ .name = "filename_format", .never_brief = 1, .type = OPT_STR, .offset = F(filename_format), .size = S(filename_format), .def = "",
	  .help = "Name the job's files by this format in place of dbio's dbio.JOB.THREAD.N, as fio: $jobname is the job's name, $jobnum the thread (the clone of numjobs, from 0), $filenum the file (from 0), $clientuid empty (fio's client address), in any case. Names without $jobnum are every thread's, and every job's naming the same: the files are shared, as with filename=. Relative to directory=; an absolute format without directory= names its directory (without a keyword in it). A name with '/', '.' or '..' is refused (dbio makes no subdirectories; fio would), as are filename= or read_iolog= beside it." },
	/* -- fio: buffer contents (dedupe_*, buffer_compress_*; checked by buffers.c) -- */
	{ .name = "scramble_buffers", .type = OPT_BOOL, .offset = F(scramble_buffers), .def = "1",
	  .help = "Stamp each 512-byte sector of a write with its offset and the write's number, as fio does by default, so that no two writes carry the same data (a storage that deduplicates finds nothing to save). Off with refill_buffers, buffer_compress_percentage or dedupe_percentage (they fill each write anew), with verify (its headers and pattern), and with zero_buffers unless given too." },
	{ .name = "refill_buffers", .type = OPT_BOOL, .offset = F(refill_buffers), .def = "0",
	  .help = "New random data for every write, as in fio (costs the filling of each write). On by itself with buffer_compress_percentage (unless given as 0) and with dedupe_percentage." },
	{ .name = "zero_buffers", .type = OPT_BOOL, .offset = F(zero_buffers), .def = "0",
	  .help = "Writes carry zeros, as in fio (a storage that compresses or deduplicates stores next to nothing)." },
	{ .name = "buffer_compress_percentage", .type = OPT_UINT, .offset = F(compress_pct), .def = "0", .min = 0, .max = 100,
	  .help = "How much of written data compresses, as in fio: of each buffer_compress_chunk, this percentage is zeros after random bytes; 100 is zero_buffers. Turns refill_buffers on unless it is given." },
	{ .name = "buffer_compress_chunk", .type = OPT_SIZE, .offset = F(compress_chunk), .def = "512", .min = 0, .max = OPT_MAX,
	  .help = "The unit of buffer_compress_percentage and dedupe_percentage, as in fio: each chunk of a write is random bytes and then zeros, from a seed of its own. 0: the write's block size." },
	{ .name = "dedupe_percentage", .type = OPT_UINT, .offset = F(dedupe_pct), .def = "0", .min = 0, .max = 100,
	  .help = "This percentage of writes carries data written before, byte for byte, as in fio (dedupe_mode says which); the others are new. Turns refill_buffers on." },
	{ .name = "dedupe_mode", .type = OPT_ENUM, .offset = F(dedupe_mode), .def = "repeat", .values = dedupe_mode_values,
	  .help = "Which earlier data a deduplicating write repeats, as in fio: repeat (the thread's last new write) or working_set (a page of a working set: dedupe_working_set_percentage of the size's blocks, the thread's first new writes)." },
	{ .name = "dedupe_working_set_percentage", .type = OPT_UINT, .offset = F(dedupe_ws_pct), .def = "5", .min = 0, .max = 100,
	  .help = "dedupe_mode=working_set: the working set's share of the job's size, as in fio; with dedupe_percentage at most 100." },
	{ .name = "dedupe_global", .type = OPT_BOOL, .offset = F(dedupe_global), .def = "0",
	  .help = "dedupe_mode=working_set: the working set spreads over every thread of the job files, so writes of one job repeat data of another, as in fio." },
	{ .name = "buffer_pattern", .type = OPT_STR, .offset = F(buffer_pattern), .size = S(buffer_pattern), .def = "",
	  .help = "Writes carry this pattern of bytes, repeated from the start of each write, as in fio: 0x and hex digits (0xdeadbeef: the bytes de ad be ef), \"text\" in double quotes, or a decimal number (little-endian, as few bytes as hold it), run together, at most 512 bytes; or fio's file form 'NAME' alone: the bytes of the regular file NAME, 1 to 65536 of them (newer fio's meaning; fio 3.33 takes 512). Turns scramble_buffers and zero_buffers off. buffer_compress_percentage, dedupe_percentage or verify with it are refused. \"\": none." },
	/* -- fio: fadvise_hint -- */
	{ .name = "fadvise_hint", .type = OPT_ENUM, .offset = F(fadvise_hint), .def = "0", .values = fadvise_values,
	  .help = "Advise the kernel of the access pattern, as fio: when a thread opens each of its files, posix_fadvise(2) over the thread's region of it (from its offset, the bytes it covers) with POSIX_FADV_SEQUENTIAL or POSIX_FADV_RANDOM. 1 picks by rw (random for randread, randwrite, randrw, randtrim), as fio's default does; 0 gives no hint, dbio's default, so that a job without the key runs as before. A failed hint does not stop the job (fio warns)." },
	/* -- fio: unified_rw_reporting (read by views/text.c and views/fio_json.c from the result's options) -- */
	{ .name = "unified_rw_reporting", .type = OPT_ENUM, .offset = F(unified_rw), .def = "none", .values = unified_values,
	  .help = "As fio: mixed (or 1) reports the reads, writes and trims of each run together, as one \"mixed\" row in the text and one \"mixed\" object in fio's JSON (--format fio-json) in place of read, write, trim and sync; both (or 2) gives them apart and then \"mixed\"; none (or 0) apart, the default. The result's ops stay apart." },
};
/* clang-format on */

const struct option_table fileio_options = OPTION_TABLE(fileio_defs, struct fileio_conf);

struct fileio_conf *fileio_conf(const struct job *job)
{
	for (size_t t = 0; t < job->nkeys; t++)
		if (job->keys[t].table == &fileio_options)
			return job->keys[t].conf;
	return NULL;
}
