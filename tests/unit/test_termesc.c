/*
 * Unit tests for the terminal escaping of src/util/termesc.h and the UTF-8
 * decoder under it (src/util/utf8.h): C0 controls, DEL, C1 controls as
 * UTF-8 and as raw bytes, invalid UTF-8, text passed through byte for
 * byte; newline and tab kept except in one-line messages; a sequence cut
 * between two writes to the filtering stream kept whole; and the text
 * views of views/ writing a hostile result escaped.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "views/table.h"
#include "views/text.h"
#include "util/err.h"
#include "util/termesc.h"
#include "util/utf8.h"

/* termesc_write(s, flags) as a new string. */
static char *escaped(const char *s, unsigned flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(termesc_write(fp, s, strlen(s), flags), strlen(s));
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void expect(const char *in, unsigned flags, const char *out)
{
	char *got = escaped(in, flags);

	assert_string_equal(got, out);
	free(got);
}

static void test_termesc_utf8_decode(void **state)
{
	uint32_t cp = 0;

	assert_int_equal(utf8_decode((const unsigned char *)"A", 1, &cp), 1);
	assert_int_equal(cp, 'A');
	assert_int_equal(utf8_decode((const unsigned char *)"\xc2\x9b", 2, &cp), 2);
	assert_int_equal(cp, 0x9b);
	assert_int_equal(utf8_decode((const unsigned char *)"\xe2\x82\xac", 3, &cp), 3);
	assert_int_equal(cp, 0x20ac);
	assert_int_equal(utf8_decode((const unsigned char *)"\xf0\x9f\x98\x80", 4, &cp), 4);
	assert_int_equal(cp, 0x1f600);
	assert_int_equal(utf8_decode((const unsigned char *)"\xe2\x82", 2, &cp), -1); /* cut short */
	assert_int_equal(utf8_decode((const unsigned char *)"\x9b", 1, &cp), 0);      /* lone continuation */
	assert_int_equal(utf8_decode((const unsigned char *)"\xc0\x80", 2, &cp), 0);  /* overlong */
	assert_int_equal(utf8_decode((const unsigned char *)"\xed\xa0\x80", 3, &cp), 0); /* surrogate */
	assert_int_equal(utf8_decode((const unsigned char *)"\xc2"
							    "A",
				     2, &cp),
			 0);
	assert_int_equal(utf8_decode((const unsigned char *)"\xff", 1, &cp), 0);
}

static void test_termesc_controls(void **state)
{
	expect("job\x1b[31mx", 0, "job\\x1b[31mx");
	expect("a\rb\x07"
	       "c\x7f",
	       0, "a\\x0db\\x07c\\x7f");
	expect("csi \xc2\x9b"
	       "31m",
	       0, "csi \\u009b31m");
	expect("raw \x9b"
	       "31m",
	       0, "raw \\x9b31m");
	expect("bad \xff\xc2", 0, "bad \\xff\\xc2");
	expect("lines\n\tand tabs", 0, "lines\n\tand tabs");
	expect("lines\n\tand tabs", TERMESC_LINE, "lines\\x0a\\x09and tabs");
	expect("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0", 0,
	       "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0");
	expect("", 0, "");
}

static void test_termesc_more_keeps_cut_sequence(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(termesc_write(fp, "ab\xe2\x82", 4, TERMESC_MORE), 2);
	assert_int_equal(termesc_write(fp, "ab\x1b", 3, TERMESC_MORE), 3);
	assert_int_equal(fclose(fp), 0);
	assert_string_equal(buf, "abab\\x1b");
	free(buf);
}

/* The stream gets "€" and U+009B one byte per write, and a cut sequence
 * at its close: the whole ones pass or are escaped whole, the cut one is
 * escaped byte by byte. */
static void test_termesc_stream_joins_writes(void **state)
{
	static const char text[] = "x\xe2\x82\xac\xc2\x9b\x1b\xe2\x82";
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len), *fp;

	assert_non_null(mem);
	fp = termesc_open(mem);
	assert_non_null(fp);
	setvbuf(fp, NULL, _IONBF, 0);
	for (size_t i = 0; i < sizeof(text) - 1; i++)
		assert_int_equal(fwrite(text + i, 1, 1, fp), 1);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(fclose(mem), 0);
	assert_string_equal(buf, "x\xe2\x82\xac\\u009b\\x1b\\xe2\\x82");
	free(buf);
}

