/* The system-counter sampler; see sampler.h. */
#include "run/sampler.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sys/sysfs.h"

/* Add the devices under major:minor that are not listed yet. */
static void add_stack(struct sampler *s, unsigned ma, unsigned mi)
{
	struct devstack_dev devs[SAMPLER_MAX_DEVICES];
	size_t n = s->basic ? 0 : devstack_walk(SYSFS_ROOT, ma, mi, devs, SAMPLER_MAX_DEVICES);

	if (s->basic) {
		devs[0] = (struct devstack_dev){ .major = ma, .minor = mi };
		n = 1;
	}
	for (size_t i = 0; i < n && s->ndev < SAMPLER_MAX_DEVICES; i++) {
		bool seen = false;

		for (unsigned k = 0; k < s->ndev; k++)
			seen |= s->major[k] == devs[i].major && s->minor[k] == devs[i].minor;
		if (seen)
			continue;
		s->major[s->ndev] = devs[i].major;
		s->minor[s->ndev] = devs[i].minor;
		memcpy(s->dev_name[s->ndev], devs[i].name, sizeof(devs[i].name));
		s->dev_role[s->ndev++] = devs[i].role;
	}
}

void sampler_init(struct sampler *s, const struct job *jobs, size_t n)
{
	const char *mode = getenv("DBIO_COUNTERS");

	memset(s, 0, sizeof(*s));
	s->basic = mode && !strcmp(mode, "basic");
	s->interval_ns = 1000000000ull;
	for (size_t j = 0; j < n; j++) {
		char **dirs = NULL;
		int nd = job_split_dirs(jobs[j].directory, &dirs);

		if (jobs[j].log_interval.ns)
			s->interval_ns = jobs[j].log_interval.ns;
		for (int i = 0; i < nd; i++) {
			struct stat st;

			if (stat(dirs[i], &st) == 0 && major(st.st_dev) != 0)
				add_stack(s, major(st.st_dev), minor(st.st_dev));
			free(dirs[i]);
		}
		free(dirs);
	}
}

void sampler_take(struct sampler *s, uint64_t now_ns)
{
	struct sample *p;

	if (s->nsamples == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct sample *grown = realloc(s->samples, cap * sizeof(*grown));

		if (!grown)
			return; /* the series ends early; the deltas still use the last sample */
		s->samples = grown;
		s->cap = cap;
	}
	p = &s->samples[s->nsamples++];
	memset(p, 0, sizeof(*p));
	p->t_ns = now_ns - s->origin_ns;
	for (unsigned k = 0; k < s->ndev; k++)
		procstat_disk("/proc/diskstats", s->major[k], s->minor[k], &p->disk[k]);
	procstat_mem("/proc/meminfo", &p->mem);
	procstat_vm("/proc/vmstat", &p->vm);
	if (s->basic)
		return;
	pressure_read("/proc/pressure/io", &p->psi[SAMPLER_PSI_IO]);
	pressure_read("/proc/pressure/memory", &p->psi[SAMPLER_PSI_MEMORY]);
	pressure_read("/proc/pressure/cpu", &p->psi[SAMPLER_PSI_CPU]);
	taskstat_io("/proc/self/io", &p->io);
	if (s->cgroup_dir)
		cgstat_read(s->cgroup_dir, &p->cg);
}

void sampler_cgroup(struct sampler *s, const char *dir)
{
	s->cgroup_dir = dir;
}

int sampler_copy(struct sampler *dst, const struct sampler *src)
{
	*dst = *src;
	dst->cgroup_dir = NULL;
	dst->samples = NULL;
	dst->cap = dst->nsamples;
	if (!src->nsamples)
		return 0;
	dst->samples = malloc(src->nsamples * sizeof(*dst->samples));
	if (!dst->samples) {
		dst->nsamples = dst->cap = 0;
		return -ENOMEM;
	}
	memcpy(dst->samples, src->samples, src->nsamples * sizeof(*dst->samples));
	return 0;
}

void sampler_release(struct sampler *s)
{
	free(s->samples);
	s->samples = NULL;
	s->nsamples = s->cap = 0;
}
