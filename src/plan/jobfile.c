/*
 * fio-style INI job files, parsed with libinih from memory (the whole file,
 * checked first for what inih would misread). inih reports neither line
 * numbers nor empty sections through its handler, so the line reader we give
 * it counts lines and notices "[section]" headers; everything else (comments,
 * key=value splitting, trimming) is inih's.
 */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"

struct parse_state {
	struct jobset *set;
	const char *file; /* owned by set->files */
	int line;	  /* number of the line inih is handling */
	bool at_line_start;
	bool in_global;
	bool in_section;
	size_t first_job; /* jobs before this index came from other files */
	struct job global;
	struct dbio_err *err;
	const char *text; /* what is left to read */
};

static void begin_section(struct parse_state *st, const char *line)
{
	char name[128];
	const char *end = strchr(line, ']');
	size_t len;

	if (!end)
		return; /* inih reports the malformed header */
	line++;
	while (isspace((unsigned char)*line))
		line++;
	len = (size_t)(end - line);
	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	if (len >= sizeof(name)) {
		dbio_err_set(st->err, DBIO_EINPUT, "%s:%d: section name too long (at most %zu bytes)",
			     st->file, st->line, sizeof(name) - 1);
		return;
	}
	memcpy(name, line, len);
	name[len] = '\0';
	st->in_section = true;
	st->in_global = !strcmp(name, "global");
	if (st->in_global)
		return;

	struct job job = st->global;

	snprintf(job.name, sizeof(job.name), "%s", name);
	job.section = (struct job_origin){ .file = st->file, .line = st->line };
	if (jobset_add(st->set, &job))
		dbio_err_set(st->err, -ENOMEM, "%s: out of memory", st->file);
}

static char *read_line(char *buf, int len, void *stream)
{
	struct parse_state *st = stream;
	char *got = NULL;

	if (*st->text) {
		const char *nl = strchr(st->text, '\n');
		size_t n = nl ? (size_t)(nl - st->text + 1) : strlen(st->text);

		if (n > (size_t)len - 1)
			n = (size_t)len - 1;
		memcpy(buf, st->text, n);
		buf[n] = '\0';
		st->text += n;
		got = buf;
	}
	if (!got)
		return NULL;
	if (st->at_line_start) {
		const char *p = buf;

		st->line++;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '[')
			begin_section(st, p);
	}
	size_t n = strlen(buf);

	st->at_line_start = n && buf[n - 1] == '\n';
	return got;
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
	struct parse_state *st = user;
	struct job_origin origin = { .file = st->file, .line = st->line };

	(void)section;
	if (st->err->code)
		return 0;
	if (!st->in_section) {
		dbio_err_set(st->err, DBIO_EINPUT,
			     "%s:%d: key '%s': outside a section: put it under [global] or a [job] section",
			     st->file, st->line, key);
		return 0;
	}
	if (st->in_global) {
		/* [global] keys reach every job after it: each need only be
		 * some job's own (plan_check_shared). */
		origin.shared = true;
		return job_set(&st->global, key, value, &origin, st->err) == 0;
	}
	return job_set(&st->set->jobs[st->set->njobs - 1], key, value, &origin, st->err) == 0;
}

static int parse_with(struct parse_state *st, const char *name);

static int parse(struct jobset *set, const char *name, const char *text, struct dbio_err *err)
{
	struct parse_state st = {
		.set = set,
		.at_line_start = true,
		.first_job = set->njobs,
		.err = err,
		.text = text,
	};
	char **files = realloc(set->files, (set->nfiles + 1) * sizeof(*files));
	int rc;

	if (!files)
		return dbio_err_set(err, -ENOMEM, "%s: out of memory", name);
	set->files = files;
	if (!(set->files[set->nfiles] = strdup(name)))
		return dbio_err_set(err, -ENOMEM, "%s: out of memory", name);
	st.file = set->files[set->nfiles++];
	if (plan_job_init(&st.global, "job"))
		rc = dbio_err_set(err, -ENOMEM, "%s: out of memory", name);
	else
		rc = parse_with(&st, name);
	job_release(&st.global);
	return rc;
}

