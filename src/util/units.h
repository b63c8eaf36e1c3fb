/*
 * Parsing and printing of sizes and durations, shared by the job model (which
 * parses) and the views in views/ (which print). Sizes are binary: k = 1024.
 */
#ifndef DBIO_UTIL_UNITS_H
#define DBIO_UTIL_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Parse "4096", "4k", "16KiB", "2g", "1t" (case-insensitive; k, kb, kib all
 * mean 1024). Returns 0, -EINVAL for text that is not a size, -ERANGE when
 * the value does not fit in 64 bits. */
int units_parse_size(const char *s, uint64_t *bytes);

/* Parse "10", "10s", "250ms", "5us", "100ns", "2m", "1h" into nanoseconds; a
 * bare number is in bare_unit_ns (1e9 for a runtime given in seconds). */
int units_parse_time(const char *s, uint64_t bare_unit_ns, uint64_t *ns);

/* Parse a whole decimal number; 0, -EINVAL or -ERANGE. */
int units_parse_u64(const char *s, uint64_t *v);

/* "4 KiB", "1.50 MiB", "512 B": the largest binary unit that keeps the
 * number at least 1. Returns buf. */
char *units_fmt_bytes(char *buf, size_t len, uint64_t bytes);

/* "850 ns", "12.3 us", "4.56 ms", "1.23 s": three significant digits. */
char *units_fmt_ns(char *buf, size_t len, double ns);

#endif
