/*
 * The HTML report: one self-contained page (inline CSS and SVG, no script,
 * no external font, image or style sheet) of one or more result trees —
 * the environment, per job the op tables, CPU and faults, the repeats'
 * mean ± 95 % CI, the series, sweep tables, and with several results a
 * side-by-side table — with the plots views/plot.c drew (as SVG) embedded
 * where they belong. A view of result values, like views/text.c.
 *
 * Every string that comes from a result is escaped (& < > " ', and control
 * characters), in the page and in the embedded SVG.
 */
#ifndef DBIO_VIEWS_HTML_H
#define DBIO_VIEWS_HTML_H

#include <stdio.h>

#include "views/plot.h"

/* Write s with &, <, >, " and ' replaced by their character references and
 * control characters escaped as util/termesc.h does (\x1b); other text
 * (UTF-8 included) as it is. NULL writes nothing. */
void html_escape(FILE *fp, const char *s);

/* Write the SVG document svg (as gnuplot writes it) for embedding in a
 * page: from its <svg> element on, without comments, with every id and
 * reference to one prefixed by prefix (so several SVGs in one page do not
 * share ids), and with >, " and ' in text escaped too. */
void html_svg(FILE *fp, const char *svg, const char *prefix);

struct html_report {
	const struct plot_input *in; /* the results and their names */
	size_t n;
	const struct metric *metric;  /* of the plots (see plot_prepare) */
	const struct plot_set *plots; /* may be NULL */
	const char *const *svgs;      /* svgs[i]: plots->plots[i] as SVG, NULL if not drawn */
	const char *note;	      /* shown at the top (why plots are missing), or NULL */
};

/* Write the whole page. */
void html_report_write(FILE *fp, const struct html_report *r);

#endif
