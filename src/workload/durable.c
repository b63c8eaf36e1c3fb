/*
 * dbio crash's probe (workload/durable.h), held for the workload that
 * checks it: kv (kv_durable.c) or fileio (fileio/durable.c). The layer's
 * thread tells each durability point here, and it goes to the checker
 * that listens (the one whose run started last); each cuts only while its
 * own run is started.
 */
#include <pthread.h>

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