/* Run inih over st's text, with st->global made. */
static int parse_with(struct parse_state *st, const char *name)
{
	struct dbio_err *err = st->err;
	int rc;

	ini_allow_no_value = true; /* bare boolean keys: "time_based" */
	ini_allow_multiline = false;
	ini_stop_on_first_error = true;
	ini_use_stack = false; /* lines of any length (long directory lists) */
	ini_allow_realloc = true;
	ini_max_line = 1 << 16;
	rc = ini_parse_stream(read_line, st, on_key, st);
	if (err->code)
		return err->code;
	if (rc > 0)
		return dbio_err_set(
			err, DBIO_EINPUT,
			"%s:%d: malformed line: expected '[section]', 'key=value' or a bare 'key'", st->file,
			rc);
	if (rc == -2)
		return dbio_err_set(err, -ENOMEM, "%s: out of memory", name);
	if (rc < 0)
		return dbio_err_set(err, -EIO, "%s: cannot read", name);
	if (st->set->njobs == st->first_job)
		return dbio_err_set(err, DBIO_EINPUT,
				    "%s: no job: expected at least one [section] other than [global]",
				    st->file);
	return 0;
}

/* The longest line inih can hold in one piece (ini_max_line, less the
 * newline and the terminating NUL): a longer one, even a comment, would
 * have its rest read as a line of its own. */
#define JOBFILE_MAX_LINE  ((1 << 16) - 2)
#define JOBFILE_MAX_BYTES (64u << 20)

/* Refuse what inih would misread: a NUL byte (the value would end there)
 * or a line too long to hold. */
static int check_text(const char *name, const char *text, size_t len, struct dbio_err *err)
{
	size_t line_start = 0;
	int line = 1;

	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\0')
			return dbio_err_set(err, DBIO_EINPUT,
					    "%s:%d: a NUL byte at column %zu: a job file is text", name, line,
					    i - line_start + 1);
		if (text[i] == '\n') {
			line++;
			line_start = i + 1;
		} else if (i - line_start >= JOBFILE_MAX_LINE) {
			return dbio_err_set(err, DBIO_EINPUT,
					    "%s:%d: line longer than %d bytes (comments too): split it", name,
					    line, JOBFILE_MAX_LINE);
		}
	}
	return 0;
}

/* text[0..len) as a job file: a UTF-8 byte-order mark is skipped. */
static int parse_text(struct jobset *set, const char *name, const char *text, size_t len,
		      struct dbio_err *err)
{
	int rc = check_text(name, text, len, err);

	if (rc)
		return rc;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		text += 3;
	return parse(set, name, text, err);
}

int plan_jobfile_parse(struct jobset *set, const char *path, struct dbio_err *err)
{
	FILE *fp = fopen(path, "re");
	char *text = NULL;
	size_t len = 0, cap = 0;
	int rc = 0;

	if (!fp)
		return dbio_err_set(err, errno == ENOENT ? DBIO_EINPUT : -errno,
				    "%s: cannot open job file: %s", path, strerror(errno));
	for (;;) {
		size_t got;

		if (len + 1 >= cap) {
			char *grown =
				cap >= JOBFILE_MAX_BYTES ? NULL : realloc(text, cap = cap ? cap * 2 : 65536);

			if (!grown) {
				rc = cap >= JOBFILE_MAX_BYTES
					     ? dbio_err_set(err, DBIO_EINPUT,
							    "%s: larger than %u MiB: not a job file", path,
							    JOBFILE_MAX_BYTES >> 20)
					     : dbio_err_set(err, -ENOMEM, "%s: out of memory", path);
				break;
			}
			text = grown;
		}
		got = fread(text + len, 1, cap - 1 - len, fp);
		len += got;
		if (got == 0) {
			if (ferror(fp))
				rc = dbio_err_set(err, -EIO, "%s: read error", path);
			break;
		}
	}
	fclose(fp);
	if (!rc) {
		text[len] = '\0';
		rc = parse_text(set, path, text, len, err);
	}
	free(text);
	return rc;
}

int plan_jobfile_parse_string(struct jobset *set, const char *text, const char *name, struct dbio_err *err)
{
	return parse_text(set, name, text, strlen(text), err);
}
