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

static __always_inline int emit_push(void *ctx,
				     struct bench_cpu_counters *c, __u64 val)
{
	return bpf_map_push_elem(&queue, &val, 0);
}

BENCH_BATCH_BODY(push, emit_push)

BENCH_PRODUCER(bench_queue_push, push)
