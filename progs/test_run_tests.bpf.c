// SPDX-License-Identifier: GPL-2.0
/*
 * RUN_TESTS()'s own test (prog_tests/run_tests_api.c): each program is a
 * subtest, checked against its annotations.  The verifier log lines are
 * stable across the kernels bpfcheck runs on (6.1 and later).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"

char LICENSE[] SEC("license") = "GPL";

/* BPF_PROG_TEST_RUN hands a tc program TEST_DATA_LEN bytes. */
SEC("tc")
__description("the test run's packet is TEST_DATA_LEN bytes")
__success __retval(TEST_DATA_LEN)
int skb_len(struct __sk_buff *skb)
{
	return skb->len;
}

/* XDP_PASS; a negative number, compared as the 32 bits the run returns. */
SEC("xdp")
__success __retval(2)
int xdp_pass(struct xdp_md *ctx)
{
	return 2;
}

SEC("tc")
__success __retval(-7)
int minus_seven(struct __sk_buff *skb)
{
	return -7;
}

/* Two log lines, in this order: the load, then the verdict on it. */
SEC("?tc")
__failure
__msg("r0 = *(u64 *)(r0 +0)")
__msg("R0 invalid mem access 'scalar'")
__naked void deref_scalar(void)
{
	asm volatile ("r0 = 42;"
		      "r0 = *(u64 *)(r0 + 0);"
		      "exit;"
		      ::: __clobber_all);
}

/* A log of a successful load, matched by a regular expression. */
SEC("?tc")
__success __log_level(2)
__msg("{{processed [0-9]+ insns}}")
__retval(0)
int stats_in_log(struct __sk_buff *skb)
{
	return 0;
}

/* Several architectures: any of them will do (x86-64 or arm64 here). */
SEC("tc")
__arch_x86_64 __arch_arm64
__success __retval(3)
int two_arches(struct __sk_buff *skb)
{
	return 3;
}

/* Not for the machines bpfcheck runs on: skipped, saying why. */
SEC("tc")
__arch_s390x
__success __retval(0)
int s390x_only(struct __sk_buff *skb)
{
	return 0;
}
