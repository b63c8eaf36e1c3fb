/*
 * fio's file keys, resolved into dbio's own before the file checks:
 * filename into nrfiles (and directory, for an absolute path), buffered
 * into direct, rwmixwrite into rwmixread, fsync_on_close into end_fsync,
 * overwrite into prefill. See job_validate_fio_files in job.h.
 */
#include <stdio.h>
#include <string.h>

#include "workload/fileio/files.h"

/* The length of the i-th ':'-separated name of list, and where it starts. */
static size_t name_at(const char *list, size_t i, const char **start)
{
	const char *p = list;

	while (i-- > 0 && (p = strchr(p, ':')))
		p++;
	if (!p) {
		*start = "";
		return 0;
	}
	*start = p;
	return strcspn(p, ":");
}

const char *job_filename_at(const struct job *job, size_t i, char *buf, size_t len)
{
	const char *start;
	size_t n = name_at(fileio_files(job)->layout.filename, i, &start);

	snprintf(buf, len, "%.*s", (int)n, start);
	return buf;
}

/* filename=/dir/name: directory=/dir, filename=name; a device is refused. */
static int split_absolute(struct job *job, struct dbio_err *err)
{
	const char *slash = strrchr(fileio_files(job)->layout.filename, '/');
	char dir[sizeof(job->directory)];

	if (!strncmp(fileio_files(job)->layout.filename, "/dev/", 5))
		return job_fail(
			job, "filename", err,
			"'%s' is a device: dbio formats and measures a device only in `dbio matrix --device %s --destroy-data`; for a job file, give a filename (or directory=) on a filesystem",
			fileio_files(job)->layout.filename, fileio_files(job)->layout.filename);
	if (strchr(fileio_files(job)->layout.filename, ':'))
		return job_fail(
			job, "filename", err,
			"'%s': an absolute path names one file; for several, give directory= and names separated by ':'",
			fileio_files(job)->layout.filename);
	snprintf(dir, sizeof(dir), "%.*s",
		 slash == fileio_files(job)->layout.filename
			 ? 1
			 : (int)(slash - fileio_files(job)->layout.filename),
		 fileio_files(job)->layout.filename);
	if (job_is_set(job, "directory") && strcmp(dir, job->directory))
		return job_fail(
			job, "filename", err,
			"'%s' is not in directory=%s: give a name without '/' for a file in directory=, or no directory=",
			fileio_files(job)->layout.filename, job->directory);
	snprintf(job->directory, sizeof(job->directory), "%s", dir);
	memmove(fileio_files(job)->layout.filename, slash + 1, strlen(slash + 1) + 1);
	return 0;
}

/* filename: names, each once, no '/'; nrfiles becomes their count. */
static int check_filename(struct job *job, struct dbio_err *err)
{
	uint64_t n = 1;
	int rc;

	if (fileio_files(job)->layout.filename[0] == '/' && (rc = split_absolute(job, err)))
		return rc;
	for (const char *p = fileio_files(job)->layout.filename; (p = strchr(p, ':')); p++)
		n++;
	for (size_t i = 0; i < n; i++) {
		const char *a, *b;
		size_t la = name_at(fileio_files(job)->layout.filename, i, &a);

		if (la == 0 || (la <= 2 && !strncmp(a, "..", la)) || memchr(a, '/', la))
			return job_fail(
				job, "filename", err,
				"'%s': name %zu of the list is '%.*s': expected names of files in directory= (no '/', not '.' or '..'), ':' between them",
				fileio_files(job)->layout.filename, i + 1, (int)la, a);
		/* the names before a, each after the last's ':' (name_at from the
		 * start each time would make a list of a thousand slow) */
		b = fileio_files(job)->layout.filename;
		for (size_t k = 0; k < i; k++, b += strcspn(b, ":") + 1)
			if (strcspn(b, ":") == la && !memcmp(a, b, la))
				return job_fail(job, "filename", err, "'%s': '%.*s' is named twice",
						fileio_files(job)->layout.filename, (int)la, a);
	}
	if (job_is_set(job, "nrfiles") && fileio_files(job)->layout.nrfiles != n)
		return job_fail(
			job, "nrfiles", err,
			"%llu, but filename names %llu file%s: give one of the two, or make them agree",
			(unsigned long long)fileio_files(job)->layout.nrfiles, (unsigned long long)n,
			n == 1 ? "" : "s");
	if (fileio_files(job)->layout.share_files)
		return job_fail(
			job, "share_files", err,
			"filename already makes every thread work on the same files; drop share_files");
	fileio_files(job)->layout.nrfiles = n;
	return 0;
}

/* Whether fio takes key b over key a, both given: fio reads a job file in
 * order (its [global] before the job's section), and dbio applies the
 * command line over the files. -1 when the order cannot be told (both on
 * the command line, or in two files): then they contradict. */
static int later_key(const struct job *job, const char *a, const char *b)
{
	const struct job_origin *oa = job_origin_of(job, a), *ob = job_origin_of(job, b);

	if (!oa->file || !ob->file)
		return oa->file == ob->file ? -1 : !ob->file;
	return strcmp(oa->file, ob->file) || oa->line == ob->line ? -1 : ob->line > oa->line;
}

int job_validate_fio_files(struct job *job, struct dbio_err *err)
{
	int rc;

	if (fileio_files(job)->layout.filename[0] && (rc = check_filename(job, err)))
		return rc;
	if (job_is_set(job, "buffered")) {
		const int last = job_is_set(job, "direct") ? later_key(job, "direct", "buffered") : 1;

		if (last < 0 && fileio_files(job)->layout.direct == fileio_files(job)->layout.buffered)
			return job_fail(job, "buffered", err,
					"%d contradicts direct=%d: buffered=0 is direct=1",
					fileio_files(job)->layout.buffered, fileio_files(job)->layout.direct);
		if (last)
			fileio_files(job)->layout.direct =
				!fileio_files(job)->layout.buffered; /* else direct, given after it, stands */
	}
	if (job_is_set(job, "rwmixwrite")) {
		if (job_is_set(job, "rwmixread") &&
		    fileio_files(job)->layout.rwmixread + fileio_files(job)->layout.rwmixwrite != 100)
			return job_fail(job, "rwmixwrite", err,
					"%llu and rwmixread=%llu do not add up to 100: give one of the two",
					(unsigned long long)fileio_files(job)->layout.rwmixwrite,
					(unsigned long long)fileio_files(job)->layout.rwmixread);
		fileio_files(job)->layout.rwmixread = 100 - fileio_files(job)->layout.rwmixwrite;
	} else {
		fileio_files(job)->layout.rwmixwrite = 100 - fileio_files(job)->layout.rwmixread;
	}
	if (fileio_files(job)->layout.openfiles &&
	    fileio_files(job)->layout.openfiles < fileio_files(job)->layout.nrfiles)
		return job_fail(
			job, "openfiles", err,
			"%llu of nrfiles=%llu: dbio keeps every file of a thread open through the run, and does not close and reopen files between I/Os as fio then does; give openfiles of at least nrfiles, or none",
			(unsigned long long)fileio_files(job)->layout.openfiles,
			(unsigned long long)fileio_files(job)->layout.nrfiles);
	if (fileio_files(job)->layout.fsync_on_close)
		fileio_files(job)->layout.end_fsync = true;
	if (fileio_files(job)->layout.overwrite && !job_is_set(job, "prefill"))
		fileio_files(job)->layout.prefill = PREFILL_ON;
	return 0;
}
