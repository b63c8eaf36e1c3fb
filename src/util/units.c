/* Size and duration parsing and printing; see units.h. */
#include "util/units.h"

#include <ctype.h>
#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int units_parse_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -ERANGE;
		x = x * 10 + d;
	}
	if (*s)
		return -EINVAL;
	*v = x;
	return 0;
}

/* Split "12ms" into 12 and "ms"; the number must be a whole decimal. */
static int split_number(const char *s, uint64_t *num, const char **suffix)
{
	char digits[32];
	size_t n = 0;

	while (s[n] == ' ')
		s++;
	while (isdigit((unsigned char)s[n]))
		n++;
	if (n == 0 || n >= sizeof(digits))
		return n ? -ERANGE : -EINVAL;
	memcpy(digits, s, n);
	digits[n] = '\0';
	*suffix = s + n;
	return units_parse_u64(digits, num);
}

static int mul_check(uint64_t a, uint64_t b, uint64_t *out)
{
	if (b && a > UINT64_MAX / b)
		return -ERANGE;
	*out = a * b;
	return 0;
}

int units_parse_size(const char *s, uint64_t *bytes)
{
	static const struct {
		const char *suffix;
		int shift;
	} units[] = {
		{ "", 0 },    { "b", 0 },    { "k", 10 }, { "kb", 10 }, { "kib", 10 }, { "m", 20 },
		{ "mb", 20 }, { "mib", 20 }, { "g", 30 }, { "gb", 30 }, { "gib", 30 }, { "t", 40 },
		{ "tb", 40 }, { "tib", 40 }, { "p", 50 }, { "pb", 50 }, { "pib", 50 },
	};
	const char *suffix;
	uint64_t n;
	int rc = split_number(s, &n, &suffix);

	if (rc)
		return rc;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(suffix, units[i].suffix))
			return mul_check(n, 1ull << units[i].shift, bytes);
	return -EINVAL;
}

int units_parse_time(const char *s, uint64_t bare_unit_ns, uint64_t *ns)
{
	static const struct {
		const char *suffix;
		uint64_t ns;
	} units[] = {
		{ "ns", 1 },
		{ "us", 1000 },
		{ "usec", 1000 },
		{ "ms", 1000000 },
		{ "msec", 1000000 },
		{ "s", 1000000000ull },
		{ "sec", 1000000000ull },
		{ "m", 60000000000ull },
		{ "min", 60000000000ull },
		{ "h", 3600000000000ull },
		{ "d", 86400000000000ull },
	};
	const char *suffix;
	uint64_t n;
	int rc = split_number(s, &n, &suffix);

	if (rc)
		return rc;
	if (!*suffix)
		return mul_check(n, bare_unit_ns, ns);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(suffix, units[i].suffix))
			return mul_check(n, units[i].ns, ns);
	return -EINVAL;
}

/* v rounded to the digits it will be printed with: 3 significant digits
 * (2 decimals below 10, 1 below 100, none above). */
static double round3(double v)
{
	if (v < 10)
		return round(v * 100) / 100;
	if (v < 100)
		return round(v * 10) / 10;
	return round(v);
}

static void fmt3(char *buf, size_t len, double v, const char *unit)
{
	double r = round3(v);

	if (r >= 100)
		snprintf(buf, len, "%.0f %s", r, unit);
	else if (r >= 10)
		snprintf(buf, len, "%.1f %s", r, unit);
	else
		snprintf(buf, len, "%.2f %s", r, unit);
}

char *units_fmt_bytes(char *buf, size_t len, uint64_t bytes)
{
	static const char *names[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int i = 0;

	/* Move up a unit also when rounding would print 1024. */
	while (i < 6 && (v >= 1024 || (i > 0 && round(v * 100) / 100 >= 1024))) {
		v /= 1024;
		i++;
	}
	if (i == 0 || v == (double)(uint64_t)v)
		snprintf(buf, len, "%.0f %s", v, names[i]);
	else
		snprintf(buf, len, "%.2f %s", v, names[i]);
	return buf;
}

char *units_fmt_ns(char *buf, size_t len, double ns)
{
	static const struct {
		double div;
		const char *name;
	} units[] = { { 1, "ns" }, { 1e3, "us" }, { 1e6, "ms" }, { 1e9, "s" } };
	int i = 0;

	/* The largest unit whose value, once rounded for printing, is >= 1;
	 * 999.6 ns prints as 1.00 us, not 1000 ns. */
	while (i < 3 && round3(ns / units[i].div) >= 1000)
		i++;
	if (i == 0)
		snprintf(buf, len, "%.0f %s", ns, units[0].name);
	else
		fmt3(buf, len, ns / units[i].div, units[i].name);
	return buf;
}
