/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a run measured, as the reporters receive it: the per-second
 * samples, the totals, where the threads ran; and one metric of a JSON
 * report as bench compare reads it.  Types only.
 */
#ifndef BPFCHECK_BENCH_RESULT_H
#define BPFCHECK_BENCH_RESULT_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "bench.h"
#include "totals.h"

/* What one second brought: deltas of the cumulative counters. */
struct bench_sample {
	__u64 duration_ns;
	__u64 hits;
	__u64 drops;
	__u64 triggers;
	__u64 other_ns;		/* CPU time of other processes */
	__u64 steal_ns;		/* CPU time the hypervisor took */
	__u64 wakeups;		/* of the consumers (0: they do not wait) */
	__u64 prod_triggers[BENCH_MAX_THREADS];
};

struct bench_result {
	struct bench_sample *samples;	/* warm-up first */
	int n_samples;
	int n_warmup;			/* of n_samples */
	struct bench_totals totals;
	int producer_cpu[BENCH_MAX_THREADS];	/* pinned to, or -1 */
	int consumer_cpu[BENCH_MAX_THREADS];
	bool interrupted;
};

/*
 * One metric of a JSON report, as the reporters write it and bench
 * compare reads it: its samples, unit and better direction.
 */
struct report_metric {
	const char *name;
	const char *unit;
	bool higher_is_better;
	bool available;
	const char *reason;	/* why it is not available, or NULL */
	double *samples;
	size_t n;
};

#endif
