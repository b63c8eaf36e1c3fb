/*
 * Text for a terminal from data dbio did not write itself (job names,
 * hostnames, kernel strings, error text read back from result files): its
 * control characters are shown as visible escapes instead of being sent to
 * the terminal, where ESC [ ... or a C1 CSI would move the cursor, recolour,
 * retitle or clear it. Escaped: bytes below 0x20 other than newline and
 * tab, DEL (0x7f), the C1 controls U+0080 to U+009F as \u0080 .. \u009f,
 * and every byte that is not part of valid UTF-8 as \xNN (raw 0x80 to 0x9f
 * are C1 controls to a terminal that is not in UTF-8 mode). Everything
 * else, UTF-8 text included, passes unchanged.
 *
 * The views of views/ write their text through termesc_open; cmd/ escapes its
 * one-line messages with TERMESC_LINE. dbio's own escapes (the progress
 * line's "\r\033[K") are written to the terminal directly, not through
 * this.
 */
#ifndef DBIO_UTIL_TERMESC_H
#define DBIO_UTIL_TERMESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum {
	TERMESC_LINE = 1, /* escape newline and tab too: one-line messages */
	TERMESC_MORE = 2, /* more text follows: keep a UTF-8 sequence cut at the end */
};

/* Write s[0..n) to fp, escaped. Returns how many bytes were consumed: n,
 * or with TERMESC_MORE fewer when s ends inside a UTF-8 sequence (at most
 * 3 bytes are left, to be passed again with what follows). */
size_t termesc_write(FILE *fp, const char *s, size_t n, unsigned flags);

/* A stream that writes to dst what is written to it, escaped (sequences
 * cut between two writes are kept whole). Closing it flushes it into dst
 * and leaves dst open. NULL when out of memory. */
FILE *termesc_open(FILE *dst);

/* Whether s holds a byte termesc_write would escape with TERMESC_LINE
 * (a control character, newline and tab included, or not UTF-8): for
 * input that must not hold any, such as job names. */
bool termesc_needed(const char *s);

/* buf (a string in size bytes) escaped in place as termesc_write does
 * with TERMESC_LINE: one line of visible text, cut to size. */
void termesc_fix(char *buf, size_t size);

/* termesc_fix with termesc_write's flags (0: newline and tab kept). */
void termesc_fix_flags(char *buf, size_t size, unsigned flags);

#endif
