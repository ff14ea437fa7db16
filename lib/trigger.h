/* SPDX-License-Identifier: GPL-2.0 */
/* Ways for a test to make its BPF programs run. */
#ifndef BPFCHECK_TRIGGER_H
#define BPFCHECK_TRIGGER_H

#include <sys/syscall.h>
#include <unistd.h>

/* getpgid(0) n times, straight through syscall(2) so libc cannot cache. */
static inline void trigger_getpgid(int n)
{
	for (int i = 0; i < n; i++)
		syscall(SYS_getpgid, 0);
}

#endif
