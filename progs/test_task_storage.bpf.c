// SPDX-License-Identifier: GPL-2.0
/*
 * Per-task call counts kept two ways on every getpgid() of the processes
 * under test: in task local storage and in a hash map keyed by pid.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct task_counts {
	__u64 calls;
	__u64 last_arg;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_counts);
} by_task SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, int);
	__type(value, struct task_counts);
} by_pid SEC(".maps");

/* Set before load: the syscall number is not in vmlinux.h. */
const volatile long getpgid_nr;
/* Only processes whose parent is the test process are recorded. */
int parent_pid;
__u32 storage_failures;

SEC("tp_btf/sys_enter")
int BPF_PROG(count_getpgid, struct pt_regs *regs, long id)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct task_counts *ts, *hs, zero = {};
	int pid = task->pid;
	long arg;

	if (id != getpgid_nr || task->real_parent->tgid != parent_pid)
		return 0;
	arg = PT_REGS_PARM1_CORE_SYSCALL(regs);
	ts = bpf_task_storage_get(&by_task, task, NULL,
				  BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!ts) {
		storage_failures++;
		return 0;
	}
	ts->calls++;
	ts->last_arg = arg;

	hs = bpf_map_lookup_elem(&by_pid, &pid);
	if (!hs) {
		bpf_map_update_elem(&by_pid, &pid, &zero, BPF_NOEXIST);
		hs = bpf_map_lookup_elem(&by_pid, &pid);
		if (!hs)
			return 0;
	}
	hs->calls++;
	hs->last_arg = arg;
	return 0;
}
