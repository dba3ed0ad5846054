/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_begin.c: what every run does first (run_begin.h). */
#include "run_begin.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "run_lock.h"
#include "run_signals.h"
#include "topologies.h"

int run_begin(const struct run_opts *o, struct topology *t)
{
	int lock_fd, holder;

	/* a run that counts guest instructions may share it with others that do (a matrix's
	 * cells side by side); one that times the host must hold it alone */
	lock_fd = o->held_lock > 0 ? run_lock_inherited(o->held_lock, o->engine != ENGINE_ICOUNT)
				   : run_lock_take(&holder);
	if (lock_fd < 0 && o->held_lock > 0) {
		fprintf(stderr, "xdptc: --held-lock %d is not the run lock held for this run\n",
			o->held_lock);
		return -1;
	}
	if (lock_fd < 0) {
		char who[96] = "";

		/* the lock file names the last run that held it alone; runs that share it
		 * (icount runs, a matrix's cells) leave it, so a pid that has ended is not
		 * the holder */
		if (holder > 0 && !kill(holder, 0))
			snprintf(who, sizeof(who), " (pid %d)", holder);
		else
			snprintf(who, sizeof(who), "%s", " (runs that share the lock, or what a "
				 "killed run left running)");
		fprintf(stderr, "xdptc: another xdptc run%s is measuring on this machine; runs at "
				"the same time bias each other's numbers, so this one will not start. "
				"Wait for it to finish.\n", who);
		return -1;
	}
	run_signals_install();
	/* what earlier, killed runs left (a run still going keeps what it has); we hold the
	 * run lock: the empty run directories under out_dir are killed runs' */
	if (cleanup_leftovers(o->topologies_dir, topology_scripts(), NULL, "xdptc: left by a run or a person now gone: ") < 0 ||
	    cleanup_empty_run_dirs(o->out_dir, "xdptc: left by a killed run: ") < 0)
		fprintf(stderr, "xdptc: note: the cleanup of earlier runs failed\n");
	memset(t, 0, sizeof(*t));
	snprintf(t->prefix, sizeof(t->prefix), "xdptc-%06x",
		 (unsigned int)(((unsigned long)getpid() * 2654435761ul) ^ (unsigned long)time(NULL)) &
			 0xffffff);
	return lock_fd;
}
