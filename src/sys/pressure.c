/* PSI totals; see pressure.h. */
#include "sys/pressure.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pressure_read(const char *path, struct pressure *p)
{
	FILE *fp = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	bool some = false;

	*p = (struct pressure){ 0 };
	if (!fp)
		return -errno;
	while (getline(&line, &cap, fp) > 0) {
		const char *total = strstr(line, " total=");
		uint64_t us;

		if (!total)
			continue;
		us = strtoull(total + 7, NULL, 10);
		if (!strncmp(line, "some ", 5)) {
			p->some_us = us;
			some = true;
		} else if (!strncmp(line, "full ", 5)) {
			p->full_us = us;
			p->has_full = true;
		}
	}
	free(line);
	fclose(fp);
	if (!some)
		return -EINVAL;
	p->present = true;
	return 0;
}
