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
 * Default: no flag, the kernel wakes the consumer when it has caught up.
 * Sampled: wake only once wakeup_bytes are waiting, never otherwise.
 */
static __always_inline __u64 wakeup_flags(void)
{
	if (!cfg.wakeup_bytes)
		return 0;
	if (bpf_ringbuf_query(&ringbuf, BPF_RB_AVAIL_DATA) >= cfg.wakeup_bytes)
		return BPF_RB_FORCE_WAKEUP;
	return BPF_RB_NO_WAKEUP;
}

static __always_inline int reserve_submit(void *ctx)
{
	__u64 dropped = 0, *rec;
	__u32 i;

	if (!bench_from_target())
		return 0;
	for (i = 0; i < cfg.batch_cnt && i < BENCH_MAX_BATCH; i++) {
		rec = bpf_ringbuf_reserve(&ringbuf, sizeof(*rec), 0);
		if (!rec) {
			dropped++;
			continue;
		}
		*rec = i;
		bpf_ringbuf_submit(rec, wakeup_flags());
	}
	bench_count(i, dropped);
	return 0;
}

static __always_inline int output(void *ctx)
{
	__u64 dropped = 0, val;
	__u32 i;

	if (!bench_from_target())
		return 0;
	for (i = 0; i < cfg.batch_cnt && i < BENCH_MAX_BATCH; i++) {
		val = i;
		if (bpf_ringbuf_output(&ringbuf, &val, sizeof(val),
				       wakeup_flags()))
			dropped++;
	}
	bench_count(i, dropped);
	return 0;
}

BENCH_PRODUCER(bench_rb_reserve, reserve_submit)
BENCH_PRODUCER(bench_rb_output, output)
