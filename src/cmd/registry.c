/* The subcommand registry (one line per command) and the helpers every
 * command uses; see cmd.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metric.h"
#include "cmd/cmd.h"
#include "job/option.h"
#include "workload/workload.h"
#include "stats/opstats.h"
#include "util/list.h"
#include "util/termesc.h"

extern const struct cmd cmd_run;
extern const struct cmd cmd_help;
extern const struct cmd cmd_plot;
extern const struct cmd cmd_report;
extern const struct cmd cmd_compare;
extern const struct cmd cmd_sweep;
extern const struct cmd cmd_matrix;
extern const struct cmd cmd_sync;
extern const struct cmd cmd_crash;
extern const struct cmd cmd_sysinfo;
extern const struct cmd cmd_sysbench;
extern const struct cmd cmd_bonnie;
extern const struct cmd cmd_db_bench;

/* clang-format off */
const struct cmd *const cmd_registry[] = {
	&cmd_run,
	&cmd_sweep,
	&cmd_matrix,
	&cmd_compare,
	&cmd_sync,
	&cmd_crash,
	&cmd_bonnie,
	&cmd_sysinfo,
	&cmd_sysbench,
	&cmd_db_bench,
	&cmd_plot,
	&cmd_report,
	&cmd_help,
};
/* clang-format on */

const unsigned cmd_count = sizeof(cmd_registry) / sizeof(cmd_registry[0]);

const struct cmd *cmd_find(const char *name)
{
	for (unsigned i = 0; i < cmd_count; i++)
		if (!strcmp(cmd_registry[i]->name, name))
			return cmd_registry[i];
	return NULL;
}

const char *cmd_closest(const char *name)
{
	struct option_closest c = { .name = name };

	for (unsigned i = 0; i < cmd_count; i++)
		option_closest_offer(&c, cmd_registry[i]->name);
	return c.best;
}

/* Whether the n bytes at p name an op type. */
static bool is_op_name(const char *p, size_t n)
{
	for (int t = 0; t < OP_NTYPES; t++) {
		const char *name = op_type_name((enum op_type)t);

		if (strlen(name) == n && !strncmp(name, p, n))
			return true;
	}
	return false;
}

int cmd_check_ops(const char *list, char *names, size_t len)
{
	names[0] = '\0';
	for (int t = 0; t < OP_NTYPES; t++)
		snprintf(names + strlen(names), len - strlen(names), "%s%s", t ? ", " : "",
			 op_type_name((enum op_type)t));
	return list_check(list, is_op_name);
}

size_t cmd_phase_prefix(const char *item, size_t len)
{
	const size_t n = strlen(METRIC_PHASE_PREFIX);

	return len > n && !strncmp(item, METRIC_PHASE_PREFIX, n) ? n : 0;
}

static bool is_op_or_phase(const char *item, size_t len)
{
	const size_t pre = cmd_phase_prefix(item, len);

	return (!pre && is_op_name(item, len)) || workload_phase_known(item + pre, len - pre);
}

int cmd_check_ops_phases(const char *list, char *names, size_t len)
{
	cmd_check_ops(list, names, len);
	return list_check(list, is_op_or_phase);
}

bool cmd_ops_refused(const char *subject, const char *list)
{
	char names[256];
	int bad = cmd_check_ops(list, names, sizeof(names));

	if (bad)
		cmd_error("%s: --op %s: item %d is not an op type: expected a list of %s", subject, list, bad,
			  names);
	return bad != 0;
}

/* "dbio: " + each line of the message, with its control characters
 * escaped: messages quote job names, file names and text read from result
 * files. A message of several lines (every bad key of a job file) is
 * several "dbio: " lines. */
static void vsay(const char *fmt, va_list ap)
{
	char *msg;
	int len = vasprintf(&msg, fmt, ap);

	if (len < 0) {
		fputs("dbio: out of memory\n", stderr);
		return;
	}
	for (const char *line = msg; line;) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);

		fputs("dbio: ", stderr);
		termesc_write(stderr, line, n, TERMESC_LINE);
		fputc('\n', stderr);
		line = nl ? nl + 1 : NULL;
	}
	free(msg);
}

void cmd_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

void cmd_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}
