/*
 * fio's "how much and where" keys, checked and resolved after the file
 * checks: io_size and number_ios (how much a thread does), offset and
 * offset_increment (where in its files it starts). The runner lays files
 * out and hands threads their regions from job_file_offset,
 * job_region_bytes and job_file_bytes; the file workload's budget
 * (workload/fileio/where.h) stops a thread where fio would. See job.h.
 */
#include <stdio.h>
#include <string.h>

#include "workload/fileio/files.h"
#include "util/units.h"

/* Keys of the family, for workloads that do not honour them. */
static const char *const where_keys[] = { "percentage_random", "zonemode",     "zonesize",
					  "zonerange",	       "zoneskip",     "random_generator",
					  "io_size",	       "number_ios",   "offset",
					  "offset_increment",  "rw_sequencer", "bsrange",
					  "bssplit",	       "blockalign",   "bs_unaligned" };

const char *job_where_key_given(const struct job *job)
{
	if (fileio_files(job)->where.rw_mod[0])
		return "rw";
	if (!strncmp(fileio_files(job)->layout.random_distribution, "zoned", 5) ||
	    !strncmp(fileio_files(job)->layout.random_distribution, "normal:", 7) ||
	    !strncmp(fileio_files(job)->layout.random_distribution, "sequence:", 9))
		return "random_distribution";
	if (job_is_set(job, "bs") && fileio_files(job)->where.bs_write != fileio_files(job)->layout.bs)
		return "bs";
	for (size_t i = 0; i < sizeof(where_keys) / sizeof(where_keys[0]); i++)
		if (job_is_set(job, where_keys[i]))
			return where_keys[i];
	return NULL;
}

uint64_t job_file_offset(const struct job *job, uint64_t t)
{
	return fileio_files(job)->where.offset_bytes + t * fileio_files(job)->where.offset_increment;
}

uint64_t job_region_bytes(const struct job *job, uint64_t t)
{
	return fileio_files(job)->where.region_from_filesize
		       ? fileio_files(job)->layout.filesize - job_file_offset(job, t)
		       : fileio_files(job)->layout.filesize;
}

uint64_t job_file_bytes(const struct job *job, uint64_t t)
{
	return fileio_files(job)->where.region_from_filesize
		       ? fileio_files(job)->layout.filesize
		       : job_file_offset(job, t) + fileio_files(job)->layout.filesize;
}

/* offset: bytes; fio's percentage and zone count are refused with why. */
static int parse_offset(struct job *job, struct dbio_err *err)
{
	const char *v = fileio_files(job)->where.offset;
	size_t len = strlen(v);

	fileio_files(job)->where.offset_bytes = 0;
	if (len && v[len - 1] == '%')
		return job_fail(
			job, "offset", err,
			"'%s': fio takes a percentage of the size a file has before the job lays it out, which for a new file is 0 (fio starts such a job at 0), and dbio makes every file: give the offset in bytes (offset=256k)",
			v);
	if (len && (v[len - 1] == 'z' || v[len - 1] == 'Z'))
		return job_fail(
			job, "offset", err,
			"'%s': an offset in zones is for zoned block devices (zonemode=zbd), which dbio does not drive: give the offset in bytes",
			v);
	if (units_parse_size(v, &fileio_files(job)->where.offset_bytes) ||
	    fileio_files(job)->where.offset_bytes > OPT_MAX)
		return job_fail(
			job, "offset", err,
			"bad value '%s': expected a size in bytes with an optional k, m, g or t suffix (binary: 1k = 1024), e.g. 256k",
			v);
	return 0;
}

