/* The coordinator's calls (coord.h): the ops when there is one, else the
 * answer of the only process. */
#include "run/coord.h"

int run_coord_agree(const struct run_coord *c, int rc, struct dbio_err *err)
{
	return c ? c->ops->agree(c->ctx, rc, err) : rc;
}

int run_coord_agree_plan(const struct run_coord *c, const char *plan, size_t len, struct dbio_err *err)
{
	return c ? c->ops->agree_plan(c->ctx, plan, len, err) : 0;
}

bool run_coord_any(const struct run_coord *c, bool mine)
{
	return c ? c->ops->any(c->ctx, mine) : mine;
}

int run_coord_barrier(const struct run_coord *c, const char *phase, int rc, struct dbio_err *err)
{
	return c ? c->ops->barrier(c->ctx, phase, rc, err) : rc;
}

bool run_coord_poll(const struct run_coord *c, bool failed)
{
	return c ? c->ops->poll(c->ctx, failed) : false;
}

uint64_t run_coord_most(const struct run_coord *c, uint64_t mine)
{
	return c ? c->ops->most(c->ctx, mine) : mine;
}

int run_coord_note_run(const struct run_coord *c, size_t job, size_t run, const struct run_stats *st)
{
	return c ? c->ops->note_run(c->ctx, job, run, st) : 0;
}

int run_coord_dirs(const struct run_coord *c, struct jobset *set, struct dbio_err *err)
{
	return c ? c->ops->dirs(c->ctx, set, err) : 0;
}

void run_coord_dirs_remove(const struct run_coord *c, bool keep)
{
	if (c)
		c->ops->dirs_remove(c->ctx, keep);
}

int run_coord_gather(const struct run_coord *c, struct json_t *result, struct json_t **merged,
		     struct dbio_err *err)
{
	*merged = NULL;
	return c ? c->ops->gather(c->ctx, result, merged, err) : 0;
}

int run_coord_rank(const struct run_coord *c)
{
	return c ? c->rank : 0;
}
