/*
 * fio-style INI job files, parsed with libinih from memory (the whole file,
 * checked first for what inih would misread). inih reports neither line
 * numbers nor empty sections through its handler, so the line reader we give
 * it counts lines, cuts comments as fio does (from ';' or '#' anywhere) and
 * notices "[section]" headers; key=value splitting and trimming are inih's.
 * fio's "include FILE" lines and its substitutions in values are ours.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "plan/fio_keys.h"
#include "plan/plan.h"

struct parse_state {
	struct jobset *set;
	const char *file; /* owned by set->files */
	int line;	  /* number of the line inih is handling */
	bool at_line_start;
	bool at_line_start_next;
	bool in_global;
	bool in_section;
	bool skipping;	  /* in a section --section did not name: its keys unread */
	size_t first_job; /* jobs before this index came from other files */
	struct job global;
	struct dbio_err *err;
	const char *text; /* what is left to read */
	bool in_comment;  /* the rest of the line is a comment */
	int colon_line;	  /* a line whose ':' comes before any '=' (inih would split there) */
	char *refused;	  /* the refused keys, a line each (malloc'd): note_refusal */
	size_t nrefused;
};

/* The deepest include inside include: fio has no limit, a loop needs one. */
#define JOBFILE_MAX_INCLUDE 8

static int read_whole(const char *path, bool included, char **out, size_t *outlen, struct dbio_err *err);
static int check_text(const char *name, const char *text, size_t len, struct dbio_err *err);
static int add_file_name(struct jobset *set, const char *name, const char **kept, struct dbio_err *err);

/* True when --section names name, or names none. */
static bool section_chosen(const struct jobset *set, const char *name)
{
	for (size_t i = 0; i < set->nsections; i++)
		if (!strcmp(set->sections[i], name))
			return true;
	return !set->nsections;
}

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
	st->skipping = !st->in_global && !section_chosen(st->set, name);
	if (st->in_global || st->skipping)
		return;

	struct job job = st->global;

	snprintf(job.name, sizeof(job.name), "%s", name);
	job.section = (struct job_origin){ .file = st->file, .line = st->line };
	/* fio: the jobs of a file start after those of the files before it */
	if (st->first_job > 0 && st->set->njobs == st->first_job)
		job.stonewall = true;
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
	if (st->at_line_start)
		st->in_comment = false;
	{
		/* fio: a comment runs from ';' or '#' to the end of the line */
		size_t n = strlen(buf);
		bool nl = n && buf[n - 1] == '\n';
		char *c = st->in_comment ? buf : strpbrk(buf, ";#");

		if (c) {
			st->in_comment = !nl;
			c[0] = nl ? '\n' : '\0';
			c[nl] = '\0';
		}
		st->at_line_start_next = nl;
	}
	if (st->at_line_start) {
		const char *p = buf;

		st->line++;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '[')
			begin_section(st, p);
		else if (p[strcspn(p, "=:")] == ':' &&
			 !(!strncmp(p, "include", 7) && isspace((unsigned char)p[7])))
			st->colon_line = st->line; /* fio's keys are "key=value": not a key */
	}
	st->at_line_start = st->at_line_start_next;
	return got;
}

/* Remember why a key was refused (unknown, fio's key or engine that dbio
 * does not honour, a bad value), to list them all at the end. */
static int note_refusal(struct parse_state *st, const struct dbio_err *kerr)
{
	size_t have = st->refused ? strlen(st->refused) : 0, add = strlen(kerr->msg) + 2;
	char *grown = realloc(st->refused, have + add);

	if (!grown)
		return dbio_err_set(st->err, -ENOMEM, "%s: out of memory", st->file);
	snprintf(grown + have, add, "%s%s", have ? "\n" : "", kerr->msg);
	st->refused = grown;
	st->nrefused++;
	return 0;
}

static int include(struct parse_state *st, const char *spec, const struct job_origin *origin, int depth);

