// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier-cost gate's candidate (tests/bench/verifier_cost_check.sh):
 * built as is for the base, and with -DONE_MORE_BRANCH for a candidate
 * with one more conditional branch, which the gate must flag every time;
 * with -DBROKEN it reads past the bounds it checked, which the verifier
 * rejects (a program that stopped verifying).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int branchy(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	unsigned char *p = data;

	if (data + 2 > end)
		return XDP_PASS;
#ifdef ONE_MORE_BRANCH
	if (p[1] == 0xff)
		return XDP_DROP;
#endif
#ifdef BROKEN
	return p[2] ? XDP_DROP : XDP_PASS;
#endif
	return p[0] & 1 ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int steady(struct xdp_md *ctx)
{
	return ctx->ingress_ifindex ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
