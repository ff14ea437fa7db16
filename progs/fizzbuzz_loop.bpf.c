// SPDX-License-Identifier: GPL-2.0
/*
 * FizzBuzzFibonacci, the slow variant: the Fibonacci check regenerates the
 * sequence on every packet.  This is the version that caused a production
 * regression; it stays so that the benchmark can measure it against the
 * constant-table fix in fizzbuzz_lookup.bpf.c.  Classes go to a queue map.
 */
#include "fizzbuzz_common.h"

char LICENSE[] SEC("license") = "GPL";

/* Terms of the sequence that fit in an octet: 0 1 1 2 3 5 ... 144 233. */
#define FIB_TERMS_UP_TO_255 14

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 1024);
	__type(value, __u32);
} classes SEC(".maps");

/*
 * Walk the sequence until a term reaches the octet: 1 to 14 iterations,
 * depending on the octet (a benchmark should vary it).  Unrolling is off and
 * barrier_var() hides the term's value from the optimiser: otherwise clang
 * folds the loop into a chain of compares against constants, which is the
 * lookup in disguise and not the cost the benchmark is after.
 */
static __always_inline bool fib_by_loop(__u32 octet)
{
	__u32 a = 0, b = 1, next;

#pragma clang loop unroll(disable)
	for (int i = 0; i < FIB_TERMS_UP_TO_255; i++) {
		barrier_var(a);
		if (a >= octet)
			return a == octet;
		next = a + b;
		a = b;
		b = next;
	}
	return false;
}

SEC("xdp")
int fizzbuzz_loop(struct xdp_md *ctx)
{
	__u32 saddr;
	int verdict;

	if (!fbf_parse(ctx, &saddr, &verdict))
		return verdict;
	fbf_record_queue(&classes,
			 fbf_classify(saddr, fib_by_loop(saddr & 0xff)));
	return XDP_PASS;
}
