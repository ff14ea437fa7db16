// SPDX-License-Identifier: GPL-2.0
/*
 * A sampling profiler: on each tick of a software cpu-clock perf event,
 * send who was running, when, on which CPU and its user stack to a ring
 * buffer.  No filtering here: the test checks the event itself only
 * fires for the task it was opened for.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "profile_common.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 512 * 1024);
} samples SEC(".maps");

__u64 produced;
__u64 dropped;

SEC("perf_event")
int profile_tick(struct bpf_perf_event_data *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct profile_sample *s;

	s = bpf_ringbuf_reserve(&samples, sizeof(*s), 0);
	if (!s) {
		__sync_fetch_and_add(&dropped, 1);
		return 0;
	}
	s->pid = id >> 32;
	s->tid = (__u32)id;
	s->ktime_ns = bpf_ktime_get_ns();
	s->cpu = bpf_get_smp_processor_id();
	s->stack_len = bpf_get_stack(ctx, s->stack, sizeof(s->stack),
				     BPF_F_USER_STACK);
	bpf_ringbuf_submit(s, 0);
	__sync_fetch_and_add(&produced, 1);
	return 0;
}
