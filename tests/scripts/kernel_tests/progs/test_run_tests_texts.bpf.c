// SPDX-License-Identifier: GPL-2.0
/*
 * RUN_TESTS() annotations on what a loaded program looks like: the
 * translated program (__xlated), its x86-64 JIT image (__jited), and how
 * it is loaded (__caps_unpriv, __load_if_JITed).  __linear_size needs a
 * kernel whose test run builds non-linear skbs, and __stderr a kernel
 * whose stream writes succeed here: newer than the host's.  Each expectation
 * holds on the development host (kernel 6.18, x86-64, JIT on); the
 * negative control is test_run_tests_texts_wrong.bpf.c.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"

char LICENSE[] SEC("license") = "GPL";

/* Consecutive lines, then a gap ("...") before the last one. */
SEC("socket")
__success __retval(3)
__xlated("0: r0 = 1")
__xlated("1: r1 = 2")
__xlated("...")
__xlated("3: exit")
__naked void xlated_lines(void)
{
	asm volatile ("r0 = 1;"
		      "r1 = 2;"
		      "r0 += r1;"
		      "exit;"
		      ::: __clobber_all);
}

/*
 * A 64-bit immediate, a regular expression, a helper call (a helper is
 * named only while its number is in the instruction: the verifier put
 * the function's address offset there).
 */
SEC("socket")
__success __retval(0)
__xlated("0: r1 = 0x{{[0-9a-f]+}}")
__xlated("2: call unknown")
__naked void xlated_forms(void)
{
	asm volatile ("r1 = 0x1234567890 ll;"
		      "call %[bpf_get_prandom_u32];"
		      "r0 = 0;"
		      "exit;"
		      :: __imm(bpf_get_prandom_u32)
		      : __clobber_all);
}

/* x86-64's JIT: the prologue's instructions, then the return. */
SEC("socket")
__success __retval(0)
__arch_x86_64
__jited("	nopl	(%rax,%rax)")
__jited("...")
__jited("	xorl	%eax, %eax")
__jited("	leave")
__arch_arm64
__jited("	this arm64 line is never looked for")
__naked void jited_x86(void)
{
	asm volatile ("r0 = 0;"
		      "exit;"
		      ::: __clobber_all);
}

/* Loaded without CAP_BPF and friends, but keeping CAP_BPF. */
SEC("socket")
__success_unpriv __retval_unpriv(5)
__caps_unpriv(CAP_BPF)
int unpriv_with_bpf(void *ctx)
{
	return 5;
}

/* Loaded only where the JIT is on, as on the development host. */
SEC("socket")
__load_if_JITed()
__success __retval(6)
int jit_on_only(void *ctx)
{
	return 6;
}

SEC("socket")
__load_if_no_JITed()
__success __retval(7)
int jit_off_only(void *ctx)
{
	return 7;
}

/* A global __naked function: its BTF parameters have no names. */
__noinline __naked int naked_sum(int a, int b)
{
	asm volatile ("r0 = r1;"
		      "r0 += r2;"
		      "exit;"
		      ::: __clobber_all);
}

/* The names come from btf__run_tests_texts.bpf.o. */
SEC("socket")
__success __retval(5)
__btf_func_path("btf__run_tests_texts.bpf.o")
int btf_func_names(void *ctx)
{
	return naked_sum(2, 3);
}
