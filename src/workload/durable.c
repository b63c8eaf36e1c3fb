/*
 * dbio crash's probe (workload/durable.h), held for the workload that
 * checks it: kv (kv_durable.c) or fileio (fileio/durable.c). The layer's
 * thread tells each durability point here, and each checker cuts only
 * while its own run is started, so the point goes to both.
 */
#include <pthread.h>

#include "workload/durable.h"
#include "workload/fileio/durable.h"
#include "workload/workload_int.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const struct durable_probe *armed;

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

void durable_point(unsigned long n)
{
	kv_durable_point(n);
	fileio_durable_point(n);
}
