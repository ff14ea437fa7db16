// SPDX-License-Identifier: GPL-2.0
/*
 * fentry/fexit on the getpgid syscall: count the calls of the test
 * process on entry, and on exit record what the syscall returned.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf_misc.h"

char LICENSE[] SEC("license") = "GPL";

int target_pid;
__u64 entries;
__u64 exits;
long last_ret;

SEC("fentry/" SYS_PREFIX "sys_getpgid")
int BPF_PROG(count_entry, struct pt_regs *regs)
{
	if (IS_TARGET_PROCESS(target_pid))
		entries++;
	return 0;
}

SEC("fexit/" SYS_PREFIX "sys_getpgid")
int BPF_PROG(record_exit, struct pt_regs *regs, long ret)
{
	if (IS_TARGET_PROCESS(target_pid)) {
		exits++;
		last_ret = ret;
	}
	return 0;
}
