/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error pointers in userspace (the kernel's tools/include <linux/err.h>):
 * -errno stored in a pointer, in its last MAX_ERRNO values.  libbpf used
 * them before 1.0; tests still test pointers with IS_ERR() and friends.
 */
#ifndef BPFCHECK_LINUX_ERR_H
#define BPFCHECK_LINUX_ERR_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_ERRNO	4095

#define IS_ERR_VALUE(x)	((uintptr_t)(x) >= (uintptr_t)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE(ptr);
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE(ptr);
}

static inline int PTR_ERR_OR_ZERO(const void *ptr)
{
	return IS_ERR(ptr) ? (int)PTR_ERR(ptr) : 0;
}

#endif
