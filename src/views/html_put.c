/*
 * The HTML page's small writers (html.h): text escaped for HTML and the
 * terminal alike, an inline SVG with its ids made unique, a latency or a
 * size with its unit, a header or text cell, a figure with its caption.
 * Every part of the page (html.c, html_db.c, html_jobs.c) writes through
 * them; they call none of those parts.
 */
#include "views/html.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/termesc.h"
#include "util/units.h"
#include "views/views_int.h"

void html_escape(FILE *fp, const char *s)
{
	static const char *const refs[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };
	static const char specials[] = "&<>\"'";

	if (!s)
		return;
	for (;;) {
		size_t run = strcspn(s, specials);

		/* Control characters as the terminal views show them: a
		 * browser shows nothing of them, and the page copied or saved
		 * as text would carry them to a terminal. */
		termesc_write(fp, s, run, 0);
		if (!s[run])
			return;
		fputs(refs[strchr(specials, s[run]) - specials], fp);
		s += run + 1;
	}
}

void html_svg(FILE *fp, const char *svg, const char *prefix)
{
	static const char *const refs[] = { "href='#", "href=\"#", "url(#" };
	const char *p = strstr(svg, "<svg");
	char quote = 0;
	bool tag = false;

	if (!p)
		return;
	while (*p) {
		if (!tag) {
			if (!strncmp(p, "<!--", 4)) {
				const char *end = strstr(p + 4, "-->");

				if (!end)
					return;
				p = end + 3;
				continue;
			}
			switch (*p) {
			case '<':
				tag = true;
				fputc('<', fp);
				if (!strncmp(p, "</svg>", 6)) {
					fputs("/svg>", fp);
					return;
				}
				break;
			case '>':
				fputs("&gt;", fp);
				break;
			case '"':
				fputs("&quot;", fp);
				break;
			case '\'':
				fputs("&#39;", fp);
				break;
			default:
				fputc(*p, fp);
			}
			p++;
			continue;
		}
		/* In a tag: prefix ids and references to them. */
		if (!quote && (p[0] == ' ' || p[0] == '\t' || p[0] == '\n') && !strncmp(p + 1, "id=", 3) &&
		    (p[4] == '\'' || p[4] == '"')) {
			fprintf(fp, "%cid=%c%s", p[0], p[4], prefix);
			quote = p[4];
			p += 5;
			continue;
		}
		bool matched = false;

		for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]) && !matched; i++) {
			size_t len = strlen(refs[i]);

			if (!strncmp(p, refs[i], len)) {
				fprintf(fp, "%s%s", refs[i], prefix);
				if (refs[i][0] == 'h')
					quote = refs[i][5];
				p += len;
				matched = true;
			}
		}
		if (matched)
			continue;
		if (quote && *p == quote)
			quote = 0;
		else if (!quote && (*p == '\'' || *p == '"'))
			quote = *p;
		else if (!quote && *p == '>')
			tag = false;
		fputc(*p++, fp);
	}
}

/* ---- small helpers ------------------------------------------------------- */

void html_put_ns(FILE *fp, double ns)
{
	char buf[32];
	size_t len;

	units_fmt_ns(buf, sizeof(buf), ns);
	len = strlen(buf);
	if (len > 3 && !strcmp(buf + len - 3, " us"))
		fprintf(fp, "%.*s µs", (int)(len - 3), buf);
	else
		fputs(buf, fp);
}

void html_put_bytes(FILE *fp, double bytes)
{
	char buf[32];

	fputs(units_fmt_bytes(buf, sizeof(buf), bytes > 0 ? (uint64_t)bytes : 0), fp);
}

void html_th(FILE *fp, const char *text, bool left)
{
	fprintf(fp, "<th%s>%s</th>", left ? " class=\"l\"" : "", text);
}

void html_td_text(FILE *fp, const char *s)
{
	fputs("<td class=\"l\">", fp);
	html_escape(fp, s);
	fputs("</td>", fp);
}

void html_figure(FILE *fp, const struct html_report *r, enum plot_kind kind, size_t file, size_t job)
{
	if (!r->plots)
		return;
	for (size_t i = 0; i < r->plots->count; i++) {
		const struct plot *p = &r->plots->plots[i];
		char prefix[32];

		if (p->kind != kind || p->file != file || p->job != job || !r->svgs[i])
			continue;
		snprintf(prefix, sizeof(prefix), "p%zu-", i);
		fputs("<figure>\n", fp);
		html_svg(fp, r->svgs[i], prefix);
		fputs("\n<figcaption>", fp);
		html_escape(fp, p->title);
		fputs("</figcaption></figure>\n", fp);
	}
}
