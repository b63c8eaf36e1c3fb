/*
 * The value parsers behind every option table, lookups by name and the
 * suggestions for a mistyped key; see option.h. The job's own tables are
 * option.c.
 */
#include "job/option.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job/job.h"
#include "util/units.h"

#define NS_PER_S 1000000000ull

const struct option_def *option_table_find(const struct option_table *table, const char *name)
{
	name = option_canonical(name);
	for (size_t i = 0; i < table->count; i++)
		if (!strcmp(table->defs[i].name, name))
			return &table->defs[i];
	return NULL;
}

const char *option_enum_name(const struct opt_enum *values, int value)
{
	for (const struct opt_enum *e = values; e->name; e++)
		if (e->value == value && e->help)
			return e->name;
	return "?";
}

void option_accepted(const struct option_def *def, char *buf, size_t len)
{
	char lo[32], hi[32];
	size_t used = 0;

	switch (def->type) {
	case OPT_STR:
		snprintf(buf, len, "text of at most %zu bytes", def->size - 1);
		break;
	case OPT_BOOL:
		snprintf(buf, len, "0 or 1 (a bare key means 1)");
		break;
	case OPT_UINT:
		if (def->max == OPT_MAX)
			snprintf(buf, len, "a whole number from %llu", (unsigned long long)def->min);
		else
			snprintf(buf, len, "a whole number from %llu to %llu", (unsigned long long)def->min,
				 (unsigned long long)def->max);
		if (def->suffixes)
			snprintf(buf + strlen(buf), len - strlen(buf),
				 " with an optional k, m, g or t suffix (binary: 1k = 1024)");
		if (def->word)
			snprintf(buf + strlen(buf), len - strlen(buf), ", or %s", def->word);
		break;
	case OPT_SIZE:
		units_fmt_bytes(lo, sizeof(lo), def->min);
		units_fmt_bytes(hi, sizeof(hi), def->max);
		if (def->max == OPT_MAX)
			snprintf(
				buf, len,
				"a size in bytes with an optional k, m, g or t suffix (binary: 1k = 1024), e.g. 4k");
		else
			snprintf(
				buf, len,
				"a size from %s to %s with an optional k, m, g or t suffix (binary: 1k = 1024), e.g. 4k",
				lo, hi);
		break;
	case OPT_TIME:
		snprintf(buf, len,
			 "a duration with a suffix ns, us, ms, s, m or h (a bare number is in %s), e.g. 30s",
			 def->bare_unit_ns == NS_PER_S	? "seconds"
			 : def->bare_unit_ns == 1000000 ? "milliseconds"
			 : def->bare_unit_ns == 1000	? "microseconds"
							: "nanoseconds");
		break;
	case OPT_ENUM:
		buf[0] = '\0';
		for (const struct opt_enum *e = def->values; e->name; e++) {
			if (!e->help)
				continue;
			int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "one of ", e->name);
			if (n < 0 || (size_t)n >= len - used)
				break;
			used += (size_t)n;
		}
		break;
	case OPT_RANGE:
		snprintf(
			buf, len,
			"a size or a range lo-hi of sizes with optional k or m suffixes, e.g. 100-400 or 4k");
		break;
	case OPT_INTERVAL:
		snprintf(
			buf, len,
			"0, a duration of at least 1ms (1s, 250ms; a bare number is in seconds) or a count of operations such as 1000ops");
		break;
	case OPT_PCT_LIST:
		snprintf(
			buf, len,
			"up to %d different percentiles above 0 and at most 100 separated by ':', e.g. 99.5:99.99",
			OPT_MAX_PCTS);
		break;
	}
}

static int bad_value(const struct option_def *def, const char *value, const char *where, const char *why,
		     struct dbio_err *err)
{
	char accepted[512];

	option_accepted(def, accepted, sizeof(accepted));
	return dbio_err_set(err, DBIO_EINPUT, "%s: key '%s': bad value '%s'%s%s: expected %s", where,
			    def->name, value, why ? ": " : "", why ? why : "", accepted);
}

static int parse_pct_list(const char *value, struct opt_pcts *out)
{
	char copy[512], *save = NULL;
	struct opt_pcts p = { .n = 0 };

	if (strlen(value) >= sizeof(copy))
		return -EINVAL;
	strcpy(copy, value);
	for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *end;
		double v = strtod(tok, &end);

		if (*end || end == tok || !(v > 0 && v <= 100) || p.n == OPT_MAX_PCTS)
			return -EINVAL;
		for (size_t i = 0; i < p.n; i++)
			if (p.v[i] == v)
				return -EINVAL; /* twice the same */
		p.v[p.n++] = v;
	}
	*out = p;
	return 0;
}

