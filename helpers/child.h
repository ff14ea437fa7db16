/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Child processes a test forks to run something beside it (a process that
 * makes noise, a workload to observe).  A child dies with its parent, so a
 * test that crashes leaves nothing behind; child_stop() kills and reaps.
 */
#ifndef BPFCHECK_CHILD_H
#define BPFCHECK_CHILD_H

#include <sys/types.h>

/*
 * Fork a child that runs fn(arg) and _exit()s with its return value; it
 * never returns into the test.  Returns the child's pid, or -1 with errno.
 */
pid_t child_start(int (*fn)(void *arg), void *arg);

/* SIGKILL *pid if it still runs and reap it; *pid becomes 0.  No-op on 0. */
void child_stop(pid_t *pid);

#endif
