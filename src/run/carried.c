/*
 * The files a group lays out for a later group of the same run (fio's
 * filename= after a stonewall): the later group opens the name again, and
 * in a directory another user can rename in, that name may by then be any
 * file. Each is recorded by device and inode when dbio creates it, and the
 * later group takes only a file recorded here.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "run/run_int.h"

static struct carried {
	dev_t dev;
	ino_t ino;
} * carried;
static size_t ncarried, cap;

int run_carried_add(const struct stat *st)
{
	if (ncarried == cap) {
		size_t n = cap ? 2 * cap : 16;
		struct carried *p = realloc(carried, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		carried = p;
		cap = n;
	}
	carried[ncarried++] = (struct carried){ st->st_dev, st->st_ino };
	return 0;
}

bool run_carried_has(const struct stat *st)
{
	for (size_t i = 0; i < ncarried; i++)
		if (carried[i].dev == st->st_dev && carried[i].ino == st->st_ino)
			return true;
	return false;
}
