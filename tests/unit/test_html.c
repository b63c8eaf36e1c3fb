/*
 * Unit tests for the HTML report's escaping (src/views/html.h): the five
 * characters that can change markup, control characters shown as \x1b,
 * UTF-8 passed through byte for byte,
 * the empty string and NULL; and SVG embedding: the prolog dropped, ids and
 * references prefixed, text escaped, comments removed. Then whole pages of
 * small result trees: a kv job's inserts, commits, phases and stall probe
 * (never "reads and writes"), and a matrix's configurations named A, B …
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/metric.h"
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

/* The page of the result tree text (one input, no plots), as a string. */
static char *page_of(const char *text)
{
	json_error_t jerr;
	json_t *r = json_loads(text, 0, &jerr);
	struct plot_input in = { .label = "r.json" };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	if (!r)
		fail_msg("test result: %s (line %d)", jerr.text, jerr.line);
	in.result = r;
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	html_report_write(fp, &(struct html_report){ .in = &in, .n = 1, .metric = metric_find("iops") });
	assert_int_equal(fclose(fp), 0);
	json_decref(r);
	return buf;
}

static void assert_has(const char *page, const char *want)
{
	if (!strstr(page, want))
		fail_msg("the page lacks: %s", want);
}

/* One run of a kv job: 2,000 inserts in 4 batches with a commit each, its
 * phase, a write probe with two stalls, and a batch series. */
#define KV_RUN                                                                                                  \
	"{\"elapsed_ns\": 2000000000, \"threads\": 1, \"partial\": false,"                                      \
	" \"ops\": {\"read\": {\"count\": 0, \"bytes\": 0},"                                                    \
	"  \"insert\": {\"count\": 2000, \"bytes\": 500000, \"iops\": 1000.0, \"bw_bytes\": 250000.0,"          \
	"   \"lat_ns\": {\"min\": 1000, \"mean\": 5000, \"max\": 90000, \"p50\": 4000, \"p95\": 9000,"          \
	"    \"p99\": 20000, \"p99_9\": 80000}},"                                                               \
	"  \"commit\": {\"count\": 4, \"bytes\": 0, \"iops\": 2.0, \"bw_bytes\": 0.0,"                          \
	"   \"lat_ns\": {\"min\": 1000000, \"mean\": 2000000, \"max\": 3000000, \"p50\": 2000000,"              \
	"    \"p95\": 3000000, \"p99\": 3000000, \"p99_9\": 3000000}}},"                                        \
	" \"rusage\": {\"user_s\": 0.5, \"sys_s\": 0.25, \"cpu_pct\": 37.5, \"majflt\": 3, \"minflt\": 700},"   \
	" \"phases\": [{\"name\": \"insert\", \"elapsed_ns\": 1500000000, \"ops\": 2000,"                       \
	"   \"ops_per_s\": 1333.3, \"rusage\": {\"user_s\": 0.5, \"sys_s\": 0.25, \"cpu_pct\": 50.0,"           \
	"   \"majflt\": 3, \"minflt\": 700, \"inblock\": 8, \"oublock\": 4000}}],"                              \
	" \"probe\": {\"kind\": \"write\", \"interval_ns\": 100000000, \"stall_ns\": 100000000, \"count\": 20," \
	"  \"lat_ns\": {\"p50\": 200000, \"p99\": 900000000, \"max\": 2630000000},"                             \
	"  \"stalls\": [{\"t_ns\": 500000000, \"lat_ns\": 900000000},"                                          \
	"   {\"t_ns\": 1200000000, \"lat_ns\": 2630000000}], \"stalls_dropped\": 0},"                           \
	" \"series\": {\"grid\": \"batch\", \"truncated\": false, \"points\": [{}, {}, {}, {}],"                \
	"  \"worst\": [{\"index\": 2, \"end_ns\": 1400000000, \"duration_ns\": 700000000, \"count\": 500,"      \
	"   \"thread\": 0}]}}"

