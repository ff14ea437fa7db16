// SPDX-License-Identifier: GPL-2.0
/*
 * The floor of prog-cost's two methods: an XDP program that does nothing
 * but drop the frame.  What it costs per run is what test_run's loop and
 * the attached path with statistics on add to any program.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("xdp")
int empty_xdp(struct xdp_md *ctx)
{
	return XDP_DROP;
}
