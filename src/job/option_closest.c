/*
 * "Did you mean": the edit distance between a key and the names of a table,
 * for the message of an unknown key (option.h: option_distance,
 * option_closest_offer). Apart from option.c, which holds the tables.
 */
#include <string.h>

#include "job/option.h"

size_t option_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = diag + cost;

			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			if (up + 1 < best)
				best = up + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

void option_closest_offer(struct option_closest *c, const char *cand)
{
	size_t len = strlen(c->name), d = option_distance(c->name, cand);

	if (len >= 3 && !strncmp(cand, c->name, len))
		d = 1;
	/* a candidate that shares no letter with a short name is no guess */
	if (d < (c->best_d ? c->best_d : 3) && d < len) {
		c->best_d = d;
		c->best = cand;
	}
}
