/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small things BPF programs share: bpfcheck's own, and the names the
 * kernel's selftests give them (in their header of the same name), so that
 * the kernel's programs build here unmodified.
 *
 * The test annotations (__success, __failure, __msg, __retval, ...) become
 * BTF declaration tags on the program's function.  RUN_TESTS()
 * (helpers/test_loader.c) reads them back from the object's BTF.  BTF may
 * reorder and merge equal tags, so each carries a sequence number: the
 * loader puts several __msg() back in source order by it.
 */
#ifndef BPFCHECK_BPF_MISC_H
#define BPFCHECK_BPF_MISC_H

#define STR(x)		#x
#define XSTR(x)		STR(x)
#define QUOTE(...)	#__VA_ARGS__
#define EXPAND_QUOTE(...) QUOTE(__VA_ARGS__)

/* "bpfcheck:<seq>:<key>[=<value>]", the form test_loader.c parses. */
#define __test_tag(tag)							\
	__attribute__((btf_decl_tag("bpfcheck:" XSTR(__COUNTER__) ":" tag)))

/* Expectations of the privileged load (and run). */
#define __success		__test_tag("success")
#define __failure		__test_tag("failure")
#define __msg(msg)		__test_tag("msg=" msg)
#define __not_msg(msg)		__test_tag("not_msg=" msg)
#define __xlated(msg)		__test_tag("xlated=" msg)
#define __jited(msg)		__test_tag("jited=" msg)
#define __retval(val)		__test_tag("retval=" XSTR(val))
#define __stderr(msg)		__test_tag("stderr=" msg)
#define __stdout(msg)		__test_tag("stdout=" msg)
/* The same, for a load by a process without CAP_SYS_ADMIN and CAP_BPF. */
#define __success_unpriv	__test_tag("success_unpriv")
#define __failure_unpriv	__test_tag("failure_unpriv")
#define __msg_unpriv(msg)	__test_tag("msg_unpriv=" msg)
#define __not_msg_unpriv(msg)	__test_tag("not_msg_unpriv=" msg)
#define __xlated_unpriv(msg)	__test_tag("xlated_unpriv=" msg)
#define __jited_unpriv(msg)	__test_tag("jited_unpriv=" msg)
#define __retval_unpriv(val)	__test_tag("retval_unpriv=" XSTR(val))
#define __stderr_unpriv(msg)	__test_tag("stderr_unpriv=" msg)
#define __stdout_unpriv(msg)	__test_tag("stdout_unpriv=" msg)
#define __caps_unpriv(caps)	__test_tag("caps_unpriv=" EXPAND_QUOTE(caps))

/* How to load: subtest name, log level, program flags, BTF, arch. */
#define __description(desc)	__test_tag("description=" desc)
#define __log_level(lvl)	__test_tag("log_level=" #lvl)
#define __flag(flag)		__test_tag("flag=" #flag)
#define __btf_path(path)	__test_tag("btf_path=" path)
#define __btf_func_path(path)	__test_tag("btf_func_path=" path)
#define __linear_size(sz)	__test_tag("linear_size=" XSTR(sz))
#define __arch(arch)		__test_tag("arch=" arch)
#define __arch_x86_64		__arch("X86_64")
#define __arch_arm64		__arch("ARM64")
#define __arch_riscv64		__arch("RISCV64")
#define __arch_s390x		__arch("s390x")
#define __arch_loongarch	__arch("LOONGARCH")
#define __load_if_JITed()	__test_tag("load_mode=jited")
#define __load_if_no_JITed()	__test_tag("load_mode=no_jited")
/* Loaded with every tested program of the object, not tested itself. */
#define __auxiliary		__test_tag("auxiliary")
#define __auxiliary_unpriv	__test_tag("auxiliary_unpriv")

/* What __retval() may name besides numbers (test_loader.c knows both). */
#define POINTER_VALUE		0xcafe4all
#define TEST_DATA_LEN		64

/* Inline assembly programs. */
#define __naked			__attribute__((naked))
#define __clobber_all		"r0", "r1", "r2", "r3", "r4", "r5", "r6",	\
				"r7", "r8", "r9", "memory"