static void test_html_kv_job_shows_its_ops_phases_and_probe(void **state)
{
	char *page = page_of(
		"{\"schema_version\": 1, \"tool\": {\"name\": \"dbio\"}, \"jobs\": [{\"name\": \"s2\","
		" \"brief\": \"workload=kv kv_engine=gdbm records=2000\", \"runs\": [" KV_RUN "]}]}");

	assert_has(page, "<p><code>workload=kv kv_engine=gdbm records=2000</code></p>");
	/* Inserts and commits; a commit moves no bytes: "–", not 0. */
	assert_has(page,
		   "<tr><td>1</td><td class=\"l\">insert</td><td>2000</td><td>1000.0</td><td>0.24</td>");
	assert_has(page, "<tr><td>1</td><td class=\"l\">commit</td><td>4</td><td>2.0</td><td>–</td>");
	/* The phase, with its own time, CPU and block counts. */
	assert_has(page,
		   "<tr><td class=\"l\">insert</td><td>1.50 s</td><td>2000</td><td>1333.3</td><td>0.50</td>"
		   "<td>0.25</td><td>50.0</td><td>3</td><td>700</td><td>8</td><td>4000</td></tr>");
	/* The probe: 2 stalls, the worst first, with their time into the run. */
	assert_has(page,
		   "<tr><td>1</td><td class=\"l\">write every 100 ms</td><td>20</td><td>200 µs</td>"
		   "<td>900 ms</td><td>2.63 s</td><td>2 of at least 100 ms</td><td>2.63 s at 1.20 s</td>"
		   "<td>900 ms at 500 ms</td></tr>");
	assert_has(page, "run 1: 4 database batches (a point per batch of each thread); worst batch #3");
	assert_null(strstr(page, "reads and writes"));
	free(page);
}

static void test_html_matrix_names_each_configuration(void **state)
{
	char *page = page_of(
		"{\"schema_version\": 1, \"tool\": {\"name\": \"dbio\"},"
		" \"matrix\": {\"configs\": [{\"label\": \"ext2 -b 1024\", \"fs\": \"ext2\", \"mkfs_options\": \"-b 1024\","
		"  \"mount_options\": \"\", \"scheduler\": \"\"}, {\"label\": \"ext2 -b 4096\", \"fs\": \"ext2\","
		"  \"mkfs_options\": \"-b 4096\", \"mount_options\": \"noatime\", \"scheduler\": \"none\"}]},"
		" \"jobs\": [{\"name\": \"s0\", \"config\": {\"index\": 0, \"label\": \"ext2 -b 1024\"}, \"runs\": [" KV_RUN
		"]},"
		"  {\"name\": \"s0\", \"config\": {\"index\": 1, \"label\": \"ext2 -b 4096\"}, \"runs\": [" KV_RUN
		"]}]}");

	assert_has(
		page,
		"<tr><td class=\"l\"><b>A</b></td><td class=\"l\">ext2 -b 1024</td><td class=\"l\">ext2</td>"
		"<td class=\"l\">-b 1024</td><td class=\"l\">(none)</td><td class=\"l\">(as it was)</td></tr>");
	assert_has(
		page,
		"<tr><td class=\"l\"><b>B</b></td><td class=\"l\">ext2 -b 4096</td><td class=\"l\">ext2</td>"
		"<td class=\"l\">-b 4096</td><td class=\"l\">noatime</td><td class=\"l\">none</td></tr>");
	assert_has(page, "<h3 id=\"f1-j1\">job s0 on A: ext2 -b 1024</h3>");
	assert_has(page, "<h3 id=\"f1-j2\">job s0 on B: ext2 -b 4096</h3>");
	assert_has(page, "<th title=\"ext2 -b 1024\">A</th><th title=\"ext2 -b 4096\">B</th><th>B vs A</th>");
	/* The run's elapsed time in both columns, no change between equal
	 * runs; its one phase gets no row of its own, as in the text. */
	assert_has(page, "<tr><td class=\"l\"></td><td class=\"l\">all</td><td class=\"l\">elapsed time</td>"
			 "<td>2.00 s</td><td>2.00 s</td><td class=\"noise\">+0.0 %</td></tr>");
	assert_null(strstr(page, "phase insert"));
	free(page);
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
		cmocka_unit_test(test_html_kv_job_shows_its_ops_phases_and_probe),
		cmocka_unit_test(test_html_matrix_names_each_configuration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
