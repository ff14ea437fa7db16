/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Markers in the kernel log: where a kernel splat happened, in test terms.
 * Only when BPFCHECK_KMSG=1 (vmtest's guest init sets it); a no-op else.
 */
#ifndef BPFCHECK_KMSG_H
#define BPFCHECK_KMSG_H

/*
 * "bpfcheck: test TEST[/SUBTEST]" to /dev/kmsg (subtest may be NULL).
 * 0 or -errno; best effort: callers go on either way.
 */
int kmsg_test_start(const char *test, const char *subtest);

#endif