#define __clobber_common	"r0", "r1", "r2", "r3", "r4", "r5", "memory"
#define __imm(name)		[name]"i"(name)
#define __imm_const(name, expr)	[name]"i"(expr)
#define __imm_addr(name)	[name]"i"(&name)
#define __imm_ptr(name)		[name]"r"(&name)
#define __imm_insn(name, expr)	[name]"i"(*(long *)&(expr))

#ifndef __used
#define __used			__attribute__((used))
#endif
#ifndef __aligned
#define __aligned(x)		__attribute__((aligned(x)))
#endif

/* Keep a value alive (and unknown to the compiler) without using it. */
#define __sink(expr)		asm volatile("" : "+g"(expr))

/* Capability numbers (linux/capability.h) for __caps_unpriv(). */
#define CAP_NET_ADMIN		12
#define CAP_SYS_ADMIN		21
#define CAP_PERFMON		38
#define CAP_BPF			39

#ifndef offsetofend
#define offsetofend(type, member)					\
	(__builtin_offsetof(type, member) + sizeof(((type *)0)->member))
#endif
#ifndef sizeof_field
#define sizeof_field(type, member)	sizeof(((type *)0)->member)
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

/*
 * Prefix of syscall entry functions, for fentry/kprobe attach points;
 * SYSCALL_WRAPPER says the arch passes syscall arguments in a pt_regs.
 */
#if defined(__TARGET_ARCH_x86)
#define SYSCALL_WRAPPER		1
#define SYS_PREFIX		"__x64_"
#elif defined(__TARGET_ARCH_arm64)
#define SYSCALL_WRAPPER		1
#define SYS_PREFIX		"__arm64_"
#elif defined(__TARGET_ARCH_s390)
#define SYSCALL_WRAPPER		1
#define SYS_PREFIX		"__s390x_"
#elif defined(__TARGET_ARCH_riscv)
#define SYSCALL_WRAPPER		1
#define SYS_PREFIX		"__riscv_"
#else
#define SYSCALL_WRAPPER		0
#define SYS_PREFIX		"__se_"
#endif

/* Function arguments passed in registers, by the target's calling ABI. */
#if defined(__TARGET_ARCH_x86)
#define FUNC_REG_ARG_CNT	6
#elif defined(__TARGET_ARCH_arm)
#define FUNC_REG_ARG_CNT	4
#elif defined(__TARGET_ARCH_mips) || defined(__TARGET_ARCH_powerpc) || \
	defined(__TARGET_ARCH_arm64) || defined(__TARGET_ARCH_riscv) ||	\
	defined(__TARGET_ARCH_loongarch)
#define FUNC_REG_ARG_CNT	8
#else
#define FUNC_REG_ARG_CNT	5
#endif

/* Instructions clang >= 18 can write in inline assembly. */
#if __clang_major__ >= 18
#define CAN_USE_BPF_ST
#if defined(__TARGET_ARCH_x86) || defined(__TARGET_ARCH_arm64) ||	\
	defined(__TARGET_ARCH_s390) || defined(__TARGET_ARCH_loongarch) ||\
	defined(__TARGET_ARCH_riscv) || defined(__TARGET_ARCH_arm)
#define CAN_USE_GOTOL
#endif
#if defined(ENABLE_ATOMICS_TESTS) && (defined(__TARGET_ARCH_x86) ||	\
	defined(__TARGET_ARCH_arm64) || defined(__TARGET_ARCH_riscv) ||	\
	defined(__TARGET_ARCH_powerpc) || defined(__TARGET_ARCH_loongarch))
#define CAN_USE_LOAD_ACQ_STORE_REL
#endif
#endif

/* The JITs that harden against Spectre v1 (and, on x86, v4). */
#if defined(__TARGET_ARCH_x86) || defined(__TARGET_ARCH_arm64)
#define SPEC_V1
#endif
#if defined(__TARGET_ARCH_x86)
#define SPEC_V4
#endif

/* True when the current task belongs to the process under test. */
#define IS_TARGET_PROCESS(pid) \
	((int)(bpf_get_current_pid_tgid() >> 32) == (pid))

#endif
