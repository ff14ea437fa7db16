/* SPDX-License-Identifier: GPL-2.0 */
/* CPU lists ("0,2-3") and the online CPUs. */
#ifndef BPFCHECK_BENCH_CPUS_H
#define BPFCHECK_BENCH_CPUS_H

#include <sched.h>
#include <stddef.h>

/* Parse "0,2-3" into set.  0, or -1 with a reason in err. */
int cpus_parse(const char *spec, cpu_set_t *set, char *err, size_t len);
/* The online CPUs (from sysfs, else the affinity mask). */
int cpus_online(cpu_set_t *set);
/* Print a set as a CPU list into buf. */
void cpus_format(const cpu_set_t *set, char *buf, size_t len);
/* The n-th CPU of set, counting round (n may exceed the count). */
int cpus_nth(const cpu_set_t *set, int n);

#endif
