/* The devices under a filesystem's device; see devstack.h. */
#include "sys/devstack.h"

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sys/sysfs.h"

/* How deep the stack is followed, as sysinfo.c does. */
#define DEVSTACK_MAX_DEPTH 8

struct walk {
	const char *root;
	struct devstack_dev *out;
	size_t n, max;
};

const char *devstack_role_name(enum devstack_role r)
{
	static const char *const names[] = { "target", "disk", "slave", "loop backing" };

	return names[r];
}

static void walk_dev(struct walk *w, unsigned major, unsigned minor, enum devstack_role role, int depth);

static bool listed(const struct walk *w, unsigned major, unsigned minor)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->out[i].major == major && w->out[i].minor == minor)
			return true;
	return false;
}

/* The device whose sysfs directory is dir ("major:minor" in dir/dev). */
static void walk_dir(struct walk *w, const char *dir, enum devstack_role role, int depth)
{
	char devno[32];
	unsigned ma, mi;

	if (!sysfs_block_dev(dir, devno, sizeof(devno)) && sscanf(devno, "%u:%u", &ma, &mi) == 2)
		walk_dev(w, ma, mi, role, depth);
}

static void walk_slaves(struct walk *w, const char *dir, int depth)
{
	char path[PATH_MAX];
	struct dirent **names;
	int n;

	if (snprintf(path, sizeof(path), "%s/slaves", dir) >= (int)sizeof(path) ||
	    (n = scandir(path, &names, NULL, alphasort)) < 0)
		return;
	for (int i = 0; i < n; i++) {
		char link[PATH_MAX], *real;

		if (names[i]->d_name[0] != '.' &&
		    snprintf(link, sizeof(link), "%s/%s", path, names[i]->d_name) < (int)sizeof(link) &&
		    (real = realpath(link, NULL))) {
			walk_dir(w, real, DEVSTACK_SLAVE, depth + 1);
			free(real);
		}
		free(names[i]);
	}
	free(names);
}

static void walk_dev(struct walk *w, unsigned major, unsigned minor, enum devstack_role role, int depth)
{
	char path[PATH_MAX], file[PATH_MAX], *real, *slash;
	struct devstack_dev *d;
	struct stat st;
	bool gone;

	if (major == 0 || w->n >= w->max || listed(w, major, minor))
		return;
	d = &w->out[w->n++];
	*d = (struct devstack_dev){ .major = major, .minor = minor, .role = role };
	if (snprintf(path, sizeof(path), "%s/dev/block/%u:%u", w->root, major, minor) >= (int)sizeof(path) ||
	    !(real = realpath(path, NULL)))
		return;
	slash = strrchr(real, '/');
	snprintf(d->name, sizeof(d->name), "%s", slash ? slash + 1 : real);
	if (depth < DEVSTACK_MAX_DEPTH) {
		/* a partition's directory sits inside its disk's */
		if (snprintf(path, sizeof(path), "%s/partition", real) < (int)sizeof(path) &&
		    !stat(path, &st) && slash && slash != real) {
			*slash = '\0';
			walk_dir(w, real, DEVSTACK_DISK, depth + 1);
			*slash = '/';
		}
		walk_slaves(w, real, depth);
		if (!sysfs_loop_backing(real, file, sizeof(file), &gone) && !gone && !stat(file, &st))
			walk_dev(w, major(st.st_dev), minor(st.st_dev), DEVSTACK_LOOP_BACKING, depth + 1);
	}
	free(real);
}

size_t devstack_walk(const char *root, unsigned major, unsigned minor, struct devstack_dev *out, size_t max)
{
	struct walk w = { .root = root, .out = out, .max = max };

	walk_dev(&w, major, minor, DEVSTACK_TARGET, 0);
	return w.n;
}
