/*
 * The stonewall a job's threads share (stonewall.h): what each thread
 * did when it passed it, and, with wear-out, the remainder they share.
 * Everything but stonewall_take happens once per thread and run, under
 * the stonewall's own lock; the worker waits with a timeout so that a
 * stop flag (a signal, a failed thread) ends the wait too.
 */
#include "workload/stonewall.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "util/clock.h"
#include "workload/workload.h"

int stonewall_init(struct stonewall *s, unsigned threads, bool wearout)
{
	pthread_condattr_t cattr;
	int rc;

	memset(s, 0, sizeof(*s));
	if ((rc = pthread_condattr_init(&cattr)))
		return -rc;
	pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
	rc = pthread_cond_init(&s->cond, &cattr);
	pthread_condattr_destroy(&cattr);
	if (rc)
		return -rc;
	if ((rc = pthread_mutex_init(&s->lock, NULL))) {
		pthread_cond_destroy(&s->cond);
		return -rc;
	}
	s->threads = threads;
	s->wearout = wearout;
	s->at_ns = UINT64_MAX;
	return 0;
}

void stonewall_release(struct stonewall *s)
{
	if (!s->threads)
		return;
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	s->threads = 0;
}

void stonewall_arm(struct stonewall *s, uint64_t at_ns)
{
	s->at_ns = at_ns;
}

/* Tell the thread's work, under s->lock. */
static void tell(struct stonewall *s, struct worker *w)
{
	uint64_t bytes = 0;

	if (w->wall_told)
		return;
	for (int t = 0; t < OP_NTYPES; t++)
		if (op_is_data((enum op_type)t))
			bytes += w->stats[t].bytes;
	w->wall_told = true;
	s->ops += atomic_load_explicit(&w->progress_ops, memory_order_relaxed);
	s->bytes += bytes;
	s->told++;
	s->told_ns = clock_now_ns();
	pthread_cond_broadcast(&s->cond);
}

bool stonewall_pass(struct worker *w)
{
	struct stonewall *s = w->wall;
	bool go_on;

	pthread_mutex_lock(&s->lock);
	tell(s, w);
	while (s->wearout && !s->decided && !atomic_load(w->stop) && !atomic_load(w->job_stop)) {
		uint64_t wake = clock_now_ns() + 100000000ull; /* look at the stop flags every 100 ms */
		struct timespec ts = { .tv_sec = (time_t)(wake / 1000000000u),
				       .tv_nsec = (long)(wake % 1000000000u) };

		pthread_cond_timedwait(&s->cond, &s->lock, &ts);
	}
	go_on = s->wearout && s->decided && atomic_load(&s->left) > 0;
	pthread_mutex_unlock(&s->lock);
	return go_on;
}

uint64_t stonewall_stop_at(const struct worker *w, uint64_t deadline)
{
	return w->wall && !w->wall_told && w->wall->at_ns < deadline ? w->wall->at_ns : deadline;
}

bool stonewall_past(struct worker *w, uint64_t now, uint64_t deadline, uint64_t *stop_at)
{
	if (now >= deadline || !w->wall || w->wall_told || !stonewall_pass(w))
		return false;
	*stop_at = deadline;
	return true;
}

bool stonewall_take(struct stonewall *s)
{
	uint_fast64_t n = atomic_load_explicit(&s->left, memory_order_relaxed);

	while (n && !atomic_compare_exchange_weak_explicit(&s->left, &n, n - 1, memory_order_relaxed,
							   memory_order_relaxed))
		;
	return n != 0;
}

void stonewall_leave(struct worker *w)
{
	if (!w->wall)
		return;
	pthread_mutex_lock(&w->wall->lock);
	tell(w->wall, w);
	pthread_mutex_unlock(&w->wall->lock);
}

void stonewall_wait(struct stonewall *s, uint64_t *ops, uint64_t *bytes, uint64_t *told_ns)
{
	pthread_mutex_lock(&s->lock);
	while (s->told < s->threads)
		pthread_cond_wait(&s->cond, &s->lock);
	*ops = s->ops;
	*bytes = s->bytes;
	*told_ns = s->told_ns;
	pthread_mutex_unlock(&s->lock);
}

void stonewall_decide(struct stonewall *s, uint64_t target_ops)
{
	pthread_mutex_lock(&s->lock);
	atomic_store(&s->left, s->wearout && target_ops > s->ops ? target_ops - s->ops : 0);
	s->decided = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}
