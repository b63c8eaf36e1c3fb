/*
 * UTF-8 decoding, for the writers that must tell text from control
 * characters and bytes that are not text: the terminal filter
 * (util/termesc) and the gnuplot strings of views/plot.c.
 */
#ifndef DBIO_UTIL_UTF8_H
#define DBIO_UTIL_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The sequence at s[0..n) (n >= 1): its length (1 to 4) with its code
 * point in *cp when it is valid UTF-8 (shortest form, no surrogate, at most
 * U+10FFFF); 0 when s[0] starts no valid sequence; -1 when s[0..n) is the
 * start of one that n cut short (more bytes may complete it). */
int utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

#endif
