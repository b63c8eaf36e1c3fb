/*
 * Unit tests for size and duration parsing and printing (src/util/units.h):
 * accepted size and time spellings with their exact values, rejected text
 * with -EINVAL or -ERANGE, whole-number parsing, and the exact strings of
 * units_fmt_bytes and units_fmt_ns for a table of inputs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <cmocka.h>

#include "util/units.h"

#define NS_PER_S 1000000000ull

static void test_units_parse_size_accepts(void **state)
{
	static const struct {
		const char *text;
		uint64_t bytes;
	} cases[] = {
		{ "0", 0 },
		{ "4096", 4096 },
		{ "4k", 4096 },
		{ "4K", 4096 },
		{ "4kb", 4096 },
		{ "4KB", 4096 },
		{ "4KiB", 4096 },
		{ "4kib", 4096 },
		{ "512b", 512 },
		{ "16m", 16777216 },
		{ "16MiB", 16777216 },
		{ "2g", 2147483648ull },
		{ "2GB", 2147483648ull },
		{ "1t", 1099511627776ull },
		{ "1TiB", 1099511627776ull },
		{ "3p", 3377699720527872ull },
		{ "18446744073709551615", UINT64_MAX },
		{ "16777215t", 16777215ull << 40 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		int rc = units_parse_size(cases[i].text, &v);

		if (rc || v != cases[i].bytes)
			fail_msg("'%s': rc %d, %llu bytes, expected %llu", cases[i].text, rc,
				 (unsigned long long)v, (unsigned long long)cases[i].bytes);
	}
}

static void test_units_parse_size_rejects(void **state)
{
	static const struct {
		const char *text;
		int rc;
	} cases[] = {
		{ "", -EINVAL },
		{ "k", -EINVAL },
		{ "4x", -EINVAL },
		{ "-1", -EINVAL },
		{ "4.5k", -EINVAL },
		{ "4 k", -EINVAL },
		{ "4k ", -EINVAL },
		{ "4kk", -EINVAL },
		{ "4ki", -EINVAL },
		{ "0x10", -EINVAL },
		{ "4ms", -EINVAL },
		{ "99999999999999999999", -ERANGE },
		{ "18446744073709551616", -ERANGE },
		{ "16777216t", -ERANGE },
		{ "16384p", -ERANGE },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		int rc = units_parse_size(cases[i].text, &v);

		if (rc != cases[i].rc || v != 12345)
			fail_msg("'%s': rc %d (expected %d), value %llu", cases[i].text, rc, cases[i].rc,
				 (unsigned long long)v);
	}
}

static void test_units_parse_time_accepts(void **state)
{
	static const struct {
		const char *text;
		uint64_t bare_unit_ns;
		uint64_t ns;
	} cases[] = {
		{ "10", NS_PER_S, 10 * NS_PER_S },
		{ "10", 1, 10 },
		{ "0", NS_PER_S, 0 },
		{ "10s", NS_PER_S, 10 * NS_PER_S },
		{ "10sec", 1, 10 * NS_PER_S },
		{ "250ms", NS_PER_S, 250000000 },
		{ "250msec", NS_PER_S, 250000000 },
		{ "5us", NS_PER_S, 5000 },
		{ "5usec", NS_PER_S, 5000 },
		{ "100ns", NS_PER_S, 100 },
		{ "2m", NS_PER_S, 120 * NS_PER_S },
		{ "2min", NS_PER_S, 120 * NS_PER_S },
		{ "1h", NS_PER_S, 3600 * NS_PER_S },
		{ "1d", NS_PER_S, 86400 * NS_PER_S },
		{ "30S", NS_PER_S, 30 * NS_PER_S },
		{ "18446744073", NS_PER_S, 18446744073 * NS_PER_S },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		int rc = units_parse_time(cases[i].text, cases[i].bare_unit_ns, &v);

		if (rc || v != cases[i].ns)
			fail_msg("'%s': rc %d, %llu ns, expected %llu", cases[i].text, rc,
				 (unsigned long long)v, (unsigned long long)cases[i].ns);
	}
}

static void test_units_parse_time_rejects(void **state)
{
	static const struct {
		const char *text;
		int rc;
	} cases[] = {
		{ "", -EINVAL },
		{ "s", -EINVAL },
		{ "ms", -EINVAL },
		{ "10x", -EINVAL },
		{ "1.5s", -EINVAL },
		{ "-1", -EINVAL },
		{ "10k", -EINVAL },
		{ "10 s", -EINVAL },
		{ "18446744074", -ERANGE }, /* bare seconds beyond 2^64 ns */
		{ "5124096h", -ERANGE },
		{ "99999999999999999999ns", -ERANGE },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		int rc = units_parse_time(cases[i].text, NS_PER_S, &v);

		if (rc != cases[i].rc || v != 12345)
			fail_msg("'%s': rc %d (expected %d), value %llu", cases[i].text, rc, cases[i].rc,
				 (unsigned long long)v);
	}
}

