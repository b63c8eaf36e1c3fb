/* Escaping text for a terminal; see termesc.h. */
#include "util/termesc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"

/* How many bytes from the start of s[0..n) need no escape; *len and *cp
 * are the sequence that ends the run, as utf8_decode gives them (*len 0
 * at the end of s). */
static size_t plain_run(const unsigned char *s, size_t n, unsigned flags, int *len, uint32_t *cp)
{
	size_t i = 0;

	while (i < n) {
		*len = utf8_decode(s + i, n - i, cp);
		if (*len <= 0 || *cp == 0x7f || (*cp >= 0x80 && *cp <= 0x9f) ||
		    (*cp < 0x20 && ((flags & TERMESC_LINE) || (*cp != '\n' && *cp != '\t'))))
			return i;
		i += (size_t)*len;
	}
	*len = 0;
	return i;
}

size_t termesc_write(FILE *fp, const char *s, size_t n, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		uint32_t cp = 0;
		int len;
		size_t run = plain_run(p + i, n - i, flags, &len, &cp);

		fwrite(p + i, 1, run, fp);
		i += run;
		if (i == n)
			break;
		if (len < 0 && (flags & TERMESC_MORE))
			return i; /* the rest of the sequence comes with the next write */
		if (len > 1)
			fprintf(fp, "\\u%04x", (unsigned)cp);
		else
			fprintf(fp, "\\x%02x", p[i]);
		i += len > 1 ? (size_t)len : 1;
	}
	return n;
}

bool termesc_needed(const char *s)
{
	int len;
	uint32_t cp;
	size_t n = strlen(s);

	return plain_run((const unsigned char *)s, n, TERMESC_LINE, &len, &cp) < n;
}

void termesc_fix(char *buf, size_t size)
{
	termesc_fix_flags(buf, size, TERMESC_LINE);
}

void termesc_fix_flags(char *buf, size_t size, unsigned flags)
{
	char *copy;
	FILE *fp;

	if (!size || !termesc_needed(buf) || !(copy = strdup(buf)))
		return;
	if ((fp = fmemopen(buf, size, "w"))) {
		termesc_write(fp, copy, strlen(copy), flags & TERMESC_LINE);
		fclose(fp);
	}
	buf[size - 1] = '\0'; /* fmemopen leaves no NUL when the text fills buf */
	free(copy);
}

struct filter {
	FILE *dst;
	char held[4]; /* a UTF-8 sequence cut by the end of the last write */
	size_t nheld;
};

static ssize_t filter_write(void *cookie, const char *buf, size_t size)
{
	struct filter *f = cookie;
	size_t used = 0, done;

	/* Complete a held sequence a byte at a time: it needs at most 3. */
	while (f->nheld && used < size) {
		f->held[f->nheld++] = buf[used++];
		done = termesc_write(f->dst, f->held, f->nheld, TERMESC_MORE);
		memmove(f->held, f->held + done, f->nheld - done);
		f->nheld -= done;
	}
	if (used < size) {
		done = termesc_write(f->dst, buf + used, size - used, TERMESC_MORE);
		f->nheld = size - used - done;
		memcpy(f->held, buf + used + done, f->nheld);
	}
	return ferror(f->dst) ? -1 : (ssize_t)size;
}

static int filter_close(void *cookie)
{
	struct filter *f = cookie;
	int rc;

	termesc_write(f->dst, f->held, f->nheld, 0);
	rc = ferror(f->dst) ? EOF : 0;
	free(f);
	return rc;
}

FILE *termesc_open(FILE *dst)
{
	struct filter *f = calloc(1, sizeof(*f));
	FILE *fp;

	if (!f)
		return NULL;
	f->dst = dst;
	fp = fopencookie(f, "w", (cookie_io_functions_t){ .write = filter_write, .close = filter_close });
	if (!fp)
		free(f);
	return fp;
}