static void test_termesc_needed(void **state)
{
	assert_false(termesc_needed("seq-read_4k caf\xc3\xa9"));
	assert_false(termesc_needed(""));
	assert_true(termesc_needed("a\x1b"));
	assert_true(termesc_needed("a\tb"));
	assert_true(termesc_needed("a\nb"));
	assert_true(termesc_needed("a\xc2\x9b"));
	assert_true(termesc_needed("a\x9b"));
	assert_true(termesc_needed("a\x7f"));
}

/* termesc_fix in place, cut to its buffer; and dbio_err_set, which uses
 * it, keeps a value's newline in a message of bad input from starting a
 * line of its own (a runtime failure's lines are kept), while
 * dbio_err_set_lines keeps the lines it joins. */
static void test_termesc_fix_and_err_messages(void **state)
{
	char buf[16] = "a\nb\x1b[c";
	char small[8] = "ab\ncdef";
	struct dbio_err err = { 0 }, lines = { 0 }, io = { 0 };

	termesc_fix(buf, sizeof(buf));
	assert_string_equal(buf, "a\\x0ab\\x1b[c");
	small[7] = '\0';
	termesc_fix(small, sizeof(small));
	assert_string_equal(small, "ab\\x0ac");
	dbio_err_set(&err, DBIO_EINPUT, "v.fio:2: key 'bs': bad value '%s'", "4k\ndbio: forged");
	assert_string_equal(err.msg, "v.fio:2: key 'bs': bad value '4k\\x0adbio: forged'");
	dbio_err_set_lines(&lines, DBIO_EINPUT, "%s\n%s", "a.fio:1: one", "a.fio:2: two");
	dbio_err_set(&io, -EIO, "d: verify: 2 bad\nd: block at 0\x1b\n");
	assert_string_equal(io.msg, "d: verify: 2 bad\nd: block at 0\\x1b");
	assert_string_equal(lines.msg, "a.fio:1: one\na.fio:2: two");
}

/* A result whose job name and hostname hold ESC [31m and U+009B. */
static json_t *hostile(void)
{
	json_t *r = json_loads(
		"{\"system\": {\"hostname\": \"h\\u001b[31m\\u009b\"},"
		" \"jobs\": [{\"name\": \"j\\u001b[31m\\u009bx\", \"options\": {}, \"warnings\": [\"w\\u001b]0;t\\u0007\"],"
		" \"targets\": [{\"directory\": \"/d\\u001b[2J\"}],"
		" \"runs\": [{\"elapsed_ns\": 1000000000, \"threads\": 1, \"partial\": false,"
		" \"ops\": {\"read\": {\"count\": 10, \"bytes\": 40960, \"iops\": 10, \"bw_bytes\": 40960,"
		" \"lat_ns\": {\"min\": 1, \"mean\": 2, \"max\": 3, \"p50\": 2, \"p90\": 2, \"p95\": 2, \"p99\": 3, \"p99_9\": 3}}},"
		" \"rusage\": {}}]}]}",
		0, NULL);

	assert_non_null(r);
	return r;
}

static void test_termesc_text_views_escape(void **state)
{
	json_t *r = hostile();
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	text_report(fp, r);
	text_summary(fp, r, false);
	table_points(fp, r, "iops", NULL, false);
	table_points(fp, r, "iops", NULL, true);
	assert_int_equal(fclose(fp), 0);
	assert_null(memchr(buf, 0x1b, len));
	assert_null(memchr(buf, 0x07, len));
	assert_null(strstr(buf, "\xc2\x9b"));
	assert_non_null(strstr(buf, "job j\\x1b[31m\\u009bx: "));
	assert_non_null(strstr(buf, "warning: w\\x1b]0;t\\x07"));
	assert_non_null(strstr(buf, "j\\x1b[31m\\u009bx,read,"));
	json_decref(r);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_termesc_utf8_decode),
		cmocka_unit_test(test_termesc_controls),
		cmocka_unit_test(test_termesc_more_keeps_cut_sequence),
		cmocka_unit_test(test_termesc_stream_joins_writes),
		cmocka_unit_test(test_termesc_needed),
		cmocka_unit_test(test_termesc_fix_and_err_messages),
		cmocka_unit_test(test_termesc_text_views_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
