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
 *
 * Then the verdict on a result, which is a run: the mean, stddev and
 * count of its own samples.  Bencher's rule alerts when the mean is past
 * a limit.  With a candidate level c (not Bencher's) the run's own
 * one-sided confidence bound must be past the limit too; a run whose mean
 * is past it but whose bound is not is inconclusive: its own noise could
 * carry it there.  The window's spread already holds the noise its runs
 * had within themselves, so the bound counts only the run's excess:
 * mean -/+ t(c, count - 1) x sqrt(stddev^2 / count - w), w the mean of
 * the window's runs' stddev^2 / count.  No excess, no discount.
 */
#ifndef BPFCHECK_BENCH_HIST_THRESHOLD_H
#define BPFCHECK_BENCH_HIST_THRESHOLD_H

#include <stdbool.h>
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
	double candidate;	/* the run's own level, 0.5 to < 1; 0: Bencher's rule */
};

struct hist_limits {
	double center;		/* the window's mean (median for iqr) */
	double lower;		/* NaN: none */
	double upper;
};

/* A run checked against the limits: its samples' mean, stddev and count. */
struct hist_candidate {
	double mean;
	double stddev;
	long n;
};

enum hist_verdict {
	HIST_OK = 0,
	HIST_ALERT = 1,
	HIST_INCONCLUSIVE = 2,	/* the mean is past a limit, its confidence bound is not */
};

struct hist_judgement {
	enum hist_verdict verdict;
	bool above;		/* the side of the limit passed (not HIST_OK) */
	double limit;		/* that limit */
	/* The run's bound on that side: its mean when m->candidate is 0, no excess noise. */
	double bound;
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

/* The squared standard error of a run's mean (0 for one sample). */
double hist_run_se2(double stddev, long n);

/*
 * m's verdict on c against l (limits of m's test); window_se2: the mean
 * hist_run_se2() of the window's runs.
 */
struct hist_judgement hist_judge(const struct hist_model *m, const struct hist_limits *l,
				 const struct hist_candidate *c, double window_se2);

#endif
