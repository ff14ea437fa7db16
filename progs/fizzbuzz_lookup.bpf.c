// SPDX-License-Identifier: GPL-2.0
/*
 * FizzBuzzFibonacci, the fixed variant: the Fibonacci check is one load
 * from a constant table.  Classes go to a queue map exactly as in
 * fizzbuzz_loop.bpf.c, so the two differ only in the Fibonacci check.
 */
#include "fizzbuzz_common.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 1024);
	__type(value, __u32);
} classes SEC(".maps");

SEC("xdp")
int fizzbuzz_lookup(struct xdp_md *ctx)
{
	__u32 saddr;
	int verdict;

	if (!fbf_parse(ctx, &saddr, &verdict))
		return verdict;
	fbf_record_queue(&classes,
			 fbf_classify(saddr, fbf_fib_lookup(saddr & 0xff)));
	return XDP_PASS;
}