/* key=value (value NULL: a bare key) from origin, for the job being read. */
static int set_key(struct parse_state *st, const char *key, const char *value, const struct job_origin *from,
		   int depth)
{
	struct job_origin origin = *from;
	struct dbio_err kerr = { 0 };
	char expanded[1 << 15]; /* a value as long as filename= may be */
	struct job *job;

	if (!strncmp(key, "include", 7) && isspace((unsigned char)key[7]) && !value)
		return include(st, key + 8, from, depth);
	if (!plan_key_shaped(key))
		return dbio_err_set(st->err, DBIO_EINPUT, "%s:%d: %s", origin.file, origin.line,
				    PLAN_NOT_A_KEY);
	if (!st->in_section)
		return dbio_err_set(
			st->err, DBIO_EINPUT,
			"%s:%d: key '%s': outside a section: put it under [global] or a [job] section",
			origin.file, origin.line, key);
	job = st->in_global ? &st->global : &st->set->jobs[st->set->njobs - 1];
	if (!job_find(job, key, NULL)) {
		plan_set(job, key, value, &origin, &kerr);
		return note_refusal(st, &kerr);
	}
	if (value && plan_expand(key, value, &origin, expanded, sizeof(expanded), st->err))
		return st->err->code;
	if (value && !strcmp(option_canonical(key), "ioengine") && fio_engine_reason(expanded)) {
		/* listed with the other refusals: all that dbio cannot do, at once */
		char engines[256];

		engine_list(engines, sizeof(engines));
		dbio_err_set(&kerr, DBIO_EINPUT, "%s:%d: key '%s': '%s' is %s; dbio's engines are %s",
			     origin.file, origin.line, key, expanded, fio_engine_reason(expanded), engines);
		return note_refusal(st, &kerr);
	}
	/* [global] keys reach every job after it: each need only be some
	 * job's own (plan_check_shared). */
	origin.shared = st->in_global;
	if (!plan_set(job, key, value ? expanded : NULL, &origin, &kerr))
		return 0;
	if (kerr.code != DBIO_EINPUT)
		return dbio_err_set(st->err, kerr.code, "%s", kerr.msg);
	return note_refusal(st, &kerr); /* a bad value too: every one at once */
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
	struct parse_state *st = user;
	struct job_origin origin = { .file = st->file, .line = st->line };

	(void)section;
	if (st->err->code)
		return 0;
	if (st->skipping)
		return 1; /* a section --section did not name: read past */
	if (st->colon_line == st->line) {
		dbio_err_set(st->err, DBIO_EINPUT, "%s:%d: %s", st->file, st->line, PLAN_NOT_A_KEY);
		return 0;
	}
	return set_key(st, key, value, &origin, 0) == 0;
}

/* Cut s at its end's blanks, and skip those at its start. */
static char *trim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* The keys of an included file, line by line, into the section being read. */
static int include_lines(struct parse_state *st, const char *file, char *text, int depth)
{
	int line = 0;

	for (char *next = text; next && !st->err->code;) {
		char *l = next, *eq, *c;
		struct job_origin origin;

		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		line++;
		if ((c = strpbrk(l, ";#")))
			*c = '\0';
		l = trim(l);
		if (!*l)
			continue;
		origin = (struct job_origin){ .file = file, .line = line };
		if (*l == '[')
			return dbio_err_set(
				st->err, DBIO_EINPUT,
				"%s:%d: a section in an included file: an included file holds keys only (as in fio)",
				file, line);
		if ((eq = strchr(l, '=')))
			*eq = '\0';
		set_key(st, trim(l), eq ? trim(eq + 1) : NULL, &origin, depth);
	}
	return st->err->code;
}

/* fio's "include FILE": FILE as given when it exists, else beside the job
 * file that includes it. */
static int include(struct parse_state *st, const char *spec, const struct job_origin *origin, int depth)
{
	char path[4096], where[4200];
	const char *kept;
	char *text = NULL;
	size_t len = 0;
	int rc;

	job_where(origin, where, sizeof(where));
	while (isspace((unsigned char)*spec))
		spec++;
	if (!*spec)
		return dbio_err_set(st->err, DBIO_EINPUT, "%s: include: expected a file name", where);
	if (depth >= JOBFILE_MAX_INCLUDE)
		return dbio_err_set(st->err, DBIO_EINPUT,
				    "%s: include %s: more than %d includes deep (an include loop?)", where,
				    spec, JOBFILE_MAX_INCLUDE);
	snprintf(path, sizeof(path), "%s", spec);
	if (access(spec, F_OK) && spec[0] != '/' && strrchr(origin->file, '/'))
		snprintf(path, sizeof(path), "%.*s%s", (int)(strrchr(origin->file, '/') - origin->file + 1),
			 origin->file, spec);
	struct dbio_err rerr = { 0 };

	if ((rc = read_whole(path, true, &text, &len, &rerr)))
		return dbio_err_set(st->err, rc == -ENOMEM ? rc : DBIO_EINPUT, "%s: include: %s", where,
				    rerr.msg);
	if (!(rc = check_text(path, text, len, st->err)) &&
	    !(rc = add_file_name(st->set, path, &kept, st->err)))
		rc = include_lines(st, kept, text, depth + 1);
	free(text);
	return rc;
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
	int rc = add_file_name(set, name, &st.file, err);

	if (rc)
		return rc;
	if (plan_job_init(&st.global, "job"))
		rc = dbio_err_set(err, -ENOMEM, "%s: out of memory", name);
	else
		rc = parse_with(&st, name);
	job_release(&st.global);
	free(st.refused);
	return rc;
}

