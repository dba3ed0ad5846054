/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_signals.c: the run's stop flag and its signal handlers (run_signals.h). */
#include "run_signals.h"

#include <signal.h>
#include <string.h>

#include "trial.h"

static volatile int g_stop;

bool run_stopped(void)
{
	return g_stop;
}

volatile int *run_stop_flag(void)
{
	return &g_stop;
}

/* a topology script's `up` running now: its process group (its own, see
 * run_topology_cmd), told of a stop so that it removes what it made and ends */
static volatile pid_t g_topology_up_pgid;

void run_signals_group(pid_t pgid)
{
	g_topology_up_pgid = pgid;
}

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
	if (trial_child_pid > 0)
		kill(trial_child_pid, SIGKILL);
	if (g_topology_up_pgid > 0)
		kill(-g_topology_up_pgid, SIGTERM);
}

void run_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a closed stdout (| head) or a dead sender's pipe: write() fails instead, and the
	 * run goes on to its normal end and cleanup */
	signal(SIGPIPE, SIG_IGN);
}
