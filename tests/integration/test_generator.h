/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * test_generator.h: the outside generator of the dev topology's tests: `xdptc send
 * --duration` as a process of its own that the run knows nothing about. Include after
 * <cmocka.h>, <fcntl.h>, <signal.h>, <stdio.h>, <sys/wait.h>, <unistd.h>.
 */
#ifndef XDPTC_TEST_GENERATOR_H
#define XDPTC_TEST_GENERATOR_H

/* generator_start - `@xdptc send --netns @netns --dst @dst --rate @rate --duration
 * @duration_s`, its output to /dev/null. Returns its pid. */
static inline pid_t generator_start(const char *xdptc, const char *netns, const char *dst,
				    unsigned rate, unsigned duration_s)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		char r[16], d[16];
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		snprintf(r, sizeof(r), "%u", rate);
		snprintf(d, sizeof(d), "%u", duration_s);
		execl(xdptc, xdptc, "send", "--netns", netns, "--dst", dst, "--rate", r,
		      "--duration", d, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* generator_stop - Ctrl-C to it (it says what it sent and exits), and reaped. */
static inline void generator_stop(pid_t pid)
{
	int st;

	kill(pid, SIGINT);
	waitpid(pid, &st, 0);
}

#endif
