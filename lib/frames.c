// SPDX-License-Identifier: GPL-2.0
/* Ethernet frame building (frames.h). */
#include <arpa/inet.h>
#include <string.h>
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/udp.h>

#include "frames.h"

#define IPV4_HLEN	20
#define IPV6_HLEN	40
#define UDP_SPORT	4242
#define UDP_DPORT	4243

__u16 frame_inet_csum(const void *data, size_t len)
{
	const __u8 *p = data;
	__u32 sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons(~sum & 0xffff);
}

size_t frame_put_eth(void *at, const __u8 *dst_mac, const __u8 *src_mac,
		     __u16 ethertype)
{
	struct ethhdr *eth = at;

	memcpy(eth->h_dest, dst_mac, ETH_ALEN);
	memcpy(eth->h_source, src_mac, ETH_ALEN);
	eth->h_proto = htons(ethertype);
	return ETH_HLEN;
}

size_t frame_put_vlan(void *at, __u16 vid, __u16 inner_ethertype)
{
	__be16 tag[2] = { htons(vid & 0xfff), htons(inner_ethertype) };

	memcpy(at, tag, sizeof(tag));
	return sizeof(tag);
}

static size_t put_udp(void *at, const void *payload, size_t len)
{
	struct udphdr udp = {
		.source = htons(UDP_SPORT),
		.dest = htons(UDP_DPORT),
		.len = htons(sizeof(udp) + len),
	};

	memcpy(at, &udp, sizeof(udp));
	memcpy((__u8 *)at + sizeof(udp), payload, len);
	return sizeof(udp) + len;
}

size_t frame_put_ipv4_udp(void *at, __u32 saddr, __u32 daddr, __u8 version,
			  __u8 ihl, const void *payload, size_t len)
{
	size_t hlen = ihl < 5 ? IPV4_HLEN : ihl * 4u;
	struct iphdr *ip = at;
	__u8 *p = at;

	memset(ip, 0, IPV4_HLEN);
	/* The byte itself, not the bitfields, whose order is an ABI detail. */
	p[0] = (version & 0xf) << 4 | (ihl & 0xf);
	ip->tot_len = htons(hlen + sizeof(struct udphdr) + len);
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->saddr = htonl(saddr);
	ip->daddr = htonl(daddr);
	memset(p + IPV4_HLEN, IPOPT_NOOP, hlen - IPV4_HLEN);
	ip->check = frame_inet_csum(p, hlen);
	return hlen + put_udp(p + hlen, payload, len);
}

size_t frame_put_ipv6_udp(void *at, const void *payload, size_t len)
{
	__u8 *p = at;

	memset(p, 0, IPV6_HLEN);
	p[0] = 0x60;				/* version 6 */
	p[4] = (sizeof(struct udphdr) + len) >> 8;
	p[5] = (sizeof(struct udphdr) + len) & 0xff;
	p[6] = IPPROTO_UDP;
	p[7] = 64;				/* hop limit */
	p[8] = 0xfe;				/* fe80::1 */
	p[9] = 0x80;
	p[23] = 1;
	p[24] = 0xfe;				/* fe80::2 */
	p[25] = 0x80;
	p[39] = 2;
	return IPV6_HLEN + put_udp(p + IPV6_HLEN, payload, len);
}

size_t frame_put_arp_request(void *at, const __u8 *sha, __u32 spa,
			     __u32 tpa)
{
	struct arphdr arp = {
		.ar_hrd = htons(ARPHRD_ETHER),
		.ar_pro = htons(ETH_P_IP),
		.ar_hln = ETH_ALEN,
		.ar_pln = 4,
		.ar_op = htons(ARPOP_REQUEST),
	};
	__be32 spa_be = htonl(spa), tpa_be = htonl(tpa);
	__u8 *p = at;

	memcpy(p, &arp, sizeof(arp));
	p += sizeof(arp);
	memcpy(p, sha, ETH_ALEN);
	memcpy(p + ETH_ALEN, &spa_be, 4);
	memset(p + ETH_ALEN + 4, 0, ETH_ALEN);
	memcpy(p + 2 * ETH_ALEN + 4, &tpa_be, 4);
	return sizeof(arp) + 2 * (ETH_ALEN + 4);
}
