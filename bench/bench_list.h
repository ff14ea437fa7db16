/* SPDX-License-Identifier: GPL-2.0 */
/* The registered benchmarks: one by name, or all of them listed (-l). */
#ifndef BPFCHECK_BENCH_LIST_H
#define BPFCHECK_BENCH_LIST_H

#include "bench.h"

/* The benchmark registered as name, or NULL. */
const struct bench_ops *bench_find(const char *name);
/* Every benchmark's name and description on stdout, by name: the exit code. */
int bench_list(void);

#endif
