// SPDX-License-Identifier: GPL-2.0
/*
 * An XDP packet classifier: each IPv4 packet is counted as web (TCP 80 or
 * 443), ssh (TCP 22), dns (UDP 53) or other; a packet whose headers are
 * cut short is counted and dropped, everything else passes.
 *
 * Built with -DSLOW it also folds the IPv4 header into a checksum 1024
 * times over: the same verdicts, some ten times the work per packet, for
 * the cost gate to catch.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "pktclass.h"

char LICENSE[] SEC("license") = "GPL";

/* UAPI values are not in vmlinux.h (BTF carries no #defines). */
#define PC_ETH_P_IP	0x0800
#define PC_IPPROTO_TCP	6
#define PC_IPPROTO_UDP	17

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PKTCLASS_MAX);
	__type(key, __u32);
	__type(value, __u64);
} class_count SEC(".maps");

/* Written by the -DSLOW build only, so its work is not optimized out. */
__u32 slow_sum;

static __always_inline enum pkt_class by_port(__u8 proto, __u16 dport)
{
	if (proto == PC_IPPROTO_TCP && (dport == 80 || dport == 443))
		return PKTCLASS_WEB;
	if (proto == PC_IPPROTO_TCP && dport == 22)
		return PKTCLASS_SSH;
	if (proto == PC_IPPROTO_UDP && dport == 53)
		return PKTCLASS_DNS;
	return PKTCLASS_OTHER;
}

static __always_inline enum pkt_class classify(void *data, void *end)
{
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *l4;	/* TCP's ports sit where UDP's do */

	if ((void *)(eth + 1) > end)
		return PKTCLASS_SHORT;
	if (eth->h_proto != bpf_htons(PC_ETH_P_IP))
		return PKTCLASS_OTHER;
	if ((void *)(ip + 1) > end)
		return PKTCLASS_SHORT;
	if (ip->protocol != PC_IPPROTO_TCP && ip->protocol != PC_IPPROTO_UDP)
		return PKTCLASS_OTHER;
	l4 = (void *)ip + ip->ihl * 4;
	if (ip->ihl < 5 || (void *)(l4 + 1) > end)
		return PKTCLASS_SHORT;
#ifdef SLOW
	for (int r = 0; r < 1024; r++) {
		__u16 *w = (__u16 *)ip;
		__u32 sum = r;

		for (int i = 0; i < 10; i++)
			sum += w[i];
		slow_sum += (sum & 0xffff) + (sum >> 16);
	}
#endif
	return by_port(ip->protocol, bpf_ntohs(l4->dest));
}

SEC("xdp")
int pktclass(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 class = classify(data, end);
	__u64 *n = bpf_map_lookup_elem(&class_count, &class);

	if (n)
		__sync_fetch_and_add(n, 1);
	return class == PKTCLASS_SHORT ? XDP_DROP : XDP_PASS;
}
