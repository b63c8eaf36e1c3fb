/* The system-counter sampler; see sampler.h. */
#include "run/sampler.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

void sampler_init(struct sampler *s, const struct job *jobs, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->interval_ns = 1000000000ull;
	for (size_t j = 0; j < n; j++) {
		char **dirs = NULL;
		int nd = job_split_dirs(jobs[j].directory, &dirs);

		if (jobs[j].log_interval.ns)
			s->interval_ns = jobs[j].log_interval.ns;
		for (int i = 0; i < nd; i++) {
			struct stat st;
			bool seen = false;

			if (stat(dirs[i], &st) == 0 && major(st.st_dev) != 0) {
				for (unsigned k = 0; k < s->ndev; k++)
					seen |= s->major[k] == major(st.st_dev) &&
						s->minor[k] == minor(st.st_dev);
				if (!seen && s->ndev < SAMPLER_MAX_DEVICES) {
					s->major[s->ndev] = major(st.st_dev);
					s->minor[s->ndev++] = minor(st.st_dev);
				}
			}
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
}

int sampler_copy(struct sampler *dst, const struct sampler *src)
{
	*dst = *src;
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
