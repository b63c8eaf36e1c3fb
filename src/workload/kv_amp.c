/*
 * Write amplification of a kv phase, three ways (see workload_int.h): the
 * engine's own account (kv_backend.io: RocksDB's statistics, LevelDB's
 * leveldb.stats), the bytes the process handed to write(2) and its kin
 * (/proc/self/io's wchar: every thread's, the engine's background threads
 * too, and the page cache's share, synced or not) and the sectors the
 * target's device wrote (/proc/diskstats: everyone's, and only what
 * writeback got to during the phase). Each is a figure of the phase;
 * result/ divides every *_write_bytes figure by user_bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sys/procstat.h"
#include "workload/workload.h"
#include "workload/workload_int.h"

/* /proc/self/io's wchar, or 0 when it cannot be read. */
static uint64_t proc_wchar(void)
{
	FILE *f = fopen("/proc/self/io", "re");
	unsigned long long v = 0;
	char line[128];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "wchar: %llu", &v) == 1)
			break;
	fclose(f);
	return v;
}

static uint64_t put_bytes(const struct worker *w)
{
	return w->stats[OP_INSERT].bytes + w->stats[OP_UPDATE].bytes;
}

void kv_amp_begin(struct kv_amp *a, const struct worker *w, const struct kv_backend *be, struct kv_db *db)
{
	struct stat st;
	struct diskstat d;

	memset(a, 0, sizeof(*a));
	a->eng_known = be->io && be->io(db, &a->eng) == 0;
	a->user_bytes = put_bytes(w);
	a->wchar = proc_wchar();
	/* a target on a block device (not tmpfs): every thread says so, and
	 * thread 0 alone counts, so that the figures add up across threads */
	if (!fstat(w->dirfd, &st) && major(st.st_dev) &&
	    !procstat_disk("/proc/diskstats", major(st.st_dev), minor(st.st_dev), &d)) {
		a->dev_known = true;
		a->major = major(st.st_dev);
		a->minor = minor(st.st_dev);
		a->sectors = d.sectors_written;
	}
}

static void figure(struct phase *ph, const char *name, double v)
{
	if (ph->nfigures < PHASE_MAX_FIGURES)
		ph->figures[ph->nfigures++] = (struct phase_figure){ name, v };
}

void kv_amp_end(struct kv_amp *a, struct worker *w, const struct kv_backend *be, struct kv_db *db)
{
	struct phase *ph = &w->phases[w->nphases - 1];
	struct kv_engine_io now = { 0 };
	struct diskstat d = { 0 };

	figure(ph, "user_bytes", (double)(put_bytes(w) - a->user_bytes));
	if (a->eng_known && be->io(db, &now) == 0) {
		const uint64_t wal = now.wal_bytes - a->eng.wal_bytes,
			       fl = now.flush_bytes - a->eng.flush_bytes,
			       comp = now.compaction_bytes - a->eng.compaction_bytes;

		figure(ph, "wal_bytes", (double)wal);
		figure(ph, "flush_bytes", (double)fl);
		figure(ph, "compaction_bytes", (double)comp);
		figure(ph, "engine_write_bytes", (double)(wal + fl + comp));
		figure(ph, "compaction_s", (double)(now.compaction_us - a->eng.compaction_us) / 1e6);
		figure(ph, "stall_s", (double)(now.stall_us - a->eng.stall_us) / 1e6);
	}
	/* every thread the same figures in the same places: they are summed by place */
	figure(ph, "fs_write_bytes", w->index ? 0.0 : (double)(proc_wchar() - a->wchar));
	if (a->dev_known && !procstat_disk("/proc/diskstats", a->major, a->minor, &d))
		figure(ph, "device_write_bytes",
		       w->index ? 0.0 : (double)((d.sectors_written - a->sectors) * 512));
}
