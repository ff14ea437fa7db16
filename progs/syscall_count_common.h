/* SPDX-License-Identifier: GPL-2.0 */
/* Indexes of the syscall_count counters, shared with userspace. */
#ifndef BPFCHECK_SYSCALL_COUNT_COMMON_H
#define BPFCHECK_SYSCALL_COUNT_COMMON_H

/* One counter slot per way of hooking the getpgid syscall. */
enum sc_variant {
	SC_TRACEPOINT,
	SC_RAW_TP,
	SC_TP_BTF,
	SC_FENTRY,
	SC_KPROBE,
	SC__COUNT,
};

#endif
