// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

pid_t child_start(int (*fn)(void *arg), void *arg)
{
	pid_t parent = getpid();
	pid_t pid;

	/* Buffered test output must not be written a second time by the child. */
	fflush(NULL);
	pid = fork();
	if (pid != 0)
		return pid;
	/*
	 * Die with the parent.  If the parent is already gone, the signal
	 * was set too late to fire: check for that once it is set.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(127);
	_exit(fn(arg));
}

void child_stop(pid_t *pid)
{
	if (*pid <= 0)
		return;
	kill(*pid, SIGKILL);
	while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
		;
	*pid = 0;
}