static int parse_number(const struct option_def *def, const char *value, const char *where, uint64_t *out,
			struct dbio_err *err)
{
	uint64_t v = 0;
	int rc;

	if (def->type == OPT_UINT && !def->suffixes)
		rc = units_parse_u64(value, &v);
	else if (def->type == OPT_SIZE || def->type == OPT_UINT)
		rc = units_parse_size(value, &v);
	else
		rc = units_parse_time(value, def->bare_unit_ns, &v);
	if (rc == -ERANGE)
		return bad_value(def, value, where, "too large", err);
	if (rc)
		return bad_value(def, value, where, NULL, err);
	if (v < def->min || (def->max && v > def->max))
		return bad_value(def, value, where, "out of range", err);
	*out = v;
	return 0;
}

static int parse_range(const struct option_def *def, const char *value, const char *where,
		       struct opt_range *r, struct dbio_err *err)
{
	const char *dash = strchr(value, '-');
	char lo[64];
	uint64_t v, hi;

	if (dash && (size_t)(dash - value) >= sizeof(lo))
		return bad_value(def, value, where, "too long", err);
	snprintf(lo, sizeof(lo), "%.*s", dash ? (int)(dash - value) : (int)strlen(value), value);
	if (units_parse_size(lo, &v) || (dash ? units_parse_size(dash + 1, &hi) : (hi = v, 0)))
		return bad_value(def, value, where, NULL, err);
	if (v == 0 || hi > (64u << 20))
		return bad_value(def, value, where, "sizes must be from 1 byte to 64 MiB", err);
	if (v > hi)
		return bad_value(def, value, where, "the range is inverted (lo > hi)", err);
	*r = (struct opt_range){ .lo = v, .hi = hi };
	return 0;
}

/* A size in fio's READ,WRITE[,TRIM] form (def->pair_offset). */
static int parse_pair(const struct option_def *def, void *base, const char *value, const char *where,
		      struct dbio_err *err)
{
	char part[3][64];
	size_t n = 0;
	uint64_t v[3];

	for (const char *p = value;; p++) {
		size_t len = strcspn(p, ",");

		if (n == 3 || len >= sizeof(part[0]))
			return bad_value(def, value, where, n == 3 ? "more than READ,WRITE,TRIM" : "too long",
					 err);
		snprintf(part[n++], sizeof(part[0]), "%.*s", (int)len, p);
		p += len;
		if (!*p)
			break;
	}
	/* a missing value is the last one given's (fio's bs=4k,8k trims 8k);
	 * an empty one the default */
	for (; n < 3; n++)
		snprintf(part[n], sizeof(part[0]), "%s", part[n - 1]);
	for (size_t i = 0; i < n; i++) {
		int rc = parse_number(def, part[i][0] ? part[i] : def->def, where, &v[i], err);

		if (rc)
			return rc;
	}
	*(uint64_t *)((char *)base + def->offset) = v[0];
	*(uint64_t *)((char *)base + def->pair_offset) = v[1];
	if (def->trim_offset)
		*(uint64_t *)((char *)base + def->trim_offset) = v[2];
	return 0;
}

static int parse_interval(const struct option_def *def, const char *value, const char *where,
			  struct opt_interval *iv, struct dbio_err *err)
{
	size_t len = strlen(value);
	uint64_t v = 0;
	int rc;

	if (len > 3 && !strcmp(value + len - 3, "ops")) {
		char digits[32];

		if (len - 3 >= sizeof(digits))
			return bad_value(def, value, where, "too large", err);
		snprintf(digits, sizeof(digits), "%.*s", (int)(len - 3), value);
		if (units_parse_u64(digits, &v) || v == 0)
			return bad_value(def, value, where, NULL, err);
		*iv = (struct opt_interval){ .ops = v };
		return 0;
	}
	rc = units_parse_time(value, def->bare_unit_ns, &v);
	if (rc)
		return bad_value(def, value, where, rc == -ERANGE ? "too large" : NULL, err);
	if (v && v < 1000000)
		return bad_value(def, value, where, "shorter than 1ms", err);
	*iv = (struct opt_interval){ .ns = v };
	return 0;
}

/* One of def's values, with fio's ":TEXT" after it where def takes one. */
static int parse_enum(const struct option_def *def, void *base, const char *value, const char *where,
		      struct dbio_err *err)
{
	const char *colon = def->suffix_size ? strchr(value, ':') : NULL;
	const size_t n = colon ? (size_t)(colon - value) : strlen(value);

