/* getrusage wrappers; see usage.h. */
#include "stats/usage.h"

#include <errno.h>
#include <sys/resource.h>

int usage_thread(struct usage *u)
{
	struct rusage r;

	if (getrusage(RUSAGE_THREAD, &r))
		return -errno;
	u->user_s = (double)r.ru_utime.tv_sec + (double)r.ru_utime.tv_usec / 1e6;
	u->sys_s = (double)r.ru_stime.tv_sec + (double)r.ru_stime.tv_usec / 1e6;
	u->majflt = r.ru_majflt;
	u->minflt = r.ru_minflt;
	u->nvcsw = r.ru_nvcsw;
	u->nivcsw = r.ru_nivcsw;
	u->inblock = r.ru_inblock;
	u->oublock = r.ru_oublock;
	return 0;
}

struct usage usage_sub(const struct usage *a, const struct usage *b)
{
	return (struct usage){
		.user_s = a->user_s - b->user_s,
		.sys_s = a->sys_s - b->sys_s,
		.majflt = a->majflt - b->majflt,
		.minflt = a->minflt - b->minflt,
		.nvcsw = a->nvcsw - b->nvcsw,
		.nivcsw = a->nivcsw - b->nivcsw,
		.inblock = a->inblock - b->inblock,
		.oublock = a->oublock - b->oublock,
	};
}

void usage_add(struct usage *dst, const struct usage *src)
{
	dst->user_s += src->user_s;
	dst->sys_s += src->sys_s;
	dst->majflt += src->majflt;
	dst->minflt += src->minflt;
	dst->nvcsw += src->nvcsw;
	dst->nivcsw += src->nivcsw;
	dst->inblock += src->inblock;
	dst->oublock += src->oublock;
}
