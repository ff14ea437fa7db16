/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Descriptive statistics of a benchmark's per-second samples.  Pure
 * functions on arrays of doubles, no I/O, so they can be unit-tested
 * (tests/bench/stats_test.c) and reused by the comparison of two runs.
 */
#ifndef BPFCHECK_BENCH_STATS_H
#define BPFCHECK_BENCH_STATS_H

#include <stddef.h>

struct stats_summary {
	size_t n;
	double mean;
	double stddev;	/* sample standard deviation (n - 1); 0 when n < 2 */
	double min;
	double max;
	double median;
	double p99;
};

/* Arithmetic mean; NaN when n == 0. */
double stats_mean(const double *x, size_t n);

/* Sample variance (divides by n - 1); 0 when n < 2. */
double stats_variance(const double *x, size_t n);

/* Sample standard deviation (divides by n - 1); 0 when n < 2. */
double stats_stddev(const double *x, size_t n);

/*
 * Quantile q (0 <= q <= 1) of sorted data, interpolating linearly between
 * the two closest ranks (position (n - 1) * q, as R's type 7 and numpy's
 * default).  The median is q = 0.5.  NaN when n == 0 or q is out of range.
 */
double stats_quantile_sorted(const double *sorted, size_t n, double q);

/*
 * All of the above for x (left untouched).  Returns 0, -EINVAL when
 * n == 0, or -ENOMEM.
 */
int stats_summarize(const double *x, size_t n, struct stats_summary *s);

#endif
