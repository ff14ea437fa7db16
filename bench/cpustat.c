// SPDX-License-Identifier: GPL-2.0
/*
 * What else ran while the bench measured: the CPU time of other
 * processes (busy time of all CPUs less this process's own) and the time
 * the hypervisor stole.  A benchmark is only as good as the machine was
 * quiet; these say how quiet it was.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cpustat.h"

int cpustat_read(struct cpustat *c)
{
	unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;
	long tick = sysconf(_SC_CLK_TCK);
	struct timespec ts;
	FILE *f;
	int n;

	f = fopen("/proc/stat", "r");
	if (!f)
		return -errno;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice,
		   &system, &idle, &iowait, &irq, &softirq, &steal);
	fclose(f);
	if (n != 8 || tick <= 0 || clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return -EINVAL;
	/* Interrupt time is left out: most of it serves the bench's own events. */
	c->busy_ns = (user + nice + system) * (1000000000ULL / tick);
	c->steal_ns = steal * (1000000000ULL / tick);
	c->self_ns = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	return 0;
}

__u64 cpustat_other_ns(const struct cpustat *a, const struct cpustat *b)
{
	__u64 busy = b->busy_ns - a->busy_ns, self = b->self_ns - a->self_ns;

	return busy > self ? busy - self : 0;
}
