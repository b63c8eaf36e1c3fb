/* NUMA node and CPU lists of sysfs; see numa.h. */
#include "util/numa.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int number(const char **p, unsigned nbits, unsigned *out)
{
	char *end;
	unsigned long v;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(*p, &end, 10);
	if (errno || v >= nbits)
		return -ERANGE;
	*p = end;
	*out = (unsigned)v;
	return 0;
}

int numa_parse_list(const char *s, uint64_t *bits, unsigned nbits)
{
	const char *p = s;

	memset(bits, 0, nbits / 8);
	if (!*p)
		return -EINVAL;
	for (;;) {
		unsigned lo, hi;
		int rc = number(&p, nbits, &lo);

		hi = lo;
		if (!rc && *p == '-') {
			p++;
			rc = number(&p, nbits, &hi);
		}
		if (rc)
			return rc;
		if (hi < lo)
			return -EINVAL;
		for (unsigned i = lo; i <= hi; i++)
			bits[i / 64] |= 1ull << (i % 64);
		if (!*p)
			return 0;
		if (*p++ != ',')
			return -EINVAL;
	}
}

int numa_read_list(const char *path, uint64_t *bits, unsigned nbits)
{
	char line[4096];
	FILE *f = fopen(path, "re");
	int rc = 0;

	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (line[0])
		rc = numa_parse_list(line, bits, nbits);
	else
		memset(bits, 0, nbits / 8);
	return rc;
}

const char *numa_list_text(const uint64_t *bits, unsigned nbits, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < nbits && used < len; i++) {
		unsigned end = i;

		if (!(bits[i / 64] >> (i % 64) & 1))
			continue;
		while (end + 1 < nbits && (bits[(end + 1) / 64] >> ((end + 1) % 64) & 1))
			end++;
		used += (size_t)(end > i ? snprintf(buf + used, len - used, "%s%u-%u", used ? "," : "", i,
						    end)
					 : snprintf(buf + used, len - used, "%s%u", used ? "," : "", i));
		i = end;
	}
	return buf;
}
