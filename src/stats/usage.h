/*
 * Resource use from getrusage: the CPU, fault, context-switch and block I/O
 * figures the seed reports list. Workers sample RUSAGE_THREAD at the start
 * and end of their measured phase; the runner adds the differences.
 */
#ifndef DBIO_STATS_USAGE_H
#define DBIO_STATS_USAGE_H

struct usage {
	double user_s;
	double sys_s;
	long majflt;
	long minflt;
	long nvcsw;
	long nivcsw;
	long inblock; /* 512-byte units, as the kernel counts them */
	long oublock;
};

/* Resource use of the calling thread so far; 0 or -errno. */
int usage_thread(struct usage *u);

/* a - b, field by field. */
struct usage usage_sub(const struct usage *a, const struct usage *b);

void usage_add(struct usage *dst, const struct usage *src);

#endif
