/* Memory cgroups for mem_limit; see memlimit.h. */
#include "run/memlimit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_file(const char *dir, const char *name, const char *value)
{
	char path[4200];
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

static int read_u64(const char *dir, const char *name, uint64_t *v)
{
	char path[4200];
	unsigned long long x;
	FILE *fp;
	int n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(fp = fopen(path, "r")))
		return -errno;
	n = fscanf(fp, "%llu", &x);
	fclose(fp);
	if (n != 1)
		return -EINVAL;
	*v = x;
	return 0;
}

/* The mount point of the v1 memory controller or of cgroup2. */
static int find_mount(int version, char *out, size_t len)
{
	FILE *fp = fopen("/proc/self/mountinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	int rc = -ENOENT;

	if (!fp)
		return -errno;
	while (getline(&line, &cap, fp) > 0) {
		char mnt[4096], type[64], opts[1024];
		char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(dash + 3, "%63s %*s %1023s", type, opts) != 2)
			continue;
		if ((version == 1 && !strcmp(type, "cgroup") && strstr(opts, "memory")) ||
		    (version == 2 && !strcmp(type, "cgroup2"))) {
			snprintf(out, len, "%s", mnt);
			rc = 0;
			break;
		}
	}
	free(line);
	fclose(fp);
	return rc;
}

int memlimit_check(struct memlimit *m, struct dbio_err *err)
{
	FILE *fp = fopen("/proc/self/cgroup", "r");
	char *line = NULL, v1[4096] = "", v2[4096] = "", mnt[4096];
	size_t cap = 0;

	memset(m, 0, sizeof(*m));
	if (!fp)
		return dbio_err_set(err, DBIO_EINPUT, "mem_limit: cannot read /proc/self/cgroup: %s",
				    strerror(errno));
	while (getline(&line, &cap, fp) > 0) {
		char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL;

		if (!b)
			continue;
		/* "id:controllers:/path" */
		b[strcspn(b, "\n")] = '\0';
		*a = *b = '\0';
		if (strstr(a + 1, "memory"))
			snprintf(v1, sizeof(v1), "%s", b + 1);
		else if (!strcmp(line, "0") && a[1] == '\0')
			snprintf(v2, sizeof(v2), "%s", b + 1);
	}
	free(line);
	fclose(fp);
	if (v1[0] && !find_mount(1, mnt, sizeof(mnt))) {
		m->version = 1;
		snprintf(m->home, sizeof(m->home), "%s%s", mnt, strcmp(v1, "/") ? v1 : "");
	} else if (v2[0] && !find_mount(2, mnt, sizeof(mnt))) {
		m->version = 2;
		snprintf(m->home, sizeof(m->home), "%s%s", mnt, strcmp(v2, "/") ? v2 : "");
	} else {
		return dbio_err_set(
			err, DBIO_EINPUT,
			"mem_limit: no memory cgroup controller is mounted (cgroup v1 memory or cgroup2)");
	}
	if (access(m->home, W_OK))
		return dbio_err_set(err, DBIO_EINPUT,
				    "mem_limit: cannot create a cgroup in %s: %s (run as root)", m->home,
				    strerror(errno));
	return 0;
}

int memlimit_make(struct memlimit *m, uint64_t limit_bytes, struct dbio_err *err)
{
	char value[32];
	int rc;

	if (!m->version && (rc = memlimit_check(m, err)))
		return rc;
	snprintf(m->path, sizeof(m->path), "%s/dbio-%d", m->home, (int)getpid());
	if (mkdir(m->path, 0755)) /* EEXIST too: never take over a cgroup dbio did not make */
		return dbio_err_set(err, -errno, "mem_limit: cannot create cgroup %s: %s", m->path,
				    strerror(errno));
	if (m->version == 2)
		write_file(m->home, "cgroup.subtree_control", "+memory");
	snprintf(value, sizeof(value), "%llu", (unsigned long long)limit_bytes);
	rc = write_file(m->path, m->version == 1 ? "memory.limit_in_bytes" : "memory.max", value);
	if (rc) {
		rmdir(m->path);
		return dbio_err_set(err, rc, "mem_limit: cannot limit %s to %llu bytes: %s", m->path,
				    (unsigned long long)limit_bytes, strerror(-rc));
	}
	m->made = true;
	m->limit_bytes = limit_bytes;
	return 0;
}

int memlimit_join(const struct memlimit *m)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return write_file(m->path, "cgroup.procs", pid);
}

int memlimit_peak(const struct memlimit *m, uint64_t *peak_bytes)
{
	if (!m->made)
		return -ENOENT;
	return read_u64(m->path, m->version == 1 ? "memory.max_usage_in_bytes" : "memory.peak", peak_bytes);
}

int memlimit_oom_kills(const struct memlimit *m, uint64_t *kills)
{
	char path[4200], *line = NULL;
	size_t cap = 0;
	FILE *fp;
	int rc = -ENOENT;

	snprintf(path, sizeof(path), "%s/%s", m->path,
		 m->version == 1 ? "memory.oom_control" : "memory.events");
	if (!m->made || !(fp = fopen(path, "r")))
		return -ENOENT;
	while (getline(&line, &cap, fp) > 0) {
		unsigned long long n;

		if (sscanf(line, "oom_kill %llu", &n) == 1) {
			*kills = n;
			rc = 0;
		}
	}
	free(line);
	fclose(fp);
	return rc;
}

void memlimit_remove(struct memlimit *m)
{
	if (!m->made)
		return;
	/* The page cache charged to the child moves to the parent on rmdir;
	 * a killed process leaves the cgroup a moment after it is reaped. */
	for (int i = 0; i < 50 && rmdir(m->path) && errno == EBUSY; i++)
		usleep(20000);
	m->made = false;
}
