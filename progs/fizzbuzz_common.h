/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "FizzBuzzFibonacci" XDP classifier shared by progs/fizzbuzz_*.bpf.c:
 * frame parsing, classification, the constant-table Fibonacci check and
 * the queue sink.  Each program file adds its own maps and, for the loop
 * variant, its own Fibonacci check.
 *
 * What a frame gets; the test checks exactly this table:
 *
 *   frame                                          verdict      recorded
 *   shorter than an Ethernet header (14 bytes)     XDP_ABORTED  nothing
 *   EtherType other than IPv4 (0x0800): ARP,       XDP_PASS     nothing
 *     IPv6, VLAN tags (not looked into), ...
 *   EtherType IPv4 and shorter than 14 + 20 bytes  XDP_ABORTED  nothing
 *   EtherType IPv4, version != 4 or IHL < 5        XDP_ABORTED  nothing
 *   IPv4 with options (IHL > 5)                    XDP_PASS     nothing
 *   IPv4 without options (IHL == 5)                XDP_PASS     class, if any
 *
 * A "parse error" is exactly an XDP_ABORTED row: the frame cannot hold the
 * header its EtherType promises, or that header is not a valid IPv4
 * header.  Only those 20 bytes are read: total length, checksum, fragment
 * fields and the payload are not checked, and options are never parsed.
 *
 * The class of source address a.b.c.d, with the address taken as the
 * host-order number a<<24 | b<<16 | c<<8 | d:
 *   FBF_FIBONACCI  d is a Fibonacci number (0 1 2 3 5 8 13 ... 144 233)
 *   FBF_FIZZBUZZ   otherwise, the number is divisible by 15
 *   FBF_FIZZ       otherwise, divisible by 3
 *   FBF_BUZZ       otherwise, divisible by 5
 *   FBF_NONE       otherwise; nothing is recorded
 */
#ifndef BPFCHECK_FIZZBUZZ_COMMON_H
#define BPFCHECK_FIZZBUZZ_COMMON_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "fizzbuzz_class.h"

/* UAPI macros are not in vmlinux.h (BTF carries no #defines). */
#define FBF_ETH_P_IP	0x0800
#define FBF_IPV4_MIN_IHL 5

/* Classes the sink could not take (queue or ring full); the test wants 0. */
__u64 record_errors;

/*
 * Find the frame's IPv4 source address.  True, with *saddr in host byte
 * order, when the frame is to be classified; false, with *verdict set as
 * in the table above, when it is not.
 */
static __always_inline bool fbf_parse(struct xdp_md *ctx, __u32 *saddr,
				      int *verdict)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + sizeof(*eth);
	__u8 version_ihl;

	*verdict = XDP_ABORTED;
	if ((void *)(eth + 1) > data_end)
		return false;
	if (eth->h_proto != bpf_htons(FBF_ETH_P_IP)) {
		*verdict = XDP_PASS;
		return false;
	}
	if ((void *)(ip + 1) > data_end)
		return false;
	/* Read the byte itself: bitfield order is an ABI detail. */
	version_ihl = *(__u8 *)ip;
	if (version_ihl >> 4 != 4 || (version_ihl & 0xf) < FBF_IPV4_MIN_IHL)
		return false;
	*verdict = XDP_PASS;
	if ((version_ihl & 0xf) > FBF_IPV4_MIN_IHL)
		return false;
	*saddr = bpf_ntohl(ip->saddr);
	return true;
}

/* The class of addr, given whether its last octet is a Fibonacci number. */
static __always_inline __u32 fbf_classify(__u32 addr, bool last_octet_is_fib)
{
	if (last_octet_is_fib)
		return FBF_FIBONACCI;
	if (addr % 15 == 0)
		return FBF_FIZZBUZZ;
	if (addr % 3 == 0)
		return FBF_FIZZ;
	if (addr % 5 == 0)
		return FBF_BUZZ;
	return FBF_NONE;
}

/* The fix for the per-packet loop: Fibonacci numbers below 256, by value. */
static const bool fbf_fib_table[256] = {
	[0] = true, [1] = true, [2] = true, [3] = true, [5] = true,
	[8] = true, [13] = true, [21] = true, [34] = true, [55] = true,
	[89] = true, [144] = true, [233] = true,
};

static __always_inline bool fbf_fib_lookup(__u32 octet)
{
	return fbf_fib_table[octet & 0xff];
}

/*
 * The "record the class" step of the queue variants; loop and lookup
 * share it so that a benchmark of the two measures only the Fibonacci
 * check.
 */
static __always_inline void fbf_record_queue(void *queue, __u32 class)
{
	if (class == FBF_NONE)
		return;
	if (bpf_map_push_elem(queue, &class, 0))
		__sync_fetch_and_add(&record_errors, 1);
}

#endif
