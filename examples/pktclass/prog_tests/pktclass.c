// SPDX-License-Identifier: GPL-2.0
/*
 * pktclass: each kind of packet gets its class and its verdict, and is
 * counted once in its class's counter.
 */
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <string.h>

#include "test_progs.h"
#include "pktclass.h"
#include "pktclass.skel.h"

struct frame {
	struct ethhdr eth;
	struct iphdr ip;
	struct tcphdr tcp;	/* or a UDP header and payload */
} __attribute__((packed));

struct packet_case {
	const char *name;
	__u16 eth_proto;
	__u8 ip_proto;
	__u16 dport;
	size_t len;		/* bytes of the frame handed to the program */
	enum pkt_class class;
	int verdict;
};

static const struct packet_case cases[] = {
	{ "web_http", ETH_P_IP, IPPROTO_TCP, 80, sizeof(struct frame), PKTCLASS_WEB, XDP_PASS },
	{ "web_https", ETH_P_IP, IPPROTO_TCP, 443, sizeof(struct frame), PKTCLASS_WEB, XDP_PASS },
	{ "ssh", ETH_P_IP, IPPROTO_TCP, 22, sizeof(struct frame), PKTCLASS_SSH, XDP_PASS },
	{ "dns", ETH_P_IP, IPPROTO_UDP, 53, sizeof(struct frame), PKTCLASS_DNS, XDP_PASS },
	{ "udp_other_port", ETH_P_IP, IPPROTO_UDP, 80, sizeof(struct frame), PKTCLASS_OTHER,
	  XDP_PASS },
	{ "ipv6", ETH_P_IPV6, IPPROTO_TCP, 80, sizeof(struct frame), PKTCLASS_OTHER, XDP_PASS },
	{ "cut_in_ip_header", ETH_P_IP, IPPROTO_TCP, 80, sizeof(struct ethhdr) + 10,
	  PKTCLASS_SHORT, XDP_DROP },
	{ "cut_in_ports", ETH_P_IP, IPPROTO_TCP, 80,
	  sizeof(struct ethhdr) + sizeof(struct iphdr) + 2, PKTCLASS_SHORT, XDP_DROP },
};

static void build_frame(struct frame *f, const struct packet_case *c)
{
	memset(f, 0, sizeof(*f));
	f->eth.h_proto = htons(c->eth_proto);
	f->ip.version = 4;
	f->ip.ihl = 5;
	f->ip.ttl = 64;
	f->ip.protocol = c->ip_proto;
	f->ip.tot_len = htons(sizeof(*f) - sizeof(f->eth));
	f->ip.saddr = htonl(0xc0000201);	/* 192.0.2.1 */
	f->ip.daddr = htonl(0xc0000202);
	f->tcp.source = htons(40000);
	f->tcp.dest = htons(c->dport);
}

static bool class_count(struct pktclass *skel, enum pkt_class class, __u64 *n)
{
	__u32 key = class;

	return ASSERT_OK(bpf_map__lookup_elem(skel->maps.class_count, &key, sizeof(key),
					      n, sizeof(*n), 0), "lookup in the class counters");
}

static void run_case(struct pktclass *skel, const struct packet_case *c)
{
	__u64 before, after;
	struct frame f;

	LIBBPF_OPTS(bpf_test_run_opts, topts,
		.data_in = &f,
		.data_size_in = c->len,
	);

	build_frame(&f, c);
	if (!class_count(skel, c->class, &before))
		return;
	if (!ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(skel->progs.pktclass), &topts),
		       "bpf_prog_test_run_opts"))
		return;
	ASSERT_EQ(topts.retval, c->verdict, "verdict");
	if (class_count(skel, c->class, &after))
		ASSERT_EQ(after - before, 1, "counted once in its class");
}

void test_pktclass(void)
{
	struct pktclass *skel = pktclass__open_and_load();

	if (!ASSERT_OK_PTR(skel, "pktclass__open_and_load"))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		if (test__start_subtest(cases[i].name))
			run_case(skel, &cases[i]);
	}
	pktclass__destroy(skel);
}
