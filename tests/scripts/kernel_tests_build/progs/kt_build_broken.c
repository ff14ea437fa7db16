// SPDX-License-Identifier: GPL-2.0
/* Does not build on purpose: a call to a function nobody declares. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

SEC("tc")
int kt_build_broken(struct __sk_buff *skb)
{
	return kt_no_such_function(skb);
}

char _license[] SEC("license") = "GPL";
