/*
 * sysbench fileio's options into one ordinary dbio job (the translation
 * docs/sysbench.md tabulates), and the checks of the values sysbench takes
 * from a list.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/sysbench_int.h"
#include "job/option.h"

#define MODES "seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw"

const struct sb_mode sb_modes[] = {
	{ "seqwr", "write", "sequential write (creation)", true },
	{ "seqrewr", "write", "sequential rewrite", true },
	{ "seqrd", "read", "sequential read", false },
	{ "rndrd", "randread", "random read", false },
	{ "rndwr", "randwrite", "random write", true },
	{ "rndrw", "randrw", "random r/w", true },
	{ NULL, NULL, NULL, false },
};

/* The bytes of filename= (files.h: 16 KiB with its NUL) and of a job's
 * text, which holds it. */
#define SB_NAMES_MAX 16384
#define JOB_LEN	     (SB_NAMES_MAX + 4096)

/* The reads and writes among sysbench's first events: after every
 * fsync_freq of them, when the test writes, come file_num fsync events
 * (--file-fsync-all makes the syncs part of each write instead). Counted
 * by rounds, not event by event: --events may be 2^63. */
static uint64_t requests_of(const struct sb_opts *o)
{
	const uint64_t freq = o->fsync_freq, syncs = o->file_num;

	if (!freq || o->fsync_all || !o->mode || !o->mode->writes || freq >= o->events)
		return o->events;
	/* a round of freq requests and its syncs is more than the events:
	 * the first round's syncs take the rest */
	if (syncs > UINT64_MAX - freq)
		return freq;
	const uint64_t rounds = o->events / (freq + syncs), rest = o->events % (freq + syncs);

	return rounds * freq + (rest < freq ? rest : freq);
}

/* The size of dbio's requests: sysbench's block, or the file when it is
 * smaller (sysbench's requests stop at the end of the file). */
static uint64_t request_size(const struct sb_opts *o)
{
	return o->block < o->file_size ? o->block : o->file_size;
}

int sysbench_check_dbio(struct sb_opts *o)
{
	if (o->threads > 4096) {
		cmd_error("sysbench: --threads=%llu: refused: dbio runs at most 4096 threads in a job",
			  (unsigned long long)o->threads);
		return 2;
	}
	if (!o->file_size) {
		cmd_error(
			"sysbench: --file-total-size / --file-num is 0 bytes a file: refused: dbio needs at least a byte in each");
		return 2;
	}
	if (o->mode && !o->time_s && !o->events) {
		cmd_error(
			"sysbench: --time=0 and --events=0: refused: the run would never end (sysbench runs until it is killed); give one of them");
		return 2;
	}
	if (o->mode && !strcmp(o->mode->name, "rndrw") && !(o->rw_ratio > 0 && isfinite(o->rw_ratio))) {
		cmd_error(
			"sysbench: --file-rw-ratio=%g: refused: rndrw needs a finite ratio above 0 for dbio's rwmixread",
			o->rw_ratio);
		return 2;
	}
	if (o->validate && o->file_size % o->block && (!o->mode || !o->mode->writes)) {
		cmd_error(
			"sysbench: --validate with files of %llu bytes in blocks of %llu: refused: dbio checks whole blocks, and the last of each file would be read short",
			(unsigned long long)o->file_size, (unsigned long long)o->block);
		return 2;
	}
	if (o->mode && o->validate && !strcmp(o->mode->name, "rndrw")) {
		cmd_error(
			"sysbench: --validate with --file-test-mode=rndrw: refused: dbio checks a mixed job's blocks after its writes, not at each read as sysbench does");
		return 2;
	}
	/* filename= holds every name, ':' after each but the last */
	uint64_t bytes = 0, fit = 0;

	for (uint64_t i = 0; i < o->file_num && bytes < SB_NAMES_MAX; i++) {
		bytes += (uint64_t)snprintf(NULL, 0, "test_file.%llu:", (unsigned long long)i);
		fit += bytes <= SB_NAMES_MAX;
	}
	if (fit < o->file_num) {
		cmd_error(
			"sysbench: --file-num=%llu: refused: dbio names sysbench's files in one filename= key of 16383 bytes: at most %llu files",
			(unsigned long long)o->file_num, (unsigned long long)fit);
		return 2;
	}
	if (o->direct && !strcmp(o->io_mode, "mmap")) {
		cmd_error(
			"sysbench: --file-extra-flags=direct with --file-io-mode=mmap: refused: a mapping copies through the page cache, so O_DIRECT would change nothing measured; drop one of them");
		return 2;
	}
	o->requests = requests_of(o);
	return 0;
}

/* Append to the job text; false when it does not fit. */
static bool add(char *buf, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static bool add(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *used)
		return false;
	*used += (size_t)n;
	return true;
}

