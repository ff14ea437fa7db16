/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compiler attributes and access helpers the kernel's tools/include
 * provides as <linux/compiler.h>, for userspace code written against it
 * (the kernel's selftests include it).
 */
#ifndef BPFCHECK_LINUX_COMPILER_H
#define BPFCHECK_LINUX_COMPILER_H

#ifndef likely
#define likely(x)		__builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x)		__builtin_expect(!!(x), 0)
#endif
#ifndef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#endif
#ifndef noinline
#define noinline		__attribute__((noinline))
#endif
#ifndef __noinline
#define __noinline		__attribute__((noinline))
#endif
#ifndef __maybe_unused
#define __maybe_unused		__attribute__((unused))
#endif
#ifndef __always_unused
#define __always_unused		__attribute__((unused))
#endif
#ifndef __used
#define __used			__attribute__((used))
#endif
#ifndef __weak
#define __weak			__attribute__((weak))
#endif
#ifndef __packed
#define __packed		__attribute__((packed))
#endif
#ifndef __aligned
#define __aligned(x)		__attribute__((aligned(x)))
#endif
#ifndef __printf
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#endif
#ifndef __noreturn
#define __noreturn		__attribute__((noreturn))
#endif
#ifndef __user
#define __user
#endif
#ifndef __fallthrough
#define __fallthrough		__attribute__((fallthrough))
#endif

#include <linux/rwonce.h>

#endif
