// SPDX-License-Identifier: GPL-2.0
/*
 * The run cost beside the verifier's: BPF_PROG_TEST_RUN with repeat on
 * one 64-byte UDP/IPv4 frame, the kernel timing its own loop (prog-cost's
 * test_run method; under vmtest --icount the ns are guest instructions).
 * Only the program types whose test run takes a packet are run.
 */
#include <string.h>
#include <linux/if_ether.h>

#include <bpf/bpf.h>

#include "frames.h"
#include "vcost.h"

static bool runs_on_packets(enum bpf_prog_type t)
{
	switch (t) {
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_CGROUP_SKB:
		return true;
	default:
		return false;
	}
}

static size_t udp_frame(__u8 *buf)
{
	static const __u8 dst[ETH_ALEN] = { 2, 0, 0, 0, 0, 2 };
	static const __u8 src[ETH_ALEN] = { 2, 0, 0, 0, 0, 1 };
	static const char payload[22] = "bpfcheck verifier-cost";
	size_t n = frame_put_eth(buf, dst, src, ETH_P_IP);

	n += frame_put_ipv4_udp(buf + n, 0x0a000001, 0x0a000002, 4, 5,
				payload, sizeof(payload));
	return n;
}

long vcost_run_ns(int prog_fd, enum bpf_prog_type type, unsigned int repeat)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	__u8 frame[128] = {}, out[256];

	if (!repeat || !runs_on_packets(type))
		return -1;
	opts.data_in = frame;
	opts.data_size_in = udp_frame(frame);
	opts.data_out = out;
	opts.data_size_out = sizeof(out);
	opts.repeat = repeat;
	if (bpf_prog_test_run_opts(prog_fd, &opts))
		return -1;
	return opts.duration;
}
