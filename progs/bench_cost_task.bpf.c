// SPDX-License-Identifier: GPL-2.0
/*
 * prog-cost-task: a per-task counter kept in a hash map keyed by pid or in
 * task local storage.  Each way is built twice from one body: as an XDP
 * program, which BPF_PROG_TEST_RUN can repeat (the current task is the
 * caller), and on the getpgid tracepoint, which runs attached when the
 * bench calls getpgid().  Only the bench's own process is counted.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct task_count {
	__u64 calls;
};

/* Sized by userspace (bpf_map__set_max_entries) to the keys it holds. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct task_count);
} by_pid SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_count);
} by_task SEC(".maps");

const volatile __u32 target_tgid;
/* Runs of the bench's process that found no room (the hash was full). */
__u64 misses;

static __always_inline void count_by_pid(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct task_count *c, zero = {};
	__u32 pid = task->pid;

	if (task->tgid != target_tgid)
		return;
	c = bpf_map_lookup_elem(&by_pid, &pid);
	if (!c) {
		bpf_map_update_elem(&by_pid, &pid, &zero, BPF_NOEXIST);
		c = bpf_map_lookup_elem(&by_pid, &pid);
	}
	if (c)
		c->calls++;
	else
		misses++;
}

static __always_inline void count_by_task(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct task_count *c;

	if (task->tgid != target_tgid)
		return;
	c = bpf_task_storage_get(&by_task, task, NULL,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (c)
		c->calls++;
	else
		misses++;
}

SEC("xdp")
int pid_hash_xdp(struct xdp_md *ctx)
{
	count_by_pid();
	return XDP_PASS;
}

SEC("tp/syscalls/sys_enter_getpgid")
int pid_hash_tp(void *ctx)
{
	count_by_pid();
	return 0;
}

SEC("xdp")
int task_storage_xdp(struct xdp_md *ctx)
{
	count_by_task();
	return XDP_PASS;
}

SEC("tp/syscalls/sys_enter_getpgid")
int task_storage_tp(void *ctx)
{
	count_by_task();
	return 0;
}
