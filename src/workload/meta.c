/*
 * meta: file metadata — each thread creates meta_files small files spread
 * over meta_dirs directories, then stats every one, then deletes every one,
 * each operation timed (op types create, stat, read, rename, delete; a
 * phase each), as bonnie++'s file tests and mdtest do. A create is
 * open(O_CREAT | O_EXCL) with the file's bytes written, then close; stat is
 * fstatat; read is fstatat, open, read of the whole file and close
 * (bonnie++'s "Read"); rename is renameat to "<number>r" in the same
 * directory; delete is unlinkat. meta_order=random visits the files in a
 * seeded random order in every phase (bonnie++'s random tests), names being
 * "<number>" in directory number % meta_dirs. A file's size is meta_size, or
 * with meta_size_max a size drawn for it from its number and the seed, so
 * that nothing per file is kept: memory is O(meta_dirs) whatever
 * meta_files (the random order is a permutation computed, not stored).
 * meta_fsync_dir=1 fsyncs the directory after each create, rename and
 * delete, inside the timed operation.
 *
 * meta_phases picks which of the three phases run, measured (files that a
 * stat or delete phase needs are created first, unmeasured), and
 * meta_kind=dir makes directories instead of files (mkdir, stat, rmdir):
 * fio's metadata engines (filecreate, filestat, filedelete, dircreate,
 * dirstat, dirdelete) are meta jobs of one phase (plan/fio_meta.c).
 *
 * The files live in the thread's private directory (workload_db_dir,
 * dbio.<job>.<thread>.db), made 0700, so nothing else can put a name where
 * dbio creates one; the runner removes what is left of it.
 *
 * The worked example of a workload in docs/contributing.md: this file and
 * one line in workload.c's registry (and the op types in stats/opstats).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/rng.h"
#include "util/syscalls.h"
#include "workload/workload.h"
#include "workload/workload_int.h"

/* meta's own keys. */
struct meta_conf {
	uint64_t files;	   /* per thread */
	uint64_t dirs;	   /* directories the files are spread over, per thread */
	uint64_t size;	   /* bytes written into each file at create */
	uint64_t size_max; /* 0, or each file's size is drawn from [size, size_max] */
	int order;	   /* enum meta_order: of every phase */
	char phases[48];
	int kind; /* enum meta_kind */
	bool fsync_dir;
};

enum meta_order { META_SEQ, META_RANDOM };
enum meta_kind { META_FILE, META_DIR };

static const struct opt_enum kind_values[] = {
	{ "file", META_FILE, "files: open(O_CREAT | O_EXCL) and close, fstatat, unlinkat" },
	{ "dir", META_DIR, "directories: mkdirat, fstatat, unlinkat(AT_REMOVEDIR); meta_size must be 0" },
	{ NULL, 0, NULL },
};

/* The phases, in the order they run. */
static const enum op_type all_phases[] = { OP_CREATE, OP_STAT, OP_READ, OP_RENAME, OP_DELETE };
#define NPHASES	      (sizeof(all_phases) / sizeof(all_phases[0]))
#define MAX_U64(a, b) ((a) > (b) ? (a) : (b))

static const struct opt_enum order_values[] = {
	{ "seq", META_SEQ, "in the order of the files' numbers" },
	{ "random", META_RANDOM, "every file once, in a seeded random order, in every phase (creates too)" },
	{ NULL, 0, NULL },
};

#define F(field) offsetof(struct meta_conf, field)

