/*
 * pread-loop: the floor for dbio's psync read path. Random preads of BS bytes
 * at uniform block offsets (seeded, thread i uses SEED + i) over FILE for
 * SECONDS with THREADS threads, one clock_gettime(CLOCK_MONOTONIC) per
 * operation (the end of one op is the start of the next, as in dbio), the
 * latency summed so the clock read is used. Each thread opens FILE itself.
 *
 *   pread-loop FILE SECONDS [THREADS [BS [SEED]]]
 *
 * Prints one line: ops=N elapsed_s=S ops_per_s=R bytes_per_s=B threads=T bs=BS
 * Build: cc -O2 -pthread -o pread-loop pread-loop.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct thr {
	pthread_t tid;
	const char *path;
	uint64_t nblocks, bs, seed, run_ns;
	uint64_t ops, lat_sum_ns, start_ns, end_ns;
	int err;
};

static pthread_barrier_t gate;

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* splitmix64 to seed, xorshift64* to draw; Lemire's multiply for the range. */
static inline uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t xorshift64s(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

static inline uint64_t below(uint64_t *s, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)xorshift64s(s) * n) >> 64);
}

static void *run(void *arg)
{
	struct thr *t = arg;
	uint64_t s = t->seed, state = splitmix64(&s) | 1;
	void *buf;
	int fd = open(t->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || posix_memalign(&buf, 4096, t->bs)) {
		t->err = fd < 0 ? errno : ENOMEM;
		pthread_barrier_wait(&gate);
		return NULL;
	}
	pthread_barrier_wait(&gate);

	uint64_t now = now_ns();
	const uint64_t deadline = now + t->run_ns;

	t->start_ns = now;
	while (now < deadline) {
		off_t off = (off_t)(below(&state, t->nblocks) * t->bs);
		ssize_t n = pread(fd, buf, t->bs, off);
		uint64_t e = now_ns();

		if (n != (ssize_t)t->bs) {
			t->err = n < 0 ? errno : EIO;
			break;
		}
		t->lat_sum_ns += e - now;
		t->ops++;
		now = e;
	}
	t->end_ns = now;
	close(fd);
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 6) {
		fprintf(stderr, "usage: %s FILE SECONDS [THREADS [BS [SEED]]]\n", argv[0]);
		return 2;
	}
	const char *path = argv[1];
	double secs = strtod(argv[2], NULL);
	unsigned nthr = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 1;
	uint64_t bs = argc > 4 ? strtoull(argv[4], NULL, 10) : 4096;
	uint64_t seed = argc > 5 ? strtoull(argv[5], NULL, 10) : 24301;
	struct stat st;

	if (secs <= 0 || nthr < 1 || nthr > 1024 || bs < 1) {
		fprintf(stderr, "pread-loop: bad SECONDS, THREADS or BS\n");
		return 2;
	}
	if (stat(path, &st)) {
		fprintf(stderr, "pread-loop: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if ((uint64_t)st.st_size < bs) {
		fprintf(stderr, "pread-loop: %s: smaller than one block\n", path);
		return 1;
	}

	struct thr *t = calloc(nthr, sizeof(*t));

	if (!t)
		return 1;
	pthread_barrier_init(&gate, NULL, nthr);
	for (unsigned i = 0; i < nthr; i++) {
		t[i] = (struct thr){ .path = path,
				     .nblocks = (uint64_t)st.st_size / bs,
				     .bs = bs,
				     .seed = seed + i,
				     .run_ns = (uint64_t)(secs * 1e9) };
		if (pthread_create(&t[i].tid, NULL, run, &t[i])) {
			fprintf(stderr, "pread-loop: cannot start thread %u\n", i);
			return 1;
		}
	}

	uint64_t ops = 0, first = UINT64_MAX, last = 0;
	int rc = 0;

	for (unsigned i = 0; i < nthr; i++) {
		pthread_join(t[i].tid, NULL);
		if (t[i].err) {
			fprintf(stderr, "pread-loop: thread %u: %s\n", i, strerror(t[i].err));
			rc = 1;
		}
		ops += t[i].ops;
		if (t[i].start_ns && t[i].start_ns < first)
			first = t[i].start_ns;
		if (t[i].end_ns > last)
			last = t[i].end_ns;
	}
	if (rc)
		return rc;

	double el = (double)(last - first) / 1e9;

	printf("ops=%" PRIu64 " elapsed_s=%.6f ops_per_s=%.1f bytes_per_s=%.1f threads=%u bs=%" PRIu64 "\n",
	       ops, el, (double)ops / el, (double)ops * (double)bs / el, nthr, bs);
	free(t);
	return 0;
}
