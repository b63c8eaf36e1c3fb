/* Error recording and text; see err.h. */
#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/termesc.h"

/* err's message from fmt and ap unless it holds one already; code. */
static int vset(struct dbio_err *err, int code, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	if (err->code)
		return err->code;
	err->code = code;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return 0;
}

/* Every message below cmd/ is made here, so this is where input text
 * (keys, values, names of files, ${VAR} values, text of result files)
 * enters one: its control characters, newline too, become visible escapes
 * here, and a value cannot add a line of its own ("\ndbio: …"). */
int dbio_err_set(struct dbio_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	int had;

	va_start(ap, fmt);
	had = vset(err, code, fmt, ap);
	va_end(ap);
	if (had)
		return had;
	if (err)
		termesc_fix(err->msg, sizeof(err->msg));
	return code;
}

int dbio_err_set_lines(struct dbio_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	int had;

	va_start(ap, fmt);
	had = vset(err, code, fmt, ap);
	va_end(ap);
	return had ? had : code;
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
