// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffer producers: batch_cnt 8-byte records per trigger, with
 * bpf_ringbuf_reserve/submit (rb-libbpf, rb-custom) or bpf_ringbuf_output
 * (rb-output).  A record that finds no room is counted as dropped.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"

char LICENSE[] SEC("license") = "GPL";

/* Userspace sets the size before load. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 512 * 1024);
} ringbuf SEC(".maps");

/*
 * Default: no flag, the kernel wakes the consumer if it has caught up.
 * Sampled: every sampled-th record of this CPU forces a wake-up, no other
 * does (as a perf buffer's wakeup_events).  A threshold on the waiting
 * bytes instead would force a wake-up for every record past it while the
 * consumer is slow, and with several producers the exact crossing can be
 * missed.  The count is per CPU and not atomic: a lost increment only
 * moves a wake-up.
 */
static __always_inline __u64 wakeup_flags(struct bench_cpu_counters *c)
{
	if (!cfg.sampled)
		return 0;
	if (++c->since_wakeup < cfg.sampled)
		return BPF_RB_NO_WAKEUP;
	c->since_wakeup = 0;
	return BPF_RB_FORCE_WAKEUP;
}

static __always_inline int emit_reserved(void *ctx,
					 struct bench_cpu_counters *c, __u64 val)
{
	__u64 *rec = bpf_ringbuf_reserve(&ringbuf, sizeof(*rec), 0);

	if (!rec)
		return -1;
	*rec = val;
	bpf_ringbuf_submit(rec, wakeup_flags(c));
	return 0;
}

static __always_inline int emit_output(void *ctx,
				       struct bench_cpu_counters *c, __u64 val)
{
	return bpf_ringbuf_output(&ringbuf, &val, sizeof(val),
				  wakeup_flags(c));
}

BENCH_BATCH_BODY(reserve_submit, emit_reserved)
BENCH_BATCH_BODY(output, emit_output)

BENCH_PRODUCER(bench_rb_reserve, reserve_submit)
BENCH_PRODUCER(bench_rb_output, output)
