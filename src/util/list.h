/* Comma-separated lists as options give them ("insert,commit", "iops,p99"). */
#ifndef DBIO_UTIL_LIST_H
#define DBIO_UTIL_LIST_H

#include <stdbool.h>
#include <string.h>

/* Whether the comma-separated list holds name as one of its items. */
static inline bool list_has(const char *list, const char *name)
{
	const size_t n = strlen(name);

	for (const char *p = list;;) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return true;
		if (!p[len])
			return false;
		p += len + 1;
	}
}

/* 0 when known accepts every item (the len bytes at item) of the
 * comma-separated list, else the 1-based position of the first it does
 * not; an empty item is passed as one of length 0. */
static inline int list_check(const char *list, bool (*known)(const char *item, size_t len))
{
	for (int pos = 1;; pos++) {
		size_t len = strcspn(list, ",");

		if (!known(list, len))
			return pos;
		if (!list[len])
			return 0;
		list += len + 1;
	}
}

#endif
