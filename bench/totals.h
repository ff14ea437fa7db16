/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's totals and whether they add up: every record the BPF side
 * tried was consumed or dropped, and it tried batch_cnt per trigger
 * except for the runs the kernel skipped.
 *
 * The kernel does not run a tracing program while it is already running
 * on the same CPU: it skips the run and counts it in the program's
 * recursion_misses (see helpers/skipped_runs.h).  Where programs run
 * preemptible (7.2's syscall tracepoints, fentry), a producer preempted
 * inside the program makes the other producer's triggers on that CPU
 * such skips, so those triggers produce nothing.
 */
#ifndef BPFCHECK_BENCH_TOTALS_H
#define BPFCHECK_BENCH_TOTALS_H

#include <linux/types.h>
#include <stdbool.h>

struct bench_totals {
	__u64 triggers;		/* syscalls by producers and --b2b consumers */
	__u64 produced;		/* records the BPF side tried to emit */
	__u64 hits;
	__u64 drops;
	/*
	 * Runs of the producer program the kernel skipped during the run
	 * (its recursion_misses), whoever triggered them: a raw_tp program
	 * runs on every syscall of every process, so it may exceed the
	 * bench's own skipped triggers.
	 */
	__u64 missed_runs;
	__u64 skipped_triggers;	/* triggers that produced nothing */
	bool bpf_counts;	/* produced/drops/missed_runs come from the BPF side */
	bool consistent;
	char why[256];		/* when not consistent */
};

/*
 * Set t->consistent, t->skipped_triggers and, when they do not add up,
 * t->why: hits + drops == produced, and produced == (triggers - skipped)
 * x per_trigger for a whole number skipped <= missed_runs.  With no run
 * missed that is produced == triggers x per_trigger.
 */
void bench_totals_check(struct bench_totals *t, __u64 per_trigger);

#endif
