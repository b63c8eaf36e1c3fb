/*
 * dbio crash's probe (workload/durable.h), held for the workload that
 * checks it: kv (kv_durable.c) or fileio (fileio/durable.c). The layer's
 * thread tells each durability point here, and it goes to the checker
 * that listens (the one whose run started last); each cuts only while its
 * own run is started.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/rng.h"
#include "workload/durable.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const struct durable_probe *armed;
static void (*listener)(unsigned long n);

void durable_arm(const struct durable_probe *probe)
{
	pthread_mutex_lock(&lock);
	armed = probe;
	pthread_mutex_unlock(&lock);
}

bool durable_armed(void)
{
	return durable_probe() != NULL;
}

const struct durable_probe *durable_probe(void)
{
	const struct durable_probe *p;

	pthread_mutex_lock(&lock);
	p = armed;
	pthread_mutex_unlock(&lock);
	return p;
}

void durable_listen(void (*fn)(unsigned long n))
{
	pthread_mutex_lock(&lock);
	listener = fn;
	pthread_mutex_unlock(&lock);
}

void durable_point(unsigned long n)
{
	void (*fn)(unsigned long n);

	pthread_mutex_lock(&lock);
	fn = listener;
	pthread_mutex_unlock(&lock);
	if (fn)
		fn(n);
}

void durable_checker_point(struct durable_checker *c, unsigned long n)
{
	char cut[32];

	pthread_mutex_lock(&c->lock);
	if (c->started && c->probe && c->t.points < c->probe->points) {
		snprintf(cut, sizeof(cut), "fsync %lu", n);
		c->t.points++;
		c->check(cut);
	}
	pthread_mutex_unlock(&c->lock);
}

void durable_checker_fault(struct durable_checker *c, uint64_t lost)
{
	const struct durable_probe *p = c->probe;

	if (!p->fault_hit || !p->fault_hit(p->arg, c->t.fault_what, sizeof(c->t.fault_what)))
		return;
	c->t.fault_hit = true;
	c->t.after_states++;
	c->t.after_lossy += lost > 0;
	if (lost > c->t.after_lost_max)
		c->t.after_lost_max = lost;
}

void durable_tally_state(struct durable_tally *t, uint64_t lost)
{
	t->states++;
	t->lossy += lost > 0;
	t->lost += lost;
	if (lost > t->lost_max)
		t->lost_max = lost;
}

void durable_tally_first(struct durable_tally *t, uint64_t key, uint64_t seq, const char *cut,
			 const char *why)
{
	if (t->first_set)
		return;
	t->first_set = true;
	t->first_key = key;
	t->first_seq = seq;
	snprintf(t->first_cut, sizeof(t->first_cut), "%s", cut);
	snprintf(t->first_why, sizeof(t->first_why), "%s", why);
}

uint8_t *durable_choose(uint64_t n, unsigned k, uint64_t seed)
{
	uint8_t *chosen = calloc(n ? n : 1, 1);
	struct rng r;

	if (!chosen)
		return NULL;
	rng_seed(&r, seed);
	for (uint64_t left = k < n ? k : n, seen = 0; seen < n && left; seen++)
		if (rng_below(&r, n - seen) < left) { /* selection sampling */
			chosen[seen] = 1;
			left--;
		}
	return chosen;
}
