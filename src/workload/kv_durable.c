/*
 * dbio crash's check of workload=kv (workload/durable.h): "verify what you
 * acknowledged". Each value the run writes carries, after kv's stamp
 * (record number, write sequence), a crc32c of its key, its stamp and the
 * rest of its bytes. A batch's writes are acknowledged when its commit
 * returns. At each crash state (a durability point of the layer, or right
 * after an acknowledgement chosen at random) the layer is cut, the engine
 * reopened on the cut with its own recovery (backend reopen), and every
 * record read: an acknowledged one must be there with its acknowledged
 * value or a later write of it (whole: checksum, stamp and bytes); any
 * record with a bad checksum is torn, acknowledged or not. One thread.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/checksum.h"
#include "workload/durable.h"
#include "workload/workload_int.h"

#define STAMP_BYTES 16 /* kv.c's: record number, write sequence */
#define SEAL_BYTES  20 /* and the crc32c after them */
#define KEY_MAX	    64

struct pending {
	uint64_t rec, seq;
	uint32_t len;
};

static void check(const char *cut);

static struct kv_durable {
	struct durable_checker c;
	const struct kv_backend *be;
	uint64_t records;
	size_t vmax;
	char *fill;	      /* the value bytes after the seal, as every write has them */
	char *back;	      /* a value read back */
	char rel[4096];	      /* the database's path under the layer's mount */
	uint64_t *acked;      /* per record: the sequence of its acknowledged write, 0: none */
	uint32_t *alen;	      /* and its length */
	struct pending *pend; /* the writes of the batch not yet committed */
	size_t npend, cappend;
	uint8_t *chosen; /* per batch: cut after its acknowledgement */
	uint64_t batches, nbatches, acked_ops;
} kd = { .c = { .lock = PTHREAD_MUTEX_INITIALIZER, .check = check } };

static uint32_t seal_of(const char *key, size_t kl, const char *v, size_t vl)
{
	uint32_t c = csum_crc32c(0, key, kl);

	c = csum_crc32c(c, v, STAMP_BYTES);
	return csum_crc32c(c, v + SEAL_BYTES, vl - SEAL_BYTES);
}

void kv_durable_seal(char *v, size_t vl, const char *key, size_t kl)
{
	uint32_t c = seal_of(key, kl, v, vl);

	memcpy(v + STAMP_BYTES, &c, sizeof(c));
}

/* "ENGINE SETTING": the durability setting in force, in the engine's own
 * words where it has them (kv_backend.setting), else sync_each_batch. */
static void setting_of(const struct kv_backend *be, const struct kv_conf *conf, const void *own, char *buf,
		       size_t len)
{
	char what[64];

	if (be->setting)
		be->setting(conf, own, what, sizeof(what));
	else
		snprintf(what, sizeof(what), "sync_each_batch=%d", conf->sync_each_batch ? 1 : 0);
	snprintf(buf, len, "%s %s", be->name, what);
}

/* K of the run's batches, at random from seed (all of them when K is as
 * many): the acknowledgements a cut follows. */
static int choose_acks(const struct kv_conf *conf, unsigned k, uint64_t seed)
{
	kd.nbatches = (conf->records + conf->batch - 1) / conf->batch +
		      (conf->updates + conf->batch - 1) / conf->batch;
	kd.chosen = durable_choose(kd.nbatches, k, seed);
	return kd.chosen ? 0 : -ENOMEM;
}

static void kv_point(unsigned long n);

