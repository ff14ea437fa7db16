/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What bench history stores and checks: one result of one benchmark and
 * measure on one testbed (the mean, stddev and count of a run's samples),
 * as read from a report, before it meets the database.
 */
#ifndef BPFCHECK_BENCH_HIST_POINT_H
#define BPFCHECK_BENCH_HIST_POINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bencher's testbed: where the numbers were measured. */
struct hist_testbed {
	char *name;
	char *machine;		/* "x86_64, AMD EPYC, 2 CPUs" */
	char *kernel;		/* its release */
	char *accel;		/* "host", "kvm", "tcg" */
	bool icount;		/* guest instructions instead of time */
};

struct hist_point {
	char *benchmark;	/* the report's config */
	char *measure;		/* the metric: test_run, hits, latency */
	char *units;		/* ns/run, insns/run, events/s */
	bool higher_is_better;
	double mean;
	double stddev;
	long n;			/* samples behind the mean */
	size_t testbed;		/* index into hist_batch.testbeds */
};

/* Everything one "add" or "check" read, before any of it is written. */
struct hist_batch {
	struct hist_point *points;
	size_t n_points;
	struct hist_testbed *testbeds;
	size_t n_testbeds;
	uint64_t digest;	/* of the inputs: the same run added twice */
};

#endif
