/* The workload registry; see workload.h. One line per workload. */
#include <stdio.h>
#include <string.h>

#include "workload/workload.h"

extern const struct workload_ops workload_fileio;
extern const struct workload_ops workload_kv;

const struct workload_ops *const workload_registry[] = {
	&workload_fileio,
	&workload_kv,
};

const size_t workload_count = sizeof(workload_registry) / sizeof(workload_registry[0]);

const struct workload_ops *workload_find(const char *name)
{
	for (size_t i = 0; i < workload_count; i++)
		if (!strcmp(workload_registry[i]->name, name))
			return workload_registry[i];
	return NULL;
}

void workload_list(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < workload_count && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", workload_registry[i]->name);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}