int kv_durable_start(struct worker *w, const struct kv_backend *be, const struct kv_conf *conf,
		     const void *own, const char *value, const char *path)
{
	const struct durable_probe *p = durable_probe();
	size_t rl = p ? strlen(p->root) : 0;
	int rc;

	if (!p)
		return 0;
	if (!be->reopen)
		return dbio_err_set(&w->err, DBIO_EINPUT, "crash: kv_engine=%s has no crash check", be->name);
	if (conf->value_size.lo < SEAL_BYTES + 4)
		return dbio_err_set(
			&w->err, DBIO_EINPUT,
			"crash: value_size %llu: below 24 bytes leaves no room for the record's checksum",
			(unsigned long long)conf->value_size.lo);
	if (conf->verify)
		return dbio_err_set(
			&w->err, DBIO_EINPUT,
			"crash: verify= is for dbio run: dbio crash reads every record back at each cut");
	if (strncmp(path, p->root, rl) || path[rl] != '/')
		return dbio_err_set(&w->err, -EINVAL, "crash: %s is not in the layer's mount %s", path,
				    p->root);
	memset(&kd.c.t, 0, sizeof(kd.c.t));
	kd.c.probe = p;
	snprintf(kd.rel, sizeof(kd.rel), "%s", path + rl + 1);
	kd.be = be;
	kd.records = conf->records;
	kd.vmax = conf->value_size.hi;
	kd.fill = malloc(kd.vmax);
	kd.back = malloc(kd.vmax);
	kd.acked = calloc(conf->records, sizeof(*kd.acked));
	kd.alen = calloc(conf->records, sizeof(*kd.alen));
	kd.cappend = conf->batch;
	kd.pend = calloc(conf->batch, sizeof(*kd.pend));
	if (!kd.fill || !kd.back || !kd.acked || !kd.alen || !kd.pend || choose_acks(conf, p->acks, p->seed))
		return dbio_err_set(&w->err, -ENOMEM,
				    "crash: out of memory for the table of acknowledged records");
	memcpy(kd.fill, value, kd.vmax);
	kd.c.t.on = true;
	snprintf(kd.c.t.model, sizeof(kd.c.t.model), "%s", p->model ? p->model : "lose");
	snprintf(kd.c.t.fault, sizeof(kd.c.t.fault), "%s", p->fault ? p->fault : "");
	setting_of(be, conf, own, kd.c.t.setting, sizeof(kd.c.t.setting));
	if ((rc = p->settle(p->arg)))
		return dbio_err_set(&w->err, rc, "crash: cannot make the engine's new files durable: %s",
				    strerror(-rc));
	kd.batches = kd.acked_ops = 0;
	kd.c.started = true;
	durable_listen(kv_point);
	return 0;
}

void kv_durable_issue(uint64_t rec, uint64_t seq, size_t vl)
{
	if (kd.npend < kd.cappend)
		kd.pend[kd.npend++] = (struct pending){ rec, seq, (uint32_t)vl };
}

/* Record rec as the cut holds it (vl bytes in kd.back, or missing): NULL
 * when it is what was acknowledged (or a later write), else why not;
 * *torn when its checksum is bad. */
static const char *judge(uint64_t rec, const char *key, size_t kl, bool found, size_t vl, bool *torn)
{
	uint64_t stamp[2];
	uint32_t c;

	*torn = false;
	if (!found)
		return kd.acked[rec] ? "missing" : NULL;
	if (vl < SEAL_BYTES || vl > kd.vmax) {
		*torn = true;
		return "a value of a size never written";
	}
	memcpy(stamp, kd.back, sizeof(stamp));
	memcpy(&c, kd.back + STAMP_BYTES, sizeof(c));
	if (c != seal_of(key, kl, kd.back, vl) || stamp[0] != rec ||
	    memcmp(kd.back + SEAL_BYTES, kd.fill + SEAL_BYTES, vl - SEAL_BYTES)) {
		*torn = true;
		return "a bad checksum";
	}
	if (stamp[1] < kd.acked[rec])
		return "an older value";
	if (stamp[1] == kd.acked[rec] && vl != kd.alen[rec])
		return "a value of another length";
	return NULL;
}

static void note_lost(uint64_t rec, const char *cut, const char *why)
{
	durable_tally_first(&kd.c.t, rec, kd.acked[rec], cut, why);
}

/* Every record of the reopened database db judged; the acknowledged ones
 * lost, or -errno when a read failed otherwise. */
static long read_all(struct kv_db *db, const char *cut)
{
	char key[KEY_MAX];
	long lost = 0;

	if (kd.be->begin(db, false))
		return -EIO;
	for (uint64_t rec = 0; rec < kd.records; rec++) {
		size_t vl = 0;
		bool torn;
		int n = snprintf(key, sizeof(key), "%016llu", (unsigned long long)rec), rc;
		const char *why;

		rc = kd.be->get(db, key, (size_t)n, kd.back, kd.vmax, &vl);
		if (rc && rc != -ENOENT)
			return rc;
		why = judge(rec, key, (size_t)n, rc == 0, vl, &torn);
		kd.c.t.torn += torn;
		if (why && kd.acked[rec]) {
			lost++;
			note_lost(rec, cut, why);
		}
	}
	kd.be->commit(db, false);
	return lost;
}

/* Everything acknowledged lost, why as the first lost record's why. */
static long lost_all(const char *cut, const char *why)
{
	kd.c.t.not_opened++;
	for (uint64_t rec = 0; rec < kd.records; rec++)
		if (kd.acked[rec]) {
			note_lost(rec, cut, why);
			break;
		}
	return (long)kd.acked_ops;
}

/* The database reopened on the cut while it is judged: closed after a
 * SIGBUS too (guarded_judge). */
static struct kv_db *judging;

/* The engine reopened on the cut at path, every record judged: the
 * acknowledged ones lost. */