/* Keep a copy of name in set, for the origins that point into it. */
static int add_file_name(struct jobset *set, const char *name, const char **kept, struct dbio_err *err)
{
	char **files = realloc(set->files, (set->nfiles + 1) * sizeof(*files));

	if (!files)
		return dbio_err_set(err, -ENOMEM, "%s: out of memory", name);
	set->files = files;
	if (!(set->files[set->nfiles] = strdup(name)))
		return dbio_err_set(err, -ENOMEM, "%s: out of memory", name);
	*kept = set->files[set->nfiles++];
	return 0;
}

/* Every refusal of the file as err's lines; when they do not all fit, as
 * many whole lines as fit and how many more there are. */
static int refusals(const struct parse_state *st, struct dbio_err *err)
{
	const size_t room = sizeof(err->msg) - 128;
	size_t len = strlen(st->refused), shown = st->nrefused;
	struct dbio_err more = { 0 };

	if (len < room)
		return dbio_err_set_lines(err, DBIO_EINPUT, "%s", st->refused);
	while (len >= room) {
		const char *nl = memrchr(st->refused, '\n', len);

		len = nl ? (size_t)(nl - st->refused) : 0;
		shown--;
	}
	/* the file's name escaped as every message's text is */
	dbio_err_set(&more, DBIO_EINPUT, "%s: %zu more keys refused, not shown: fix these and run again",
		     st->file, st->nrefused - shown);
	return dbio_err_set_lines(err, DBIO_EINPUT, "%.*s\n%s", (int)len, st->refused, more.msg);
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
	if (st->nrefused)
		return refusals(st, err);
	if (rc > 0)
		return dbio_err_set(
			err, DBIO_EINPUT,
			"%s:%d: malformed line: expected '[section]', 'key=value' or a bare 'key'", st->file,
			rc);
	if (rc == -2)
		return dbio_err_set(err, -ENOMEM, "%s: out of memory", name);
	if (rc < 0)
		return dbio_err_set(err, -EIO, "%s: cannot read", name);
	if (st->set->njobs == st->first_job && !st->set->nsections)
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

/* What st_mode is, for a message. */
static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode)	? "a directory"
	       : S_ISCHR(mode)	? "a character device"
	       : S_ISBLK(mode)	? "a block device"
	       : S_ISSOCK(mode) ? "a socket"
	       : S_ISFIFO(mode) ? "a FIFO"
				: "not a regular file";
}

/* Whether a job file may be of mode: a regular file; a pipe or FIFO too
 * when named on the command line (`dbio run <(…)`, /dev/stdin), never
 * in an include, whose name is the file's text. A device or a directory
 * would be read forever or not at all. */
static bool readable_kind(mode_t mode, bool included)
{
	return S_ISREG(mode) || (!included && S_ISFIFO(mode));
}

/* Open path as a job file: its kind checked before it is opened (a
 * device's open may act) and again on what was opened. */
static FILE *open_job_file(const char *path, bool included, struct dbio_err *err)
{
	const char *what = included ? "cannot include" : "cannot open job file";
	struct stat st;
	FILE *fp;
	int fd;

	if (stat(path, &st)) {
		dbio_err_set(err, errno == ENOENT ? DBIO_EINPUT : -errno, "%s: %s: %s", path, what,
			     strerror(errno));
		return NULL;
	}
	if (!readable_kind(st.st_mode, included)) {
		dbio_err_set(err, DBIO_EINPUT, "%s: %s: %s: a job file is a regular file%s", path, what,
			     file_kind(st.st_mode), included ? "" : " or a pipe");
		return NULL;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (included ? O_NONBLOCK : 0))) < 0) {
		dbio_err_set(err, errno == ENOENT ? DBIO_EINPUT : -errno, "%s: %s: %s", path, what,
			     strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !readable_kind(st.st_mode, included)) {
		dbio_err_set(err, DBIO_EINPUT, "%s: %s: %s: a job file is a regular file%s", path, what,
			     file_kind(st.st_mode), included ? "" : " or a pipe");
		close(fd);
		return NULL;
	}
	if (!(fp = fdopen(fd, "r"))) {
		dbio_err_set(err, -errno, "%s: %s: %s", path, what, strerror(errno));
		close(fd);
	}
	return fp;
}

/* The whole file at path, NUL-terminated, into *out (malloc'd). */
static int read_whole(const char *path, bool included, char **out, size_t *outlen, struct dbio_err *err)
{
	FILE *fp = open_job_file(path, included, err);
	char *text = NULL;
	size_t len = 0, cap = 0;
	int rc = 0;

	if (!fp)
		return err->code;
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
	if (rc) {
		free(text);
		return rc;
	}
	text[len] = '\0';
	*out = text;
	*outlen = len;
	return 0;
}

int plan_jobfile_parse(struct jobset *set, const char *path, struct dbio_err *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc = read_whole(path, false, &text, &len, err);

	if (!rc)
		rc = parse_text(set, path, text, len, err);
	free(text);
	return rc;
}

int plan_jobfile_parse_string(struct jobset *set, const char *text, const char *name, struct dbio_err *err)
{
	return parse_text(set, name, text, strlen(text), err);
}