/* clang-format off */
static const struct option_def meta_defs[] = {
	{ .name = "meta_files", .type = OPT_UINT, .offset = F(files), .def = "1000", .min = 1, .max = 10000000, .dbio_own = 1, .brief = 1,
	  .help = "Files each thread creates, stats and deletes." },
	{ .name = "meta_dirs", .type = OPT_UINT, .offset = F(dirs), .def = "1", .min = 1, .max = 100000, .dbio_own = 1, .brief = 1,
	  .help = "Directories each thread spreads its files over (file n goes to directory n % meta_dirs), made before the creates." },
	{ .name = "meta_size", .type = OPT_SIZE, .offset = F(size), .def = "0", .min = 0, .max = 1u << 20, .dbio_own = 1, .brief = 1,
	  .help = "Bytes written into each file when it is created (0: empty files), counted as the create's bytes; with meta_size_max, the smallest size." },
	{ .name = "meta_size_max", .type = OPT_SIZE, .offset = F(size_max), .def = "0", .min = 0, .max = 1u << 20, .dbio_own = 1,
	  .help = "Largest size of a file: each file's size is drawn (uniformly, from its number and randseed) between meta_size and this, as bonnie++'s -n N:MAX:MIN. 0: every file is meta_size bytes." },
	{ .name = "meta_order", .type = OPT_ENUM, .offset = F(order), .def = "seq", .values = order_values, .dbio_own = 1, .brief = 1,
	  .help = "The order in which each phase visits the files." },
	{ .name = "meta_phases", .type = OPT_STR, .offset = F(phases), .size = sizeof(((struct meta_conf *)0)->phases), .def = "create,stat,delete", .dbio_own = 1,
	  .help = "The phases that run and are measured, in this order whatever the list's: create, stat, read (stat, open, read the whole file, close), rename (to a new name in the same directory), delete; ',' between them. Files a later phase needs are created first, unmeasured; what a phase leaves is removed after the run, unmeasured." },
	{ .name = "meta_fsync_dir", .type = OPT_BOOL, .offset = F(fsync_dir), .def = "0", .dbio_own = 1,
	  .help = "fsync the file's directory after each create, rename and delete, timed as part of the operation: the cost of making the name durable." },
	{ .name = "meta_kind", .type = OPT_ENUM, .offset = F(kind), .def = "file", .values = kind_values, .dbio_own = 1,
	  .help = "What is created, statted and deleted." },
};
/* clang-format on */

static const struct option_table meta_options = OPTION_TABLE(meta_defs, struct meta_conf);

struct meta_state {
	unsigned phases; /* 1 << op of each measured phase */
	bool renamed;	 /* the files are named "<number>r" */
	int *dirfds;	 /* meta_dirs subdirectories of the private directory */
	char *data;	 /* data_len bytes: the largest file */
	size_t data_len;
	struct offgen order;
};

/* meta_phases as 1 << op bits; 0 when a word is not a phase (or repeats). */
static unsigned parse_phases(const char *list)
{
	unsigned mask = 0;

	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		unsigned bit = 0;

		for (size_t i = 0; i < NPHASES; i++)
			if (n == strlen(op_type_name(all_phases[i])) &&
			    !strncmp(p, op_type_name(all_phases[i]), n))
				bit = 1u << all_phases[i];
		if (!bit || (mask & bit))
			return 0;
		mask |= bit;
		p += n + (p[n] == ',');
	}
	return mask;
}

/* The size of file n: meta_size, or drawn from [meta_size, meta_size_max]
 * by its number and the seed (the same at create and at read). */
static uint64_t file_size(const struct job *job, uint64_t n)
{
	const struct meta_conf *conf = job->wl_conf;
	uint64_t x = n ^ (job->randseed * 0x9e3779b97f4a7c15ull);

	if (conf->size_max <= conf->size)
		return conf->size;
	return conf->size + rng_splitmix64(&x) % (conf->size_max - conf->size + 1);
}

static int meta_validate(struct job *job, struct dbio_err *err)
{
	const struct meta_conf *conf = job->wl_conf;

	if (!parse_phases(conf->phases))
		return job_fail(
			job, "meta_phases", err,
			"'%s': expected one or more of create, stat, read, rename, delete, each once, ',' between them",
			conf->phases);
	if (conf->kind == META_DIR && (conf->size || conf->size_max))
		return job_fail(job, conf->size ? "meta_size" : "meta_size_max", err,
				"%llu with meta_kind=dir: a directory holds no data",
				(unsigned long long)(conf->size ? conf->size : conf->size_max));
	if (conf->kind == META_DIR && (parse_phases(conf->phases) & ((1u << OP_READ) | (1u << OP_RENAME))))
		return job_fail(job, "meta_phases", err,
				"'%s' with meta_kind=dir: directories are created, statted and deleted only",
				conf->phases);
	if (conf->size_max && conf->size_max < conf->size)
		return job_fail(
			job, "meta_size_max", err,
			"%llu is less than meta_size (%llu): the largest size must be at least the smallest",
			(unsigned long long)conf->size_max, (unsigned long long)conf->size);
	if (job->time_based)
		return job_fail(job, "time_based", err, "not for workload=meta: a meta job runs its files");
	if (conf->dirs > conf->files)
		return job_fail(job, "meta_dirs", err,
				"%llu directories for %llu files: at most one per file",
				(unsigned long long)conf->dirs, (unsigned long long)conf->files);
	return 0;
}

