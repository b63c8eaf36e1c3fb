/* Error recording and text; see err.h. */
#include "util/err.h"

#include <stdarg.h>
#include <stdbool.h>
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

/* Whether code says the input was bad: its message quotes that input. */
static bool bad_input(int code)
{
	return code == DBIO_EINPUT || code == DBIO_EFORMAT || code == DBIO_EUNSAFE;
}

/* Every message below cmd/ is made here, so this is where input text
 * (keys, values, names of files, ${VAR} values, text of result files)
 * enters one: its control characters become visible escapes here, and in
 * a message of bad input newline too, so that a value cannot add a line of
 * its own ("\ndbio: …"). A runtime failure's message may list lines
 * (verify's bad blocks, joined by its own format); newlines that end a
 * message are dropped. */
int dbio_err_set(struct dbio_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	int had;

	va_start(ap, fmt);
	had = vset(err, code, fmt, ap);
	va_end(ap);
	if (had || !err)
		return had ? had : code;
	/* text of another program (libpq's) often ends in a newline: a
	 * message does not */
	for (size_t n = strlen(err->msg); n && (err->msg[n - 1] == '\n' || err->msg[n - 1] == '\r');)
		err->msg[--n] = '\0';
	termesc_fix_flags(err->msg, sizeof(err->msg), bad_input(code) ? TERMESC_LINE : 0);
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
