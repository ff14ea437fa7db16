/* SPDX-License-Identifier: GPL-2.0 */
/* Small things several BPF programs share. */
#ifndef BPFCHECK_BPF_MISC_H
#define BPFCHECK_BPF_MISC_H

/* Prefix of syscall entry functions, for fentry/kprobe attach points. */
#if defined(__TARGET_ARCH_x86)
#define SYS_PREFIX "__x64_"
#elif defined(__TARGET_ARCH_arm64)
#define SYS_PREFIX "__arm64_"
#elif defined(__TARGET_ARCH_s390)
#define SYS_PREFIX "__s390x_"
#else
#define SYS_PREFIX ""
#endif

/* True when the current task belongs to the process under test. */
#define IS_TARGET_PROCESS(pid) \
	((int)(bpf_get_current_pid_tgid() >> 32) == (pid))

#endif
