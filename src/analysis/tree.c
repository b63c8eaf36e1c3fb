/* Reading result trees; see tree.h. */
#include "analysis/tree.h"

#include <stdlib.h>
#include <string.h>

double tree_num(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : 0.0;
}

const char *tree_str(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}

/* The index an array key names; SIZE_MAX when it is not a whole number. */
static size_t array_index(const char *key, size_t len)
{
	size_t i = 0;

	if (!len || len > 9)
		return (size_t)-1;
	for (size_t k = 0; k < len; k++) {
		if (key[k] < '0' || key[k] > '9')
			return (size_t)-1;
		i = i * 10 + (size_t)(key[k] - '0');
	}
	return i;
}

const json_t *tree_get(const json_t *v, const char *path)
{
	while (v && *path) {
		size_t len = strcspn(path, ".");

		if (json_is_array(v))
			v = json_array_get(v, array_index(path, len));
		else
			v = json_object_getn(v, path, len);
		path += len + (path[len] == '.');
	}
	return v;
}
