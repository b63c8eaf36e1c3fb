/* A cgroup's memory.stat and io.stat; see cgstat.h. */
#include "sys/cgstat.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/procstat.h"

static const char *const cg_names[CG_NFIELDS] = {
	[CG_PGFAULT] = "pgfault",
	[CG_PGMAJFAULT] = "pgmajfault",
	[CG_PGSCAN] = "pgscan",
	[CG_PGSTEAL] = "pgsteal",
	[CG_WORKINGSET_REFAULT_FILE] = "workingset_refault_file",
	[CG_PGPGIN] = "pgpgin",
	[CG_PGPGOUT] = "pgpgout",
	[CG_FILE] = "file",
	[CG_FILE_DIRTY] = "file_dirty",
	[CG_FILE_WRITEBACK] = "file_writeback",
};

/* cgroup v1's names of the three levels, read into the same slots. */
static const char *const v1_names[] = { "cache", "dirty", "writeback" };

const char *cgstat_name(enum cg_field f)
{
	return cg_names[f];
}

/* io.stat: "MAJ:MIN rbytes=N wbytes=N rios=N wios=N dbytes=N dios=N" per
 * device, summed. */
static void read_io(const char *path, struct cgstat *s)
{
	FILE *fp = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;

	if (!fp)
		return;
	s->io_present = true;
	while (getline(&line, &cap, fp) > 0) {
		static const char *const keys[] = {
			"rbytes=", "wbytes=", "rios=", "wios=", "dbytes=", "dios="
		};
		uint64_t *dst[] = { &s->rbytes, &s->wbytes, &s->rios, &s->wios, &s->dbytes, &s->dios };

		for (int i = 0; i < 6; i++) {
			const char *at = strstr(line, keys[i]);

			if (at)
				*dst[i] += strtoull(at + strlen(keys[i]), NULL, 10);
		}
	}
	free(line);
	fclose(fp);
}

int cgstat_read(const char *dir, struct cgstat *s)
{
	const char *names[CG_NFIELDS + 3];
	uint64_t v[CG_NFIELDS + 3], found;
	char path[PATH_MAX];
	int rc;

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < CG_NFIELDS; i++)
		names[i] = cg_names[i];
	for (int i = 0; i < 3; i++)
		names[CG_NFIELDS + i] = v1_names[i];
	if (snprintf(path, sizeof(path), "%s/memory.stat", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if ((rc = procstat_keyed(path, names, CG_NFIELDS + 3, v, &found)))
		return rc;
	s->present = true;
	for (int i = 0; i < CG_NFIELDS; i++)
		s->v[i] = v[i];
	for (int i = 0; i < 3; i++)
		if (found & (1ull << (CG_NFIELDS + i))) {
			s->v[CG_FILE + i] = v[CG_NFIELDS + i];
			found |= 1ull << (CG_FILE + i);
		}
	s->found = found & ((1ull << CG_NFIELDS) - 1);
	if (snprintf(path, sizeof(path), "%s/io.stat", dir) < (int)sizeof(path))
		read_io(path, s);
	return 0;
}
