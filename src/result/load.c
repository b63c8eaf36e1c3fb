/*
 * Reading result files back (see result.h): the views' lean loader and the
 * whole-tree loader of sweep --resume, and the histograms they hold.
 *
 * jansson spends 60 to 200 bytes on every JSON value it holds, so a whole
 * result costs 3 to 4 times its indented file, 12 times the same text
 * without indentation. Latency-histogram buckets, [index, count] pairs,
 * are most of the values of a file-I/O job; a view never reads one but
 * through result_hist_load, so the lean loader keeps each op's buckets as
 * one string of varints instead ("buckets_packed", 2 to 6 bytes a
 * bucket). To never hold the whole tree at once, it reads the file as a
 * stream, cuts the elements of the top-level "jobs" array out of the text
 * (leaving out the whitespace between tokens, most of an indented file),
 * and parses, packs and keeps one job at a time; the rest of the object is
 * parsed last. jansson parses every byte: the cutting only follows strings
 * and brackets, and a file it does not understand (a "jobs" key written
 * with an escape, say) is parsed whole. tests/fuzz/fuzz_result.c checks
 * that it accepts what jansson accepts and gives the same tree.
 */
#include "result/result.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"

#define PACKED_KEY "buckets_packed"

/* ---- histograms ---- */

static size_t varint_put(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

/* The next varint of p[*at..len) into *v; false when it runs past the end
 * or over 64 bits. */
static bool varint_get(const unsigned char *p, size_t len, size_t *at, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned shift = 0; *at < len && shift < 64; shift += 7) {
		unsigned char b = p[(*at)++];

		if (shift == 63 && b > 1)
			return false;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return true;
		}
	}
	return false;
}

/* Replace hj's "buckets" array by its packed string: index and count of
 * each pair as varints, in the file's order. A bucket list this loader
 * does not know (not pairs of whole numbers in range) stays as it is,
 * for result_check to refuse (a negative or absurd count) or
 * result_hist_load (any other), as it always has. */
static void hist_pack(json_t *hj)
{
	const json_t *buckets = json_object_get(hj, "buckets");
	size_t n = json_array_size(buckets), i, len = 0;
	unsigned char *p;
	const json_t *b;

	if (!json_is_array(buckets) || !(p = malloc(n * 12 + 1)))
		return;
	json_array_foreach (buckets, i, b) {
		const json_t *idx = json_array_get(b, 0), *count = json_array_get(b, 1);

		if (json_array_size(b) != 2 || !json_is_integer(idx) || !json_is_integer(count) ||
		    json_integer_value(idx) < 0 || json_integer_value(idx) >= HIST_NBUCKETS ||
		    json_integer_value(count) < 0 || json_integer_value(count) > 1000000000000000000LL) {
			free(p);
			return;
		}
		len += varint_put(p + len, (uint64_t)json_integer_value(idx));
		len += varint_put(p + len, (uint64_t)json_integer_value(count));
	}
	if (!json_object_set_new(hj, PACKED_KEY, json_stringn_nocheck((const char *)p, len)))
		json_object_del(hj, "buckets");
	free(p);
}

/* Pack every "lat_hist" under v (a job: its runs' and summary's ops). */
static void hists_pack(json_t *v)
{
	const char *key;
	json_t *e;
	size_t i;

	if (json_is_object(v)) {
		json_object_foreach (v, key, e) {
			if (!strcmp(key, "lat_hist") && json_is_object(e))
				hist_pack(e);
			else if (json_is_object(e) || json_is_array(e))
				hists_pack(e);
		}
	} else if (json_is_array(v)) {
		json_array_foreach (v, i, e)
			if (json_is_object(e) || json_is_array(e))
				hists_pack(e);
	}
}

static int bucket_add(struct hist *h, json_int_t idx, json_int_t count)
{
	if (idx < 0 || idx >= HIST_NBUCKETS || count < 0)
		return DBIO_EFORMAT;
	h->buckets[idx] += (uint64_t)count;
	h->count += (uint64_t)count;
	return 0;
}

