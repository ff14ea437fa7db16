/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Build Ethernet frames byte by byte for BPF_PROG_TEST_RUN and packet
 * sockets, including malformed ones (any IPv4 version or IHL).  Each
 * function writes at "at" and returns the number of bytes written; the
 * caller provides the room (at most FRAME_L3_MAX + payload after the
 * Ethernet header).  Addresses are given in host byte order.
 */
#ifndef BPFCHECK_FRAMES_H
#define BPFCHECK_FRAMES_H

#include <stddef.h>
#include <linux/types.h>

/* Longest L3+L4 header built here: IPv4 with 40 bytes of options, UDP. */
#define FRAME_L3_MAX	(60 + 8)

/* Ethernet header; returns 14. */
size_t frame_put_eth(void *at, const __u8 *dst_mac, const __u8 *src_mac,
		     __u16 ethertype);
/* 802.1Q tag (VLAN vid) followed by the inner EtherType; returns 4. */
size_t frame_put_vlan(void *at, __u16 vid, __u16 inner_ethertype);
/*
 * IPv4 header with this version and IHL, a correct checksum and NOP
 * options when IHL > 5 (an IHL below 5 still gets 20 bytes), then UDP
 * (checksum 0: "none", which IPv4 allows) and the payload.
 */
size_t frame_put_ipv4_udp(void *at, __u32 saddr, __u32 daddr, __u8 version,
			  __u8 ihl, const void *payload, size_t len);
/*
 * IPv6 header fe80::1 -> fe80::2, then UDP and the payload.  The UDP
 * checksum stays 0, which IPv6 forbids: fine for classifiers, not for
 * delivery to a socket.
 */
size_t frame_put_ipv6_udp(void *at, const void *payload, size_t len);
/* ARP request for tpa from sender (sha, spa) over Ethernet/IPv4. */
size_t frame_put_arp_request(void *at, const __u8 *sha, __u32 spa,
			     __u32 tpa);
/* The Internet checksum of len bytes, in network byte order. */
__u16 frame_inet_csum(const void *data, size_t len);

#endif
