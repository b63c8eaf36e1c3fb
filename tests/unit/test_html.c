/*
 * Unit tests for the HTML report's escaping (src/views/html.h): the five
 * characters that can change markup, control characters shown as \x1b,
 * UTF-8 passed through byte for byte,
 * the empty string and NULL; and SVG embedding: the prolog dropped, ids and
 * references prefixed, text escaped, comments removed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "views/html.h"

/* html_escape(s) as a new string. */
static char *escaped(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	html_escape(fp, s);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static char *svg_inlined(const char *svg, const char *prefix)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	html_svg(fp, svg, prefix);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void test_html_escape_five_characters(void **state)
{
	char *s = escaped("a&b<c>d\"e'f");

	assert_string_equal(s, "a&amp;b&lt;c&gt;d&quot;e&#39;f");
	free(s);
	s = escaped("<script>alert(1)</script>");
	assert_string_equal(s, "&lt;script&gt;alert(1)&lt;/script&gt;");
	free(s);
	s = escaped("&amp;");
	assert_string_equal(s, "&amp;amp;");
	free(s);
}

static void test_html_escape_utf8_passes_through(void **state)
{
	/* µs, é, a CJK character and an emoji: 2, 2, 3 and 4 bytes. */
	char *s = escaped("12 \xc2\xb5s caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80 <");

	assert_string_equal(s, "12 \xc2\xb5s caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80 &lt;");
	free(s);
}

/* Control characters as the terminal views show them, between and beside
 * the five characters; newline and tab stay. */
static void test_html_escape_controls(void **state)
{
	char *s = escaped("<b>\x1b[31m\xc2\x9b&\x9b\x7f\n\t'");

	assert_string_equal(s, "&lt;b&gt;\\x1b[31m\\u009b&amp;\\x9b\\x7f\n\t&#39;");
	free(s);
}

static void test_html_escape_empty_and_null(void **state)
{
	char *s = escaped("");

	assert_string_equal(s, "");
	free(s);
	s = escaped(NULL);
	assert_string_equal(s, "");
	free(s);
	s = escaped("plain text, nothing to do");
	assert_string_equal(s, "plain text, nothing to do");
	free(s);
}

static void test_html_svg_prefixes_ids_and_escapes_text(void **state)
{
	static const char svg[] = "<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"
				  "<svg viewBox=\"0 0 10 10\">\n"
				  "<!-- a comment -->\n"
				  "<defs><path id='gpPt0' d='M0,0'/><clipPath id=\"gpclip1\"/></defs>\n"
				  "<use xlink:href='#gpPt0' x='1'/><g clip-path=\"url(#gpclip1)\">"
				  "<text>a &lt;b> \"c\" 'd' &amp; e</text></g>\n"
				  "</svg>\ntrailing";
	char *s = svg_inlined(svg, "p3-");

	assert_string_equal(s, "<svg viewBox=\"0 0 10 10\">\n\n"
			       "<defs><path id='p3-gpPt0' d='M0,0'/><clipPath id=\"p3-gpclip1\"/></defs>\n"
			       "<use xlink:href='#p3-gpPt0' x='1'/><g clip-path=\"url(#p3-gpclip1)\">"
			       "<text>a &lt;b&gt; &quot;c&quot; &#39;d&#39; &amp; e</text></g>\n"
			       "</svg>");
	free(s);
}

static void test_html_svg_without_svg_writes_nothing(void **state)
{
	char *s = svg_inlined("<html><script>x</script></html>", "p0-");

	assert_string_equal(s, "");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html_escape_five_characters),
		cmocka_unit_test(test_html_escape_utf8_passes_through),
		cmocka_unit_test(test_html_escape_controls),
		cmocka_unit_test(test_html_escape_empty_and_null),
		cmocka_unit_test(test_html_svg_prefixes_ids_and_escapes_text),
		cmocka_unit_test(test_html_svg_without_svg_writes_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
