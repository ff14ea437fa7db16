/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sockets, test packets, named network namespaces and checksums, by the
 * names of the kernel's selftests (network_helpers.h).  fds are returned
 * as >= 0, failures as -1 with errno set (the kernel's convention here).
 */
#ifndef BPFCHECK_NETWORK_HELPERS_H
#define BPFCHECK_NETWORK_HELPERS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <net/if.h>
#include <linux/ethtool.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/if_tun.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/sockios.h>
#include <linux/types.h>
#include <bpf/bpf_endian.h>

#define MAGIC_VAL	0x1234
#define NUM_ITER	100000
#define VIP_NUM		5
#define MAGIC_BYTES	123

#ifndef SOCK_TYPE_MASK
#define SOCK_TYPE_MASK	0xf
#endif

struct network_helper_opts {
	int timeout_ms;		/* send/receive timeout; 0: 3 s */
	int proto;		/* socket protocol, 0: the type's default */
	int backlog;		/* listen(): 0 means 1, negative means 0 */
	int (*post_socket_cb)(int fd, void *opts);
	void *cb_opts;
};

/* Test vectors: an Ethernet + IPv4/IPv6 + TCP header, MAGIC_BYTES long. */
struct ipv4_packet {
	struct ethhdr eth;
	struct iphdr iph;
	struct tcphdr tcp;
} __attribute__((packed));
extern struct ipv4_packet pkt_v4;

struct ipv6_packet {
	struct ethhdr eth;
	struct ipv6hdr iph;
	struct tcphdr tcp;
} __attribute__((packed));
extern struct ipv6_packet pkt_v6;

int settimeo(int fd, int timeout_ms);
/* A TCP client of server_fd sending data with the SYN (kernel_api.c). */
int fastopen_connect(int server_fd, const char *data, unsigned int data_len,
		     int timeout_ms);
int make_sockaddr(int family, const char *addr_str, __u16 port,
		  struct sockaddr_storage *addr, socklen_t *len);
/* A socket bound to addr:port (listening, for stream sockets). */
int start_server(int family, int type, const char *addr, __u16 port,
		 int timeout_ms);
int start_server_str(int family, int type, const char *addr_str, __u16 port,
		     const struct network_helper_opts *opts);
int start_server_addr(int type, const struct sockaddr_storage *addr,
		      socklen_t len, const struct network_helper_opts *opts);
/*
 * nr_listens sockets sharing addr_str:port with SO_REUSEPORT (port 0: the
 * first one's); a malloc'ed array, freed with free_fds(), or NULL.
 */
int *start_reuseport_server(int family, int type, const char *addr_str,
			    __u16 port, int timeout_ms, unsigned int nr_listens);
void free_fds(int *fds, unsigned int nr_close_fds);
int client_socket(int family, int type, const struct network_helper_opts *opts);
int connect_to_addr(int type, const struct sockaddr_storage *addr,
		    socklen_t len, const struct network_helper_opts *opts);
int connect_to_addr_str(int family, int type, const char *addr_str,
			__u16 port, const struct network_helper_opts *opts);
/* A new socket connected to where server_fd listens. */
int connect_to_fd(int server_fd, int timeout_ms);
int connect_to_fd_opts(int server_fd, const struct network_helper_opts *opts);
/* Connect an existing socket to where server_fd listens; 0 or -1. */
int connect_fd_to_fd(int client_fd, int server_fd, int timeout_ms);
int get_socket_local_port(int sock_fd);
const char *ping_command(int family);
/* Send total_bytes from fd to the peer accepted on lfd, and receive them. */
int send_recv_data(int lfd, int fd, uint32_t total_bytes);
/* Attach tc programs (fd < 0: none) to dev's clsact ingress/egress. */
int tc_prog_attach(const char *dev, int ingress_fd, int egress_fd);

/* Named network namespaces (/run/netns/NAME, as "ip netns" makes them). */
struct nstoken;
struct nstoken *open_netns(const char *name);
void close_netns(struct nstoken *token);
/* "ip netns add NAME", loopback up; 0 or -1. */
int make_netns(const char *name);
int remove_netns(const char *name);
/* Append "_<tid>" (up to 7 digits) to str; 0 or -1. */
int append_tid(char *str, size_t sz);

/* Internet checksums (RFC 1071), folded to 16 bits where the name says. */
static inline __u16 csum_fold(__u32 csum)
{
	csum = (csum & 0xffff) + (csum >> 16);
	csum = (csum & 0xffff) + (csum >> 16);
	return (__u16)~csum;
}

static inline __u32 csum_add32(__u32 sum, __u32 v)
{
	sum += v;
	return sum + (sum < v);
}

static inline __wsum csum_partial(const void *buf, int len, __wsum sum)
{
	const __u8 *p = buf;
	__u32 s = (__u32)sum;

	for (; len > 1; len -= 2, p += 2)
		s = csum_add32(s, (__u32)(p[0] | p[1] << 8));
	if (len)
		s = csum_add32(s, p[0]);
	return (__wsum)s;
}

static inline __sum16 build_ip_csum(struct iphdr *iph)
{
	iph->check = 0;
	return (__sum16)csum_fold((__u32)csum_partial(iph, iph->ihl * 4, 0));
}

static inline __sum16 csum_tcpudp_magic(__be32 saddr, __be32 daddr, __u32 len,
					__u8 proto, __wsum csum)
{
	__u32 s = (__u32)csum;

	s = csum_add32(s, (__u32)saddr);
	s = csum_add32(s, (__u32)daddr);
	s = csum_add32(s, (__u32)bpf_htons((__u16)len));
	s = csum_add32(s, (__u32)bpf_htons(proto));
	return (__sum16)csum_fold(s);
}

static inline __sum16 csum_ipv6_magic(const struct in6_addr *saddr,
				      const struct in6_addr *daddr, __u32 len,
				      __u8 proto, __wsum csum)
{
	__u32 s = (__u32)csum;

	for (int i = 0; i < 4; i++) {
		s = csum_add32(s, saddr->s6_addr32[i]);
		s = csum_add32(s, daddr->s6_addr32[i]);
	}
	s = csum_add32(s, bpf_htonl(len));
	s = csum_add32(s, bpf_htonl(proto));
	return (__sum16)csum_fold(s);
}

/* UDP checksum of a datagram (header and payload, udph->len bytes). */
static inline __sum16 build_udp_v4_csum(const struct iphdr *iph,
					const struct udphdr *udph)
{
	int len = bpf_ntohs(udph->len);

	return csum_tcpudp_magic(iph->saddr, iph->daddr, len, IPPROTO_UDP,
				 csum_partial(udph, len, 0));
}

static inline __sum16 build_udp_v6_csum(const struct ipv6hdr *ip6h,
					const struct udphdr *udph)
{
	int len = bpf_ntohs(udph->len);

	return csum_ipv6_magic(&ip6h->saddr, &ip6h->daddr, len, IPPROTO_UDP,
			       csum_partial(udph, len, 0));
}

#endif
