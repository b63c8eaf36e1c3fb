/* fio's latency target: the search for a queue depth; see lattarget.h. */
#include "workload/fileio/lattarget.h"

#include <stdlib.h>

#include "engine/engine.h"
#include "job/job.h"
#include "workload/fileio/files.h"

static void new_window(struct lattarget *lt, uint64_t now, uint64_t ios)
{
	lt->window_start = now;
	lt->ios_at_start = ios;
	lt->missed = 0;
}

void lattarget_init(struct lattarget *lt, const struct job *job, uint64_t now, uint64_t ios)
{
	*lt = (struct lattarget){
		.on = fileio_files(job)->latency.latency_target_ns > 0,
		.target_ns = fileio_files(job)->latency.latency_target_ns,
		.window_ns = fileio_files(job)->latency.latency_window_ns,
		.percentile = fileio_files(job)->latency.latency_pct,
		.run = fileio_files(job)->latency.latency_run,
		.iodepth =
			fileio_files(job)->layout.iodepth ? (unsigned)fileio_files(job)->layout.iodepth : 1,
		.depth = fileio_files(job)->layout.iodepth ? (unsigned)fileio_files(job)->layout.iodepth : 1,
	};
	if (!lt->on)
		return;
	lt->depth = lt->low = 1;
	lt->high = lt->iodepth;
	new_window(lt, now, ios);
}

/* A window or an I/O missed: halve towards the last depth that met the
 * target (fio's __lat_target_failed). */
static enum lattarget_act missed(struct lattarget *lt, uint64_t now, uint64_t ios)
{
	if (lt->depth == 1)
		return LT_FAILED;
	lt->high = lt->depth;
	if (lt->depth == lt->low)
		lt->low--;
	lt->depth = (lt->depth + lt->low) / 2;
	lt->stable = 0;
	new_window(lt, now, ios);
	return LT_DRAIN;
}

/* A window met the target: deeper (fio's lat_target_success). */
static enum lattarget_act met(struct lattarget *lt, uint64_t now, uint64_t ios)
{
	const unsigned before = lt->depth;

	lt->low = lt->depth;
	/* one below a depth that missed, three times in a row: try it again */
	if (lt->depth + 1 == lt->high && ++lt->stable >= 3) {
		lt->high++;
		lt->stable = 0;
	}
	lt->depth = lt->high != lt->iodepth ? (lt->depth + lt->high) / 2 : lt->depth * 2;
	if (lt->depth > lt->iodepth)
		lt->depth = lt->iodepth;
	new_window(lt, now, ios);
	if (lt->run || lt->depth != before)
		return LT_GO;
	if (lt->end_run)
		return LT_DONE;
	lt->end_run = true;
	return LT_RESTART;
}

enum lattarget_act lattarget_complete(struct lattarget *lt, uint64_t lat_ns, uint64_t now, uint64_t ios)
{
	if (!lt->on || lat_ns <= lt->target_ns)
		return LT_GO;
	if (lt->percentile < 100.0) {
		lt->missed++;
		return LT_GO;
	}
	if (lt->depth == 1)
		lt->missed_lat_ns = lat_ns;
	return missed(lt, now, ios);
}

enum lattarget_act lattarget_check(struct lattarget *lt, uint64_t now, uint64_t ios)
{
	if (!lt->on || now - lt->window_start < lt->window_ns)
		return LT_GO;
	const uint64_t n = ios - lt->ios_at_start;
	const double ok = n ? 100.0 * (double)(n - lt->missed) / (double)n : 100.0;

	if (ok >= lt->percentile)
		return met(lt, now, ios);
	if (lt->depth == 1) {
		/* fio fails a job only for one I/O over it at percentile 100 */
		new_window(lt, now, ios);
		return LT_GO;
	}
	return missed(lt, now, ios);
}

int lattarget_validate(struct job *job, struct dbio_err *err)
{
	char *end;

	fileio_files(job)->latency.latency_pct = strtod(fileio_files(job)->latency.latency_percentile, &end);
	if (end == fileio_files(job)->latency.latency_percentile || *end ||
	    !(fileio_files(job)->latency.latency_pct >= 0.0 &&
	      fileio_files(job)->latency.latency_pct <= 100.0))
		return job_fail(job, "latency_percentile", err,
				"bad value '%s': expected a percentage from 0 to 100",
				fileio_files(job)->latency.latency_percentile);
	if (!fileio_files(job)->latency.latency_target_ns)
		return 0; /* the other keys change nothing without it, as in fio */
	if (!(job->eng->caps & ENGINE_CAP_QUEUE)) {
		char queued[128];

		engine_list_queued(queued, sizeof(queued));
		return job_fail(
			job, "latency_target", err,
			"searches for a queue depth: it needs an engine that queues (%s%s); ioengine=%s "
			"keeps one I/O in flight",
			queued[0] ? "ioengine=" : "none in this build: see dbio --version", queued,
			job->eng->name);
	}
	return 0;
}
