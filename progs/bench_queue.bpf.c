// SPDX-License-Identifier: GPL-2.0
/*
 * Queue map producer: batch_cnt 8-byte values pushed per trigger.  A push
 * into a full queue fails and is counted as dropped.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"

char LICENSE[] SEC("license") = "GPL";

/* Userspace sets the capacity before load. */
struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 32768);
	__type(value, __u64);
} queue SEC(".maps");

static __always_inline int push(void *ctx)
{
	struct bench_cpu_counters *c;
	__u64 val;
	__u32 i;

	if (!bench_from_target())
		return 0;
	c = bench_counters();
	for (i = 0; i < cfg.batch_cnt && i < BENCH_MAX_BATCH; i++) {
		val = i;
		if (bpf_map_push_elem(&queue, &val, 0))
			bench_count_drop(c);
	}
	bench_count_produced(c, i);
	return 0;
}

BENCH_PRODUCER(bench_queue_push, push)
