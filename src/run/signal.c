/*
 * The stop signals: SIGINT, SIGTERM, SIGHUP and SIGQUIT only raise
 * run_stop_signal; workers, the layout and the tools the runner starts
 * poll it; see run.h.
 */
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "run/run.h"

atomic_int run_stop_signal;
atomic_int run_stop_sender;

/* The stop signals, one list for the handlers and the names. A run under
 * nohup inherits SIGHUP ignored and must outlive the terminal, so an
 * ignored SIGHUP stays ignored; SIGINT and SIGQUIT, which a shell ignores
 * for its background jobs, are caught all the same (as SIGINT always was):
 * sent on purpose, they should stop the run cleanly. */
static const struct {
	int sig;
	const char *name;
	bool keep_ignored;
} stop_signals[] = {
	{ SIGINT, "SIGINT", false },
	{ SIGTERM, "SIGTERM", false },
	{ SIGHUP, "SIGHUP", true },
	{ SIGQUIT, "SIGQUIT", false },
};

static void on_signal(int sig, siginfo_t *info, void *uctx)
{
	(void)uctx;
	atomic_store(&run_stop_sender, info && info->si_code <= 0 ? (int)info->si_pid : 0);
	atomic_store(&run_stop_signal, sig);
}

static void install(int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = flags | SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		struct sigaction old;

		if (stop_signals[i].keep_ignored && sigaction(stop_signals[i].sig, NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(stop_signals[i].sig, &sa, NULL);
	}
}

void run_signals_install(void)
{
	install(SA_RESETHAND); /* a second Ctrl-C kills at once */
}

/* mem_limit's child (limited.c): a Ctrl-C reaches it from the terminal and
 * again from dbio, which passes its stop signals on, so a second one must
 * not kill it; dbio's second one kills dbio, and the child with it
 * (PR_SET_PDEATHSIG). */
void run_signals_install_child(void)
{
	install(0);
}

const char *run_signal_name(int sig)
{
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		if (stop_signals[i].sig == sig)
			return stop_signals[i].name;
	return "a signal";
}