/* The keys of sysbench's syncs. */
static bool add_syncs(const struct sb_opts *o, char *buf, size_t len, size_t *used)
{
	const char *key = strcmp(o->fsync_mode, "fsync") ? "fdatasync" : "fsync";

	if (!o->mode->writes)
		return true;
	if (o->fsync_all)
		return add(buf, len, used, "%s=1\n", key);
	if (o->fsync_freq &&
	    !add(buf, len, used, "%s=%llu\nfsync_scope=job\n", key, (unsigned long long)o->fsync_freq))
		return false;
	return !o->fsync_end || add(buf, len, used, "end_fsync=1\n");
}

/* A job's text of JOB_LEN bytes: "[sysbench-<name>]", the current
 * directory and the n names in filename=; NULL when out of memory. */
static char *job_head(const char *name, char *const *names, size_t n, size_t *used)
{
	char *buf = malloc(JOB_LEN), cwd[PATH_MAX];
	bool ok = buf && getcwd(cwd, sizeof(cwd));

	*used = 0;
	ok = ok && add(buf, JOB_LEN, used, "[sysbench-%s]\ndirectory=%s\nfilename=%s", name, cwd, names[0]);
	for (size_t i = 1; ok && i < n; i++)
		ok = add(buf, JOB_LEN, used, ":%s", names[i]);
	if (!ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *sysbench_job(const struct sb_opts *o, char *const *names)
{
	const size_t len = JOB_LEN;
	size_t used;
	char *buf = job_head(o->mode->name, names, o->file_num, &used);
	bool ok = buf != NULL;

	ok = ok && add(buf, len, &used,
		       "\nnrfiles=%llu\nsize=%llu\nbs=%llu\nrw=%s\nnumjobs=%llu\nnorandommap=1\ncache=keep\n",
		       (unsigned long long)o->file_num,
		       (unsigned long long)(o->file_size / request_size(o) * request_size(o) * o->file_num),
		       (unsigned long long)request_size(o), o->mode->rw, (unsigned long long)o->threads);
	if (ok && !strcmp(o->mode->name, "rndrw"))
		/* r / (1 + r) as 1 - 1 / (1 + r): no inf / inf for a huge r */
		ok = add(buf, len, &used, "rwmixread=%.0f\n", 100.0 - 100.0 / (1.0 + o->rw_ratio));
	if (ok && !strcmp(o->io_mode, "async"))
		ok = add(buf, len, &used, "ioengine=libaio\niodepth=%llu\n", (unsigned long long)o->backlog);
	else if (ok)
		ok = add(buf, len, &used, "ioengine=%s\n", strcmp(o->io_mode, "mmap") ? "psync" : "mmap");
	if (ok && (o->direct || o->osync || o->odsync))
		ok = add(buf, len, &used, "%s%s", o->direct ? "direct=1\n" : "",
			 o->osync    ? "sync=sync\n"
			 : o->odsync ? "sync=dsync\n"
				     : "");
	ok = ok && add_syncs(o, buf, len, &used);
	/* --events: each thread its share of the requests, in bytes as far as
	 * io_size goes (8 EiB: no run gets there); --time caps it too */
	const uint64_t most = OPT_MAX / request_size(o), each = o->requests / o->threads;

	if (ok && o->events)
		ok = add(buf, len, &used, "io_size=%llu\n",
			 (unsigned long long)((each < most ? each : most) * request_size(o)));
	else if (ok)
		ok = add(buf, len, &used, "time_based=1\n");
	if (ok && o->time_s)
		ok = add(buf, len, &used, "runtime=%llus\n", (unsigned long long)o->time_s);
	if (ok && o->rate)
		ok = add(buf, len, &used, "rate_iops=%llu\n",
			 (unsigned long long)((o->rate + o->threads - 1) / o->threads));
	if (ok && o->report_interval)
		ok = add(buf, len, &used, "log_interval=%llus\n", (unsigned long long)o->report_interval);
	/* a header in each block written (a write-only job checks none, as
	 * sysbench); a read-only job checks each block it reads */
	if (ok && o->validate)
		ok = add(buf, len, &used, "verify=crc32c\n%s", o->mode->writes ? "do_verify=0\n" : "");
	if (ok && o->rand_seed)
		ok = add(buf, len, &used, "randseed=%llu\n", (unsigned long long)o->rand_seed);
	if (!ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *sysbench_validate_job(const struct sb_opts *o, char *const *names, size_t n)
{
	size_t used;
	char *buf = job_head("prepare", names, n, &used);

	if (buf && !add(buf, JOB_LEN, &used,
			"\nnrfiles=%zu\nsize=%llu\nbs=%llu\nrw=write\nioengine=psync\ncache=keep\n"
			"verify=crc32c\ndo_verify=0\nend_fsync=1\n",
			n, (unsigned long long)(o->file_bytes * n), (unsigned long long)o->block)) {
		free(buf);
		return NULL;
	}
	return buf;
}
