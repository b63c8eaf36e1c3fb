/*
 * fio's flow control: the shared count and the check; see flow.h.
 */
#include "workload/fileio/flow.h"

void flow_init(struct flow *f, uint64_t id)
{
	f->id = id;
	atomic_init(&f->ios, 1); /* fio's counter starts at 1 */
	atomic_init(&f->weight, 0);
}

void flow_join(struct flow *f, uint64_t weight)
{
	atomic_fetch_add(&f->weight, weight);
}

void flow_leave(struct flow *f, uint64_t mine, uint64_t weight)
{
	atomic_fetch_sub(&f->ios, mine);
	atomic_fetch_sub(&f->weight, weight);
}

bool flow_go(struct flow *f, uint64_t *mine, uint64_t weight)
{
	const uint64_t all = atomic_load_explicit(&f->ios, memory_order_relaxed),
		       total = atomic_load_explicit(&f->weight, memory_order_relaxed);

	/* fio: mine / all > weight / total waits; here without division */
	if ((unsigned __int128)*mine * total > (unsigned __int128)weight * all)
		return false;
	atomic_fetch_add_explicit(&f->ios, 1, memory_order_relaxed);
	++*mine;
	return true;
}
