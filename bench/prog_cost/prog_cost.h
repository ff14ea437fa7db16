/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prog-cost: what one run of a BPF program costs, measured two
 * independent ways and reported side by side.
 *
 *   test_run   BPF_PROG_TEST_RUN with repeat over the benchmark's inputs;
 *              the kernel times the loop and reports whole ns per run.
 *   bpf_stats  the program runs attached and triggered for real (XDP on a
 *              veth pair in a private network namespace, or a tracepoint
 *              hit by a syscall) with BPF_ENABLE_STATS on; the cost is
 *              the growth of run_time_ns over that of run_cnt.
 *   userspace  (map-batch) userspace map operations timed by the clock.
 *
 * Statistics are off while test_run samples are taken: with them on,
 * every run also pays for the two clock reads that time it.  They are
 * on for every program while any process holds a BPF_ENABLE_STATS fd
 * (another bench, a profiler), which the sysctl does not show: a
 * test_run call during which the program's run_cnt moved is left out.
 *
 *   cost.h               the types they share
 *   prog_cost.c          the options and the run: samples
 *   cost_methods.c       test_run, bpf_stats
 *   prog_cost_report.c   text, JSON and BMF
 *   cost_inputs.c        frames and --data-in files
 *   cost_veth.c          XDP attached to a veth pair, frames sent to it
 *   bench_cost_*.c       the benchmarks
 */
#ifndef BPFCHECK_BENCH_PROG_COST_H
#define BPFCHECK_BENCH_PROG_COST_H

#include <stddef.h>

#include "bench.h"
#include "cost.h"

/* bench_ops.run of every prog-cost benchmark: the exit code. */
int prog_cost_run(const struct bench_env *env);
/* bench_ops.check of every prog-cost benchmark: variant, keys, op. */
int prog_cost_check(const struct bench_env *env, char *err, size_t len);

#endif
