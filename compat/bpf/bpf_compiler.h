/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loop unrolling hints for BPF programs, by the names the kernel's
 * selftests use (progs/bpf_compiler.h), for clang and for GCC's BPF target.
 */
#ifndef BPFCHECK_BPF_COMPILER_H
#define BPFCHECK_BPF_COMPILER_H

#define __bpfcheck_pragma(x)	_Pragma(#x)

#ifdef __clang__
#define __pragma_loop_unroll		__bpfcheck_pragma(clang loop unroll(enable))
#define __pragma_loop_unroll_count(n)	__bpfcheck_pragma(clang loop unroll_count(n))
#define __pragma_loop_unroll_full	__bpfcheck_pragma(clang loop unroll(full))
#define __pragma_loop_no_unroll		__bpfcheck_pragma(clang loop unroll(disable))
#else
/* GCC has no "unroll as it sees fit": leave that loop to its heuristics. */
#define __pragma_loop_unroll
#define __pragma_loop_unroll_count(n)	__bpfcheck_pragma(GCC unroll n)
#define __pragma_loop_unroll_full	__bpfcheck_pragma(GCC unroll 65534)
#define __pragma_loop_no_unroll		__bpfcheck_pragma(GCC unroll 1)
#endif

#endif
