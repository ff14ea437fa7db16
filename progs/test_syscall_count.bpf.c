// SPDX-License-Identifier: GPL-2.0
/*
 * Count the getpgid() calls of one process, five ways: a syscall
 * tracepoint, raw_tp and tp_btf on sys_enter (filtered on the syscall
 * number), fentry and kprobe on the arch's getpgid syscall function.
 * Calls of a second, "noise" process are counted apart, so the test can
 * show they happened and were kept out of the real count.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf_misc.h"
#include "syscall_count_common.h"

char LICENSE[] SEC("license") = "GPL";

/* __NR_getpgid differs per arch and is not in vmlinux.h: set by the test. */
const volatile long getpgid_nr = -1;

int target_pid;
int noise_pid;
__u64 hits[SC__COUNT];
__u64 noise_hits[SC__COUNT];

static __always_inline void count_call(enum sc_variant v)
{
	int tgid = bpf_get_current_pid_tgid() >> 32;

	/* Both counters have a single writer: one process each. */
	if (tgid == target_pid)
		hits[v]++;
	else if (tgid == noise_pid)
		noise_hits[v]++;
}

SEC("tp/syscalls/sys_enter_getpgid")
int sc_tracepoint(void *ctx)
{
	count_call(SC_TRACEPOINT);
	return 0;
}

/*
 * raw_tp/sys_enter fires on every syscall.  Its arguments are those of
 * trace_sys_enter(struct pt_regs *regs, long id): the number is args[1].
 */
SEC("raw_tp/sys_enter")
int sc_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	if (ctx->args[1] == getpgid_nr)
		count_call(SC_RAW_TP);
	return 0;
}

/* The same tracepoint with typed arguments, checked against BTF. */
SEC("tp_btf/sys_enter")
int BPF_PROG(sc_tp_btf, struct pt_regs *regs, long id)
{
	if (id == getpgid_nr)
		count_call(SC_TP_BTF);
	return 0;
}

SEC("fentry/" SYS_PREFIX "sys_getpgid")
int BPF_PROG(sc_fentry)
{
	count_call(SC_FENTRY);
	return 0;
}

SEC("kprobe/" SYS_PREFIX "sys_getpgid")
int BPF_KPROBE(sc_kprobe)
{
	count_call(SC_KPROBE);
	return 0;
}
