/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the bench BPF programs (progs/bench_*.bpf.c) and the bench
 * binary (bench/): the producers' configuration and their counters.
 * The includer provides __u32/__u64 (vmlinux.h or <linux/types.h>).
 */
#ifndef BPFCHECK_BENCH_COMMON_H
#define BPFCHECK_BENCH_COMMON_H

/* Counter slots, one per CPU (index masked, so a power of two). */
#define BENCH_MAX_CPUS		256
/* Two 64-byte lines: adjacent-line prefetch must not pair two slots. */
#define BENCH_CACHE_LINE	128
/* Upper bound of the producers' loop, so the verifier sees it end. */
#define BENCH_MAX_BATCH		4096

/* Set by userspace before load; read-only (and constant) for the verifier. */
struct bench_config {
	__u64 sampled;		/* ring buffer: wake once per this many records */
	__u64 getpgid_nr;	/* syscall number, for the raw_tp filter */
	__u32 target_tgid;	/* count only this process's triggers */
	__u32 batch_cnt;	/* records per trigger */
};

/*
 * Written only by programs running on that CPU; userspace reads them
 * through the mmapped .bss while the bench runs.
 */
struct bench_cpu_counters {
	__u64 produced;		/* records the program tried to emit */
	__u64 dropped;		/* of those, the ones that found no room */
	__u64 since_wakeup;	/* records since the last forced wake-up */
	__u64 pad[BENCH_CACHE_LINE / 8 - 3];
};

#endif