static int make_unmeasured(struct worker *w, struct meta_state *st);

static int meta_prepare(struct worker *w)
{
	const struct meta_conf *conf = w->job->wl_conf;
	struct meta_state *st = calloc(1, sizeof(*st));
	int rc;

	w->priv = st;
	if (!st || !(st->dirfds = malloc(conf->dirs * sizeof(*st->dirfds))) ||
	    !(st->data = calloc(1, st->data_len = MAX_U64(MAX_U64(conf->size_max, conf->size), 1))))
		return dbio_err_set(&w->err, -ENOMEM, "worker %u: out of memory", w->index);
	for (uint64_t d = 0; d < conf->dirs; d++)
		st->dirfds[d] = -1;
	if ((rc = workload_db_dir(w)))
		return rc;
	for (uint64_t d = 0; d < conf->dirs; d++) {
		char name[32];

		snprintf(name, sizeof(name), "d%llu", (unsigned long long)d);
		if (mkdirat(w->db_dirfd, name, 0700) ||
		    (st->dirfds[d] =
			     openat(w->db_dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
			return dbio_err_set(&w->err, -errno, "%s/%s: cannot make it: %s", w->db_dir, name,
					    strerror(errno));
	}
	memset(st->data, 0x6d, st->data_len);
	for (int t = 0; t < OP_NTYPES; t++)
		op_stats_init(&w->stats[t]);
	st->phases = parse_phases(conf->phases);
	return st->phases & (1u << OP_CREATE) ? 0 : make_unmeasured(w, st);
}

static int one(struct worker *w, struct meta_state *st, enum op_type t, uint64_t n, uint64_t *bytes);

/* The files (or directories) for stat and delete phases without a measured
 * create: made before the measured phase starts. */
static int make_unmeasured(struct worker *w, struct meta_state *st)
{
	const struct meta_conf *conf = w->job->wl_conf;

	for (uint64_t n = 0; n < conf->files; n++) {
		uint64_t bytes;
		int rc = one(w, st, OP_CREATE, n, &bytes);

		if (rc)
			return dbio_err_set(&w->err, rc, "%s/d%llu/%llu: cannot make it: %s", w->db_dir,
					    (unsigned long long)(n % conf->dirs), (unsigned long long)n,
					    strerror(-rc));
	}
	return 0;
}

/* Read the whole of file name in dirfd (after its stat), as bonnie++'s
 * "Read": 0 or -errno; *bytes gets what was read. */
static int read_file(struct meta_state *st, int dirfd, const char *name, uint64_t *bytes)
{
	struct stat sb;
	ssize_t got;
	int fd, e = 0;

	if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW))
		return -errno;
	fd = dbio_sys->openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	while (*bytes < (uint64_t)sb.st_size &&
	       (got = dbio_sys->read(fd, st->data,
				     (size_t)((uint64_t)sb.st_size - *bytes < st->data_len
						      ? (uint64_t)sb.st_size - *bytes
						      : st->data_len))) > 0)
		*bytes += (uint64_t)got;
	if (*bytes < (uint64_t)sb.st_size)
		e = errno ? errno : EIO;
	if (dbio_sys->close(fd) && !e)
		e = errno;
	return -e;
}

static int create_file(struct worker *w, struct meta_state *st, int dirfd, const char *name, uint64_t n,
		       uint64_t *bytes)
{
	const uint64_t size = file_size(w->job, n);
	int fd = dbio_sys->openat(dirfd, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	if (size && dbio_sys->write(fd, st->data, size) != (ssize_t)size) {
		int e = errno ? errno : EIO;

		dbio_sys->close(fd);
		return -e;
	}
	*bytes = size;
	return dbio_sys->close(fd) ? -errno : 0;
}

/* One operation of type t on file n, its bytes (created or read) in
 * *bytes; 0 or -errno. */
static int one(struct worker *w, struct meta_state *st, enum op_type t, uint64_t n, uint64_t *bytes)
{
	const struct meta_conf *conf = w->job->wl_conf;
	const int dirfd = st->dirfds[n % conf->dirs];
	char name[32], newname[32];
	struct stat sb;
	int rc;

	*bytes = 0;
	snprintf(name, sizeof(name), "%llu%s", (unsigned long long)n, st->renamed ? "r" : "");
	if (conf->kind == META_DIR && t == OP_CREATE)
		rc = mkdirat(dirfd, name, 0700) ? -errno : 0;
	else if (conf->kind == META_DIR && t == OP_DELETE)
		rc = dbio_sys->unlinkat(dirfd, name, AT_REMOVEDIR) ? -errno : 0;
	else
		switch (t) {
		case OP_CREATE:
			rc = create_file(w, st, dirfd, name, n, bytes);
			break;
		case OP_STAT:
			return fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
		case OP_READ:
			return read_file(st, dirfd, name, bytes);
		case OP_RENAME:
			snprintf(newname, sizeof(newname), "%llur", (unsigned long long)n);
			rc = renameat(dirfd, name, dirfd, newname) ? -errno : 0;
			break;
		default:
			rc = dbio_sys->unlinkat(dirfd, name, 0) ? -errno : 0;
			break;
		}
	if (!rc && conf->fsync_dir && dbio_sys->fsync(dirfd))
		rc = -errno;
	return rc;
}

/* A phase: every file once, with op type t. */
static int phase(struct worker *w, struct meta_state *st, enum op_type t, uint64_t *now)
{
	const struct meta_conf *conf = w->job->wl_conf;
	struct phase *ph = &w->phases[w->nphases++];
	struct usage u0, u1;
	int rc = 0;

	ph->name = op_type_name(t);
	ph->start_ns = *now;
	usage_thread(&u0);
	/* each phase its own order: bonnie++'s random stats and deletes do not
	 * retrace its random creates */
	offgen_init(&st->order, conf->order == META_RANDOM ? OFFGEN_RANDMAP : OFFGEN_SEQ, conf->files,
		    worker_seed(w) + 7919u * (unsigned)t);
	for (uint64_t i = 0; i < conf->files && !workload_stopped(w); i++) {
		uint64_t n = offgen_next(&st->order);
		uint64_t end, bytes;

		if ((rc = one(w, st, t, n, &bytes))) {
			atomic_store(w->job_stop, 1);
			dbio_err_set(&w->err, rc, "%s/d%llu/%llu: %s: %s", w->db_dir,
				     (unsigned long long)(n % conf->dirs), (unsigned long long)n,
				     op_type_name(t), strerror(-rc));
			break;
		}
		end = clock_now_ns();
		workload_record(w, t, bytes, end - *now, end);
		*now = end;
		atomic_fetch_add_explicit(&w->progress_ops, 1, memory_order_relaxed);
	}
	usage_thread(&u1);
	ph->end_ns = *now;
	ph->ops = w->stats[t].lat_ns.count;
	ph->usage = usage_sub(&u1, &u0);
	if (t == OP_RENAME)
		st->renamed = true; /* also after a stop: the cleanup removes the whole directory */
	return rc;
}

static int meta_run(struct worker *w)
{
	struct meta_state *st = w->priv;
	uint64_t now = clock_now_ns();
	struct usage u0, u1;
	int rc = 0;

	w->start_ns = now;
	usage_thread(&u0);
	series_start(&w->series, w->series.interval_ns ? w->origin_ns : now);
	for (size_t p = 0; p < NPHASES && !rc && !workload_stopped(w); p++)
		if (st->phases & (1u << all_phases[p]))
			rc = phase(w, st, all_phases[p], &now);
	if (series_on(&w->series))
		series_finish(&w->series, now);
	w->end_ns = now;
	usage_thread(&u1);
	w->usage = usage_sub(&u1, &u0);
	return rc;
}

static void meta_cleanup(struct worker *w)
{
	struct meta_state *st = w->priv;
	const struct meta_conf *conf = w->job->wl_conf;

	if (!st)
		return;
	for (uint64_t d = 0; st->dirfds && d < conf->dirs; d++)
		if (st->dirfds[d] >= 0)
			close(st->dirfds[d]);
	free(st->dirfds);
	free(st->data);
	free(st);
	w->priv = NULL;
	workload_db_dir_close(w);
}

static uint64_t meta_work_items(const struct job *job)
{
	const struct meta_conf *conf = job->wl_conf;

	return conf->files * (uint64_t)__builtin_popcount(parse_phases(conf->phases));
}

/* phase() names each after its op type. */
static const char *const meta_phases[] = { "create", "stat", "read", "rename", "delete", NULL };

const struct workload_ops workload_meta = {
	.name = "meta",
	.prepare = meta_prepare,
	.run = meta_run,
	.cleanup = meta_cleanup,
	.validate = meta_validate,
	.options = &meta_options,
	.work_items = meta_work_items,
	.phases = meta_phases,
};
