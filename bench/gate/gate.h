/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The regression gate's statistics: Welch's t-test on two sets of
 * samples (the t distribution is bench/tdist.h), and the verdict that
 * combines the test with a minimum effect size.  Pure functions, no I/O,
 * unit-tested in tests/bench/gate_test.c against values computed
 * independently.
 */
#ifndef BPFCHECK_BENCH_GATE_H
#define BPFCHECK_BENCH_GATE_H

#include <stdbool.h>
#include <stddef.h>

struct gate_welch {
	double t;	/* (mean_b - mean_a) / se; +-inf when se == 0 and means differ */
	double df;	/* Welch-Satterthwaite degrees of freedom */
	double se;	/* standard error of the difference of the means */
	double p;	/* two-sided p-value */
};

/*
 * Welch's t-test from each side's mean, sample variance (n - 1) and size.
 * Both variances zero: t = 0 and p = 1 when the means are equal, else
 * t = +-inf and p = 0, with df = na + nb - 2 (the samples are constants;
 * any difference is certain).  One variance zero: the other side's
 * n - 1 degrees of freedom, as the formula gives.  -EINVAL when a side
 * has fewer than 2 samples or a variance is negative or not finite.
 */
int gate_welch_from(double mean_a, double var_a, size_t na,
		    double mean_b, double var_b, size_t nb,
		    struct gate_welch *r);

/* The same from the samples themselves. */
int gate_welch(const double *a, size_t na, const double *b, size_t nb,
	       struct gate_welch *r);

enum gate_verdict {
	GATE_NO_CHANGE,		/* smaller than the minimum effect */
	GATE_IMPROVED,		/* at least the minimum effect, significant, better */
	GATE_REGRESSED,		/* at least the minimum effect, significant, worse */
	GATE_INCONCLUSIVE,	/* at least the minimum effect, not significant */
};

const char *gate_verdict_name(enum gate_verdict v);

/*
 * How far the candidate's mean is from the baseline's, in percent of the
 * baseline: 0 when both are 0, +-inf when only the baseline is 0.
 */
double gate_delta_pct(double base, double cand);

/*
 * The verdict on a change of delta_pct with p-value p.  A change smaller
 * than min_effect_pct (in absolute value) is no change, whatever p says:
 * with many samples a tiny shift is significant and still harmless.  A
 * larger change is a regression or an improvement when p < alpha, by
 * direction (higher_is_better: throughput; else latency), and
 * inconclusive otherwise.
 */
enum gate_verdict gate_decide(double delta_pct, double p, bool higher_is_better,
			      double min_effect_pct, double alpha);

/* Fewer samples than this on a side give the t-test too little to stand on. */
#define GATE_MIN_SAMPLES	3

struct gate_result {
	double base_mean;
	double cand_mean;
	double delta_pct;
	struct gate_welch welch;
	enum gate_verdict verdict;
};

/*
 * The gate's decision on one metric: the means, their difference, Welch's
 * test and the verdict.  -EINVAL when a side has fewer than
 * GATE_MIN_SAMPLES samples, or a sample is not a finite number.
 */
int gate_compare(const double *base, size_t n_base, const double *cand,
		 size_t n_cand, bool higher_is_better, double min_effect_pct,
		 double alpha, struct gate_result *r);

#endif
