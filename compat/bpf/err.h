/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error pointers in BPF programs (the kernel's selftests' progs/err.h): a
 * kernel function returning a pointer encodes -errno in its last 4095
 * values.
 */
#ifndef BPFCHECK_BPF_ERR_H
#define BPFCHECK_BPF_ERR_H

#define MAX_ERRNO		4095
#define IS_ERR_VALUE(x)	((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)
#define __STR(x)		#x

static inline int IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE((unsigned long)ptr);
}

static inline int IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

/*
 * y = x, unless x is 0 or -1..-MAX_ERRNO: lets the verifier see a return
 * value confined to the errno range (or zero).
 */
#define set_if_not_errno_or_zero(x, y)					\
	({								\
		asm volatile("if %[r] s< -%[max] goto +1;\n"		\
			     "if %[r] s<= 0 goto +1;\n"			\
			     "%[r] = %[val];\n"				\
			     : [r] "+r"(x)				\
			     : [val] "i"(y), [max] "i"(MAX_ERRNO));	\
		x;							\
	})

#endif
