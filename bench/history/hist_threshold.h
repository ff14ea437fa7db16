/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bencher's threshold tests over a window of past results: the boundary
 * limits a new result must stay within.  Pure functions, no I/O,
 * unit-tested in tests/bench/hist_threshold_test.c.
 *
 *   static      the boundaries are the limits themselves
 *   percentage  mean x (1 -/+ boundary), boundary >= 0 (0.05 is 5%)
 *   z_score     mean -/+ z(boundary) x stddev, 0.5 <= boundary < 1
 *   t_test      mean -/+ t(boundary, n - 1) x stddev, 0.5 <= boundary < 1
 *   iqr         Q1 - boundary x IQR, Q3 + boundary x IQR (Tukey's fences)
 *
 * mean and stddev are those of the window's values (each a run's mean).
 */
#ifndef BPFCHECK_BENCH_HIST_THRESHOLD_H
#define BPFCHECK_BENCH_HIST_THRESHOLD_H

#include <stddef.h>
#include <stdint.h>

enum hist_test {
	HIST_STATIC,
	HIST_PERCENTAGE,
	HIST_Z_SCORE,
	HIST_T_TEST,
	HIST_IQR,
};

/* The test and what feeds it: Bencher's threshold model. */
struct hist_model {
	enum hist_test test;
	long min_n;		/* fewer values in the window: no limits */
	long max_n;		/* the newest this many */
	int64_t window_sec;	/* no older than this (0: any age) */
	double lower;		/* NaN: no lower boundary */
	double upper;		/* NaN: no upper boundary */
};

struct hist_limits {
	double center;		/* the window's mean (median for iqr) */
	double lower;		/* NaN: none */
	double upper;
};

/* "t_test" and friends: 0, or -1 for an unknown name. */
int hist_test_parse(const char *name, enum hist_test *t);
const char *hist_test_name(enum hist_test t);
/* The names hist_test_parse() takes, for error messages. */
#define HIST_TEST_NAMES	"static, percentage, z_score, t_test or iqr"

/* Whether b is a boundary the test takes; else NULL or the accepted form. */
const char *hist_boundary_form(enum hist_test t, double b);

/* The inverse of the standard normal cdf, 0 < p < 1; NaN outside. */
double hist_normal_quantile(double p);

/*
 * The limits from the window's n values.  -EINVAL when n is 0 (or 1 for
 * z_score and t_test, which need a spread), or a value is not finite;
 * -ENOMEM.
 */
int hist_limits(const struct hist_model *m, const double *values, size_t n,
		struct hist_limits *out);

#endif
