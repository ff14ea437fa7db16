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

/* The window's runs' mean squared standard error (their own noise). */
static double window_se2;

/* The verdict on a run of mean, stddev and count against w's t_test limits. */
static struct hist_judgement judge(double lower, double upper, double candidate,
				   double mean, double sd, long n)
{
	struct hist_model m = { .test = HIST_T_TEST, .min_n = 2, .max_n = 64, .lower = lower,
				.upper = upper, .candidate = candidate };
	struct hist_candidate c = { .mean = mean, .stddev = sd, .n = n };
	struct hist_limits l;

	hist_limits(&m, w, 3, &l);
	return hist_judge(&m, &l, &c, window_se2);
}

/*
 * w's upper limit at 0.975 is 14.30; t(0.95, 2 df) = 2.919985580355516, so
 * a run of 3 samples with stddev s has its 95% bound 1.686 s inside its mean.
 */
static void check_verdicts(void)
{
	const double t95 = 2.919985580355516;
	struct hist_judgement j;

	j = judge(NAN, 0.975, 0.95, 15, 2, 3);
	check("a noisy run past the limit, bound not: inconclusive", j.verdict,
	      HIST_INCONCLUSIVE, 0);
	check("its bound: mean - t(0.95, 2) sd / sqrt 3", j.bound, 15 - t95 * 2 / sqrt(3), 1e-9);
	check("the limit it passed", j.limit, 10 + 4.302652729911275, 1e-9);
	check("the same run by Bencher's rule (level 0): an alert",
	      judge(NAN, 0.975, 0, 15, 2, 3).verdict, HIST_ALERT, 0);
	j = judge(NAN, 0.975, 0.95, 20, 0.5, 3);
	check("a clear shift with a tight spread: an alert", j.verdict, HIST_ALERT, 0);
	check("its bound is past the limit", j.bound > j.limit, 1, 0);
	check("a run of one sample past the limit: an alert (the mean alone)",
	      judge(NAN, 0.975, 0.95, 15, 2, 1).verdict, HIST_ALERT, 0);
	check("a run of one sample: its bound is its mean",
	      judge(NAN, 0.975, 0.95, 15, 2, 1).bound, 15, 0);
	check("a run with no spread past the limit: an alert",
	      judge(NAN, 0.975, 0.95, 15, 0, 3).verdict, HIST_ALERT, 0);
	check("a run within the limit: ok", judge(NAN, 0.975, 0.95, 12, 5, 3).verdict,
	      HIST_OK, 0);
	/* The lower side: limit 10 - 4.30 = 5.70. */
	j = judge(0.975, NAN, 0.95, 4, 2, 3);
	check("a noisy drop below the lower limit: inconclusive", j.verdict,
	      HIST_INCONCLUSIVE, 0);
	check("its bound: mean + t(0.95, 2) sd / sqrt 3", j.bound, 4 + t95 * 2 / sqrt(3), 1e-9);
	j = judge(0.975, NAN, 0.95, 1, 0.3, 3);
	check("a clear drop with a tight spread: an alert below", j.verdict == HIST_ALERT &&
	      !j.above, 1, 0);
	/* The window's runs were as noisy as this one: the limit holds that noise. */
	window_se2 = 4.0 / 3;
	check("a run no noisier than the window's runs: an alert",
	      judge(NAN, 0.975, 0.95, 15, 2, 3).verdict, HIST_ALERT, 0);
	/* Half its noise is the window's: the bound counts the other half. */
	window_se2 = 2.0 / 3;
	j = judge(NAN, 0.975, 0.95, 15, 2, 3);
	check("the bound counts only the run's excess noise", j.bound,
	      15 - t95 * sqrt(4.0 / 3 - 2.0 / 3), 1e-9);
	check("with that excess: still inconclusive", j.verdict, HIST_INCONCLUSIVE, 0);
	window_se2 = 0;
	check("hist_run_se2: stddev^2 / n", hist_run_se2(2, 4), 1, 1e-12);
	check("hist_run_se2 of one sample: 0", hist_run_se2(2, 1), 0, 0);
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
	check_verdicts();
	printf("hist-threshold-test: %d passed, %d failed\n", n_checks - n_failed, n_failed);
	return n_failed ? 1 : 0;
}
