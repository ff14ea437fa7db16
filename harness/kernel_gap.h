/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Was a failure an EPERM or ENOTSUPP from the kernel?  Loading or
 * attaching a program type the kernel lacks (fentry where BTF trampolines
 * are off, kprobes without CONFIG_KPROBES) fails that way, so a reader of
 * the summary can tell a kernel gap from a bug in the test or the code.
 */
#ifndef BPFCHECK_KERNEL_GAP_H
#define BPFCHECK_KERNEL_GAP_H

#include "outcome.h"

/*
 * "EPERM", "ENOTSUPP" or "EOPNOTSUPP" when a failed part of r (the test
 * or a failed subtest) recorded that error: the errno of its first failed
 * check, else what libbpf reported; NULL otherwise, and for tests that
 * did not fail.
 */
const char *kernel_gap_errno(const struct test_result *r);
/* The gap errno one message of libbpf's names, or 0. */
int kernel_gap_libbpf_errno(const char *msg);

#endif