	if (colon && (!colon[1] || strlen(colon + 1) >= def->suffix_size))
		return bad_value(def, value, where, colon[1] ? "too long after ':'" : "nothing after ':'",
				 err);
	for (const struct opt_enum *e = def->values; e->name; e++)
		if (strlen(e->name) == n && !strncmp(e->name, value, n)) {
			*(int *)((char *)base + def->offset) = e->value;
			if (def->suffix_size)
				strcpy((char *)base + def->suffix_offset, colon ? colon + 1 : "");
			return 0;
		}
	return bad_value(def, value, where, NULL, err);
}

int option_parse(const struct option_def *def, void *base, const char *value, const char *where,
		 struct dbio_err *err)
{
	char *field = (char *)base + def->offset;
	uint64_t v = 0;
	int rc;

	if (def->pair_offset)
		return parse_pair(def, base, value, where, err);
	switch (def->type) {
	case OPT_STR:
		if (strlen(value) >= def->size)
			return bad_value(def, value, where, "too long", err);
		strcpy(field, value);
		return 0;
	case OPT_BOOL:
		if (!strcmp(value, "1") || !strcasecmp(value, "true") || !strcasecmp(value, "yes"))
			*(bool *)field = true;
		else if (!strcmp(value, "0") || !strcasecmp(value, "false") || !strcasecmp(value, "no"))
			*(bool *)field = false;
		else
			return bad_value(def, value, where, NULL, err);
		return 0;
	case OPT_UINT:
	case OPT_SIZE:
	case OPT_TIME:
		if (def->word && !strcmp(value, def->word)) {
			*(uint64_t *)field = 0;
			return 0;
		}
		if ((rc = parse_number(def, value, where, &v, err)))
			return rc;
		*(uint64_t *)field = v;
		return 0;
	case OPT_ENUM:
		return parse_enum(def, base, value, where, err);
	case OPT_RANGE:
		return parse_range(def, value, where, (struct opt_range *)field, err);
	case OPT_INTERVAL:
		return parse_interval(def, value, where, (struct opt_interval *)field, err);
	case OPT_PCT_LIST:
		if (parse_pct_list(value, (struct opt_pcts *)field))
			return bad_value(def, value, where, NULL, err);
		return 0;
	}
	return bad_value(def, value, where, NULL, err);
}

void option_format(const void *base, const struct option_def *def, char *buf, size_t len)
{
	const char *field = (const char *)base + def->offset;

	if (def->pair_offset) {
		struct option_def one = *def;
		char r[64], w[64];

		one.pair_offset = 0;
		option_format(base, &one, r, sizeof(r));
		one.offset = def->pair_offset;
		option_format(base, &one, w, sizeof(w));
		snprintf(buf, len, strcmp(r, w) ? "%s,%s" : "%s", r, w);
		return;
	}

	switch (def->type) {
	case OPT_STR:
		snprintf(buf, len, "%s", field);
		break;
	case OPT_BOOL:
		snprintf(buf, len, "%d", *(const bool *)field ? 1 : 0);
		break;
	case OPT_UINT:
	case OPT_SIZE:
	case OPT_TIME:
		if (def->word && !*(const uint64_t *)field)
			snprintf(buf, len, "%s", def->word);
		else
			snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)field);
		break;
	case OPT_ENUM: {
		const char *suffix = def->suffix_size ? (const char *)base + def->suffix_offset : "";

		snprintf(buf, len, "%s%s%s", option_enum_name(def->values, *(const int *)field),
			 suffix[0] ? ":" : "", suffix);
		break;
	}
	case OPT_RANGE: {
		const struct opt_range *r = (const struct opt_range *)field;

		if (r->lo == r->hi)
			snprintf(buf, len, "%llu", (unsigned long long)r->lo);
		else
			snprintf(buf, len, "%llu-%llu", (unsigned long long)r->lo, (unsigned long long)r->hi);
		break;
	}
	case OPT_INTERVAL: {
		const struct opt_interval *iv = (const struct opt_interval *)field;

		if (iv->ops)
			snprintf(buf, len, "%lluops", (unsigned long long)iv->ops);
		else if (iv->ns)
			snprintf(buf, len, "%lluns", (unsigned long long)iv->ns);
		else
			snprintf(buf, len, "0");
		break;
	}
	case OPT_PCT_LIST: {
		const struct opt_pcts *p = (const struct opt_pcts *)field;
		size_t used = 0;

		buf[0] = '\0';
		for (size_t i = 0; i < p->n && used < len; i++) {
			int n = snprintf(buf + used, len - used, "%s%g", i ? ":" : "", p->v[i]);
			if (n < 0)
				break;
			used += (size_t)n;
		}
		break;
	}
	}
}
