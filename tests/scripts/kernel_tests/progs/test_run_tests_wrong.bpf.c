// SPDX-License-Identifier: GPL-2.0
/*
 * Expectations that do not hold, on purpose: the negative control of
 * RUN_TESTS() (tests/scripts/kernel_tests_check.sh builds it into a scratch copy of the tree).
 * Both subtests must fail, and say why.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"

char LICENSE[] SEC("license") = "GPL";

/* The verifier rejects this, but not with these words. */
SEC("?tc")
__failure
__msg("R0 invalid mem access 'scalar'")
__msg("this line is not in the verifier log")
__naked void wrong_msg(void)
{
	asm volatile ("r0 = 42;"
		      "r0 = *(u64 *)(r0 + 0);"
		      "exit;"
		      ::: __clobber_all);
}

/* Claimed to fail; it loads. */
SEC("?tc")
__failure
int loads_fine(struct __sk_buff *skb)
{
	return 0;
}

/* Loads and runs, returning 0, not 1. */
SEC("?tc")
__success __retval(1)
int wrong_retval(struct __sk_buff *skb)
{
	return 0;
}
