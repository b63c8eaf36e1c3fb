/* The workload registry (one line per workload) and helpers the workloads share. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/mark.h"
#include "util/rmtree.h"
#include "util/units.h"
#include "workload/workload.h"
#include "workload/workload_int.h"
#include "workload/fileio/files.h"

extern const struct workload_ops workload_fileio;
extern const struct workload_ops workload_kv;
extern const struct workload_ops workload_import;
extern const struct workload_ops workload_oltp;
extern const struct workload_ops workload_meta;
extern const struct workload_ops workload_postgres;

const struct workload_ops *const workload_registry[] = {
	&workload_fileio,   &workload_kv,
#ifdef DBIO_HAVE_SQLITE3
	&workload_import,
#endif
	&workload_oltp,	    &workload_meta,
#ifdef DBIO_HAVE_LIBPQ
	&workload_postgres,
#endif
};

const size_t workload_count = sizeof(workload_registry) / sizeof(workload_registry[0]);

const struct workload_ops *workload_find(const char *name)
{
	for (size_t i = 0; i < workload_count; i++)
		if (!strcmp(workload_registry[i]->name, name))
			return workload_registry[i];
	return NULL;
}

bool workload_phase_known(const char *name, size_t len)
{
	for (size_t i = 0; i < workload_count; i++)
		for (const char *const *ph = workload_registry[i]->phases; ph && *ph; ph++)
			if (strlen(*ph) == len && !strncmp(*ph, name, len))
				return true;
	return false;
}

static bool is_op_type(const char *name)
{
	for (int t = 0; t < OP_NTYPES; t++)
		if (!strcmp(op_type_name((enum op_type)t), name))
			return true;
	return false;
}

void workload_phase_names(char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < workload_count; i++)
		for (const char *const *ph = workload_registry[i]->phases; ph && *ph; ph++) {
			const char *at = strstr(buf, *ph);
			const size_t n = strlen(*ph), used = strlen(buf);

			/* Once: a whole word of buf already ("schema" of import and
			 * postgres), and not an op type's name, listed before. */
			if ((at && (at == buf || at[-1] == ' ') && (at[n] == ' ' || !at[n])) ||
			    is_op_type(*ph))
				continue;
			snprintf(buf + used, len - used, "%s%s", used ? " " : "", *ph);
		}
}

void workload_list(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < workload_count && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", workload_registry[i]->name);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}

void workload_engine_conf(const struct job *job, struct engine_conf *conf)
{
	const bool queued = job->eng->caps & ENGINE_CAP_QUEUE;

	*conf = (struct engine_conf){ .iodepth = queued ? (unsigned)fileio_files(job)->layout.iodepth : 1,
				      .direct = fileio_files(job)->layout.direct,
				      .writable = job_writes(job) || (job->eng->caps & ENGINE_CAP_RDWR),
				      .sync_file_range = fileio_files(job)->layout.sfr_every > 0,
				      .own = job->eng_conf,
				      .reads = job_reads(job),
				      .trims = job_trims(job) };
}

int workload_check_memory(const struct job *job, const char *key, const char *what, const char *purpose,
			  uint64_t need, const char *fix, struct dbio_err *err)
{
	const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	const uint64_t ram = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
	const bool limited = job->mem_limit && (!ram || job->mem_limit < ram);
	const uint64_t base = limited ? job->mem_limit : ram;
	char n[32], cap[32], of[32];

	if (!base || need <= base / 2)
		return 0;
	units_fmt_bytes(n, sizeof(n), need);
	units_fmt_bytes(cap, sizeof(cap), base / 2);
	units_fmt_bytes(of, sizeof(of), base);
	return job_fail(job, key, err, "%s = %s of %s, more than the %s accepted (half of %s%s%s): %s", what,
			n, purpose, cap, limited ? "mem_limit=" : "the machine's ", of,
			limited ? "" : " of RAM", fix);
}

/* Bytes of the entries of the directory fd that start with prefix ("" for
 * all). It is read through a new open of ".": a dup would share, and use
 * up, fd's position. */
static uint64_t dir_bytes(int fd, const char *prefix)
{
	int dup_fd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	uint64_t sum = 0;
	struct dirent *e;

	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return 0;
	}
	while ((e = readdir(d))) {
		struct stat sb;

		if (!strncmp(e->d_name, prefix, strlen(prefix)) &&
		    !fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) && S_ISREG(sb.st_mode))
			sum += (uint64_t)sb.st_blocks * 512;
	}
	closedir(d);
	return sum;
}

