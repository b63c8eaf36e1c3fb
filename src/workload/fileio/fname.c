/*
 * fio's filename_format: see fname.h. fio replaces each keyword wherever
 * it appears, in any case; the names it makes are relative to directory=,
 * or an absolute path without it. dbio runs as root, so a name is checked
 * as filename='s are: it names a file in the job's one directory, which
 * dbio creates with O_EXCL and removes, and no format reaches outside it.
 */
#include "workload/fileio/fname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/termesc.h"

#include "workload/fileio/files.h"
#include "workload/fileio/keys.h"
#include "workload/fileio/replay.h"

#define NAME_LEN 256

static const char *const keywords[] = { "$jobname", "$jobnum", "$filenum", "$clientuid" };
#define NKEYWORDS (sizeof(keywords) / sizeof(keywords[0]))

size_t fname_expand(const char *fmt, const char *job, uint64_t thread, uint64_t file, char *buf, size_t len)
{
	size_t at = 0;

	for (const char *p = fmt; *p;) {
		size_t k = 0, n;
		char num[24];
		const char *put = p;

		while (k < NKEYWORDS && strncasecmp(p, keywords[k], strlen(keywords[k])))
			k++;
		if (k == NKEYWORDS) {
			n = 1;
		} else {
			if (k == 0)
				put = job;
			else if (k == 3)
				put = "";
			else
				put = num, snprintf(num, sizeof(num), "%llu",
						    (unsigned long long)(k == 1 ? thread : file));
			n = strlen(put);
			p += strlen(keywords[k]) - 1;
		}
		if (at + n >= len)
			return len;
		memcpy(buf + at, put, n);
		at += n;
		p++;
	}
	buf[at] = '\0';
	return at;
}

/* Whether fmt holds keyword k, in any case. */
static bool has_keyword(const char *fmt, size_t k)
{
	return strcasestr(fmt, keywords[k]) != NULL;
}

/* An absolute format without directory=: its directory is the job's (no
 * keyword in it: one directory), the rest the format of the names. */
static int split_absolute(struct job *job, char *fmt, struct dbio_err *err)
{
	char *slash = strrchr(fmt, '/');
	const size_t dl = slash == fmt ? 1 : (size_t)(slash - fmt);

	if (job_is_set(job, "directory"))
		return job_fail(
			job, "filename_format", err,
			"'%s': an absolute path beside directory=%s: fio would make it under directory=; give names in directory= (no '/') or no directory=",
			fmt, job->directory);
	if (memchr(fmt, '$', dl) || strstr(fmt, "/../") || strstr(fmt, "/./") || dl >= sizeof(job->directory))
		return job_fail(
			job, "filename_format", err,
			"'%s': its directory holds a keyword, '.' or '..': dbio makes a job's files in one directory, named plainly",
			fmt);
	if (!strncmp(fmt, "/dev/", 5) || (dl == 4 && !strncmp(fmt, "/dev", 4)))
		return job_fail(
			job, "filename_format", err,
			"'%s' is a device: dbio formats and measures a device only in `dbio matrix --device`; give names of files",
			fmt);
	snprintf(job->directory, sizeof(job->directory), "%.*s", (int)dl, fmt);
	memmove(fmt, slash + 1, strlen(slash + 1) + 1);
	return 0;
}

/* The name of thread's file, checked; 0 or DBIO_EINPUT. */
static int check_name(const struct job *job, const char *fmt, uint64_t t, uint64_t f, char *buf,
		      struct dbio_err *err)
{
	const size_t n = fname_expand(fmt, job->name, t, f, buf, NAME_LEN);

	if (n == NAME_LEN)
		return job_fail(job, "filename_format", err, "'%s': a name longer than %d bytes", fmt,
				NAME_LEN - 1);
	if (!n || !strcmp(buf, ".") || !strcmp(buf, "..") || strchr(buf, '/'))
		return job_fail(
			job, "filename_format", err,
			"'%s' makes '%s' for thread %llu's file %llu: expected the name of a file in directory= (no '/', not '.' or '..'; dbio makes no subdirectories)",
			fmt, buf, (unsigned long long)t, (unsigned long long)f);
	/* as a job's name: a tab or newline in a file's name breaks every
	 * listing and log that shows it */
	if (termesc_needed(buf))
		return job_fail(
			job, "filename_format", err,
			"'%s' makes a name with a control character (tab, newline, ...) or bytes that are not UTF-8 for thread %llu's file %llu: expected printable names",
			fmt, (unsigned long long)t, (unsigned long long)f);
	return 0;
}

/* One name made, with its thread and file, for the check of duplicates. */
struct made {
	char *name;
	uint64_t t, f;
};

static int made_cmp(const void *a, const void *b)
{
	const struct made *x = a, *y = b;
	const int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->t != y->t ? (x->t < y->t ? -1 : 1) : (x->f < y->f ? -1 : x->f > y->f);
}