/* Keys that bound a job by its I/O, which a time_based job ignores in fio. */
static int check_time_based(const struct job *job, struct dbio_err *err)
{
	static const char *const keys[] = { "io_size", "number_ios" };

	for (size_t i = 0; job->time_based && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (job_is_set(job, keys[i]))
			return job_fail(
				job, keys[i], err,
				"bounds a job by its I/O, and this one is time_based: it runs for runtime= (fio ignores %s then); drop one of the two",
				keys[i]);
	return 0;
}

/* The offsets of every thread: aligned for direct=1, inside filesize when
 * it is given, and every file within the sizes results can hold. */
static int check_offsets(struct job *job, struct dbio_err *err)
{
	const uint64_t last = fileio_files(job)->layout.share_files ? 0 : job->numjobs - 1;
	const char *key = job_is_set(job, "offset_increment") ? "offset_increment" : "offset";
	char a[32], b[32], c[32];

	if (fileio_files(job)->layout.share_files && fileio_files(job)->where.offset_increment)
		return job_fail(
			job, "offset_increment", err,
			"with share_files=1 the threads already split the blocks between them; drop one of the two");
	if (fileio_files(job)->layout.direct &&
	    (fileio_files(job)->where.offset_bytes % 512 || fileio_files(job)->where.offset_increment % 512))
		return job_fail(job,
				fileio_files(job)->where.offset_bytes % 512 ? "offset" : "offset_increment",
				err, "%llu is not a multiple of 512, which direct=1 needs",
				(unsigned long long)(fileio_files(job)->where.offset_bytes % 512
							     ? fileio_files(job)->where.offset_bytes
							     : fileio_files(job)->where.offset_increment));
	if (fileio_files(job)->where.offset_increment &&
	    last > (OPT_MAX - fileio_files(job)->where.offset_bytes) /
			    fileio_files(job)->where.offset_increment)
		return job_fail(job, key, err, "thread %llu would start past the largest offset",
				(unsigned long long)last);
	const uint64_t off = job_file_offset(job, last);

	if (!fileio_files(job)->where.region_from_filesize &&
	    fileio_files(job)->layout.filesize > OPT_MAX - off)
		return job_fail(job, key, err, "the files would be larger than the largest size");
	if (fileio_files(job)->where.region_from_filesize &&
	    (off > fileio_files(job)->layout.filesize ||
	     fileio_files(job)->layout.filesize - off < fileio_files(job)->layout.bs))
		return job_fail(
			job, key, err,
			"thread %llu starts at %s, which leaves less than one block (bs=%s) of filesize=%s",
			(unsigned long long)last, units_fmt_bytes(a, sizeof(a), off),
			units_fmt_bytes(b, sizeof(b), fileio_files(job)->layout.bs),
			units_fmt_bytes(c, sizeof(c), fileio_files(job)->layout.filesize));
	return 0;
}

/* rw's offset modifier: for a sequential pattern, bytes added after each
 * I/O (negative: backwards); for a random one, I/Os per random offset. */
static int parse_rw_mod(struct job *job, struct dbio_err *err)
{
	const char *v = fileio_files(job)->where.rw_mod;
	const bool neg = v[0] == '-';
	uint64_t n = 0;

	fileio_files(job)->where.seq_add = 0;
	fileio_files(job)->where.seq_nr = 1;
	if (!v[0])
		return 0;
	if (fileio_files(job)->layout.rw == RW_REWRITE)
		return job_fail(job, "rw", err,
				"rewrite:%s: rw=rewrite (dbio's own) takes no offset modifier", v);
	if (fileio_files(job)->layout.nrfiles > 1)
		return job_fail(
			job, "rw", err,
			"an offset modifier (:%s) with nrfiles=%llu: fio takes the files in turn, an I/O each, and dbio one after the other, so the modified offsets would differ; give one file per job",
			v, (unsigned long long)fileio_files(job)->layout.nrfiles);
	if (job_is_random(job)) {
		if (units_parse_u64(v, &n) || n == 0)
			return job_fail(
				job, "rw", err,
				"bad offset modifier ':%s': for a random pattern, expected a whole number of I/Os >= 1 (rw=randread:8: a new random offset every 8 I/Os)",
				v);
		fileio_files(job)->where.seq_nr = n;
		return 0;
	}
	if (units_parse_size(v + neg, &n) || n > OPT_MAX)
		return job_fail(
			job, "rw", err,
			"bad offset modifier ':%s': for a sequential pattern, expected bytes to skip after each I/O (rw=write:4k), negative to go backwards (rw=read:-8k)",
			v);
	fileio_files(job)->where.seq_add = neg ? -(int64_t)n : (int64_t)n;
	return 0;
}

/* zonemode=strided and its sizes; zonesize alone is strided (fio 3.34 on). */
static int check_zones(struct job *job, struct dbio_err *err)
{
	const char *given = job_is_set(job, "zonesize")	   ? "zonesize"
			    : job_is_set(job, "zonerange") ? "zonerange"
			    : job_is_set(job, "zoneskip")  ? "zoneskip"
							   : NULL;
	char a[32], b[32];

	if (fileio_files(job)->where.zonemode == ZONE_ZBD)
		return job_fail(
			job, "zonemode", err,
			"zoned block devices (zonemode=zbd) are not in dbio: give zonemode=strided for zones of a file, or none");
	if (job_is_set(job, "zonemode") && fileio_files(job)->where.zonemode == ZONE_NONE && given)
		return job_fail(
			job, given, err,
			"zonemode=none leaves no zones (fio 3.33 refuses the pair; later fio ignores %s): give zonemode=strided, or drop %s",
			given, given);
	if (!fileio_files(job)->where.zonesize &&
	    (fileio_files(job)->where.zonemode == ZONE_STRIDED || given))
		return job_fail(job, fileio_files(job)->where.zonemode == ZONE_STRIDED ? "zonemode" : given,
				err, "zones need zonesize=, the bytes of I/O in each");
	if (!fileio_files(job)->where.zonesize)
		return 0;
	fileio_files(job)->where.zonemode = ZONE_STRIDED;
	if (!fileio_files(job)->where.zonerange)
		fileio_files(job)->where.zonerange = fileio_files(job)->where.zonesize; /* as fio */
	if (fileio_files(job)->where.zonerange < fileio_files(job)->where.max_bs)
		return job_fail(job, "zonerange", err, "%s is less than an I/O (bs=%s)",
				units_fmt_bytes(a, sizeof(a), fileio_files(job)->where.zonerange),
				units_fmt_bytes(b, sizeof(b), fileio_files(job)->where.max_bs));
	if (fileio_files(job)->layout.direct &&
	    (fileio_files(job)->where.zonesize % 512 || fileio_files(job)->where.zonerange % 512 ||
	     fileio_files(job)->where.zoneskip % 512))
		return job_fail(job, given, err, "zone sizes must be multiples of 512, which direct=1 needs");
	return 0;
}

/* The keys whose I/O dbio draws byte by byte (workload/fileio/where.c), which
 * takes one file of one thread's own: the first given, or NULL. */
static const char *byte_by_byte(const struct job *job)
{
	if (fileio_files(job)->where.zonesize)
		return "zonesize";
	if (job_is_random(job) &&
	    (fileio_files(job)->where.perc_rand < 100 || fileio_files(job)->where.perc_rand_write < 100))
		return "percentage_random";
	if (job_is_random(job) && (fileio_files(job)->layout.dist == DIST_ZONED ||
				   fileio_files(job)->layout.dist == DIST_ZONED_ABS ||
				   fileio_files(job)->layout.dist == DIST_SEQUENCE))
		return "random_distribution";
	return NULL;
}

/* zoned_abs's zones inside the region of every thread. */
static int check_zoned_abs(const struct job *job, struct dbio_err *err)
{
	const uint64_t region =
		job_region_bytes(job, fileio_files(job)->layout.share_files ? 0 : job->numjobs - 1);
	char a[32], b[32];

	for (unsigned d = 0; fileio_files(job)->layout.dist == DIST_ZONED_ABS && d < 2; d++) {
		const unsigned n = fileio_files(job)->where.nzones[d];
		const uint64_t end = n ? fileio_files(job)->where.zone_start[d][n - 1] +
						     fileio_files(job)->where.zone_len[d][n - 1]
				       : 0;

		if (end > region)
			return job_fail(
				job, "random_distribution", err,
				"the zones add up to %s, more than the %s a thread's region of its file holds",
				units_fmt_bytes(a, sizeof(a), end), units_fmt_bytes(b, sizeof(b), region));
	}
	return 0;
}

/* sequence's blocks inside the region of every thread: fio fails the job
 * at its first I/O past it; dbio refuses before. */
static int check_sequence(const struct job *job, struct dbio_err *err)
{
	const uint64_t region =
		job_region_bytes(job, fileio_files(job)->layout.share_files ? 0 : job->numjobs - 1);
	char a[32];

	if (fileio_files(job)->layout.dist != DIST_SEQUENCE || !job_is_random(job))
		return 0;
	for (int d = 0; d < 2; d++) {
		const uint64_t blocks = region / fileio_files(job)->where.min_bs_rw[d];

		for (unsigned i = 0;
		     i < fileio_files(job)->where.nseq_blocks && (d ? job_writes(job) : job_reads(job)); i++)
			if (fileio_files(job)->where.seq_blocks[i] >= blocks)
				return job_fail(
					job, "random_distribution", err,
					"block %u of the sequence is past the end: a thread's region of "
					"its file (%s) holds %llu blocks of %llu bytes, 0 to %llu",
					fileio_files(job)->where.seq_blocks[i],
					units_fmt_bytes(a, sizeof(a), region), (unsigned long long)blocks,
					(unsigned long long)fileio_files(job)->where.min_bs_rw[d],
					(unsigned long long)(blocks ? blocks - 1 : 0));
	}
	return 0;
}

int job_validate_where(struct job *job, struct dbio_err *err)
{
	const char *key;
	int rc;

	fileio_files(job)->where.region_from_filesize = job_is_set(job, "filesize");
	if ((rc = parse_offset(job, err)) || (rc = check_time_based(job, err)) ||
	    (rc = check_offsets(job, err)) || (rc = parse_rw_mod(job, err)) || (rc = check_zones(job, err)) ||
	    (rc = check_zoned_abs(job, err)) || (rc = check_sequence(job, err)))
		return rc;
	if (!(key = byte_by_byte(job)))
		return 0;
	if (fileio_files(job)->layout.nrfiles > 1)
		return job_fail(
			job, key, err, "with nrfiles=%llu: %s; give one file per job",
			(unsigned long long)fileio_files(job)->layout.nrfiles,
			fileio_files(job)->where.zonesize
				? "fio turns zones off for more than one file"
				: "fio takes the files in turn, an I/O each, and dbio one after the other, so the offsets would differ");
	if (fileio_files(job)->layout.share_files)
		return job_fail(job, key, err, "does not go with share_files=1 (dbio's own) yet");
	return 0;
}

/* Ops needed to reach bytes, the op that reaches it counted: fio issues
 * while what it issued is below a limit. */
static uint64_t ops_to_reach(uint64_t bytes, uint64_t bs)
{
	return bytes / bs + (bytes % bs != 0);
}

uint64_t job_ops_total(const struct job *job, uint64_t pass_ops, uint64_t io_bytes)
{
	const uint64_t bs = fileio_files(job)->where.min_bs, loops = fileio_files(job)->layout.loops;
	const uint64_t limit = io_bytes ? io_bytes : pass_ops * bs;
	uint64_t cap = UINT64_MAX, ops;

	if (pass_ops == 0)
		return 0;
	/* io_size * loops bytes, number_ios * loops ops, saturating */
	if (limit <= UINT64_MAX / loops)
		cap = ops_to_reach(limit * loops, bs);
	if (fileio_files(job)->where.number_ios &&
	    fileio_files(job)->where.number_ios <= UINT64_MAX / loops &&
	    fileio_files(job)->where.number_ios * loops < cap)
		cap = fileio_files(job)->where.number_ios * loops;
	ops = pass_ops <= UINT64_MAX / loops ? pass_ops * loops : UINT64_MAX;
	/* Past loops passes, fio starts another while io_size has a whole block
	 * left to do; a pass's read back counts too (job_readback_counts). */
	const uint64_t per = job_readback_counts(job) ? 2 : 1;

	if (io_bytes && ops <= UINT64_MAX / per && io_bytes / bs > ops * per) {
		uint64_t more = (io_bytes / bs - ops * per + pass_ops * per - 1) / (pass_ops * per);

		ops = more <= (UINT64_MAX - ops) / pass_ops ? ops + more * pass_ops : UINT64_MAX;
	}
	if (ops > cap)
		ops = cap;
	/* Sizes that vary: as many bytes, in I/Os of the mean size. */
	if (fileio_files(job)->where.sizes_vary && fileio_files(job)->where.mean_bs > bs)
		ops = (uint64_t)((double)ops * (double)bs / (double)fileio_files(job)->where.mean_bs) + 1;
	if (fileio_files(job)->where.number_ios &&
	    fileio_files(job)->where.number_ios <= UINT64_MAX / loops &&
	    ops > fileio_files(job)->where.number_ios * loops)
		ops = fileio_files(job)->where.number_ios * loops;
	return ops;
}
