/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <linux/types.h> as the kernel's tools/include has it: the system's
 * (uapi) types plus the kernel's short names u8..u64 and s8..s64, which
 * the kernel's selftests use in userspace.
 */
#ifndef BPFCHECK_LINUX_TYPES_H
#define BPFCHECK_LINUX_TYPES_H

#include_next <linux/types.h>

typedef __u64 u64;
typedef __s64 s64;
typedef __u32 u32;
typedef __s32 s32;
typedef __u16 u16;
typedef __s16 s16;
typedef __u8 u8;
typedef __s8 s8;

#endif
