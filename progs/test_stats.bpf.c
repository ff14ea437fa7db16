// SPDX-License-Identifier: GPL-2.0
/* A program whose runs the kernel's BPF statistics count. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

__u64 runs;

SEC("xdp")
int counted(struct xdp_md *ctx)
{
	__sync_fetch_and_add(&runs, 1);
	return XDP_PASS;
}
