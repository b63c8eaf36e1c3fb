/*
 * fio's iologs for workload=fileio: read_iolog's replay (version 2 and 3
 * logs) and write_iolog's capture (fio 3.33's version 3); see replay.h.
 *
 * The log is input dbio runs as root on, so it is opened through
 * util/safepath.h (no symlink of another user, a regular file only) and
 * every file it names becomes a name of the job's filename=, checked as a
 * user's filename= is: in directory= (or, for absolute names, in one
 * directory that becomes the job's), no '/', '.' or '..', no device. The
 * files are then dbio's own, made by the layout with O_EXCL and removed
 * at the end, as for filename=.
 */
#include "workload/fileio/replay.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats/usage.h"
#include "util/atomic.h"
#include "util/clock.h"
#include "util/safepath.h"
#include "util/sleep.h"
#include "workload/fileio/fileio_int.h"
#include "workload/fileio/files.h"
#include "workload/fileio/jobsync.h"
#include "workload/fileio/keys.h"
#include "workload/fileio/logs.h"
#include "workload/workload_int.h"

#define LOG_MAX_BYTES (1ull << 30) /* a log larger than this is refused */
#define NAME_MAX_LEN  256	   /* fio reads a name with %256s */
#define CAP_HINT_MAX  (1u << 20)   /* capture records reserved per thread at most */

static const char *const act_names[REPLAY_NACTS] = { "read", "write", "sync", "datasync", "trim",
						     "wait", "add",   "open", "close" };

#define ACCEPTED                                                                                              \
	"expected '[TIME ]FILE add|open|close' or '[TIME ]FILE read|write|trim|sync|datasync OFFSET LENGTH' " \
	"(TIME in microseconds, version 3 only; 'FILE wait MS 0' in version 2)"

bool replay_on(const struct job *job)
{
	const struct fileio_conf *c = fileio_conf(job);

	return c && c->read_iolog[0];
}

