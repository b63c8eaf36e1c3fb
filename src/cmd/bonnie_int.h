/*
 * dbio bonnie's parts: the command line and the job file (bonnie.c), and
 * bonnie++ 2.00a's CSV line and text table made from the result
 * (bonnie_out.c).
 */
#ifndef DBIO_CMD_BONNIE_INT_H
#define DBIO_CMD_BONNIE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "cmd/cmd_int.h"

/* bonnie++'s parameters, as given or defaulted. */
struct bonnie {
	const char *dir;
	const char *name; /* -m */
	uint64_t size_mib;
	uint64_t chunk; /* bytes */
	uint64_t seeks, seekers;
	uint64_t files_k; /* -n: files / 1024 */
	uint64_t max_size, min_size, dirs;
	long long ram_mib;    /* -r; -1: not given */
	unsigned runs;	      /* -x */
	unsigned concurrency; /* -c: a label, and the RAM rule's multiplier (bonnie++ 2.00a runs one copy) */
	bool runs_given;      /* -x: CSV lines alone, a header line first when more than one */
	bool size_given;
	bool quiet, sync_writes, direct, seed_set;
	unsigned long long seed;
	char name_shown[32]; /* name as the table and the CSV show it: escaped, cut to a CSV field */
};

/* bonnie++'s defaults (bonnie.h): what the table leaves out of "SIZE:CHUNK...". */
#define BONNIE_CHUNK   8192u
#define BONNIE_SEEKS   8192u
#define BONNIE_SEEKERS 5u

/* Print the table(s) and the CSV line(s) of result for b, as bonnie++
 * 2.00a prints them: without -x a table (stdout, stderr with -q) then the
 * line; with -x only lines, after a header line when -x is more than 1. */
void bonnie_print(const struct bonnie *b, const json_t *result);

#endif
