/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel feature probes.  Each feature is found by trying it (load a tiny
 * program, create a map, attach), as libbpf does, never by version number.
 */
#ifndef BPFCHECK_PROBE_H
#define BPFCHECK_PROBE_H

#include <stdbool.h>

enum bpf_feature {
	FEAT_BTF,		/* vmlinux BTF in /sys/kernel/btf */
	FEAT_TRACEPOINT,	/* tracepoint programs on syscall events */
	FEAT_RAW_TP,		/* raw_tp programs */
	FEAT_TP_BTF,		/* BTF-typed raw tracepoints */
	FEAT_FENTRY,		/* fentry/fexit trampolines */
	FEAT_KPROBE,		/* kprobe programs */
	FEAT_PERF_EVENT_SW,	/* software perf events (cpu-clock) */
	FEAT_RINGBUF,		/* BPF_MAP_TYPE_RINGBUF */
	FEAT_QUEUE_STACK,	/* BPF_MAP_TYPE_QUEUE and _STACK */
	FEAT_BLOOM_FILTER,	/* BPF_MAP_TYPE_BLOOM_FILTER */
	FEAT_TASK_STORAGE,	/* BPF_MAP_TYPE_TASK_STORAGE */
	FEAT_BPF_STATS,		/* BPF_ENABLE_STATS run-time stats */
	FEAT_XDP,		/* XDP programs and BPF_PROG_TEST_RUN on them */
	FEAT_ISA_V4,		/* BPF ISA v4 instructions (Linux 6.6) */
	FEAT__COUNT,
};

const char *feature_name(enum bpf_feature f);
/* NULL when the kernel has the feature, else why not.  Cached. */
const char *feature_missing(enum bpf_feature f);
/* Probe every feature now (before tests fork, so children share it). */
void features_probe_all(void);

/*
 * For tests: when the feature is missing, mark the running subtest (or
 * test) skipped with the reason and return false.
 */
bool test__need(enum bpf_feature f);

/* Name of the syscall entry function for getpgid on this architecture. */
const char *getpgid_syscall_func(void);

#endif
