/* SPDX-License-Identifier: GPL-2.0 */
/* How much CPU time other processes used while the bench ran. */
#ifndef BPFCHECK_BENCH_CPUSTAT_H
#define BPFCHECK_BENCH_CPUSTAT_H

#include <linux/types.h>

struct cpustat {
	__u64 busy_ns;		/* user + nice + system time of all CPUs */
	__u64 steal_ns;		/* taken by the hypervisor */
	__u64 self_ns;		/* this process's CPU time */
};

int cpustat_read(struct cpustat *c);
/*
 * CPU time others used between a and b: all CPUs' busy time less this
 * process's.  Both are tick-based, so it is clamped at 0.
 */
__u64 cpustat_other_ns(const struct cpustat *a, const struct cpustat *b);

#endif