static int hist_unpack(const json_t *packed, struct hist *h)
{
	const unsigned char *p = (const unsigned char *)json_string_value(packed);
	size_t len = json_string_length(packed), at = 0;
	uint64_t idx, count;

	while (at < len) {
		if (!varint_get(p, len, &at, &idx) || !varint_get(p, len, &at, &count) ||
		    idx >= HIST_NBUCKETS || count > INT64_MAX)
			return DBIO_EFORMAT;
		bucket_add(h, (json_int_t)idx, (json_int_t)count);
	}
	return 0;
}

int result_hist_load(const json_t *op, struct hist *h)
{
	const json_t *hj = json_object_get(op, "lat_hist");
	const json_t *lat = json_object_get(op, "lat_ns");
	const json_t *buckets = json_object_get(hj, "buckets");
	const json_t *packed = json_object_get(hj, PACKED_KEY);
	size_t i;
	json_t *b;

	hist_init(h);
	if ((!json_is_array(buckets) && !json_is_string(packed)) ||
	    json_integer_value(json_object_get(hj, "sub_bucket_bits")) != HIST_SUB_BITS)
		return DBIO_EFORMAT;
	if (json_is_string(packed) && hist_unpack(packed, h))
		return DBIO_EFORMAT;
	json_array_foreach (buckets, i, b)
		if (bucket_add(h, json_integer_value(json_array_get(b, 0)),
			       json_integer_value(json_array_get(b, 1))))
			return DBIO_EFORMAT;
	if (h->count) {
		double mean = json_real_value(json_object_get(lat, "mean"));
		double sd = json_real_value(json_object_get(lat, "stddev"));

		h->min = (uint64_t)json_integer_value(json_object_get(lat, "min"));
		h->max = (uint64_t)json_integer_value(json_object_get(lat, "max"));
		h->sum = (uint64_t)(mean * (double)h->count + 0.5);
		hist_set_moments(h, mean, sd);
	}
	return 0;
}

/* ---- cutting the jobs out of the text ---- */

struct text {
	char *p;
	size_t len, cap;
};

/* Room for n more bytes in t. */
static bool text_reserve(struct text *t, size_t n)
{
	if (t->cap - t->len < n) {
		size_t cap = t->cap ? t->cap : 4096;
		char *q;

		while (cap - t->len < n)
			cap *= 2;
		if (!(q = realloc(t->p, cap)))
			return false;
		t->p = q;
		t->cap = cap;
	}
	return true;
}

static bool text_put(struct text *t, char c)
{
	if (t->len == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 4096;
		char *p = realloc(t->p, cap);

		if (!p)
			return false;
		t->p = p;
		t->cap = cap;
	}
	t->p[t->len++] = c;
	return true;
}

/* What may come next in the jobs array, between jobs. */
enum cut_expect {
	EXPECT_FIRST, /* after '[': a job or ']' */
	EXPECT_COMMA, /* after a job: ',' or ']' */
	EXPECT_JOB,   /* after ',': a job */
};

enum cut_mode {
	CUT_OUTER,   /* in the top-level value, outside the jobs array */
	CUT_BETWEEN, /* in the jobs array, between two jobs */
	CUT_JOB,     /* in one job's text */
};

struct cut {
	const char *name;
	struct text outer, job;
	json_t *jobs; /* the jobs parsed so far; NULL until the array is found */
	enum cut_mode mode;
	enum cut_expect expect;
	int depth; /* brackets open, the top-level value's own counted */
	bool in_string, escape;
	char top;		 /* the top-level value's first bracket */
	unsigned line, job_line; /* the line being read; the current job's first */
	char word[5];		 /* the last string closed at depth 1, if short */
	size_t word_len;
	bool word_long, key_is_jobs, value_is_jobs;
	bool job_scalar;	       /* the current job is not an object or array */
	unsigned jobs_line;	       /* the line where the jobs array began */
	size_t jobs_end;	       /* the outer text's length after the jobs array */
	size_t *nl_at, nl_len, nl_cap; /* where in the job's text each line began */
	bool gap;		       /* whitespace was left out after prev, the job's last byte */
	char prev;
	unsigned jobs_lines; /* the lines of the file the array took */
};

