/*
 * What fio does to a job file's value before it parses it: ${NAME} becomes
 * the environment's NAME; $ncpus, $pagesize and $mb_memory become the
 * machine's; and a value with such a word and arithmetic in it, or one in
 * parentheses, is computed. See plan_expand in plan.h.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan/plan.h"

/* Append n bytes of s to out[*used..len); false when it does not fit. */
static bool append(char *out, size_t len, size_t *used, const char *s, size_t n)
{
	if (*used + n >= len)
		return false;
	memcpy(out + *used, s, n);
	*used += n;
	out[*used] = '\0';
	return true;
}

/* The value of fio's word at p ("$ncpus" ...) into buf; its length, or 0. */
static size_t keyword(const char *p, char *buf, size_t len)
{
	static const char *const words[] = { "$pagesize", "$mb_memory", "$ncpus" };
	long page = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES);
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	const long long values[] = { page, (long long)pages * page / (1024 * 1024), cpus };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strncmp(p, words[i], strlen(words[i]))) {
			snprintf(buf, len, "%lld", values[i]);
			return strlen(words[i]);
		}
	return 0;
}

/* A small integer calculator for what fio hands to bc: + - * / % and
 * parentheses over whole numbers. */
struct calc {
	const char *p;
	bool bad;
};

static long long calc_sum(struct calc *c);

static void calc_space(struct calc *c)
{
	while (isspace((unsigned char)*c->p))
		c->p++;
}

static long long calc_atom(struct calc *c)
{
	long long v = 0;
	char *end;

	calc_space(c);
	if (*c->p == '(') {
		c->p++;
		v = calc_sum(c);
		calc_space(c);
		if (*c->p != ')')
			c->bad = true;
		else
			c->p++;
		return v;
	}
	if (*c->p == '-') {
		c->p++;
		v = calc_atom(c);
		if (v == LLONG_MIN)
			c->bad = true;
		return c->bad ? 0 : -v;
	}
	if (!isdigit((unsigned char)*c->p)) {
		c->bad = true;
		return 0;
	}
	errno = 0;
	v = strtoll(c->p, &end, 10);
	if (errno)
		c->bad = true;
	c->p = end;
	return v;
}

/* Operators by precedence: level 0 adds, level 1 multiplies; each level's
 * operands are the next level's, level 2's are atoms. */
static const char *const calc_ops[] = { "+-", "*/%" };

static long long calc_level(struct calc *c, int level)
{
	long long v = level == 2 ? calc_atom(c) : calc_level(c, level + 1);

	while (level < 2 && !c->bad) {
		long long r;
		char op;

		calc_space(c);
		op = *c->p;
		if (!op || !strchr(calc_ops[level], op))
			return v;
		c->p++;
		r = calc_level(c, level + 1);
		if (op == '+'	? __builtin_add_overflow(v, r, &v)
		    : op == '-' ? __builtin_sub_overflow(v, r, &v)
		    : op == '*' ? __builtin_mul_overflow(v, r, &v)
				: r == 0)
			c->bad = true;
		else if (op == '/' || op == '%')
			v = op == '/' ? v / r : v % r;
	}
	return c->bad ? 0 : v;
}

static long long calc_sum(struct calc *c)
{
	return calc_level(c, 0);
}

/* Compute the arithmetic at the start of out: the whole value, or a
 * parenthesised part followed by a unit ("(4*1024)k"). Unchanged when
 * there is no arithmetic; -1 when there is and it is not computable. */
static int compute(char *out, size_t len, bool word)
{
	const bool paren = out[0] == '(';
	struct calc c = { .p = out };
	long long v;
	char rest[64];

	if (!strpbrk(out, "+-*/%") || (!word && !paren))
		return 0;
	/* "(expr)unit": the parentheses are computed, the unit kept; else
	 * the whole value, as fio's bc would */
	v = paren ? calc_atom(&c) : calc_sum(&c);
	calc_space(&c);
	if (c.bad || (!paren && *c.p) || strlen(c.p) >= sizeof(rest) || v < 0)
		return -1;
	snprintf(rest, sizeof(rest), "%s", c.p);
	snprintf(out, len, "%lld%s", v, rest);
	return 0;
}

int plan_expand(const char *key, const char *value, const struct job_origin *origin, char *out, size_t len,
		struct dbio_err *err)
{
	char where[4200];
	bool word = false;
	size_t used = 0;

	out[0] = '\0';
	job_where(origin, where, sizeof(where));
	for (const char *p = value; *p;) {
		char buf[32];
		size_t n;

		if (p[0] == '$' && p[1] == '{') {
			const char *end = strchr(p, '}');
			char name[256];
			const char *env;

			if (!end || end == p + 2 || (size_t)(end - p - 2) >= sizeof(name))
				return dbio_err_set(
					err, DBIO_EINPUT,
					"%s: key '%s': '%s': expected ${NAME} with NAME an environment variable",
					where, key, value);
			memcpy(name, p + 2, (size_t)(end - p - 2));
			name[end - p - 2] = '\0';
			if (!(env = getenv(name)))
				return dbio_err_set(
					err, DBIO_EINPUT,
					"%s: key '%s': ${%s} is not set in the environment (fio would make it empty): set it, e.g. %s=... dbio run ...",
					where, key, name, name);
			if (!append(out, len, &used, env, strlen(env)))
				goto long_value;
			p = end + 1;
		} else if (p[0] == '$' && (n = keyword(p, buf, sizeof(buf)))) {
			if (!append(out, len, &used, buf, strlen(buf)))
				goto long_value;
			word = true;
			p += n;
		} else {
			if (!append(out, len, &used, p, 1))
				goto long_value;
			p++;
		}
	}
	if (compute(out, len, word))
		return dbio_err_set(
			err, DBIO_EINPUT,
			"%s: key '%s': bad value '%s': cannot compute '%s' (whole numbers with + - * / %% and parentheses)",
			where, key, value, out);
	return 0;
long_value:
	return dbio_err_set(err, DBIO_EINPUT,
			    "%s: key '%s': the value is too long once expanded (at most %zu bytes)", where,
			    key, len - 1);
}
