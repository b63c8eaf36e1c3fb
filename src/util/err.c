/* Error recording and text; see err.h. */
#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int dbio_err_set(struct dbio_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	if (err->code)
		return err->code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

const char *dbio_strerror(int code)
{
	switch (code) {
	case 0:
		return "success";
	case DBIO_EINPUT:
		return "bad input";
	case DBIO_EUNSAFE:
		return "refused: not dbio's data";
	case DBIO_ESTOPPED:
		return "stopped by a signal";
	case DBIO_EFORMAT:
		return "malformed file";
	}
	if (code < 0 && code > -DBIO_EBASE)
		return strerror(-code);
	return "unknown error";
}

int dbio_exit_status(int code)
{
	if (code == 0)
		return 0;
	return code == DBIO_EINPUT ? 2 : 1;
}
