/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who holds BPF run-time stats on: a BPF_ENABLE_STATS fd shows in
 * /proc/<pid>/fd as a link to "anon_inode:bpf-stats".  The
 * kernel.bpf_stats_enabled sysctl does not show those holders: it reads
 * only what was written to it.
 */
#ifndef BPFCHECK_STATS_HOLDER_H
#define BPFCHECK_STATS_HOLDER_H

#include <stddef.h>

/*
 * The first process of this PID namespace holding a BPF_ENABLE_STATS fd:
 * its pid, with "pid N (comm)" in who; 0 when there is none.
 */
int bpf_stats_holder(char *who, size_t len);

#endif
