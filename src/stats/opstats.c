/* Per-operation-type counters; see opstats.h. */
#include "stats/opstats.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

const char *op_type_name(enum op_type t)
{
	static const char *const names[OP_NTYPES] = {
		[OP_READ] = "read",	  [OP_WRITE] = "write",
		[OP_FSYNC] = "fsync",	  [OP_FDATASYNC] = "fdatasync",
		[OP_INSERT] = "insert",	  [OP_LOOKUP] = "lookup",
		[OP_UPDATE] = "update",	  [OP_COMMIT] = "commit",
		[OP_BATCH] = "batch",	  [OP_INDEX] = "index",
		[OP_TXN] = "transaction", [OP_LOG] = "log",
		[OP_CREATE] = "create",	  [OP_STAT] = "stat",
		[OP_DELETE] = "delete",	  [OP_SYNC_FILE_RANGE] = "sync_file_range",
		[OP_TRIM] = "trim",	  [OP_RENAME] = "rename",
	};
	return (unsigned)t < OP_NTYPES ? names[t] : "?";
}

void op_stats_init(struct op_stats *s)
{
	s->bytes = 0;
	hist_init(&s->lat_ns);
}

void op_stats_merge(struct op_stats *dst, const struct op_stats *src)
{
	dst->bytes += src->bytes;
	hist_merge(&dst->lat_ns, &src->lat_ns);
}

const char *io_errors_name(int kind)
{
	return kind == IOERR_EIO ? "EIO" : "EILSEQ";
}

bool io_errors_add(struct io_errors *e, int rc, const char *fmt, ...)
{
	va_list ap;

	if (rc != -EIO && rc != -EILSEQ)
		return false;
	if (!e->total++) {
		e->first_kind = rc == -EIO ? IOERR_EIO : IOERR_EILSEQ;
		va_start(ap, fmt);
		vsnprintf(e->first, sizeof(e->first), fmt, ap);
		va_end(ap);
	}
	e->by_kind[rc == -EIO ? IOERR_EIO : IOERR_EILSEQ]++;
	return true;
}
