// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffer producers, one per API, each triggered by getpgid() of the
 * test process: reserve/submit, reserve/discard (odd records dropped on
 * purpose) and bpf_ringbuf_output, plus a producer into a one-page ring
 * that overflows so the drop accounting can be checked.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bpf_misc.h"
#include "ringbuf_common.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb_small SEC(".maps");

int target_pid;
__u64 next_seq;
__u64 submitted;
__u64 discarded;
__u64 dropped;

static __always_inline void fill(struct rb_record *r, __u64 seq, __u32 kind)
{
	r->seq = seq;
	r->pid = target_pid;
	r->kind = kind;
	for (int i = 0; i < RB_PAYLOAD_LEN; i++)
		r->payload[i] = rb_payload_byte(seq, i);
}

static __always_inline int reserve_and_submit(void *ring, __u32 kind)
{
	struct rb_record *r;
	__u64 seq;

	if (!IS_TARGET_PROCESS(target_pid))
		return 0;
	seq = next_seq++;
	r = bpf_ringbuf_reserve(ring, sizeof(*r), 0);
	if (!r) {
		dropped++;
		return 0;
	}
	fill(r, seq, kind);
	bpf_ringbuf_submit(r, 0);
	submitted++;
	return 0;
}

SEC("tp/syscalls/sys_enter_getpgid")
int rb_reserve_submit(void *ctx)
{
	return reserve_and_submit(&rb, RB_KIND_SUBMIT);
}

SEC("tp/syscalls/sys_enter_getpgid")
int rb_fill_small(void *ctx)
{
	return reserve_and_submit(&rb_small, RB_KIND_SMALL);
}

/* Odd sequence numbers are reserved, filled, then discarded. */
SEC("tp/syscalls/sys_enter_getpgid")
int rb_reserve_discard(void *ctx)
{
	struct rb_record *r;
	__u64 seq;

	if (!IS_TARGET_PROCESS(target_pid))
		return 0;
	seq = next_seq++;
	r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);
	if (!r) {
		dropped++;
		return 0;
	}
	fill(r, seq, RB_KIND_DISCARD_KEPT);
	if (seq & 1) {
		bpf_ringbuf_discard(r, 0);
		discarded++;
	} else {
		bpf_ringbuf_submit(r, 0);
		submitted++;
	}
	return 0;
}

SEC("tp/syscalls/sys_enter_getpgid")
int rb_output(void *ctx)
{
	struct rb_record r = {};
	__u64 seq;

	if (!IS_TARGET_PROCESS(target_pid))
		return 0;
	seq = next_seq++;
	fill(&r, seq, RB_KIND_OUTPUT);
	if (bpf_ringbuf_output(&rb, &r, sizeof(r), 0))
		dropped++;
	else
		submitted++;
	return 0;
}
