// SPDX-License-Identifier: GPL-2.0
/*
 * A tc program that calls a kfunc of the kernel selftests' bpf_testmod:
 * it loads only where the module's BTF names the kfunc and its kfunc set
 * (BTF ids resolved when the module was built) lets tc programs call it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

/* bpf_testmod.c of 6.1, 6.12 and 7.2: in its SCHED_CLS kfunc set. */
extern void bpf_testmod_test_mod_kfunc(int i) __ksym;

__u32 calls;

SEC("tc")
int call_mod_kfunc(struct __sk_buff *skb)
{
	bpf_testmod_test_mod_kfunc(42);
	calls++;
	return 0;
}
