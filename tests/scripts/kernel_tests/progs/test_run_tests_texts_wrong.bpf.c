// SPDX-License-Identifier: GPL-2.0
/*
 * __xlated, __jited, __stderr, __linear_size and __caps_unpriv
 * expectations that do not hold, on purpose: each subtest must fail and
 * show what it looked for and the text it saw (the negative control of
 * test_run_tests_texts.bpf.c).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"

char LICENSE[] SEC("license") = "GPL";

/* The program has no such instruction. */
SEC("socket")
__success __retval(1)
__xlated("0: r0 = 1")
__xlated("1: r0 = 12345")
__naked void xlated_absent(void)
{
	asm volatile ("r0 = 1;"
		      "exit;"
		      ::: __clobber_all);
}

/* Both lines are there, but not one after the other (no "..."). */
SEC("socket")
__success __retval(3)
__xlated("0: r0 = 1")
__xlated("2: r0 += r1")
__naked void xlated_not_next(void)
{
	asm volatile ("r0 = 1;"
		      "r1 = 2;"
		      "r0 += r1;"
		      "exit;"
		      ::: __clobber_all);
}

/* No such x86-64 instruction in the JIT image. */
SEC("socket")
__success __retval(0)
__arch_x86_64
__jited("...")
__jited("	ud2")
__naked void jited_absent(void)
{
	asm volatile ("r0 = 0;"
		      "exit;"
		      ::: __clobber_all);
}

/* The program writes nothing to its stderr stream. */
SEC("syscall")
__success __retval(0)
__stderr("never written")
int stderr_silent(void *ctx)
{
	return 0;
}

/* __linear_size applies to skb programs only. */
SEC("xdp")
__success __retval(2)
__linear_size(20)
int linear_on_xdp(struct xdp_md *ctx)
{
	return 2;
}

/* Capability numbers, not names: a malformed __caps_unpriv. */
SEC("socket")
__success_unpriv
__caps_unpriv(CAP_BPF|bogus)
int caps_bogus(void *ctx)
{
	return 0;
}

/* The object with the parameter names is not there. */
SEC("socket")
__success __retval(0)
__btf_func_path("no_such_object.bpf.o")
int btf_func_path_missing(void *ctx)
{
	return 0;
}
