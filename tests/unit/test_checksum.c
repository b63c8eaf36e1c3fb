/*
 * Unit tests for the checksums of verify= (src/util/checksum.h): crc32c
 * against RFC 3720's vectors, its fast path against the table over every
 * length and alignment, the libraries' sums against known digests, and
 * fio's verify_pattern forms (src/workload/fileio/check_verify.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "job/job.h"
#include "util/checksum.h"
#include "workload/fileio/files.h"

static void test_checksum_crc32c_vectors(void **state)
{
	uint8_t buf[32];

	(void)state;
	assert_int_equal(csum_crc32c(0, "123456789", 9), 0xe3069283u);
	assert_int_equal(csum_crc32c_table(0, "123456789", 9), 0xe3069283u);
	/* RFC 3720, B.4 */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(csum_crc32c(0, buf, 32), 0x8a9136aau);
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(csum_crc32c(0, buf, 32), 0x62a8ab43u);
	for (int i = 0; i < 32; i++)
		buf[i] = (uint8_t)i;
	assert_int_equal(csum_crc32c(0, buf, 32), 0x46dd794eu);
	for (int i = 0; i < 32; i++)
		buf[i] = (uint8_t)(31 - i);
	assert_int_equal(csum_crc32c_table(0, buf, 32), 0x113fdb5cu);
	/* in two parts, as one */
	assert_int_equal(csum_crc32c(csum_crc32c(0, "1234", 4), "56789", 5), 0xe3069283u);
}

static void test_checksum_crc32c_fast_path_is_the_table(void **state)
{
	uint8_t buf[300];

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131 + 7);
	for (size_t start = 0; start < 9; start++)
		for (size_t len = 0; start + len <= sizeof(buf); len += 7)
			assert_int_equal(csum_crc32c(0, buf + start, len),
					 csum_crc32c_table(0, buf + start, len));
}

/* The sum of kind over text as hex. */
static void sum_hex(enum csum_kind kind, const char *text, char *hex)
{
	struct csum c;
	uint8_t out[CSUM_MAX];

	assert_int_equal(csum_init(&c, kind), 0);
	assert_int_equal(csum_compute(&c, text, strlen(text), out), 0);
	for (size_t i = 0; i < c.len; i++)
		sprintf(hex + 2 * i, "%02x", out[i]);
	csum_release(&c);
}

static void test_checksum_library_sums(void **state)
{
	char hex[2 * CSUM_MAX + 1];

	(void)state;
	if (csum_built(CSUM_MD5)) {
		sum_hex(CSUM_MD5, "abc", hex);
		assert_string_equal(hex, "900150983cd24fb0d6963f7d28e17f72");
		sum_hex(CSUM_SHA1, "abc", hex);
		assert_string_equal(hex, "a9993e364706816aba3e25717850c26c9cd0d89d");
		sum_hex(CSUM_SHA256, "abc", hex);
		assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
		assert_int_equal(csum_size(CSUM_SHA512), 64);
	}
	if (csum_built(CSUM_XXH64)) {
		/* XXH64("", 0) and XXH64("abc", 0): the reference values,
		 * stored little-endian */
		sum_hex(CSUM_XXH64, "", hex);
		assert_string_equal(hex, "99e9d85137db46ef");
		sum_hex(CSUM_XXH64, "abc", hex);
		assert_string_equal(hex, "990977adf52cbc44");
	}
}

/* The bytes of fio's pattern s as hex, or "EINVAL" / "ERANGE". */
static const char *pattern(const char *s, size_t room)
{
	static char hex[1100];
	uint8_t out[512];
	const char *bad;
	size_t n;
	int rc = job_parse_verify_pattern(s, out, room, &n, &bad);

	if (rc)
		return rc == -ERANGE ? "ERANGE" : "EINVAL";
	for (size_t i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", out[i]);
	return hex;
}

static void test_checksum_fio_pattern_forms(void **state)
{
	(void)state;
	assert_string_equal(pattern("0xaa555aa5", 512), "aa555aa5");
	assert_string_equal(pattern("0XABC", 512), "0abc"); /* an odd count: the first byte from one digit */
	assert_string_equal(pattern("\"abc\"", 512), "616263");
	assert_string_equal(pattern("258", 512), "0201"); /* little-endian, as few bytes as hold it */
	assert_string_equal(pattern("0", 512), "00");
	assert_string_equal(pattern("0xff0x14", 512), "ff14");
	assert_string_equal(pattern("0xff \"ab\" 1", 512), "ff616201");
	assert_string_equal(pattern("-1", 512), "ffffffff");
	assert_string_equal(pattern("0x", 512), "EINVAL");
	assert_string_equal(pattern("\"open", 512), "EINVAL");
	assert_string_equal(pattern("abc", 512), "EINVAL");
	assert_string_equal(pattern("", 512), "EINVAL");
	assert_string_equal(pattern("99999999999", 512), "EINVAL");
	assert_string_equal(pattern("0x112233", 2), "ERANGE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checksum_crc32c_vectors),
		cmocka_unit_test(test_checksum_crc32c_fast_path_is_the_table),
		cmocka_unit_test(test_checksum_library_sums),
		cmocka_unit_test(test_checksum_fio_pattern_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
