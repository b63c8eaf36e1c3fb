/*
 * The runner's warning channel: what run/ has to say without failing (a
 * file it could not remove, direct=1 on tmpfs) formatted into one line
 * and handed to run_opts' warn callback, which cmd/ prints. Apart from
 * runner.c so that the steps it calls (layout, targets, leftovers) reach
 * it without calling back up into the runner.
 */
#include <stdarg.h>
#include <stdio.h>

#include "run/run_int.h"

void run_warn(const struct run_opts *opts, const char *fmt, ...)
{
	char msg[4608];
	va_list ap;

	if (!opts || !opts->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	opts->warn(opts->warn_ctx, msg);
}
