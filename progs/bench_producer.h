/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF side of the bench producers: configuration, per-CPU counters and
 * the entry points.  Include once, from one progs/bench_*.bpf.c.
 */
#ifndef BPFCHECK_BENCH_PRODUCER_H
#define BPFCHECK_BENCH_PRODUCER_H

#include "bench_common.h"
#include "bpf_misc.h"

const volatile struct bench_config cfg = { .batch_cnt = 1 };

struct bench_cpu_counters counters[BENCH_MAX_CPUS]
	__attribute__((aligned(BENCH_CACHE_LINE)));

static __always_inline bool bench_from_target(void)
{
	return (__u32)(bpf_get_current_pid_tgid() >> 32) == cfg.target_tgid;
}

/* This CPU's counters. */
static __always_inline struct bench_cpu_counters *bench_counters(void)
{
	return &counters[bpf_get_smp_processor_id() & (BENCH_MAX_CPUS - 1)];
}

/*
 * The slot is this CPU's, so the adds do not bounce a cache line between
 * CPUs.  They are atomic anyway because a preemptible kernel may run the
 * program again on this CPU before the first run has stored its sum.
 * Drops go to memory as they happen: a drop count kept in a register
 * would make every loop iteration's state differ and the verifier would
 * walk each combination of drops.
 */
static __always_inline void bench_count_drop(struct bench_cpu_counters *c)
{
	__sync_fetch_and_add(&c->dropped, 1);
}

static __always_inline void bench_count_produced(struct bench_cpu_counters *c,
						 __u64 n)
{
	__sync_fetch_and_add(&c->produced, n);
}

/*
 * A producer body named name: for the bench's own process, emit
 * cfg.batch_cnt records 0, 1, 2...  emit(ctx, counters, value) places one
 * record and returns non-zero when it was dropped.
 */
#define BENCH_BATCH_BODY(name, emit)					\
static __always_inline int name(void *ctx)				\
{									\
	struct bench_cpu_counters *c;					\
	__u32 i;							\
									\
	if (!bench_from_target())					\
		return 0;						\
	c = bench_counters();						\
	for (i = 0; i < cfg.batch_cnt && i < BENCH_MAX_BATCH; i++)	\
		if (emit(ctx, c, i))					\
			bench_count_drop(c);				\
	bench_count_produced(c, i);					\
	return 0;							\
}

/*
 * Three entry points for one producer body fn(ctx): fentry on the
 * getpgid syscall function, the sys_enter_getpgid tracepoint and the raw
 * sys_enter tracepoint (every syscall, so it filters on the number).
 * Userspace loads only the one this kernel supports.
 */
#define BENCH_PRODUCER(name, fn)					\
SEC("fentry/" SYS_PREFIX "sys_getpgid")					\
int name##_fentry(void *ctx)						\
{									\
	return fn(ctx);							\
}									\
SEC("tp/syscalls/sys_enter_getpgid")					\
int name##_tp(void *ctx)						\
{									\
	return fn(ctx);							\
}									\
SEC("raw_tp/sys_enter")							\
int name##_raw_tp(struct bpf_raw_tracepoint_args *ctx)			\
{									\
	if (ctx->args[1] != cfg.getpgid_nr)				\
		return 0;						\
	return fn(ctx);							\
}

#endif
