/*
 * meta: file metadata — each thread creates meta_files small files spread
 * over meta_dirs directories, then stats every one, then deletes every one,
 * each operation timed (op types create, stat, delete; a phase each), as
 * bonnie++'s file tests and mdtest do. A create is open(O_CREAT | O_EXCL)
 * with meta_size bytes written, then close; stat is fstatat; delete is
 * unlinkat. meta_order=random visits the files in a seeded random order for
 * stat and delete (bonnie++'s random tests); creates are always in order of
 * their numbers, names being "<number>" in directory number % meta_dirs.
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
#include "util/syscalls.h"
#include "workload/workload.h"
#include "workload/workload_int.h"

/* meta's own keys. */
struct meta_conf {
	uint64_t files; /* per thread */
	uint64_t dirs;	/* directories the files are spread over, per thread */
	uint64_t size;	/* bytes written into each file at create */
	int order;	/* enum meta_order: of stat and delete */
	char phases[32];
	int kind; /* enum meta_kind */
};

enum meta_order { META_SEQ, META_RANDOM };
enum meta_kind { META_FILE, META_DIR };

static const struct opt_enum kind_values[] = {
	{ "file", META_FILE, "files: open(O_CREAT | O_EXCL) and close, fstatat, unlinkat" },
	{ "dir", META_DIR, "directories: mkdirat, fstatat, unlinkat(AT_REMOVEDIR); meta_size must be 0" },
	{ NULL, 0, NULL },
};

/* The phases, in the order they run. */
static const enum op_type all_phases[] = { OP_CREATE, OP_STAT, OP_DELETE };

static const struct opt_enum order_values[] = {
	{ "seq", META_SEQ, "in the order the files were created" },
	{ "random", META_RANDOM, "every file once, in a seeded random order" },
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
	  .help = "Bytes written into each file when it is created (0: empty files), counted as the create's bytes." },
	{ .name = "meta_order", .type = OPT_ENUM, .offset = F(order), .def = "seq", .values = order_values, .dbio_own = 1, .brief = 1,
	  .help = "The order of the stats and deletes." },
	{ .name = "meta_phases", .type = OPT_STR, .offset = F(phases), .size = sizeof(((struct meta_conf *)0)->phases), .def = "create,stat,delete", .dbio_own = 1,
	  .help = "The phases that run and are measured, in this order whatever the list's: create, stat, delete, ',' between them. Files a stat or delete phase needs are created first, unmeasured; what a phase leaves is removed after the run, unmeasured." },
	{ .name = "meta_kind", .type = OPT_ENUM, .offset = F(kind), .def = "file", .values = kind_values, .dbio_own = 1,
	  .help = "What is created, statted and deleted." },
};
/* clang-format on */

static const struct option_table meta_options = OPTION_TABLE(meta_defs, struct meta_conf);

struct meta_state {
	unsigned phases; /* 1 << op of each measured phase */
	int *dirfds;	 /* meta_dirs subdirectories of the private directory */
	char *data;	 /* meta_size bytes */
	struct offgen order;
};

/* meta_phases as 1 << op bits; 0 when a word is not a phase (or repeats). */
static unsigned parse_phases(const char *list)
{
	unsigned mask = 0;

	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		unsigned bit = 0;

		for (size_t i = 0; i < sizeof(all_phases) / sizeof(all_phases[0]); i++)
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

static int meta_validate(struct job *job, struct dbio_err *err)
{
	const struct meta_conf *conf = job->wl_conf;

	if (!parse_phases(conf->phases))
		return job_fail(
			job, "meta_phases", err,
			"'%s': expected one or more of create, stat, delete, each once, ',' between them",
			conf->phases);
	if (conf->kind == META_DIR && conf->size)
		return job_fail(job, "meta_size", err, "%llu with meta_kind=dir: a directory holds no data",
				(unsigned long long)conf->size);
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
	    !(st->data = calloc(1, conf->size ? conf->size : 1)))
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
	memset(st->data, 0x6d, conf->size);
	offgen_init(&st->order, conf->order == META_RANDOM ? OFFGEN_RANDMAP : OFFGEN_SEQ, conf->files,
		    w->job->randseed + w->index);
	for (int t = 0; t < OP_NTYPES; t++)
		op_stats_init(&w->stats[t]);
	st->phases = parse_phases(conf->phases);
	return st->phases & (1u << OP_CREATE) ? 0 : make_unmeasured(w, st);
}

static int one(struct worker *w, struct meta_state *st, enum op_type t, uint64_t n);

/* The files (or directories) for stat and delete phases without a measured
 * create: made before the measured phase starts. */
static int make_unmeasured(struct worker *w, struct meta_state *st)
{
	const struct meta_conf *conf = w->job->wl_conf;

	for (uint64_t n = 0; n < conf->files; n++) {
		int rc = one(w, st, OP_CREATE, n);

		if (rc)
			return dbio_err_set(&w->err, rc, "%s/d%llu/%llu: cannot make it: %s", w->db_dir,
					    (unsigned long long)(n % conf->dirs), (unsigned long long)n,
					    strerror(-rc));
	}
	return 0;
}

/* One operation of type t on file n; 0 or -errno. */
static int one(struct worker *w, struct meta_state *st, enum op_type t, uint64_t n)
{
	const struct meta_conf *conf = w->job->wl_conf;
	const int dirfd = st->dirfds[n % conf->dirs];
	char name[32];
	struct stat sb;
	int fd;

	snprintf(name, sizeof(name), "%llu", (unsigned long long)n);
	if (conf->kind == META_DIR)
		return t == OP_CREATE ? (mkdirat(dirfd, name, 0700) ? -errno : 0)
		       : t == OP_STAT ? (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) ? -errno : 0)
				      : (dbio_sys->unlinkat(dirfd, name, AT_REMOVEDIR) ? -errno : 0);
	switch (t) {
	case OP_CREATE:
		fd = dbio_sys->openat(dirfd, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC,
				      0644);
		if (fd < 0)
			return -errno;
		if (conf->size && dbio_sys->write(fd, st->data, conf->size) != (ssize_t)conf->size) {
			int e = errno ? errno : EIO;

			dbio_sys->close(fd);
			return -e;
		}
		return dbio_sys->close(fd) ? -errno : 0;
	case OP_STAT:
		return fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
	default:
		return dbio_sys->unlinkat(dirfd, name, 0) ? -errno : 0;
	}
}

/* A phase: every file once, with op type t. */
static int phase(struct worker *w, struct meta_state *st, enum op_type t, uint64_t *now)
{
	const struct meta_conf *conf = w->job->wl_conf;
	struct phase *ph = &w->phases[w->nphases++];
	const uint64_t bytes = t == OP_CREATE ? conf->size : 0;
	struct usage u0, u1;
	int rc = 0;

	ph->name = op_type_name(t);
	ph->start_ns = *now;
	usage_thread(&u0);
	st->order.pos = 0;
	for (uint64_t i = 0; i < conf->files && !workload_stopped(w); i++) {
		uint64_t n = t == OP_CREATE ? i : offgen_next(&st->order);
		uint64_t end;

		if ((rc = one(w, st, t, n))) {
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
	for (size_t p = 0; p < sizeof(all_phases) / sizeof(all_phases[0]) && !rc && !workload_stopped(w); p++)
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

const struct workload_ops workload_meta = {
	.name = "meta",
	.prepare = meta_prepare,
	.run = meta_run,
	.cleanup = meta_cleanup,
	.validate = meta_validate,
	.options = &meta_options,
	.work_items = meta_work_items,
};
