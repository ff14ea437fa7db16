/* SPDX-License-Identifier: GPL-2.0 */
/* Small definitions every part of bpfcheck uses, defined once. */
#ifndef BPFCHECK_UTIL_H
#define BPFCHECK_UTIL_H

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/*
 * The kernel's "operation not supported" (include/linux/errno.h), which
 * BPF syscalls return and userspace headers do not define.
 */
#ifndef ENOTSUPP
#define ENOTSUPP 524
#endif

/* For callbacks whose signature is fixed by libbpf or by a table. */
#ifndef __maybe_unused
#define __maybe_unused __attribute__((unused))
#endif

#endif
