// SPDX-License-Identifier: GPL-2.0
/* Frames for the FizzBuzzFibonacci test and their expected outcomes. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "fizzbuzz_frames.h"
#include "test_progs.h"

#define PAYLOAD			"fbf!"
#define IPV4_HLEN		20
#define DST_ADDR		0x0a000002	/* 10.0.0.2 */

static const unsigned char dst_mac[ETH_ALEN] = { 2, 0, 0, 0, 0xfb, 2 };
static const unsigned char src_mac[ETH_ALEN] = { 2, 0, 0, 0, 0xfb, 1 };

/* ---- the userspace reference ---------------------------------------- */

static bool is_square(__u64 x)
{
	__u64 r = 0;

	while ((r + 1) * (r + 1) <= x)
		r++;
	return r * r == x;
}

/*
 * Gessel's test, on purpose a different method from the BPF side's: n is
 * a Fibonacci number iff 5n^2 + 4 or 5n^2 - 4 is a perfect square.
 */
bool fbf_ref_is_fibonacci(unsigned int n)
{
	__u64 m = 5ULL * n * n;

	return is_square(m + 4) || (m >= 4 && is_square(m - 4));
}

__u32 fbf_ref_class(__u32 addr)
{
	if (fbf_ref_is_fibonacci(addr & 0xff))
		return FBF_FIBONACCI;
	switch ((addr % 3 == 0) << 1 | (addr % 5 == 0)) {
	case 3:
		return FBF_FIZZBUZZ;
	case 2:
		return FBF_FIZZ;
	case 1:
		return FBF_BUZZ;
	}
	return FBF_NONE;
}

const char *fbf_class_name(__u32 class)
{
	static const char *const names[] = {
		[FBF_NONE] = "none", [FBF_FIBONACCI] = "Fibonacci",
		[FBF_FIZZBUZZ] = "FizzBuzz", [FBF_FIZZ] = "Fizz",
		[FBF_BUZZ] = "Buzz",
	};

	return class < ARRAY_SIZE(names) ? names[class] : "invalid";
}

/* ---- frames and what each must get ---------------------------------- */

bool fbf_frames_alloc(struct fbf_frames *l)
{
	l->n = 0;
	l->f = calloc(FBF_MAX_FRAMES, sizeof(*l->f));
	return ASSERT_OK_PTR(l->f, "alloc frames");
}

void fbf_frames_free(struct fbf_frames *l)
{
	free(l->f);
	l->f = NULL;
	l->n = 0;
}

/* A new frame with the defaults: XDP_PASS, nothing recorded. */
static struct fbf_frame *add_frame(struct fbf_frames *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static struct fbf_frame *add_frame(struct fbf_frames *l, const char *fmt, ...)
{
	struct fbf_frame *f;
	va_list ap;

	/* Stays within FBF_MAX_FRAMES by construction; fail loudly if not. */
	if (!ASSERT_LT(l->n, FBF_MAX_FRAMES, "frames in the list"))
		return &l->f[FBF_MAX_FRAMES - 1];
	f = &l->f[l->n++];
	memset(f, 0, sizeof(*f));
	va_start(ap, fmt);
	vsnprintf(f->what, sizeof(f->what), fmt, ap);
	va_end(ap);
	f->verdict = XDP_PASS;
	f->class = FBF_NONE;
	return f;
}

/* Ethernet header; returns where its payload starts. */
static unsigned char *put_eth(struct fbf_frame *f, __u16 ethertype)
{
	f->len = frame_put_eth(f->data, dst_mac, src_mac, ethertype);
	return f->data + f->len;
}

/* IPv4 header (any version, any IHL) and UDP at "at", from saddr. */
static void put_ipv4_udp(struct fbf_frame *f, unsigned char *at, __u32 saddr,
			 __u8 version, __u8 ihl)
{
	f->len = at - f->data + frame_put_ipv4_udp(at, saddr, DST_ADDR, version,
						   ihl, PAYLOAD, FBF_PAYLOAD_LEN);
}

static void addr_str(__u32 addr, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u", addr >> 24, addr >> 16 & 0xff,
		 addr >> 8 & 0xff, addr & 0xff);
}

void fbf_add_udp4(struct fbf_frames *l, __u32 saddr)
{
	struct fbf_frame *f;
	char a[16];

	addr_str(saddr, a, sizeof(a));
	f = add_frame(l, "UDP/IPv4 from %s", a);
	put_ipv4_udp(f, put_eth(f, ETH_P_IP), saddr, 4, 5);
	f->class = fbf_ref_class(saddr);
}

void fbf_add_octet_sweep(struct fbf_frames *l, __u32 prefix)
{
	for (__u32 d = 0; d < 256; d++)
		fbf_add_udp4(l, prefix | d);
}

