// SPDX-License-Identifier: GPL-2.0
/*
 * FizzBuzzFibonacci, the lookup variant plus one bounds check: before
 * classifying, the frame must also hold a UDP header after the IPv4 one.
 * Every frame of the prog-cost-fizzbuzz inputs does, so the outcome is
 * the same as fizzbuzz_lookup's and only a few instructions per run are
 * added: the candidate a regression gate on instruction counts must flag.
 */
#include "fizzbuzz_common.h"

char LICENSE[] SEC("license") = "GPL";

/* Ethernet, IPv4 without options, UDP. */
#define FBF_UDP4_FRAME_LEN	(14 + 20 + 8)

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 1024);
	__type(value, __u32);
} classes SEC(".maps");

SEC("xdp")
int fizzbuzz_bounds(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u32 saddr;
	int verdict;

	if (!fbf_parse(ctx, &saddr, &verdict))
		return verdict;
	if (data + FBF_UDP4_FRAME_LEN > data_end)
		return XDP_PASS;
	fbf_record_queue(&classes,
			 fbf_classify(saddr, fbf_fib_lookup(saddr & 0xff)));
	return XDP_PASS;
}
