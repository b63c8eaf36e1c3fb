/*
 * dbio crash's check of workload=fileio (workload/durable.h): a job that
 * only writes (rw=write, randwrite; one block size; psync, sync, pvsync,
 * pvsync2) runs on the power-cut layer, and at each crash state every
 * block it saw acknowledged is looked for in the cut's files.
 *
 * Each write carries, in its first 32 bytes, a seal: a magic, the block's
 * offset and file, the write's sequence, and a crc32c of the seal and of
 * the rest of the block, so a block read back says which write it is and
 * whether it is whole. A write is acknowledged when the call that makes
 * it durable by the job's setting returns: the write itself on a file
 * opened O_SYNC or O_DSYNC (sync=1, sync=dsync), else the next fsync or
 * fdatasync of its file (fsync=N, fdatasync=N, end_fsync,
 * fsync_scope=job); without one nothing is acknowledged, and what a cut
 * loses of what was written is told apart (durable_tally.wlost).
 *
 * fileio.c calls fileio_durable_start at the end of prepare (a no-op
 * without an armed probe), fileio_durable_io in place of the engine's io
 * while on, fileio_durable_finish after its run (and cleanup); jobsync.c's
 * fileio_timed_sync calls fileio_durable_synced after each sync that
 * returned. One thread: dbio crash runs numjobs=1.
 */
#ifndef DBIO_WORKLOAD_FILEIO_DURABLE_H
#define DBIO_WORKLOAD_FILEIO_DURABLE_H

#include <stdbool.h>

#include "engine/engine.h"

struct worker;
struct where;

/* With a probe armed (durable_probe): check that w's job is one the check
 * knows (else DBIO_EINPUT in w->err), make its tables, and make the laid
 * out files durable, the state the run starts from; *on true. Without
 * one, 0 and *on false. 0 or the error (w->err set). */
int fileio_durable_start(struct worker *w, const struct where *wh, bool *on);

/* The engine's io of req, a write sealed first; a write that returned is
 * noted (acknowledged when the file is O_SYNC/O_DSYNC), and a cut follows
 * when it is one of those chosen. The engine's return. */
int fileio_durable_io(struct worker *w, struct io_req *req);

/* A sync of w's file (op: fsync, fdatasync; sync_file_range counts for
 * nothing) returned: the writes of that file before it are acknowledged. */
void fileio_durable_synced(unsigned file, enum op_type op);

/* The findings into w->durable, the tables freed; again is a no-op. */
void fileio_durable_finish(struct worker *w);

#endif
