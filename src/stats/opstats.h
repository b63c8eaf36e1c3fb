/*
 * Per-worker counters for each operation type. A worker owns one
 * struct op_stats per type and updates it without locks; the runner merges
 * workers after they have joined.
 */
#ifndef DBIO_STATS_OPSTATS_H
#define DBIO_STATS_OPSTATS_H

#include "stats/hist.h"

enum op_type { OP_READ, OP_WRITE, OP_FSYNC, OP_FDATASYNC, OP_NTYPES };

struct op_stats {
	uint64_t bytes;
	struct hist lat_ns; /* count, min, max, sum live here */
};

/* "read", "write", "fsync", "fdatasync": the names used in JSON and text. */
const char *op_type_name(enum op_type t);

void op_stats_init(struct op_stats *s);
void op_stats_merge(struct op_stats *dst, const struct op_stats *src);

static inline void op_stats_add(struct op_stats *s, uint64_t bytes, uint64_t lat_ns)
{
	s->bytes += bytes;
	hist_add(&s->lat_ns, lat_ns);
}

#endif