void fbf_add_edge_addresses(struct fbf_frames *l)
{
	static const __u32 addrs[] = {
		0x00000000, 0xffffffff, 0x01000000, 0x01ffffff, 0x02ffffff,
		0x03ffffff, 0x0fffffff, 0x7fffffff, 0x80000000, 0x00000104,
		/* the wrong octet (first, not last) would say Fibonacci */
		0x0d000004, 0x0400000d, 0x0000000f, 0x000000ff,
	};

	for (size_t i = 0; i < ARRAY_SIZE(addrs); i++)
		fbf_add_udp4(l, addrs[i]);
}

/*
 * Not IPv4 by EtherType: unrecorded, even when an IPv4 header from a
 * classifiable source follows the Ethernet header.
 */
void fbf_add_non_ipv4(struct fbf_frames *l)
{
	const __u32 src = FBF_CLASSIFIABLE_SRC;
	struct fbf_frame *f;
	unsigned char *at;

	f = add_frame(l, "ARP request");
	at = put_eth(f, ETH_P_ARP);
	f->len += frame_put_arp_request(at, src_mac, src, DST_ADDR);
	f = add_frame(l, "UDP/IPv6");
	at = put_eth(f, ETH_P_IPV6);
	f->len += frame_put_ipv6_udp(at, PAYLOAD, FBF_PAYLOAD_LEN);
	put_eth(add_frame(l, "bare Ethernet header, EtherType IPv6"),
		ETH_P_IPV6);
	f = add_frame(l, "VLAN-tagged UDP/IPv4");
	at = put_eth(f, ETH_P_8021Q);
	at += frame_put_vlan(at, 100, ETH_P_IP);
	put_ipv4_udp(f, at, src, 4, 5);
	f = add_frame(l, "IPv4 header under EtherType IPv6");
	put_ipv4_udp(f, put_eth(f, ETH_P_IPV6), src, 4, 5);
	f = add_frame(l, "IPv4 header under EtherType ARP");
	put_ipv4_udp(f, put_eth(f, ETH_P_ARP), src, 4, 5);
	/* Catches a missing byte swap of the EtherType on little endian. */
	f = add_frame(l, "IPv4 header under EtherType 0x0008");
	put_ipv4_udp(f, put_eth(f, 0x0008), src, 4, 5);
}

void fbf_add_ipv4_options(struct fbf_frames *l)
{
	const __u32 src = FBF_CLASSIFIABLE_SRC;
	struct fbf_frame *f;

	for (__u8 ihl = 6; ihl <= 15; ihl++) {
		f = add_frame(l, "IPv4 with IHL %u", ihl);
		put_ipv4_udp(f, put_eth(f, ETH_P_IP), src, 4, ihl);
	}
	for (__u8 ihl = 6; ihl <= 15; ihl += 9) {
		f = add_frame(l, "IPv4 with IHL %u, options cut off", ihl);
		put_ipv4_udp(f, put_eth(f, ETH_P_IP), src, 4, ihl);
		f->len = ETH_HLEN + IPV4_HLEN;
	}
}

void fbf_add_malformed(struct fbf_frames *l)
{
	const __u32 src = FBF_CLASSIFIABLE_SRC;
	struct fbf_frame *f;

	for (__u8 version = 0; version <= 15; version++) {
		if (version == 4)
			continue;
		f = add_frame(l, "EtherType IPv4, version %u", version);
		put_ipv4_udp(f, put_eth(f, ETH_P_IP), src, version, 5);
		f->verdict = XDP_ABORTED;
	}
	for (__u8 ihl = 0; ihl < 5; ihl++) {
		f = add_frame(l, "IPv4 with IHL %u", ihl);
		put_ipv4_udp(f, put_eth(f, ETH_P_IP), src, 4, ihl);
		f->verdict = XDP_ABORTED;
	}
}

void fbf_add_truncated(struct fbf_frames *l, size_t min_len)
{
	const size_t full_hdr = ETH_HLEN + IPV4_HLEN;
	struct fbf_frame *f;

	for (size_t len = min_len; len <= full_hdr; len++) {
		f = add_frame(l, "UDP/IPv4 cut to %zu bytes", len);
		put_ipv4_udp(f, put_eth(f, ETH_P_IP), FBF_CLASSIFIABLE_SRC, 4, 5);
		f->len = len;
		if (len < ETH_HLEN)
			f->run_err = -EINVAL;
		else if (len < full_hdr)
			f->verdict = XDP_ABORTED;
		else
			f->class = fbf_ref_class(FBF_CLASSIFIABLE_SRC);
	}
}