/* Bytes the thread's files occupy (st_blocks): those named by its prefix
 * and what is in its private directory. */
uint64_t workload_disk_bytes(const struct worker *w)
{
	return dir_bytes(w->dirfd, w->prefix) + (w->db_dir[0] ? dir_bytes(w->db_dirfd, "") : 0);
}

uint64_t workload_db_subdir_bytes(const struct worker *w, const char *name)
{
	int fd = w->db_dir[0] ? openat(w->db_dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
			      : -1;
	uint64_t sum = fd >= 0 ? dir_bytes(fd, "") : 0;

	if (fd >= 0)
		close(fd);
	return sum;
}

int workload_db_dir(struct worker *w)
{
	char name[256];
	struct stat st;

	snprintf(name, sizeof(name), "%sdb", w->prefix);
	snprintf(w->db_dir, sizeof(w->db_dir), "%s/%s", w->dir_path, name);
	if (mkdirat(w->dirfd, name, 0700)) {
		int e = errno;

		w->db_dir[0] = '\0';
		if (e == EEXIST)
			return dbio_err_set(
				&w->err, DBIO_EUNSAFE,
				"%s/%s: already exists: left by an earlier run? remove it and run again",
				w->dir_path, name);
		return dbio_err_set(&w->err, -e, "%s/%s: cannot create: %s", w->dir_path, name, strerror(e));
	}
	w->db_dirfd = openat(w->dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* Only someone who can write the target could swap it meanwhile; what
	 * they put there is not a 0700 directory of dbio's user. */
	if (w->db_dirfd < 0 || fstat(w->db_dirfd, &st) || st.st_uid != geteuid() || (st.st_mode & 077)) {
		if (w->db_dirfd >= 0)
			close(w->db_dirfd);
		w->db_dir[0] = '\0';
		return dbio_err_set(&w->err, DBIO_EUNSAFE,
				    "%s/%s: replaced while dbio made it: refusing to work in it", w->dir_path,
				    name);
	}
	/* This run's: so that dbio can tell it from what is put in its place
	 * when the thread that made it is in the mem_limit child, whose
	 * descriptor dbio never holds (layout_remove_thread_files). */
	(void)mark_set(w->db_dirfd, mark_run_token());
	snprintf(w->db_lib_dir, sizeof(w->db_lib_dir), "/proc/self/fd/%d", w->db_dirfd);
	if (access(w->db_lib_dir, X_OK))
		return dbio_err_set(&w->err, -errno,
				    "%s: cannot reach it as %s: %s (the database workloads need /proc)",
				    w->db_dir, w->db_lib_dir, strerror(errno));
	return 0;
}

void workload_db_dir_close(struct worker *w)
{
	/* The descriptor stays open: the runner removes the directory
	 * through it (workload_db_dir_remove), never by its name. */
	(void)w;
}

int workload_db_dir_remove(struct worker *w, bool keep, char *why, size_t len)
{
	char name[256], found[128];
	struct stat st;
	int rc = 0;

	if (!w->db_dir[0])
		return 0;
	snprintf(name, sizeof(name), "%sdb", w->prefix);
	/* Two levels below it at most: meta's d<n>/<directory>. */
	if (!keep && (rc = rmtree_held(w->dirfd, name, w->db_dirfd, 2, &st)) == 1)
		snprintf(
			why, len,
			"%s: not removed: the name is now %s (dbio emptied its own directory, wherever it was moved): look at it and remove it by hand",
			w->db_dir, rmtree_describe(&st, found, sizeof(found)));
	else if (rc)
		snprintf(why, len, "%s: cannot remove: %s: remove it by hand", w->db_dir, strerror(-rc));
	close(w->db_dirfd);
	w->db_dir[0] = '\0';
	return rc;
}

const void *workload_part_conf(const struct job *job)
{
	for (size_t t = 0; t < job->nkeys; t++)
		if (job->keys[t].scope == OPTION_SCOPE_PART && job->keys[t].applies)
			return job->keys[t].conf;
	return NULL;
}
