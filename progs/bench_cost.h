/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the prog-cost BPF programs (progs/bench_cost_*.bpf.c) and the
 * bench (bench/prog_cost/bench_cost_*.c).
 */
#ifndef BPFCHECK_BENCH_COST_H
#define BPFCHECK_BENCH_COST_H

/* Hash map lookups per run of prog-cost-bloom's programs. */
#define COST_BLOOM_PROBES	32

#endif
