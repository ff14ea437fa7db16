// SPDX-License-Identifier: GPL-2.0
/*
 * trig-prog baseline: the producers' common part (process filter and
 * counting) with no record emitted, so the cost of emitting can be
 * found by subtraction.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"

char LICENSE[] SEC("license") = "GPL";

static __always_inline int count_trigger(void *ctx)
{
	if (bench_from_target())
		bench_count_produced(bench_counters(), 1);
	return 0;
}

BENCH_PRODUCER(bench_trig, count_trigger)