/* No two (thread, file) of the job make one name ($jobnum$filenum gives
 * "110" to thread 1's file 10 and thread 11's file 0): fio would open one
 * file for both; refused before the run, naming the name and both. */
static int check_unique(const struct job *job, const char *fmt, uint64_t threads, uint64_t nrfiles,
			struct dbio_err *err)
{
	const size_t n = (size_t)(threads * nrfiles);
	struct made *m = calloc(n ? n : 1, sizeof(*m));
	char a[NAME_LEN];
	size_t i = 0;
	int rc = 0;

	if (!m)
		return job_fail(job, "filename_format", err, "out of memory for %zu names", n);
	for (uint64_t t = 0; t < threads && !rc; t++)
		for (uint64_t f = 0; f < nrfiles && !rc; f++, i++) {
			fname_expand(fmt, job->name, t, f, a, sizeof(a));
			m[i] = (struct made){ strdup(a), t, f };
			if (!m[i].name)
				rc = job_fail(job, "filename_format", err, "out of memory for %zu names", n);
		}
	if (!rc)
		qsort(m, n, sizeof(*m), made_cmp);
	for (size_t j = 1; !rc && j < n; j++)
		if (!strcmp(m[j - 1].name, m[j].name))
			rc = job_fail(
				job, "filename_format", err,
				"'%s' makes '%s' for thread %llu's file %llu and for thread %llu's file %llu: expected a name of its own for each; put a separator between the keywords ($jobnum.$filenum)",
				fmt, m[j].name, (unsigned long long)m[j - 1].t,
				(unsigned long long)m[j - 1].f, (unsigned long long)m[j].t,
				(unsigned long long)m[j].f);
	for (size_t j = 0; j < n; j++)
		free(m[j].name);
	free(m);
	return rc;
}

int fname_validate(struct job *job, struct dbio_err *err)
{
	struct fileio_conf *conf = fileio_conf(job);
	struct files_layout *lay = &fileio_files(job)->layout;
	char *fmt = conf->filename_format, a[NAME_LEN];
	int rc;

	conf->fname_per_thread = false;
	if (!fmt[0])
		return 0;
	if (job_is_set(job, "filename") || replay_on(job))
		return job_fail(job, "filename_format", err, "%s names the files: give one of the two",
				job_is_set(job, "filename") ? "filename=" : "read_iolog=");
	if (fmt[0] == '/' && (rc = split_absolute(job, fmt, err)))
		return rc;
	const uint64_t threads = has_keyword(fmt, 1) && job->numjobs > 1 ? job->numjobs : 1;

	if (threads > 1 && lay->share_files)
		return job_fail(
			job, "share_files", err,
			"filename_format's $jobnum gives each thread files of its own; drop one of the two");
	/* no two files of a thread alike: fio would open one file twice */
	if (lay->nrfiles > 1 && !has_keyword(fmt, 2))
		return job_fail(job, "filename_format", err,
				"'%s' gives the %llu files of a thread one name: add $filenum", fmt,
				(unsigned long long)lay->nrfiles);
	for (uint64_t t = 0; t < threads; t++)
		for (uint64_t f = 0; f < lay->nrfiles; f++)
			if ((rc = check_name(job, fmt, t, f, a, err)))
				return rc;
	if ((rc = check_unique(job, fmt, threads, lay->nrfiles, err)))
		return rc;
	if (threads > 1) {
		conf->fname_per_thread = true;
		return 0;
	}
	/* one set of names for every thread: fio's shared files, as filename= */
	for (uint64_t f = 0, at = 0; f < lay->nrfiles; f++) {
		fname_expand(fmt, job->name, 0, f, a, sizeof(a));
		if (strchr(a, ':'))
			return job_fail(
				job, "filename_format", err,
				"'%s' makes '%s' for file %llu: a name with ':' cannot be one of the shared files' list (filename='s separator); expected names without ':'",
				fmt, a, (unsigned long long)f);
		if (at + strlen(a) + 2 > sizeof(lay->filename))
			return job_fail(
				job, "filename_format", err,
				"'%s': the names of its %llu shared files, joined by ':', take more than the %zu bytes of filename='s list (at file %llu, '%s'): give fewer files or shorter names, or $jobnum with numjobs above 1 (files of each thread's own have no such limit)",
				fmt, (unsigned long long)lay->nrfiles, sizeof(lay->filename) - 1,
				(unsigned long long)f, a);
		at += (uint64_t)snprintf(lay->filename + at, sizeof(lay->filename) - at, "%s%s", f ? ":" : "",
					 a);
	}
	return 0;
}

const char *fname_at(const struct job *job, uint64_t thread, uint64_t file, char *buf, size_t len)
{
	const struct fileio_conf *conf = fileio_conf(job);

	if (!conf || !conf->fname_per_thread)
		return NULL;
	fname_expand(conf->filename_format, job->name, thread, file, buf, len);
	return buf;
}
