// SPDX-License-Identifier: GPL-2.0
/*
 * __xlated, __jited, __stderr, __stdout, __linear_size, __caps_unpriv,
 * __btf_func_path, __btf_path, __load_if_JITed, __log_level and __flag
 * expectations that do not hold, on purpose: each subtest must fail and
 * show what it looked for and the text it saw (the negative control of
 * test_run_tests_texts.bpf.c).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
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

/* The program writes nothing to its stdout stream either. */
SEC("syscall")
__success __retval(0)
__stdout("never written")
int stdout_silent(void *ctx)
{
	return 0;
}

/* Loaded and run where the JIT is on (the host's): its retval is 1. */
SEC("socket")
__load_if_JITed()
__success __retval(99)
int jited_wrong_retval(void *ctx)
{
	return 1;
}

/*
 * The object whose BTF the program's CO-RE relocation would be resolved
 * against is not there (libbpf reads it only for a relocation).
 */
SEC("socket")
__success __retval(1)
__btf_path("no_such_btf.bpf.o")
int btf_path_missing(void *ctx)
{
	return bpf_core_field_exists(struct task_struct, pid);
}

/* Log level 4 is the statistics only: no instruction is in the log. */
SEC("socket")
__success __log_level(4)
__msg("0: (b7) r0 = 0")
__naked void log_stats_only(void)
{
	asm volatile ("r0 = 0;"
		      "exit;"
		      ::: __clobber_all);
}

/*
 * __flag(BPF_F_STRICT_ALIGNMENT) is applied: a 4-byte packet load at
 * offset 3 the verifier takes without it is refused with it.
 */
SEC("tc")
__success __retval(0)
__flag(BPF_F_STRICT_ALIGNMENT)
__naked void strict_alignment_refused(void)
{
	asm volatile ("r2 = *(u32 *)(r1 + %[data]);"
		      "r3 = *(u32 *)(r1 + %[data_end]);"
		      "r0 = r2;"
		      "r0 += 8;"
		      "if r0 > r3 goto l0_%=;"
		      "r0 = *(u32 *)(r2 + 3);"
		      "l0_%=: r0 = 0;"
		      "exit;"
		      :
		      : __imm_const(data, __builtin_offsetof(struct __sk_buff, data)),
			__imm_const(data_end, __builtin_offsetof(struct __sk_buff, data_end))
		      : __clobber_all);
}
