// SPDX-License-Identifier: GPL-2.0
/*
 * Queue and stack maps driven from BPF: a tracepoint pushes a sequence
 * number on each getpgid() of the test process; an XDP program pushes the
 * first word of each packet (run with BPF_PROG_TEST_RUN); another pops
 * the stack into a log userspace reads back.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bpf_misc.h"

char LICENSE[] SEC("license") = "GPL";

#define POP_LOG_LEN 16

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 64);
	__type(value, __u32);
} queue SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK);
	__uint(max_entries, 64);
	__type(value, __u32);
} stack SEC(".maps");

int target_pid;
__u32 next_value;
__u32 push_errors;
__u32 pop_log[POP_LOG_LEN];
__u32 pops;
__u32 pop_misses;

SEC("tp/syscalls/sys_enter_getpgid")
int push_on_getpgid(void *ctx)
{
	__u32 v;

	if (!IS_TARGET_PROCESS(target_pid))
		return 0;
	v = next_value++;
	if (bpf_map_push_elem(&queue, &v, 0))
		push_errors++;
	return 0;
}

/* Push the packet's first 32-bit word; too short a packet is an error. */
SEC("xdp")
int push_from_packet(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u32 v;

	if (data + sizeof(v) > data_end)
		return XDP_ABORTED;
	__builtin_memcpy(&v, data, sizeof(v));
	if (bpf_map_push_elem(&queue, &v, 0)) {
		push_errors++;
		return XDP_DROP;
	}
	return XDP_PASS;
}

/* Pop one value off the stack per run and log it; XDP_DROP when empty. */
SEC("xdp")
int pop_from_stack(struct xdp_md *ctx)
{
	__u32 v, i = pops;

	if (bpf_map_pop_elem(&stack, &v)) {
		pop_misses++;
		return XDP_DROP;
	}
	if (i < POP_LOG_LEN)
		pop_log[i] = v;
	pops++;
	return XDP_PASS;
}
