// SPDX-License-Identifier: GPL-2.0
/*
 * bench history's threshold tests (bench/history/hist_threshold.c) against
 * values worked out by hand and the normal quantile's known values.
 * Prints TAP-like lines and "hist-threshold-test: P passed, F failed".
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "hist_threshold.h"

static int n_checks, n_failed;

static void check(const char *what, double got, double want, double rel)
{
	bool ok = isnan(want) ? isnan(got) : fabs(got - want) <= rel * fmax(fabs(want), 1e-300);

	n_checks++;
	n_failed += !ok;
	printf("%sok %d - %s", ok ? "" : "not ", n_checks, what);
	if (!ok)
		printf(": got %.17g, want %.17g", got, want);
	printf("\n");
}

/* Mean 10, sample stddev 1 (values 9, 10, 11). */
static const double w[] = { 9, 10, 11 };

static struct hist_limits limits(enum hist_test t, double lower, double upper)
{
	struct hist_model m = { .test = t, .min_n = 2, .max_n = 64, .lower = lower,
				.upper = upper };
	struct hist_limits l;

	if (hist_limits(&m, w, 3, &l))
		l.lower = l.upper = -1;
	return l;
}

int main(void)
{
	struct hist_model m = { .test = HIST_Z_SCORE, .lower = NAN, .upper = 0.99 };
	struct hist_limits l;
	double one = 1;

	check("normal quantile(0.975) = 1.959963984540054",
	      hist_normal_quantile(0.975), 1.959963984540054, 1e-9);
	check("normal quantile(0.5) = 0", hist_normal_quantile(0.5) + 1, 1, 1e-12);
	check("normal quantile(1) is NaN", hist_normal_quantile(1), NAN, 0);
	l = limits(HIST_STATIC, 5, 12);
	check("static: the lower limit is the boundary", l.lower, 5, 0);
	check("static: the upper limit is the boundary", l.upper, 12, 0);
	l = limits(HIST_PERCENTAGE, NAN, 0.05);
	check("percentage: upper = mean x 1.05", l.upper, 10.5, 1e-12);
	check("percentage: no lower boundary, no lower limit", l.lower, NAN, 0);
	l = limits(HIST_Z_SCORE, 0.975, 0.975);
	check("z_score: mean - 1.96 sd", l.lower, 10 - 1.959963984540054, 1e-9);
	check("z_score: mean + 1.96 sd", l.upper, 10 + 1.959963984540054, 1e-9);
	/* t(0.975, 2 df) = 4.302652729911275 (closed form for df 2). */
	l = limits(HIST_T_TEST, NAN, 0.975);
	check("t_test: mean + t(0.975, 2) sd", l.upper, 10 + 4.302652729911275, 1e-9);
	/* Quartiles of 9, 10, 11: 9.5 and 10.5, IQR 1. */
	l = limits(HIST_IQR, 1.5, 1.5);
	check("iqr: Q1 - 1.5 IQR", l.lower, 8, 1e-12);
	check("iqr: Q3 + 1.5 IQR", l.upper, 12, 1e-12);
	check("z_score of one value is refused", hist_limits(&m, &one, 1, &l), -EINVAL, 0);
	check("a percentile of 1 is refused",
	      hist_boundary_form(HIST_T_TEST, 1) != NULL, 1, 0);
	check("a negative percentage is refused",
	      hist_boundary_form(HIST_PERCENTAGE, -0.1) != NULL, 1, 0);
	check("0.99 is a percentile", hist_boundary_form(HIST_Z_SCORE, 0.99) == NULL, 1, 0);
	printf("hist-threshold-test: %d passed, %d failed\n", n_checks - n_failed, n_failed);
	return n_failed ? 1 : 0;
}
