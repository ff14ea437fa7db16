/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raise or drop effective capabilities of the calling thread, by the
 * names of the kernel's selftests (cap_helpers.h).  caps is a bit mask
 * (1ULL << CAP_BPF | ...); *old_caps, when not NULL, receives the
 * effective set before the change.  0 or -errno.
 */
#ifndef BPFCHECK_CAP_HELPERS_H
#define BPFCHECK_CAP_HELPERS_H

#include <linux/types.h>
#include <linux/capability.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif
#ifndef CAP_BPF
#define CAP_BPF		39
#endif

int cap_enable_effective(__u64 caps, __u64 *old_caps);
int cap_disable_effective(__u64 caps, __u64 *old_caps);

#endif
