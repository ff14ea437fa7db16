/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFCHECK_BENCH_RUN_H
#define BPFCHECK_BENCH_RUN_H

#include "bench.h"

/*
 * Set up env->bench, start its consumers then producers, sample the
 * counters once a second, stop, drain, report.  The exit code.
 */
int bench_run(const struct bench_env *env);

#endif
