/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IP-in-IP tunnel table of the kernel's XDP tests (test_xdp.c and
 * friends): a virtual IP (the key) and where to tunnel it (the value).
 * The kernel's test_progs.h includes it, so its tests use these types
 * without including it themselves.
 */
#ifndef BPFCHECK_TEST_IPTUNNEL_COMMON_H
#define BPFCHECK_TEST_IPTUNNEL_COMMON_H

#include <linux/types.h>

#define MAX_IPTNL_ENTRIES 256U

struct vip {
	union {
		__u32 v6[4];
		__u32 v4;
	} daddr;
	__u16 dport;
	__u16 family;
	__u8 protocol;
};

struct iptnl_info {
	union {
		__u32 v6[4];
		__u32 v4;
	} saddr;
	union {
		__u32 v6[4];
		__u32 v4;
	} daddr;
	__u16 family;
	__u8 dmac[6];
};

#endif