/* Parse the job text gathered, pack its histograms and keep it. */
static int cut_job_done(struct cut *c, struct dbio_err *err)
{
	json_error_t jerr;
	json_t *job = json_loadb(c->job.p, c->job.len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
	unsigned line = c->job_line;

	if (!job) {
		/* The file's line: the job's first, and one more for every
		 * line that began before the byte jansson stopped at (all
		 * of them when it stopped at the end of the file). */
		for (size_t k = 0; k < c->nl_len; k++)
			if (c->nl_at[k] < (size_t)jerr.position || (size_t)jerr.position >= c->job.len)
				line++;
		return dbio_err_set(err, DBIO_EINPUT, "%s: not JSON: %s (line %u)", c->name, jerr.text, line);
	}
	c->job.len = 0;
	c->nl_len = 0;
	c->mode = CUT_BETWEEN;
	hists_pack(job);
	if (json_array_append_new(c->jobs, job))
		return dbio_err_set(err, -ENOMEM, "%s: cannot read: out of memory", c->name);
	return 0;
}

/* Follow strings and brackets; true when ch closed a string or bracket.
 * A string closed at depth 1 of the outer text sets key_is_jobs when it
 * is "jobs" spelled plainly (one with an escape is left to jansson). */
static bool cut_track(struct cut *c, char ch)
{
	if (c->in_string) {
		bool key_level = c->depth == 1 && c->mode == CUT_OUTER;

		if (c->escape || ch == '\\') {
			c->escape = !c->escape;
			c->word_long = true;
		} else if (ch == '"') {
			c->in_string = false;
			if (key_level)
				c->key_is_jobs =
					!c->word_long && c->word_len == 4 && !memcmp(c->word, "jobs", 4);
			return true;
		} else if (key_level) {
			if (c->word_len < 4)
				c->word[c->word_len++] = ch;
			else
				c->word_long = true;
		}
		return false;
	}
	switch (ch) {
	case '"':
		c->in_string = true;
		c->word_len = 0;
		c->word_long = false;
		return false;
	case '{':
	case '[':
		if (!c->depth && !c->top)
			c->top = ch;
		c->depth++;
		return false;
	case '}':
	case ']':
		c->depth--;
		return true;
	default:
		return false;
	}
}

/* One byte of the top-level value outside the jobs array. */
static void cut_outer(struct cut *c, char ch)
{
	bool at_key_level = c->depth == 1 && c->top == '{' && !c->in_string;

	if (at_key_level && ch == '[' && c->value_is_jobs && !c->jobs) {
		c->jobs = json_array();
		c->mode = CUT_BETWEEN;
		c->jobs_line = c->line;
	}
	if (at_key_level && ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') {
		c->value_is_jobs = ch == ':' && c->key_is_jobs;
		if (ch != '"')
			c->key_is_jobs = false;
	}
	cut_track(c, ch);
}

/* One byte of the jobs array: between jobs or in one. 0, or an error
 * when a job is not JSON. */
static int cut_jobs(struct cut *c, char ch, struct dbio_err *err)
{
	if (c->mode == CUT_BETWEEN) {
		if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n')
			return 0;
		/* One comma between two jobs, none before the first or
		 * after the last, as jansson would have it. */
		if (ch == ','	? c->expect != EXPECT_COMMA
		    : ch == ']' ? c->expect == EXPECT_JOB
				: c->expect == EXPECT_COMMA)
			return dbio_err_set(
				err, DBIO_EINPUT, "%s: not JSON: %s near '%c' in the jobs array (line %u)",
				c->name, c->expect == EXPECT_COMMA ? "',' or ']' expected" : "a job expected",
				ch, c->line);
		if (ch == ',') {
			c->expect = EXPECT_JOB;
			return 0;
		}
		if (ch == ']') {
			cut_track(c, ch);
			c->mode = CUT_OUTER;
			c->value_is_jobs = false;
			c->jobs_lines = c->line - c->jobs_line;
			c->jobs_end = c->outer.len + 1;
			return text_put(&c->outer, ch)
				       ? 0
				       : dbio_err_set(err, -ENOMEM, "%s: cannot read: out of memory",
						      c->name);
		}
		c->mode = CUT_JOB;
		c->expect = EXPECT_COMMA;
		c->job_line = c->line;
		c->job_scalar = ch != '{' && ch != '[';
		c->prev = ch;
		c->gap = false;
	}
	if (c->job_scalar && !c->in_string &&
	    (ch == ',' || ch == ']' || ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n')) {
		int rc = cut_job_done(c, err);

		return rc ? rc : cut_jobs(c, ch, err);
	}
	if (!text_put(&c->job, ch))
		return dbio_err_set(err, -ENOMEM, "%s: cannot read: out of memory", c->name);
	if (cut_track(c, ch) && c->depth == 2 && !c->job_scalar)
		return cut_job_done(c, err);
	return 0;
}

/* A byte of a JSON word: a number, true, false or null. */
static bool word_char(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       ch == '.' || ch == '+' || ch == '-';
}

/* Note that the file's next line starts at byte at of the job's text. */
static bool cut_newline(struct cut *c, size_t at)
{
	if (c->nl_len == c->nl_cap) {
		size_t cap = c->nl_cap ? c->nl_cap * 2 : 1024;
		size_t *p = realloc(c->nl_at, cap * sizeof(*p));

		if (!p)
			return false;
		c->nl_at = p;
		c->nl_cap = cap;
	}
	c->nl_at[c->nl_len++] = at;
	c->line++;
	return true;
}

/* The bytes buf[i..n) (buf[n] is 0) of a job that is an object or an array, up to its
 * end: the loop that sees nearly every byte of a big result. It follows
 * strings and brackets and leaves out the whitespace between tokens (most
 * of an indented file, which jansson would otherwise read byte by byte),
 * noting where each line began for the error's line number. Its state is
 * in locals: a store through a char pointer may alias any field of c.
 * The index after the last byte taken, or SIZE_MAX when out of memory;
 * *ended when the job's last bracket was taken. */
static size_t cut_job_span(struct cut *c, const char *buf, size_t i, size_t n, bool *ended)
{
	bool in_string = c->in_string, escape = c->escape, gap = c->gap, done = false;
	int depth = c->depth;
	char prev = c->prev, *out, *dst;

	if (!text_reserve(&c->job, n - i + 1))
		return SIZE_MAX;
	out = c->job.p;
	dst = out + c->job.len;
	for (; i < n && !done; i++) {
		char ch = buf[i];

		if (ch == '\n' && !cut_newline(c, (size_t)(dst - out)))
			return SIZE_MAX;
		if (!in_string && (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n')) {
			i += strspn(buf + i + 1, " "); /* an indent, at once */
			gap = true;
			continue;
		}
		/* Whitespace between two parts of one word ("tr ue", "1 2")
		 * stays, for jansson to refuse as it would the file. */
		if (gap && word_char(prev) && word_char(ch))
			*dst++ = ' ';
		gap = false;
		if (in_string) {
			if (escape)
				escape = false;
			else if (ch == '\\')
				escape = true;
			else if (ch == '"')
				in_string = false;
		} else if (ch == '"') {
			in_string = true;
		} else if (ch == '{' || ch == '[') {
			depth++;
		} else if (ch == '}' || ch == ']') {
			done = --depth == 2;
		}
		*dst++ = prev = ch;
	}
	c->job.len = (size_t)(dst - out);
	c->in_string = in_string;
	c->escape = escape;
	c->depth = depth;
	c->gap = gap;
	c->prev = prev;
	*ended = done;
	return i;
}

/* Cut buf[0..n) (buf[n] is 0). 0 or an error in err. */
static int cut_buffer(struct cut *c, const char *buf, size_t n, struct dbio_err *err)
{
	int rc;

	for (size_t i = 0; i < n;) {
		char ch;
		bool ended;

		if (c->mode == CUT_JOB && !c->job_scalar) {
			if ((i = cut_job_span(c, buf, i, n, &ended)) == SIZE_MAX)
				return dbio_err_set(err, -ENOMEM, "%s: cannot read: out of memory", c->name);
			if (ended && (rc = cut_job_done(c, err)))
				return rc;
			continue;
		}
		ch = buf[i++];
		if (c->mode == CUT_OUTER) {
			if (!text_put(&c->outer, ch))
				return dbio_err_set(err, -ENOMEM, "%s: cannot read: out of memory", c->name);
			cut_outer(c, ch);
		} else if ((rc = cut_jobs(c, ch, err))) {
			return rc;
		}
		if (ch == '\n')
			c->line++;
	}
	return 0;
}

/* Read fp to its end, cutting as it goes. 0 or an error in err. A NUL
 * byte is refused wherever it is: JSON has none, and jansson takes one
 * for the end of a number but not after a space, so leaving spaces out
 * would change what it accepts. */
static int cut_read(struct cut *c, FILE *fp, struct dbio_err *err)
{
	char buf[65536 + 1];
	size_t n;
	int rc;

	while ((n = fread(buf, 1, sizeof(buf) - 1, fp)) > 0) {
		const char *nul = memchr(buf, 0, n);
		size_t len = nul ? (size_t)(nul - buf) : n;

		buf[len] = 0; /* ends cut_job_span's strspn */
		if ((rc = cut_buffer(c, buf, len, err)))
			return rc;
		if (nul)
			return dbio_err_set(err, DBIO_EINPUT, "%s: not JSON: a NUL byte (line %u)", c->name,
					    c->line);
	}
	if (ferror(fp))
		return dbio_err_set(err, DBIO_EINPUT, "%s: cannot read: %s", c->name,
				    strerror(errno ? errno : EIO));
	/* A job cut off by the end of the file: jansson says how. */
	if (c->mode == CUT_JOB)
		return cut_job_done(c, err);
	return 0;
}

int result_load_stream(FILE *fp, const char *name, json_t **out, struct dbio_err *err)
{
	struct cut c = { .name = name, .line = 1 };
	json_error_t jerr;
	json_t *r = NULL;
	int rc;

	*out = NULL;
	if ((rc = cut_read(&c, fp, err)))
		goto done;
	/* The outer text has the jobs array's brackets (the closing one
	 * unless the file ended inside it: then jansson says what is missing
	 * where); an error past the array is as many lines further down in
	 * the file as the array took. */
	if (c.jobs && c.mode != CUT_OUTER) {
		c.jobs_lines = c.line - c.jobs_line;
		c.jobs_end = c.outer.len;
	}
	r = json_loadb(c.outer.p ? c.outer.p : "", c.outer.len, JSON_REJECT_DUPLICATES, &jerr);
	if (!r) {
		unsigned line = (unsigned)(jerr.line > 0 ? jerr.line : 1);

		if (c.jobs && (size_t)jerr.position >= c.jobs_end)
			line += c.jobs_lines;
		rc = dbio_err_set(err, DBIO_EINPUT, "%s: not JSON: %s (line %u)", name, jerr.text, line);
		goto done;
	}
	hists_pack(r);
	if (c.jobs && json_object_set(r, "jobs", c.jobs)) {
		rc = dbio_err_set(err, -ENOMEM, "%s: cannot read: out of memory", name);
		goto done;
	}
	if ((rc = result_check(r, name, err)))
		goto done;
	*out = r;
	r = NULL;
done:
	json_decref(r);
	json_decref(c.jobs);
	free(c.outer.p);
	free(c.job.p);
	free(c.nl_at);
	return rc;
}

int result_load(const char *path, json_t **out, struct dbio_err *err)
{
	FILE *fp = fopen(path, "r");
	int rc;

	*out = NULL;
	if (!fp)
		return dbio_err_set(err, DBIO_EINPUT, "%s: cannot read: %s", path, strerror(errno));
	rc = result_load_stream(fp, path, out, err);
	fclose(fp);
	return rc;
}

int result_load_whole(const char *path, json_t **out, struct dbio_err *err)
{
	json_error_t jerr;
	FILE *fp;
	json_t *r;
	int rc;

	*out = NULL;
	fp = fopen(path, "r");
	if (!fp)
		return dbio_err_set(err, DBIO_EINPUT, "%s: cannot read: %s", path, strerror(errno));
	/* A result dbio wrote never repeats a key; one that does was edited
	 * or made elsewhere, and which of the two values counts is a guess. */
	r = json_loadf(fp, JSON_REJECT_DUPLICATES, &jerr);
	if (!r && ferror(fp)) {
		int e = errno ? errno : EIO;

		fclose(fp);
		return dbio_err_set(err, DBIO_EINPUT, "%s: cannot read: %s", path, strerror(e));
	}
	fclose(fp);
	if (!r)
		return dbio_err_set(err, DBIO_EINPUT, "%s: not JSON: %s (line %d)", path, jerr.text,
				    jerr.line);
	if ((rc = result_check(r, path, err))) {
		json_decref(r);
		return rc;
	}
	*out = r;
	return 0;
}