static long reopen_judge(const char *path, const char *cut)
{
	struct dbio_err err = { 0 };
	bool intact = true;
	long lost;

	judging = NULL;
	if (kd.be->reopen(&judging, path, &intact, &err)) {
		judging = NULL; /* the backend's to free, as it always was */
		return lost_all(cut, err.msg[0] ? err.msg : "the engine would not open");
	}
	kd.c.t.integrity += !intact;
	lost = read_all(judging, cut);
	kd.be->close(judging);
	judging = NULL;
	if (lost < 0) {
		kd.c.t.not_opened++;
		lost = (long)kd.acked_ops;
	}
	return lost;
}

/* A map of a file the cut left shorter than the engine's pages (a crash
 * model kept a meta page but not the write that grew the file) raises
 * SIGBUS where the engine reads it: the check's thread jumps back out,
 * closes the engine's handle, and the state counts as one the engine
 * could not open. */
static __thread sigjmp_buf *bus_jump;

static void on_bus(int sig)
{
	if (bus_jump)
		siglongjmp(*bus_jump, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static long guarded_judge(const char *path, const char *cut)
{
	struct sigaction sa = { .sa_handler = on_bus }, old;
	sigjmp_buf here;
	long lost;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(here, 1)) {
		bus_jump = NULL;
		kd.be->close(judging);
		judging = NULL;
		lost = lost_all(cut, "SIGBUS reading the engine's map: the file is shorter than its pages");
	} else {
		bus_jump = &here;
		lost = reopen_judge(path, cut);
	}
	bus_jump = NULL;
	sigaction(SIGBUS, &old, NULL);
	return lost;
}

/* One crash state: cut, reopen, judge. Under kd.c.lock. */
static void check(const char *cut)
{
	const struct durable_probe *p = kd.c.probe;
	char path[4200];
	int cutfd, rc = p->cut(p->arg, &cutfd);
	long lost;

	if (rc < 0) {
		snprintf(kd.c.t.first_why, sizeof(kd.c.t.first_why), "the cut failed: %s", strerror(-rc));
		return;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", cutfd, kd.rel);
	lost = guarded_judge(path, cut);
	close(cutfd);
	durable_checker_fault(&kd.c, (uint64_t)lost);
	durable_tally_state(&kd.c.t, (uint64_t)lost);
}

void kv_durable_ack(void)
{
	char cut[32];

	pthread_mutex_lock(&kd.c.lock);
	for (size_t i = 0; i < kd.npend; i++) {
		if (!kd.acked[kd.pend[i].rec])
			kd.acked_ops++;
		kd.acked[kd.pend[i].rec] = kd.pend[i].seq;
		kd.alen[kd.pend[i].rec] = kd.pend[i].len;
	}
	kd.npend = 0;
	if (kd.c.started && kd.batches < kd.nbatches && kd.chosen[kd.batches]) {
		snprintf(cut, sizeof(cut), "ack %llu", (unsigned long long)kd.batches + 1);
		kd.c.t.acks++;
		check(cut);
	}
	kd.batches++;
	pthread_mutex_unlock(&kd.c.lock);
}

void kv_durable_failed(const char *why)
{
	pthread_mutex_lock(&kd.c.lock);
	kd.npend = 0; /* the batch is not acknowledged */
	if (kd.c.started && !kd.c.t.fault_error[0]) {
		snprintf(kd.c.t.fault_error, sizeof(kd.c.t.fault_error), "%s", why);
		/* The error is the fault's when it has hit by now; and what
		 * the state it leaves has lost. */
		kd.c.t.fault_seen =
			kd.c.probe->fault_hit &&
			kd.c.probe->fault_hit(kd.c.probe->arg, kd.c.t.fault_what, sizeof(kd.c.t.fault_what));
		check("after the error");
	}
	pthread_mutex_unlock(&kd.c.lock);
}

static void kv_point(unsigned long n)
{
	durable_checker_point(&kd.c, n);
}

void kv_durable_finish(struct worker *w)
{
	pthread_mutex_lock(&kd.c.lock);
	if (kd.c.started) {
		kd.c.t.acked = kd.acked_ops;
		w->durable = kd.c.t;
	}
	kd.c.started = false;
	kd.c.probe = NULL;
	free(kd.fill);
	free(kd.back);
	free(kd.acked);
	free(kd.alen);
	free(kd.pend);
	free(kd.chosen);
	kd.fill = kd.back = NULL;
	kd.acked = NULL;
	kd.alen = NULL;
	kd.pend = NULL;
	kd.chosen = NULL;
	kd.npend = 0;
	pthread_mutex_unlock(&kd.c.lock);
}
