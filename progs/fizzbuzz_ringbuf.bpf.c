// SPDX-License-Identifier: GPL-2.0
/*
 * FizzBuzzFibonacci with the constant-table Fibonacci check, sending each
 * class as a 4-byte ring buffer record instead of pushing it to a queue.
 */
#include "fizzbuzz_common.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} classes_rb SEC(".maps");

SEC("xdp")
int fizzbuzz_ringbuf(struct xdp_md *ctx)
{
	__u32 saddr, class;
	int verdict;

	if (!fbf_parse(ctx, &saddr, &verdict))
		return verdict;
	class = fbf_classify(saddr, fbf_fib_lookup(saddr & 0xff));
	if (class != FBF_NONE &&
	    bpf_ringbuf_output(&classes_rb, &class, sizeof(class), 0))
		__sync_fetch_and_add(&record_errors, 1);
	return XDP_PASS;
}
