/* The counter reference; see counters.h. */
#include "views/counters.h"

#include <string.h>

#include "analysis/counter.h"

void counters_unit(const struct counter *c, char *buf, size_t len)
{
	if (c->norm == COUNTER_PCT_TIME)
		snprintf(buf, len, "%% of the run's time");
	else if (c->norm == COUNTER_PCT_THREADS)
		snprintf(buf, len, "%% of the threads' time");
	else
		snprintf(buf, len, "%s per op", c->unit);
}

/* text, wrapped at 79 columns, each line indented by indent spaces */
static void wrapped(FILE *fp, const char *text, int indent)
{
	const int width = 79 - indent;

	while (*text) {
		int len = (int)strlen(text), cut = len;

		if (len > width) {
			for (cut = width; cut > 0 && text[cut] != ' '; cut--)
				;
			if (!cut)
				cut = width;
		}
		fprintf(fp, "%*s%.*s\n", indent, "", cut, text);
		text += cut;
		while (*text == ' ')
			text++;
	}
}

/* Where a run holds c, as docs write a path: "counters.total.disk[0].flush_ios". */
static void where_of(const struct counter *c, char *buf, size_t len)
{
	const char *dev = strncmp(c->path, "disk.0.", 7) ? NULL : c->path + 7;

	if (!strncmp(c->path, "trace.disk.0.", 13))
		snprintf(buf, len, "trace.disk[0].%s", c->path + 13);
	else if (counter_of_run(c))
		snprintf(buf, len, "%s", c->path);
	else if (dev)
		snprintf(buf, len, "counters.total.disk[0].%s", dev);
	else
		snprintf(buf, len, "counters.total.%s", c->path);
}

void counters_print(FILE *fp, enum counters_format format)
{
	char unit[64], where[128];

	if (format == COUNTERS_MARKDOWN)
		fprintf(fp, "| name | figure | unit | read from a run | meaning |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < counter_count; i++) {
		const struct counter *c = &counter_registry[i];
		counters_unit(c, unit, sizeof(unit));
		where_of(c, where, sizeof(where));
		if (format == COUNTERS_MARKDOWN) {
			fprintf(fp, "| `%s` | %s | %s | `%s` | %s |\n", c->name, c->label, unit, where,
				c->meaning);
		} else {
			fprintf(fp, "%-22s %s, %s\n", c->name, c->label, unit);
			wrapped(fp, c->meaning, 23);
		}
	}
	if (format == COUNTERS_TEXT)
		fprintf(fp,
			"\n\"per op\": per data operation of the job (reads, writes, trims, inserts,\n"
			"lookups, updates), named after the most frequent (\"per write\"). Each run keeps\n"
			"the raw counters in runs[].counters and these figures in runs[].counters.per_op.\n");
}
