/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_lock.c: the machine's run lock (run_lock.h). */
#include "run_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "drop_prog.h" /* XDPTC_RUN_LOCK */

/* A run lock whose holder is gone: how often, and how many ms apart, to look again for
 * the children it left to die (docs: "waits up to 3 s") */
#define LOCK_WAIT_TRIES 60
#define LOCK_WAIT_MS 50

/* Is an flock of file @st held exclusively (a WRITE line of /proc/locks for its device
 * and inode: "N: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE ...", the device in hex)? */
static bool held_exclusive(const struct stat *st)
{
	char line[256], kind[16], rw[16];
	unsigned int maj, min;
	unsigned long ino;
	bool found = false;
	FILE *f = fopen("/proc/locks", "r");

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %15s %*s %15s %*d %x:%x:%lu", kind, rw, &maj, &min, &ino) == 5 &&
			!strcmp(kind, "FLOCK") && !strcmp(rw, "WRITE") && ino == (unsigned long)st->st_ino &&
			maj == major(st->st_dev) && min == minor(st->st_dev);
	if (f)
		fclose(f);
	return found;
}

/* The run lock on @held, inherited from `xdptc matrix`, which holds it for its runs: it
 * must be the lock file and locked by this open file (flock succeeds again, in the mode
 * asked for). The lock belongs to the open file the matrix shares with all its runs, so a
 * run that asks for it shared while the matrix holds it alone (a matrix that may run the
 * host engine) keeps it exclusive: turning it shared would let other icount work start
 * beside the matrix and fail its host runs later. Returns a copy of it (close-on-exec),
 * or -1. */
int run_lock_inherited(int held, bool exclusive)
{
	struct stat a, b;

	if (fstat(held, &a) || stat(XDPTC_RUN_LOCK, &b) || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino)
		return -1;
	if (!exclusive && held_exclusive(&a))
		exclusive = true; /* ours (the check below proves it): kept as it is */
	if (flock(held, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB))
		return -1;
	return fcntl(held, F_DUPFD_CLOEXEC, 3);
}

int run_lock_take_shared(int *holder)
{
	char buf[32];
	int fd, n;

	*holder = 0;
	if (mkdir(XDPTC_RUN_LOCK_DIR, 01777) == 0)
		chmod(XDPTC_RUN_LOCK_DIR, 01777);
	fd = open(XDPTC_RUN_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_SH | LOCK_NB)) {
		n = (int)pread(fd, buf, sizeof(buf) - 1, 0);
		if (n > 0) {
			buf[n] = '\0';
			*holder = atoi(buf);
		}
		close(fd);
		return -1;
	}
	return fd; /* the file names the last exclusive holder: shared holders leave it */
}

int run_lock_take(int *holder)
{
	char buf[32];
	int fd, n;

	*holder = 0;
	if (mkdir(XDPTC_RUN_LOCK_DIR, 01777) == 0) /* a system without one: as Debian's */
		chmod(XDPTC_RUN_LOCK_DIR, 01777);
	fd = open(XDPTC_RUN_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	for (int tries = 0; flock(fd, LOCK_EX | LOCK_NB); tries++) {
		n = (int)pread(fd, buf, sizeof(buf) - 1, 0);
		if (n > 0) {
			buf[n] = '\0';
			*holder = atoi(buf);
		}
		/* a holder that is gone (killed): the lock lives on in the forked children it
		 * left (a sender), which PR_SET_PDEATHSIG is killing; wait up to 3 s for them */
		if (*holder > 0 && kill(*holder, 0) && errno == ESRCH && tries < LOCK_WAIT_TRIES) {
			struct timespec ts = { 0, LOCK_WAIT_MS * 1000 * 1000 };

			nanosleep(&ts, NULL);
			continue;
		}
		close(fd);
		return -1;
	}
	n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, buf, (size_t)n, 0) != n)
		fprintf(stderr, "xdptc: note: cannot record the run lock's owner\n");
	return fd;
}
