/* JSON text of a tree, for every JSON dbio writes or prints: a result file,
 * `run --format json`, `compare --format json`, `--output-format=json`,
 * help's schema, sysinfo, an MPI rank's part. It is a view on the terminal
 * too, so it holds no raw control character (docs/safety.md §6): jansson
 * escapes C0 (U+0000..U+001F) itself; DEL and C1 (U+007F..U+009F, the 8-bit
 * CSI U+009B among them) are escaped here as \u00XX, which parses back to
 * the same string. Every other character stays as it is (UTF-8). */
#include <stdlib.h>
#include <string.h>

#include "result/result.h"

/* Whether the UTF-8 at p is DEL or a C1 character: its length, or 0. */
static size_t control_len(const unsigned char *p)
{
	if (p[0] == 0x7f)
		return 1;
	return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f ? 2 : 0;
}

char *result_dumps(const json_t *v, size_t flags)
{
	char *text = json_dumps(v, flags), *out, *o;
	size_t n = 0, len;

	if (!text)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		n += control_len(p) > 0;
	if (!n)
		return text;
	len = strlen(text);
	/* outside a string jansson writes ASCII only: each hit is in one */
	if (!(out = malloc(len + 5 * n + 1))) {
		free(text);
		return NULL;
	}
	o = out;
	for (const unsigned char *p = (const unsigned char *)text; *p;) {
		size_t c = control_len(p);
		static const char hex[] = "0123456789ABCDEF"; /* as jansson writes \u001B */
		unsigned cp = c == 2 ? p[1] : p[0];

		if (!c) {
			*o++ = (char)*p++;
			continue;
		}
		memcpy(o, "\\u00", 4);
		o[4] = hex[cp >> 4];
		o[5] = hex[cp & 15];
		o += 6;
		p += c;
	}
	*o = '\0';
	free(text);
	return out;
}
