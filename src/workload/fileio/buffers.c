/*
 * fio's buffer keys, checked and fixed up as fio does: what a write
 * carries (scramble_buffers, refill_buffers, zero_buffers,
 * buffer_compress_*, dedupe_*, buffer_pattern), keys of fileio's own
 * (keys.c).
 * content.c fills the buffers.
 */
#include <errno.h>
#include <stdio.h>

#include "job/job.h"
#include "workload/fileio/keys.h"
#include "workload/fileio/files.h"

static const char *const buffer_keys[] = {
	"scramble_buffers",	 "refill_buffers",    "zero_buffers", "buffer_compress_percentage",
	"buffer_compress_chunk", "dedupe_percentage", "dedupe_mode",  "dedupe_working_set_percentage",
	"dedupe_global",	 "buffer_pattern",
};

const char *fileio_buffer_key_given(const struct job *job)
{
	for (size_t i = 0; i < sizeof(buffer_keys) / sizeof(buffer_keys[0]); i++)
		if (job_is_set(job, buffer_keys[i]))
			return buffer_keys[i];
	return NULL;
}

/* buffer_pattern into bpattern, by verify_pattern's parser (fio's forms);
 * a pattern's writes are the pattern alone. */
static int parse_pattern(struct job *job, struct fileio_conf *c, struct dbio_err *err)
{
	const char *bad = c->buffer_pattern;
	size_t n = 0;
	int rc;

	c->bpattern_len = 0;
	if (!c->buffer_pattern[0])
		return 0;
	if (c->buffer_pattern[0] == '\'')
		rc = job_pattern_file(job, "buffer_pattern", c->buffer_pattern, c->bpattern,
				      FILEIO_PATTERN_MAX, &n, err);
	else
		rc = job_parse_verify_pattern(c->buffer_pattern, c->bpattern, FILEIO_PATTERN_TEXT_MAX, &n,
					      &bad);
	if (rc && c->buffer_pattern[0] == '\'')
		return rc;
	if (rc == -ERANGE)
		return job_fail(job, "buffer_pattern", err, "longer than %d bytes", FILEIO_PATTERN_TEXT_MAX);
	if (rc)
		return job_fail(
			job, "buffer_pattern", err,
			"cannot read '%s' at '%s': expected 0x and hex digits (0xdeadbeef), \"text\" or a decimal number, run together",
			c->buffer_pattern, bad);
	if (c->compress_pct || c->dedupe_pct)
		return job_fail(job, "buffer_pattern", err,
				"with %s: dbio writes the pattern alone; give one or the other",
				c->compress_pct ? "buffer_compress_percentage" : "dedupe_percentage");
	if (fileio_files(job)->verify.verify != VERIFY_NONE)
		return job_fail(
			job, "buffer_pattern", err,
			"with verify: the writes carry verify's headers and verify_pattern; give verify_pattern instead");
	c->bpattern_len = (unsigned)n;
	c->zero_buffers = c->refill_buffers = c->scramble_buffers = false;
	return 0;
}

int fileio_validate_buffers(struct job *job, struct dbio_err *err)
{
	struct fileio_conf *c = fileio_conf(job);
	const bool working_set = c->dedupe_pct && c->dedupe_mode == DEDUPE_WORKING_SET;
	/* fio: giving either key marks the job's buffers as filled for it */
	const bool filled =
		job_is_set(job, "buffer_compress_percentage") || job_is_set(job, "dedupe_percentage");

	if (working_set && fileio_files(job)->layout.nrfiles != 1)
		return job_fail(
			job, "dedupe_mode", err,
			"working_set with nrfiles=%llu: fio keeps a working set for one file per job; "
			"give nrfiles=1",
			(unsigned long long)fileio_files(job)->layout.nrfiles);
	if (working_set && c->dedupe_ws_pct + c->dedupe_pct > 100)
		return job_fail(
			job, "dedupe_working_set_percentage", err,
			"%llu with dedupe_percentage=%llu: the working set's pages are new writes, so "
			"at most %llu %% of the writes can repeat them; the two may add up to 100 at most",
			(unsigned long long)c->dedupe_ws_pct, (unsigned long long)c->dedupe_pct,
			(unsigned long long)(100 - c->dedupe_ws_pct));
	/* fio's fix-ups: all zeros is zero_buffers; compression and dedupe
	 * fill each write anew; a filled write is not scrambled, nor one that
	 * carries verify's headers and pattern. */
	if (c->compress_pct == 100) {
		c->zero_buffers = true;
		c->compress_pct = 0;
	} else if (c->compress_pct && !job_is_set(job, "refill_buffers")) {
		c->refill_buffers = true;
	}
	if (c->dedupe_pct)
		c->refill_buffers = true;
	if (c->refill_buffers || filled || fileio_files(job)->verify.verify != VERIFY_NONE ||
	    (c->zero_buffers && job_is_set(job, "zero_buffers") && !job_is_set(job, "scramble_buffers")))
		c->scramble_buffers = false;
	return parse_pattern(job, c, err);
}
