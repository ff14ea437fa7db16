// SPDX-License-Identifier: GPL-2.0
/*
 * Perf buffer producer: batch_cnt 8-byte records per trigger with
 * bpf_perf_event_output into this CPU's buffer.  When the buffer is full
 * the helper fails (the record is lost) and the loss is counted here.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"

char LICENSE[] SEC("license") = "GPL";

/* max_entries 0: libbpf sizes it to the number of possible CPUs. */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} perfbuf SEC(".maps");

static __always_inline int emit_output(void *ctx,
				       struct bench_cpu_counters *c, __u64 val)
{
	return bpf_perf_event_output(ctx, &perfbuf, BPF_F_CURRENT_CPU, &val,
				     sizeof(val));
}

BENCH_BATCH_BODY(output, emit_output)

BENCH_PRODUCER(bench_pb_output, output)
