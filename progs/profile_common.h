/* SPDX-License-Identifier: GPL-2.0 */
/* The sample the perf_event profiler emits, shared with userspace. */
#ifndef BPFCHECK_PROFILE_COMMON_H
#define BPFCHECK_PROFILE_COMMON_H

#define PROFILE_MAX_DEPTH 32

struct profile_sample {
	__u32 pid;		/* tgid of the interrupted task */
	__u32 tid;
	__u64 ktime_ns;		/* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 cpu;
	__s32 stack_len;	/* bytes bpf_get_stack() wrote, or its error */
	__u64 stack[PROFILE_MAX_DEPTH];	/* user stack, innermost first */
};

#endif
