// SPDX-License-Identifier: GPL-2.0
/*
 * The same per-word logic called as a real BPF-to-BPF subprogram
 * (__noinline) and inlined (__always_inline): two XDP programs that must
 * agree on every packet while their loaded forms differ in function count.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

char LICENSE[] SEC("license") = "GPL";

#define SUB_WORDS 8

__u32 result_called;
__u32 result_inlined;

/* The body both variants share; the wrappers only differ in inlining. */
#define STEP_BODY(acc, w, i)						\
	do {								\
		acc = (acc ^ (w)) * 16777619u;				\
		if ((w) & 1)						\
			acc += (i) * 0x9e3779b9u;			\
		else							\
			acc = (acc >> 7) | (acc << 25);			\
	} while (0)

static __noinline __u32 step_called(__u32 acc, __u32 w, __u32 i)
{
	STEP_BODY(acc, w, i);
	return acc;
}

static __always_inline __u32 step_inlined(__u32 acc, __u32 w, __u32 i)
{
	STEP_BODY(acc, w, i);
	return acc;
}

#define PROG_BODY(ctx, step, out)					\
	({								\
		void *data = (void *)(long)(ctx)->data;			\
		void *data_end = (void *)(long)(ctx)->data_end;		\
		__u32 *words = data, acc = 2166136261u;			\
		int verdict = XDP_ABORTED;				\
		if (data + SUB_WORDS * sizeof(__u32) <= data_end) {	\
			for (__u32 i = 0; i < SUB_WORDS; i++)		\
				acc = step(acc, bpf_ntohl(words[i]), i);\
			out = acc;					\
			verdict = (acc & 1) ? XDP_PASS : XDP_DROP;	\
		}							\
		verdict;						\
	})

SEC("xdp")
int subprog_called(struct xdp_md *ctx)
{
	return PROG_BODY(ctx, step_called, result_called);
}

SEC("xdp")
int subprog_inlined(struct xdp_md *ctx)
{
	return PROG_BODY(ctx, step_inlined, result_inlined);
}
