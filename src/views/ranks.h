/*
 * The ranks of a result merged under MPI (its "ranks" section, mpi/mpi.h),
 * as text: per job and run, the aggregate rate beside each rank's spread.
 * Host and job names are written escaped (util/termesc.h).
 */
#ifndef DBIO_VIEWS_RANKS_H
#define DBIO_VIEWS_RANKS_H

#include <jansson.h>
#include <stdio.h>

/* Nothing when the result has no ranks section. Otherwise the ranks and
 * hosts, then per job and run and op type that ran: the aggregate ops/s
 * and MiB/s (over the first rank's start to the last rank's end) and the
 * ranks' own ops/s as min, mean, max and standard deviation. */
void text_ranks(FILE *fp, const json_t *result);

#endif
