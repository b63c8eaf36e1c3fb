/* The explanation as text; see explain.h. */
#include "views/explain.h"

#include <math.h>
#include <string.h>

#include "util/termesc.h"

/* A figure in few characters: 0.0147, 1.02, 412, 2.1e+06. */
static void fig(char *buf, size_t len, double v)
{
	if (v == 0)
		snprintf(buf, len, "0");
	else if (fabs(v) >= 1e6 || fabs(v) < 1e-3)
		snprintf(buf, len, "%.2g", v);
	else
		snprintf(buf, len, "%.3g", v);
}

/* "device flushes per write", "io pressure (some) % of the time". */
static void what(char *buf, size_t len, const struct counter *k, const char *per)
{
	if (k->norm != COUNTER_PER_OP)
		snprintf(buf, len, "%s %% of time", k->label);
	else
		snprintf(buf, len, "%s per %s", k->label, per[0] ? per : "op");
}

static void print_item(FILE *fp, const struct explain_item *it, const char *per)
{
	char name[160], a[32], b[32], r[32];

	what(name, sizeof(name), it->counter, per);
	fig(a, sizeof(a), it->base);
	fig(b, sizeof(b), it->other);
	if (it->base == 0)
		snprintf(r, sizeof(r), "from 0");
	else
		snprintf(r, sizeof(r), "%.3g×", it->ratio);
	fprintf(fp, "  %-40s %8s → %-8s (%s) *\n", name, a, b, r);
}

/* A job whose counters could not be tested (a side without two complete
 * runs with counters: repeat=1, or results written before dbio kept
 * them) gets no block: there is nothing to say why with. */
static void explain_text(FILE *fp, const struct comparison *c, const struct explanation *x)
{
	size_t shown = 0;

	for (size_t i = 0; i < x->njobs; i++) {
		const struct explain_job *j = &x->jobs[i];
		const char fa = 'A', fb = (char)('A' + j->file);

		if (!j->tested)
			continue;
		shown++;
		fprintf(fp, "\nWhy: %c vs %c %s", fb, fa, j->label);
		if (j->head && j->head->changes[j->file].has_pct)
			fprintf(fp, ": %+.1f %% %s %s%s", j->head->changes[j->file].change_pct, j->head->op,
				j->head->metric->label, j->head->changes[j->file].significant ? " *" : "");
		fputc('\n', fp);
		if (!j->nitems) {
			fprintf(fp, "  no counter changed significantly (Welch, p < %g)\n", c->alpha);
			continue;
		}
		for (size_t k = 0; k < j->nitems && k < EXPLAIN_SHOWN; k++)
			print_item(fp, &j->items[k], j->per);
		if (j->nitems > EXPLAIN_SHOWN)
			fprintf(fp, "  and %zu more\n", j->nitems - EXPLAIN_SHOWN);
	}
	if (shown)
		fprintf(fp,
			"(* Welch's test over the repeats, p < %g; by effect size;\n"
			"per op: per data operation of the job; dbio help counters)\n",
			c->alpha);
}

void explain_print(FILE *fp, const struct comparison *c, const struct explanation *x)
{
	FILE *out = termesc_open(fp);

	if (!out)
		return; /* out of memory: nothing rather than raw control characters */
	explain_text(out, c, x);
	fclose(out);
}

static void sweep_text(FILE *fp, const json_t *result)
{
	struct explain_trend t[EXPLAIN_SHOWN];
	size_t n = explain_sweep(result, 0.9, t, EXPLAIN_SHOWN);
	const char *key = json_string_value(json_object_get(
		json_array_get(json_object_get(json_object_get(result, "sweep"), "vary"), 0), "key"));

	if (!n)
		return;
	fprintf(fp, "\nCounters that move with %s (Spearman's rho over the points):\n",
		key ? key : "the points");
	for (size_t i = 0; i < n; i++) {
		char name[160];

		what(name, sizeof(name), t[i].counter, "op");
		fprintf(fp, "  %-40s rho %+.2f\n", name, t[i].rho);
	}
}

void explain_print_sweep(FILE *fp, const json_t *result)
{
	FILE *out = termesc_open(fp);

	if (!out)
		return;
	sweep_text(out, result);
	fclose(out);
}
