/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Student t distribution: its cdf, two-sided p-values and quantiles,
 * through the regularized incomplete beta function.  Pure functions, for
 * the gate's t-test and the history's t-test threshold; tested in
 * tests/bench/gate_test.c against values computed independently.
 */
#ifndef BPFCHECK_BENCH_TDIST_H
#define BPFCHECK_BENCH_TDIST_H

/*
 * The regularized incomplete beta function I_x(a, b) for 0 <= x <= 1,
 * a > 0, b > 0; NaN for arguments outside that.
 */
double tdist_incbeta(double x, double a, double b);

/* P(T <= t) for Student's t distribution with df > 0 degrees of freedom. */
double tdist_cdf(double t, double df);

/* Two-sided p-value of t with df degrees of freedom: P(|T| >= |t|). */
double tdist_pvalue(double t, double df);

/* The t with P(T <= t) = p, 0 < p < 1; NaN outside that. */
double tdist_quantile(double p, double df);

#endif
