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

static const struct opt_enum fadvise_values[] = {
	{ "0", FADVISE_NONE, "no hint (dbio's default; fio's is 1)" },
	{ "1", FADVISE_TYPE,
	  "POSIX_FADV_RANDOM for a random rw, POSIX_FADV_SEQUENTIAL for a sequential one" },
	{ "sequential", FADVISE_SEQUENTIAL, "POSIX_FADV_SEQUENTIAL, whatever rw is" },
	{ "random", FADVISE_RANDOM, "POSIX_FADV_RANDOM, whatever rw is" },
	{ NULL, 0, NULL },
};

/* clang-format off */
static const struct option_def fileio_defs[] = {
	/* -- fio: the queued engines' batches (iodepth_batch_submit ...) -- */
	{ .name = "iodepth_batch_submit", .type = OPT_UINT, .offset = F(iodepth_batch_submit), .def = "0", .min = 0, .max = 4096,
	  .help = "Queued engines (io_uring, libaio): while filling the queue, submit each time this many I/Os are queued; what is left is submitted when the queue is full or before waiting. 0, or more than iodepth: iodepth (submit a full queue at once), which is dbio's default; fio's is 1. fio's iodepth_batch is the same key. workload=fileio only." },
	{ .name = "iodepth_batch_complete_min", .type = OPT_UINT, .offset = F(iodepth_batch_complete_min), .def = "1", .min = 0, .max = 4096,
	  .help = "Queued engines: wait for at least this many completions at once (never more than are in flight). 0 polls, as in fio: it reaps after every I/O queued, and fio's code then still waits for one. fio's iodepth_batch_complete is the same key. workload=fileio only." },
	{ .name = "iodepth_batch_complete_max", .type = OPT_UINT, .offset = F(iodepth_batch_complete_max), .def = "0", .min = 0, .max = 4096,
	  .help = "Queued engines: take at most this many completions at once; below iodepth_batch_complete_min it is that. Not given: iodepth (dbio takes every completion there is; fio's default is iodepth_batch_complete_min). workload=fileio only." },
	{ .name = "iodepth_low", .type = OPT_UINT, .offset = F(iodepth_low), .def = "0", .min = 0, .max = 4096,
	  .help = "Queued engines: once the queue is full, reap until no more than this many are in flight before filling it again. 0, or more than iodepth: iodepth (refill as soon as one completes), as in fio. workload=fileio only." },
	/* -- fio: fadvise_hint -- */
	{ .name = "fadvise_hint", .type = OPT_ENUM, .offset = F(fadvise_hint), .def = "0", .values = fadvise_values,
	  .help = "Advise the kernel of the access pattern, as fio: when a thread opens each of its files, posix_fadvise(2) over the thread's region of it (from its offset, the bytes it covers) with POSIX_FADV_SEQUENTIAL or POSIX_FADV_RANDOM. 1 picks by rw (random for randread, randwrite, randrw, randtrim), as fio's default does; 0 gives no hint, dbio's default, so that a job without the key runs as before. A failed hint does not stop the job (fio warns)." },
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