static void test_units_parse_u64(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(units_parse_u64("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(units_parse_u64("24301", &v), 0);
	assert_int_equal(v, 24301);
	assert_int_equal(units_parse_u64("18446744073709551615", &v), 0);
	assert_int_equal(v, UINT64_MAX);
	v = 7;
	assert_int_equal(units_parse_u64("18446744073709551616", &v), -ERANGE);
	assert_int_equal(units_parse_u64("", &v), -EINVAL);
	assert_int_equal(units_parse_u64(NULL, &v), -EINVAL);
	assert_int_equal(units_parse_u64("4k", &v), -EINVAL);
	assert_int_equal(units_parse_u64(" 4", &v), -EINVAL);
	assert_int_equal(units_parse_u64("+4", &v), -EINVAL);
	assert_int_equal(v, 7);
}

static void test_units_fmt_bytes(void **state)
{
	static const struct {
		uint64_t bytes;
		const char *text;
	} cases[] = {
		{ 0, "0 B" },
		{ 1, "1 B" },
		{ 512, "512 B" },
		{ 1000, "1000 B" },
		{ 1023, "1023 B" },
		{ 1024, "1 KiB" },
		{ 1025, "1.00 KiB" },
		{ 1536, "1.50 KiB" },
		{ 4096, "4 KiB" },
		{ 10240, "10 KiB" },
		{ 1572864, "1.50 MiB" },
		{ 16777216, "16 MiB" },
		{ 1048576000, "1000 MiB" },
		{ 1073741824, "1 GiB" },
		{ 1610612736, "1.50 GiB" },
		{ 1099511627776ull, "1 TiB" },
		{ 1125899906842624ull, "1 PiB" },
		{ 1152921504606846976ull, "1 EiB" },
		{ 3ull << 61, "6 EiB" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_ptr_equal(units_fmt_bytes(buf, sizeof(buf), cases[i].bytes), buf);
		if (strcmp(buf, cases[i].text))
			fail_msg("%llu bytes: '%s', expected '%s'", (unsigned long long)cases[i].bytes, buf,
				 cases[i].text);
	}
	/* A short buffer is truncated, not overrun. */
	units_fmt_bytes(buf, 4, 1572864);
	assert_string_equal(buf, "1.5");
}

static void test_units_fmt_ns(void **state)
{
	static const struct {
		double ns;
		const char *text;
	} cases[] = {
		{ 0, "0 ns" },
		{ 1, "1 ns" },
		{ 850, "850 ns" },
		{ 999, "999 ns" },
		{ 1000, "1.00 us" },
		{ 1234, "1.23 us" },
		{ 12345, "12.3 us" },
		{ 123456, "123 us" },
		{ 4560000, "4.56 ms" },
		{ 45600000, "45.6 ms" },
		{ 456000000, "456 ms" },
		{ 1230000000, "1.23 s" },
		{ 12300000000.0, "12.3 s" },
		{ 123000000000.0, "123 s" },
		{ 3600e9, "3600 s" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_ptr_equal(units_fmt_ns(buf, sizeof(buf), cases[i].ns), buf);
		if (strcmp(buf, cases[i].text))
			fail_msg("%.1f ns: '%s', expected '%s'", cases[i].ns, buf, cases[i].text);
	}
}

/* "three significant digits" (units.h) also where rounding carries into the
 * next digit or unit. */
static void test_units_fmt_ns_three_digits_at_rounding_boundaries(void **state)
{
	static const struct {
		double ns;
		const char *text;
	} cases[] = {
		{ 999.6, "1.00 us" },
		{ 9996, "10.0 us" },
		{ 99960, "100 us" },
		{ 999999, "1.00 ms" },
	};
	char buf[32];
	int bad = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		units_fmt_ns(buf, sizeof(buf), cases[i].ns);
		if (strcmp(buf, cases[i].text)) {
			print_error("%.1f ns: '%s', expected '%s'\n", cases[i].ns, buf, cases[i].text);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_units_parse_size_accepts),
		cmocka_unit_test(test_units_parse_size_rejects),
		cmocka_unit_test(test_units_parse_time_accepts),
		cmocka_unit_test(test_units_parse_time_rejects),
		cmocka_unit_test(test_units_parse_u64),
		cmocka_unit_test(test_units_fmt_bytes),
		cmocka_unit_test(test_units_fmt_ns),
		cmocka_unit_test(test_units_fmt_ns_three_digits_at_rounding_boundaries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