void replay_release(struct replay *r)
{
	for (size_t i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	free(r->e);
	memset(r, 0, sizeof(*r));
}

/* A decimal number of the whole token t (len n) into *v; false if not. */
static bool parse_u64(const char *t, size_t n, uint64_t *v)
{
	uint64_t x = 0;

	if (!n || n > 20)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (t[i] < '0' || t[i] > '9' || x > (UINT64_MAX - (uint64_t)(t[i] - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(t[i] - '0');
	}
	*v = x;
	return true;
}

/* The log's file of name, or -1. */
static long name_index(const struct replay *r, const char *name, size_t n)
{
	for (size_t i = 0; i < r->nnames; i++)
		if (strlen(r->names[i]) == n && !memcmp(r->names[i], name, n))
			return (long)i;
	return -1;
}

/* The failure of line ln of job's log: "read_iolog: PATH:LN: what". */
#define BAD(fmt, ...)                                                                                        \
	(r->bad_line = ln,                                                                                   \
	 job_fail(job, "read_iolog", err, "%s:%zu: " fmt, conf->read_iolog, ln, __VA_ARGS__))

static int add_entry(struct replay *r, const struct replay_entry *e)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256;
		struct replay_entry *ne = realloc(r->e, cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		r->e = ne;
		r->cap = cap;
	}
	r->e[r->n++] = *e;
	return 0;
}

static int add_name(struct replay *r, const char *name, size_t n)
{
	char **nn = realloc(r->names, (r->nnames + 1) * sizeof(*nn));

	if (!nn)
		return -ENOMEM;
	r->names = nn;
	if (!(nn[r->nnames] = strndup(name, n)))
		return -ENOMEM;
	r->nnames++;
	return 0;
}

/* The tokens of line into tok/len; their count (at most max + 1). */
static unsigned tokens(const char *line, size_t n, const char **tok, size_t *len, unsigned max)
{
	unsigned k = 0;

	for (size_t i = 0; i < n && k <= max;) {
		while (i < n && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
			i++;
		if (i == n)
			break;
		tok[k] = line + i;
		while (i < n && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
			i++;
		len[k] = (size_t)(line + i - tok[k]);
		k++;
	}
	return k;
}

/* One line (ln, without its newline) of a log of r->version into r. */
static int parse_line(const struct job *job, struct replay *r, bool *open, const char *line, size_t n,
		      size_t ln, struct dbio_err *err)
{
	const struct fileio_conf *conf = fileio_conf(job);
	const char *tok[6];
	size_t len[6];
	const unsigned k = tokens(line, n, tok, len, 5), t = r->version == 3;
	struct replay_entry e = { 0 };
	unsigned act = 0;

	if (k == 0)
		return 0; /* a blank line says nothing */
	if (memchr(line, '\0', n))
		return BAD("%s", "a NUL byte: an iolog is text");
	if (t && !parse_u64(tok[0], len[0], &e.at_us))
		return BAD(
			"'%.*s' is not a timestamp: a version 3 line starts with the microseconds since the start; " ACCEPTED,
			(int)len[0], tok[0]);
	if (k != 2 + t && k != 4 + t)
		return BAD("%u fields: " ACCEPTED, k);
	while (act < REPLAY_NACTS &&
	       !(strlen(act_names[act]) == len[1 + t] && !memcmp(act_names[act], tok[1 + t], len[1 + t])))
		act++;
	if (act == REPLAY_NACTS)
		return BAD("unknown action '%.*s': " ACCEPTED, (int)len[1 + t], tok[1 + t]);
	if ((act >= REPLAY_ADD) != (k == 2 + t))
		return BAD("'%s' takes %s: " ACCEPTED, act_names[act],
			   act >= REPLAY_ADD ? "no offset and length" : "an offset and a length");
	if (act == REPLAY_WAIT && t)
		return BAD("%s", "'wait' is version 2's: a version 3 log times each line by its timestamp");
	if (len[t] > NAME_MAX_LEN)
		return BAD("a file name of %zu bytes: fio reads at most %d", len[t], NAME_MAX_LEN);
	if (k == 4 + t &&
	    (!parse_u64(tok[2 + t], len[2 + t], &e.off) || !parse_u64(tok[3 + t], len[3 + t], &e.len)))
		return BAD("'%.*s %.*s': the offset and length are bytes, decimal", (int)len[2 + t],
			   tok[2 + t], (int)len[3 + t], tok[3 + t]);
	e.act = (uint8_t)act;
	if (act != REPLAY_WAIT && act != REPLAY_SYNC && act != REPLAY_DATASYNC && act < REPLAY_ADD) {
		if (e.len == 0)
			return BAD("a %s of 0 bytes", act_names[act]);
		if (act != REPLAY_TRIM && e.len > (1ull << 30))
			return BAD("a %s of %llu bytes: dbio's largest block is 1 GiB", act_names[act],
				   (unsigned long long)e.len);
		if (e.len > UINT32_MAX)
			return BAD("a %s of %llu bytes: fio's length is 32 bits", act_names[act],
				   (unsigned long long)e.len);
		e.off /= conf->replay_scale;
		if (conf->replay_align)
			e.off &= ~(conf->replay_align - 1);
		if (e.off > UINT64_MAX - e.len)
			return BAD("offset %llu and length %llu run past 2^64", (unsigned long long)e.off,
				   (unsigned long long)e.len);
		/* the files reach the log's furthest byte, rounded up to the
		 * block (at most 1 GiB): said here, with its line */
		if (e.off + e.len > OPT_MAX - (1ull << 30))
			return BAD(
				"a %s of %llu bytes at %llu: past byte %llu, the end of dbio's largest file (2^63 - 1 GiB)",
				act_names[act], (unsigned long long)e.len, (unsigned long long)e.off,
				(unsigned long long)(OPT_MAX - (1ull << 30)));
	}
	/* the action skipped (fio's replay_skip), the wait not kept */
	if ((act <= REPLAY_TRIM && (conf->replay_skip_ops & (1u << act))) ||
	    (act == REPLAY_WAIT && conf->replay_no_stall))
		return 0;

	const char *name = conf->replay_redirect[0] ? conf->replay_redirect : tok[t];
	const size_t nlen = conf->replay_redirect[0] ? strlen(conf->replay_redirect) : len[t];
	long f = name_index(r, name, nlen);

	if (act == REPLAY_ADD) {
		if (f >= 0 && !conf->replay_redirect[0])
			return BAD("'%.*s' is added twice", (int)nlen, name);
		if (f >= 0)
			return 0; /* fio ignores a re-add onto the redirected file */
		if (r->nnames >= 4096)
			return BAD("file 4097 ('%.*s'): dbio replays logs of at most 4096 files", (int)nlen,
				   name);
		if (add_name(r, name, nlen))
			return job_fail(job, "read_iolog", err, "%s: out of memory", conf->read_iolog);
		f = (long)r->nnames - 1;
		open[f] = false;
	} else if (f < 0) {
		return BAD("'%.*s' was not added: an 'add' line names a file before any other line does",
			   (int)len[t], tok[t]);
	} else if (conf->replay_redirect[0]) {
		/* one file under every name: its opens and closes are not
		 * followed (dbio keeps it open; fio ignores a re-open) */
	} else if (act == REPLAY_OPEN) {
		if (open[f])
			return BAD("'%.*s' is opened twice without a close", (int)len[t], tok[t]);
		open[f] = true;
	} else if (!open[f] && act != REPLAY_WAIT) {
		return BAD("'%.*s' is not open: an 'open' line comes before its %s", (int)len[t], tok[t],
			   act_names[act]);
	} else if (act == REPLAY_CLOSE) {
		open[f] = false;
	}
	e.file = (uint32_t)f;
	r->counts[act]++;
	if (act == REPLAY_READ || act == REPLAY_WRITE) {
		if (e.len > r->max_len)
			r->max_len = e.len;
		if (e.off + e.len > r->max_end)
			r->max_end = e.off + e.len;
	}
	if (fileio_files(job)->layout.direct && act <= REPLAY_TRIM && ((e.off | e.len) % 512))
		return BAD("a %s of %llu bytes at %llu: direct=1 needs multiples of 512", act_names[act],
			   (unsigned long long)e.len, (unsigned long long)e.off);
	if (add_entry(r, &e))
		return job_fail(job, "read_iolog", err, "%s: out of memory", conf->read_iolog);
	return 0;
}

/* The log's bytes, read through a safe open: a regular file of at most
 * LOG_MAX_BYTES; *buf owned by the caller. */
static int read_log(const struct job *job, char **buf, size_t *len, struct dbio_err *err)
{
	const char *path = fileio_conf(job)->read_iolog;
	struct safepath sp;
	struct stat st;
	ssize_t got;
	int rc = safepath_resolve("key 'read_iolog':", path, &sp, err), fd = -1;

	*buf = NULL;
	if (rc == DBIO_EUNSAFE)
		goto out;
	if (rc || sp.fd < 0) {
		rc = job_fail(job, "read_iolog", err, "%s: cannot open: %s", path,
			      strerror(rc ? -rc : ENOENT));
		goto out;
	}
	if (!S_ISREG(sp.st.st_mode)) {
		rc = job_fail(
			job, "read_iolog", err,
			"%s: not a regular file: dbio replays an iolog file (fio's '-' for stdin, a socket or a device are refused)",
			path);
		goto out;
	}
	if ((fd = safepath_reopen(&sp, O_RDONLY | O_CLOEXEC)) < 0 || fstat(fd, &st)) {
		rc = job_fail(job, "read_iolog", err, "%s: cannot open: %s", path,
			      strerror(fd < 0 ? -fd : errno));
		goto out;
	}
	if ((uint64_t)st.st_size > LOG_MAX_BYTES) {
		rc = job_fail(job, "read_iolog", err, "%s: %llu bytes: dbio replays logs of at most 1 GiB",
			      path, (unsigned long long)st.st_size);
		goto out;
	}
	if (!(*buf = malloc((size_t)st.st_size + 1))) {
		rc = job_fail(job, "read_iolog", err, "%s: out of memory", path);
		goto out;
	}
	*len = 0;
	while (*len < (size_t)st.st_size && (got = read(fd, *buf + *len, (size_t)st.st_size - *len)) > 0)
		*len += (size_t)got;
	(*buf)[*len] = '\0';
out:
	if (fd >= 0)
		close(fd);
	safepath_release(&sp);
	return rc;
}

/* Whether line (n bytes) is fio's header "fio version N iolog" of any
 * N of up to 3 digits: the only first line of a refused log shown. */
static bool other_version(const char *line, size_t n)
{
	static const char pre[] = "fio version ", post[] = " iolog";
	const size_t np = sizeof(pre) - 1, nq = sizeof(post) - 1;
	size_t d = 0;

	if (n < np + nq + 1 || n > np + nq + 3 || memcmp(line, pre, np) || memcmp(line + n - nq, post, nq))
		return false;
	for (d = np; d < n - nq; d++)
		if (line[d] < '0' || line[d] > '9')
			return false;
	return true;
}

int replay_load(const struct job *job, struct replay *r, struct dbio_err *err)
{
	const struct fileio_conf *conf = fileio_conf(job);
	static const char v2[] = "fio version 2 iolog", v3[] = "fio version 3 iolog";
	bool open[4096];
	char *buf;
	size_t len = 0, ln = 1;
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = read_log(job, &buf, &len, err)))
		return rc;
	char *p = buf, *end = buf + len, *nl = memchr(p, '\n', len);
	size_t first = nl ? (size_t)(nl - p) : len;

	if (first && p[first - 1] == '\r')
		first--;
	if (first == sizeof(v2) - 1 && !memcmp(p, v2, first))
		r->version = 2;
	else if (first == sizeof(v3) - 1 && !memcmp(p, v3, first))
		r->version = 3;
	else {
		/* a file that is not an iolog may be anyone's (/etc/shadow):
		 * none of it is shown, only fio's header of another version */
		ln = 1;
		if (other_version(p, first))
			rc = BAD(
				"the first line is '%.*s': expected '%s' or '%s' (fio's iolog version 1 and blktrace's traces are not replayed)",
				(int)first, p, v2, v3);
		else
			rc = BAD(
				"not an fio iolog (its content is not shown): the first line must be '%s' or '%s'",
				v2, v3);
		goto out;
	}
	for (p = nl ? nl + 1 : end; !rc && p < end; p = nl ? nl + 1 : end) {
		size_t n;

		ln++;
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (n >= 4096) {
			rc = BAD("a line of %zu bytes: fio reads lines of at most 4095", n);
			break;
		}
		rc = parse_line(job, r, open, p, n, ln, err);
	}
	if (!rc && !r->counts[REPLAY_READ] && !r->counts[REPLAY_WRITE] && !r->counts[REPLAY_TRIM] &&
	    !r->counts[REPLAY_SYNC] && !r->counts[REPLAY_DATASYNC])
		rc = job_fail(job, "read_iolog", err,
			      "%s: no read, write, trim or sync to replay (after replay_skip)",
			      conf->read_iolog);
out:
	free(buf);
	return rc;
}

/* replay_skip: a comma list of read, write, sync, trim. */
static int parse_skip(struct job *job, struct dbio_err *err)
{
	struct fileio_conf *conf = fileio_conf(job);
	const char *p = conf->replay_skip;

	conf->replay_skip_ops = 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		unsigned a = 0;

		while (a <= REPLAY_TRIM && !(strlen(act_names[a]) == n && !strncmp(act_names[a], p, n)))
			a++;
		if (a > REPLAY_TRIM || a == REPLAY_DATASYNC)
			return job_fail(job, "replay_skip", err,
					"'%.*s' in '%s': expected a comma list of read, write, sync, trim",
					(int)n, p, conf->replay_skip);
		conf->replay_skip_ops |= 1u << a;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* The log's names as filename=: absolute names split into one directory
 * and their names, as filename=/dir/name is; relative ones are names in
 * directory=. The checks of filename= then run on them. */
static int names_to_filename(struct job *job, const struct replay *r, struct dbio_err *err)
{
	struct files_layout *lay = &fileio_files(job)->layout;
	char dir[sizeof(job->directory)] = "";
	size_t at = 0;
	const char *key = fileio_conf(job)->replay_redirect[0] ? "replay_redirect" : "read_iolog";

	for (size_t i = 0; i < r->nnames; i++) {
		const char *name = r->names[i], *slash = strrchr(name, '/'), *base = name;

		if (strchr(name, ':'))
			return job_fail(job, key, err,
					"%s: file '%s': a name with ':' cannot be one of filename='s names",
					fileio_conf(job)->read_iolog, name);
		if (slash) {
			const size_t dl = slash == name ? 1 : (size_t)(slash - name);

			if (job_is_set(job, "directory") &&
			    (strlen(job->directory) != dl || strncmp(job->directory, name, dl)))
				return job_fail(
					job, key, err,
					"%s: file '%s' is not in directory=%s: a replayed file is a name in directory=, or a path in one directory without directory=, as filename= is",
					fileio_conf(job)->read_iolog, name, job->directory);
			if (strstr(name, "/../") || strstr(name, "/./") || !strncmp(name, "../", 3))
				return job_fail(
					job, key, err,
					"%s: file '%s': '.' or '..' in its path; a replayed file is named by its own directory",
					fileio_conf(job)->read_iolog, name);
			if (!strncmp(name, "/dev/", 5) || dl >= sizeof(dir))
				return job_fail(
					job, key, err,
					"%s: file '%s' is a device: dbio replays onto files it creates; give replay_redirect=NAME (a file in directory=)",
					fileio_conf(job)->read_iolog, name);
			if (dir[0] && (strlen(dir) != dl || strncmp(dir, name, dl)))
				return job_fail(
					job, key, err,
					"%s: file '%s' is not in %s, as the log's first file: dbio replays a log's files in one directory (give replay_redirect= for one file)",
					fileio_conf(job)->read_iolog, name, dir);
			snprintf(dir, sizeof(dir), "%.*s", (int)dl, name);
			base = slash + 1;
		}
		if (!base[0] || !strcmp(base, ".") || !strcmp(base, ".."))
			return job_fail(
				job, key, err,
				"%s: file '%s': not a file's name; a replayed file is a name in directory= or an absolute path in one directory, as filename= is",
				fileio_conf(job)->read_iolog, name);
		if (at + strlen(base) + 2 > sizeof(lay->filename))
			return job_fail(
				job, key, err,
				"%s: the names of its %zu files, joined by ':', take more than the %zu bytes of filename='s list (at file '%s'): dbio replays logs whose names fit; give shorter names",
				fileio_conf(job)->read_iolog, r->nnames, sizeof(lay->filename) - 1, base);
		at += (size_t)snprintf(lay->filename + at, sizeof(lay->filename) - at, "%s%s", i ? ":" : "",
				       base);
	}
	if (dir[0])
		snprintf(job->directory, sizeof(job->directory), "%s", dir);
	return 0;
}

/* Keys whose I/O a replay does not make: the log says what and when. */
static int refuse_with_replay(struct job *job, struct dbio_err *err)
{
	static const char *const keys[] = { "time_based", "ramp_time", "loops",	      "io_size",
					    "number_ios", "verify",    "rate",	      "rate_iops",
					    "thinktime",  "bsrange",   "bssplit",     "fsync",
					    "fdatasync",  "end_fsync", "share_files", "random_distribution" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (job_is_set(job, keys[i]))
			return job_fail(
				job, keys[i], err,
				"does not apply with read_iolog=: the log says which I/O is done, where and when; drop the key");
	return 0;
}

/* The replay keys given without read_iolog do nothing: refused. */
static int refuse_without_replay(struct job *job, struct dbio_err *err)
{
	static const char *const keys[] = { "read_iolog_chunked", "replay_no_stall", "replay_time_scale",
					    "replay_redirect",	  "replay_align",    "replay_scale",
					    "replay_skip" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (job_is_set(job, keys[i]))
			return job_fail(job, keys[i], err, "applies to a replay only: give read_iolog=FILE");
	return 0;
}

/* write_iolog= onto the file read_iolog= replays would overwrite it:
 * the same file after resolving (stat follows symlinks, a hard link is
 * the same inode) is refused. A write_iolog not there yet cannot be it. */
static int same_log(struct job *job, struct dbio_err *err)
{
	const struct fileio_conf *conf = fileio_conf(job);
	struct stat r, w;

	if (!conf->write_iolog[0] || stat(conf->read_iolog, &r) || stat(conf->write_iolog, &w) ||
	    r.st_dev != w.st_dev || r.st_ino != w.st_ino)
		return 0;
	return job_fail(
		job, "write_iolog", err,
		"%s is the file read_iolog=%s replays: it would be overwritten; give write_iolog= another path",
		conf->write_iolog, conf->read_iolog);
}

int replay_validate(struct job *job, struct dbio_err *err)
{
	struct fileio_conf *conf = fileio_conf(job);
	struct files_layout *lay = &fileio_files(job)->layout;
	struct replay r = { 0 };
	int rc;

	/* oltp borrows fileio's keys and runs its checks: its transactions
	 * make their own I/O */
	if (job->wl != &workload_fileio && (conf->read_iolog[0] || conf->write_iolog[0]))
		return job_fail(job, conf->read_iolog[0] ? "read_iolog" : "write_iolog", err,
				"not for workload=%s: only workload=fileio replays or writes fio's iologs",
				job->wl->name);
	if ((rc = replay_capture_validate(job, err)))
		return rc;
	if (!conf->read_iolog[0])
		return refuse_without_replay(job, err);
	if (!strcmp(conf->read_iolog, "-"))
		return job_fail(
			job, "read_iolog", err,
			"'-' is fio's stdin, which dbio does not replay: give the log's file (./- for a file of that name)");
	if ((rc = same_log(job, err)))
		return rc;
	if (strchr(conf->read_iolog, ':'))
		return job_fail(
			job, "read_iolog", err,
			"'%s': fio's list of logs, one per clone, is not replayed: give one log (every clone replays it)",
			conf->read_iolog);
	if (conf->replay_align & (conf->replay_align - 1))
		return job_fail(job, "replay_align", err, "%llu is not a power of 2",
				(unsigned long long)conf->replay_align);
	if ((rc = refuse_with_replay(job, err)) || (rc = parse_skip(job, err)) ||
	    (rc = replay_load(job, &r, err)))
		goto out;
	const bool reads = r.counts[REPLAY_READ], writes = r.counts[REPLAY_WRITE],
		   trims = r.counts[REPLAY_TRIM];

	if (reads && trims) {
		rc = job_fail(
			job, "read_iolog", err,
			"%s: it reads and trims: dbio's job does one or the other; give replay_skip=trim or replay_skip=read",
			conf->read_iolog);
		goto out;
	}
	lay->rw = trims	  ? (writes ? RW_TRIMWRITE : RW_TRIM)
		  : reads ? (writes ? RW_READWRITE : RW_READ)
			  : RW_WRITE;
	lay->nrfiles = r.nnames;
	if (!(job->eng->caps & ENGINE_CAP_DISKLESS) && (rc = names_to_filename(job, &r, err)))
		goto out;
	if (job->eng->caps & ENGINE_CAP_DISKLESS)
		lay->filename[0] = '\0'; /* nothing is opened: the names are the log's own */
	/* the buffers hold its largest I/O; the files reach its furthest */
	lay->bs = r.max_len ? (r.max_len + 511) / 512 * 512 : 4096;
	fileio_files(job)->where.bs_write = fileio_files(job)->where.bs_trim = lay->bs;
	lay->filesize = r.max_end > lay->bs ? (r.max_end + lay->bs - 1) / lay->bs * lay->bs : lay->bs;
	lay->size = lay->filesize * lay->nrfiles;
out:
	replay_release(&r);
	return rc;
}

/* -- the replay: each thread issues the log in order -- */

int replay_prepare(struct worker *w)
{
	struct fileio_state *st = w->priv;
	const struct fileio_conf *conf = fileio_conf(w->job);
	int rc;

	if ((rc = replay_capture_prepare(w)))
		return rc;
	if (!conf->read_iolog[0])
		return 0;
	if (!(st->replay = calloc(1, sizeof(*st->replay))))
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory for read_iolog", w->index);
	if ((rc = replay_load(w->job, st->replay, &w->err)))
		return rc;
	/* the log changed since it was checked: its files are not the job's */
	if (st->replay->nnames != w->nfiles)
		return dbio_err_set(
			&w->err, DBIO_EINPUT,
			"%s: names %zu files now, %zu when the job was checked: changed while dbio ran?",
			conf->read_iolog, st->replay->nnames, w->nfiles);
	/* the progress line's total: what the log issues (replay_run counts
	 * each into progress_ops) */
	w->ops_total = 0;
	for (unsigned a = REPLAY_READ; a <= REPLAY_TRIM; a++)
		w->ops_total += st->replay->counts[a];
	return 0;
}

void replay_teardown(struct worker *w)
{
	struct fileio_state *st = w->priv;

	if (!st)
		return;
	if (st->replay) {
		replay_release(st->replay);
		free(st->replay);
		st->replay = NULL;
	}
	replay_capture_free(st->cap);
	st->cap = NULL;
}

/* One read, write or trim: through the engine (a queued one at depth 1),
 * then counted and logged. 0 or -errno. */
static int replay_io(struct worker *w, struct io_req *req, uint64_t *now)
{
	struct fileio_state *st = w->priv;
	const uint64_t t0 = *now;
	int rc;

	if (req->op == OP_WRITE && st->content.per_write)
		content_write(&st->content, req->buf, req->len, req->off);
	if (w->eng.ops->caps & ENGINE_CAP_QUEUE) {
		int n;

		if ((rc = w->eng.ops->queue(&w->eng, req)))
			return rc;
		if ((n = w->eng.ops->submit(&w->eng)) < 0)
			return n;
		if ((n = w->eng.ops->reap(&w->eng, st->done, 1, 1)) < 0)
			return n;
		if (n == 1 && st->done[0]->rc)
			return st->done[0]->rc;
	} else if ((rc = w->eng.ops->io(&w->eng, req))) {
		return rc;
	}
	const uint64_t t = clock_now_ns();

	op_stats_add(&w->stats[req->op], req->len, t - t0);
	if (series_on(&w->series))
		series_add(&w->series, req->op, req->len, t - t0, t);
	worker_live_add(w, req->op, req->len, t - t0);
	if (w->tio)
		target_add(w, req->file, req->op, req->len, t);
	if (w->iolog)
		logs_io(w->iolog, req, t - t0, 0, t);
	if (st->cap)
		replay_capture(st->cap, req, t0);
	*now = t;
	return 0;
}

/* Wait until the time of entry e (version 3's timestamps, version 2's
 * waits), scaled; false when the thread is stopped meanwhile or the
 * time is past deadline. */
static bool replay_wait(struct worker *w, const struct replay *r, const struct replay_entry *e, uint64_t t0,
			uint64_t deadline, uint64_t *now)
{
	const struct fileio_conf *conf = fileio_conf(w->job);
	uint64_t at;

	if (conf->replay_no_stall)
		return true;
	if (e->act == REPLAY_WAIT)
		at = t0 + e->off * 1000000ull; /* fio: milliseconds since its start */
	else if (r->version == 3)
		at = t0 + (e->at_us - r->e[0].at_us) * 1000ull * 100 / conf->replay_time_scale;
	else
		return true;
	if (at <= *now)
		return true;
	/* runtime= ends the replay at its time, as fio's */
	const bool in_time = sleep_until_ns(at < deadline ? at : deadline, w->stop, w->job_stop);

	*now = clock_now_ns();
	return in_time && at < deadline;
}

int replay_run(struct worker *w)
{
	const struct job *job = w->job;
	struct fileio_state *st = w->priv;
	const struct replay *r = st->replay;
	uint64_t now = clock_now_ns();
	const uint64_t t0 = now, deadline = job->runtime_ns ? now + job->runtime_ns : UINT64_MAX;
	struct io_req req = { .buf = st->bufs[0], .prio = fileio_files(job)->logs.cmdprio_default };
	struct usage u0 = { 0 }, u1;
	uint64_t done = 0;
	int rc = 0;

	w->start_ns = now;
	usage_thread(&u0);
	series_start(&w->series, w->series.interval_ns ? w->origin_ns : now);
	for (size_t i = 0; i < r->n && !rc; i++) {
		const struct replay_entry *e = &r->e[i];

		if (workload_stopped(w) || now >= deadline || !replay_wait(w, r, e, t0, deadline, &now))
			break;
		if (e->act >= REPLAY_WAIT)
			continue; /* every file stays open from prepare to the end */
		req.file = e->file;
		req.fd = w->files[e->file].fd;
		req.off = e->off;
		req.len = e->len;
		req.slot = 0;
		if (e->act == REPLAY_SYNC || e->act == REPLAY_DATASYNC) {
			const uint64_t s0 = now;

			req.op = e->act == REPLAY_SYNC ? OP_FSYNC : OP_FDATASYNC;
			if (!(rc = fileio_timed_sync(w, e->file, req.op, true, &now)) && st->cap)
				replay_capture(st->cap, &req, s0);
		} else {
			req.op = e->act == REPLAY_READ	  ? OP_READ
				 : e->act == REPLAY_WRITE ? OP_WRITE
							  : OP_TRIM;
			if (w->eng.ops->caps & ENGINE_CAP_QUEUE)
				req.buf = st->bufs[0];
			rc = replay_io(w, &req, &now);
		}
		if (!rc)
			atomic_store_explicit(&w->progress_ops, ++done, memory_order_relaxed);
	}
	if (rc) {
		atomic_store(w->job_stop, 1);
		dbio_err_set(&w->err, rc, "%s: %s of %llu bytes at offset %llu (read_iolog %s): %s",
			     w->files[req.file].path, op_type_name(req.op), (unsigned long long)req.len,
			     (unsigned long long)req.off, fileio_conf(job)->read_iolog, strerror(-rc));
	}
	if (series_on(&w->series))
		series_finish(&w->series, now);
	w->end_ns = now;
	usage_thread(&u1);
	w->usage = usage_sub(&u1, &u0);
	return w->err.code;
}
