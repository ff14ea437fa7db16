// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/gate/gate.c: the incomplete beta function, the t
 * distribution, Welch's t-test and the gate's verdicts.  Expected values
 * are closed forms worked by hand (noted where used) or were computed
 * once with SciPy 1.10.1 (scipy.special.betainc, scipy.stats.t,
 * scipy.stats.ttest_ind(..., equal_var=False)) and are hard-coded here:
 * nothing but this file is needed to run the tests.  Prints "ok N - what"
 * / "not ok N - what" and "gate-test: P passed, F failed"; exits non-zero
 * on a failure.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "gate.h"
#include "tdist.h"
#include "util.h"

/* Closed forms and exact rationals: only rounding may differ. */
#define EXACT	1e-12
/* Iterative results (continued fraction) against SciPy's. */
#define NUMERIC	1e-9

static int n_checks, n_failed;

static bool within(double got, double want, double rel)
{
	if (isnan(want))
		return isnan(got);
	if (isinf(want))
		return got == want;
	return fabs(got - want) <= rel * fmax(fabs(want), 1e-300);
}

static void check(const char *what, double got, double want, double rel)
{
	bool ok = within(got, want, rel);

	n_checks++;
	if (!ok)
		n_failed++;
	printf("%sok %d - %s", ok ? "" : "not ", n_checks, what);
	if (!ok)
		printf(": got %.17g, want %.17g (relative tolerance %g)", got,
		       want, rel);
	printf("\n");
}

static void check_int(const char *what, long got, long want)
{
	check(what, got, want, 0);
}

static void test_incbeta_closed_forms(void)
{
	double x = 0.01;

	check("I_x(1, 1) = x", tdist_incbeta(0.37, 1, 1), 0.37, EXACT);
	check("I_x(3, 1) = x^3", tdist_incbeta(0.6, 3, 1), 0.216, EXACT);
	check("I_x(1, 4) = 1 - (1 - x)^4", tdist_incbeta(0.2, 1, 4),
	      1 - pow(0.8, 4), EXACT);
	check("I_0.5(a, a) = 1/2", tdist_incbeta(0.5, 7.5, 7.5), 0.5, EXACT);
	/* I_x(a, 2) = x^a ((a + 1) - a x): small x, then the mirrored branch. */
	check("I_0.01(10, 2) = x^10 (11 - 10x)", tdist_incbeta(x, 10, 2),
	      pow(x, 10) * (11 - 10 * x), EXACT);
	x = 0.95;
	check("I_0.95(10, 2) = x^10 (11 - 10x)", tdist_incbeta(x, 10, 2),
	      pow(x, 10) * (11 - 10 * x), EXACT);
}

static void test_incbeta_reference(void)
{
	static const struct { double x, a, b, want; } ref[] = {
		{ 0.3, 2.5, 3.7, 0.31900317528430872 },
		{ 0.9, 0.5, 0.5, 0.79516723530086619 },
		{ 0.999, 50, 0.5, 0.75236901996537675 },
		{ 0.5, 200, 300, 0.99999645651973557 },
	};
	char what[96];

	for (size_t i = 0; i < ARRAY_SIZE(ref); i++) {
		snprintf(what, sizeof(what), "I_%g(%g, %g) as SciPy", ref[i].x,
			 ref[i].a, ref[i].b);
		check(what, tdist_incbeta(ref[i].x, ref[i].a, ref[i].b),
		      ref[i].want, NUMERIC);
	}
}

static void test_incbeta_edges(void)
{
	check("I_0(a, b) = 0", tdist_incbeta(0, 2, 3), 0, 0);
	check("I_1(a, b) = 1", tdist_incbeta(1, 2, 3), 1, 0);
	check("a = 0 is NaN", tdist_incbeta(0.5, 0, 3), NAN, 0);
	check("x < 0 is NaN", tdist_incbeta(-0.1, 2, 3), NAN, 0);
	check("x > 1 is NaN", tdist_incbeta(1.5, 2, 3), NAN, 0);
	check("x NaN is NaN", tdist_incbeta(NAN, 2, 3), NAN, 0);
}

/* df = 1 is the Cauchy distribution, df = 2 has a closed form too. */
static void test_t_closed_forms(void)
{
	static const double ts[] = { -3, 0.7, 25 };
	char what[96];

	for (size_t i = 0; i < ARRAY_SIZE(ts); i++) {
		snprintf(what, sizeof(what), "t cdf, df 1: 1/2 + atan(%g)/pi", ts[i]);
		check(what, tdist_cdf(ts[i], 1), 0.5 + atan(ts[i]) / M_PI, EXACT);
	}
	check("t cdf, df 2: 1/2 + t / (2 sqrt(2 + t^2)) at 1.3",
	      tdist_cdf(1.3, 2), 0.5 + 1.3 / (2 * sqrt(2 + 1.3 * 1.3)), EXACT);
	check("t cdf, df 2 at -4", tdist_cdf(-4, 2),
	      0.5 - 4 / (2 * sqrt(2 + 16.0)), EXACT);
	check("t cdf at 0 is 1/2", tdist_cdf(0, 3.7), 0.5, EXACT);
	check("two-sided p at 0 is 1", tdist_pvalue(0, 3.7), 1, EXACT);
	/* Cauchy: P(|T| >= 1) = 1/2 */
	check("two-sided p, df 1, t 1", tdist_pvalue(1, 1), 0.5, EXACT);
}

static void test_t_reference(void)
{
	static const struct { double t, df, cdf, p; } ref[] = {
		{ 2.0, 5, 0.9490302605850709, 0.10193947882985828 },
		{ -1.5, 3.3, 0.11125159835964586, 0.22250319671929172 },
		{ 0.5, 30, 0.68963849755743634, 0.62072300488512733 },
		{ 10, 3, 0.99893580047079289, 0.0021283990584141494 },
		{ 40, 2.5, 0.99992902182854759, 0.00014195634290493385 },
		{ 3.0, 1000, 0.99861664547788087, 0.0027667090442381878 },
		{ -6, 8, 0.00016169661094257441, 0.00032339322188514882 },
	};
	char what[96];

	for (size_t i = 0; i < ARRAY_SIZE(ref); i++) {
		snprintf(what, sizeof(what), "t cdf(%g, df %g) as SciPy",
			 ref[i].t, ref[i].df);
		check(what, tdist_cdf(ref[i].t, ref[i].df), ref[i].cdf, NUMERIC);
		snprintf(what, sizeof(what), "two-sided p(%g, df %g) as SciPy",
			 ref[i].t, ref[i].df);
		check(what, tdist_pvalue(ref[i].t, ref[i].df), ref[i].p, NUMERIC);
	}
	check("t cdf(+inf) is 1", tdist_cdf(INFINITY, 4), 1, 0);
	check("t cdf(-inf) is 0", tdist_cdf(-INFINITY, 4), 0, 0);
	check("p(inf) is 0", tdist_pvalue(INFINITY, 4), 0, 0);
	check("df 0 is NaN", tdist_cdf(1, 0), NAN, 0);
	check("t NaN is NaN", tdist_pvalue(NAN, 4), NAN, 0);
}

/* The quantile by its closed forms for df 1 (Cauchy) and df 2. */
static void test_t_quantile(void)
{
	const double ps[] = { 0.01, 0.3, 0.5, 0.9, 0.99 };

	for (size_t i = 0; i < ARRAY_SIZE(ps); i++) {
		double p = ps[i];
		char what[80];

		snprintf(what, sizeof(what), "t quantile(%g, df 1) = tan(pi (p - 1/2))", p);
		check(what, tdist_quantile(p, 1) + 1, tan(M_PI * (p - 0.5)) + 1, NUMERIC);
		snprintf(what, sizeof(what), "t quantile(%g, df 2) closed form", p);
		check(what, tdist_quantile(p, 2) + 1,
		      (2 * p - 1) / sqrt(2 * p * (1 - p)) + 1, NUMERIC);
	}
	check("t quantile(0) is NaN", tdist_quantile(0, 3), NAN, 0);
	check("t quantile, df 0 is NaN", tdist_quantile(0.5, 0), NAN, 0);
}

static void check_welch(const char *name, const double *a, size_t na,
			const double *b, size_t nb, double t, double df,
			double p, double rel)
{
	struct gate_welch r;
	char what[128];

	snprintf(what, sizeof(what), "%s: returns 0", name);
	check_int(what, gate_welch(a, na, b, nb, &r), 0);
	snprintf(what, sizeof(what), "%s: t", name);
	check(what, r.t, t, rel);
	snprintf(what, sizeof(what), "%s: Welch-Satterthwaite df", name);
	check(what, r.df, df, rel);
	snprintf(what, sizeof(what), "%s: p-value", name);
	check(what, r.p, p, NUMERIC);
}

static void test_welch(void)
{
	/*
	 * By hand: means 3 and 6, variances 2.5 and 10, so va = 0.5, vb = 2,
	 * t = 3 / sqrt(2.5), df = 2.5^2 / (0.5^2 / 4 + 2^2 / 4) = 100 / 17.
	 */
	const double a1[] = { 1, 2, 3, 4, 5 }, b1[] = { 2, 4, 6, 8, 10 };
	/* Latencies of a fast and a slow program, 5 samples each. */
	const double a2[] = { 33.12, 33.48, 32.97, 33.30, 33.05 };
	const double b2[] = { 39.61, 39.20, 40.02, 39.75, 39.33 };
	/* Unequal sizes, no real difference. */
	const double a3[] = { 100.0, 101.0, 99.0, 100.5 };
	const double b3[] = { 100.2, 99.8, 100.9, 100.1, 99.9, 100.4 };

	check_welch("Welch 1..5 vs 2,4..10", a1, 5, b1, 5, 3 / sqrt(2.5),
		    100.0 / 17, 0.10753119493062718, EXACT);
	check_welch("Welch, slow vs fast program", a2, 5, b2, 5,
		    36.963520789541661, 6.7212523839399383,
		    5.1183342462658567e-09, NUMERIC);
	check_welch("Welch, 4 vs 6 samples", a3, 4, b3, 6, 0.20071789648531679,
		    3.8788921965509791, 0.8510021208023193, NUMERIC);
}

static void test_welch_zero_variance(void)
{
	const double constant[] = { 5, 5, 5 }, other[] = { 5.5, 6.5, 6, 7 };
	const double same[] = { 5, 5, 5, 5 }, higher[] = { 7, 7 };
	struct gate_welch r;

	/* One side constant: df is the other side's n - 1 (SciPy: t, p). */
	check_welch("one variance zero", constant, 3, other, 4,
		    3.872983346207417, 3, 0.030466291662170977, NUMERIC);
	check_welch("one variance zero, sides swapped", other, 4, constant, 3,
		    -3.872983346207417, 3, 0.030466291662170977, NUMERIC);
	check_int("both constant and equal: returns 0",
		  gate_welch(constant, 3, same, 4, &r), 0);
	check("both constant and equal: t = 0", r.t, 0, 0);
	check("both constant and equal: p = 1", r.p, 1, 0);
	check("both constant and equal: df = na + nb - 2", r.df, 5, 0);
	gate_welch(constant, 3, higher, 2, &r);
	check("both constant, higher candidate: t = +inf", r.t, INFINITY, 0);
	check("both constant, higher candidate: p = 0", r.p, 0, 0);
	gate_welch(higher, 2, constant, 3, &r);
	check("both constant, lower candidate: t = -inf", r.t, -INFINITY, 0);
}

static void test_welch_bad_input(void)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4 };
	struct gate_welch r;

	check_int("n = 1 is -EINVAL", gate_welch(a, 3, b, 1, &r), -EINVAL);
	check_int("n = 0 is -EINVAL", gate_welch(a, 0, a, 3, &r), -EINVAL);
	check_int("negative variance is -EINVAL",
		  gate_welch_from(1, -1, 3, 2, 1, 3, &r), -EINVAL);
	check_int("NaN variance is -EINVAL",
		  gate_welch_from(1, NAN, 3, 2, 1, 3, &r), -EINVAL);
	check_int("infinite mean is -EINVAL",
		  gate_welch_from(INFINITY, 1, 3, 2, 1, 3, &r), -EINVAL);
}

/* Variances near 1e-200 square to 0 in doubles; df must survive that. */
static void test_welch_tiny_scale(void)
{
	double a[5], b[5];
	const double a1[] = { 1, 2, 3, 4, 5 }, b1[] = { 2, 4, 6, 8, 10 };

	for (int i = 0; i < 5; i++) {
		a[i] = a1[i] * 1e-100;
		b[i] = b1[i] * 1e-100;
	}
	check_welch("Welch at scale 1e-100", a, 5, b, 5, 3 / sqrt(2.5),
		    100.0 / 17, 0.10753119493062718, 1e-9);
}

static void test_delta(void)
{
	check("delta 100 -> 110 is +10%", gate_delta_pct(100, 110), 10, EXACT);
	check("delta 200 -> 150 is -25%", gate_delta_pct(200, 150), -25, EXACT);
	check("delta from a negative base is signed by the change",
	      gate_delta_pct(-10, -5), 50, EXACT);
	check("delta 0 -> 0 is 0", gate_delta_pct(0, 0), 0, 0);
	check("delta 0 -> 5 is +inf", gate_delta_pct(0, 5), INFINITY, 0);
	check("delta 0 -> -5 is -inf", gate_delta_pct(0, -5), -INFINITY, 0);
}

static void check_verdict(const char *what, double delta, double p,
			  bool higher_better, double min_effect,
			  enum gate_verdict want)
{
	enum gate_verdict got = gate_decide(delta, p, higher_better, min_effect,
					    0.05);
	bool ok = got == want;

	n_checks++;
	if (!ok)
		n_failed++;
	printf("%sok %d - verdict: %s", ok ? "" : "not ", n_checks, what);
	if (!ok)
		printf(": got %s, want %s", gate_verdict_name(got),
		       gate_verdict_name(want));
	printf("\n");
}

static void test_verdicts(void)
{
	check_verdict("latency +10%, p 0.001: regressed", 10, 0.001, false, 5,
		      GATE_REGRESSED);
	check_verdict("latency -10%, p 0.001: improved", -10, 0.001, false, 5,
		      GATE_IMPROVED);
	check_verdict("throughput -10%, p 0.001: regressed", -10, 0.001, true, 5,
		      GATE_REGRESSED);
	check_verdict("throughput +10%, p 0.001: improved", 10, 0.001, true, 5,
		      GATE_IMPROVED);
	check_verdict("latency +10%, p 0.2: inconclusive", 10, 0.2, false, 5,
		      GATE_INCONCLUSIVE);
	check_verdict("latency +4.99%, p 1e-9: below the effect, no change", 4.99,
		      1e-9, false, 5, GATE_NO_CHANGE);
	check_verdict("latency -4.99%, p 1e-9: no change", -4.99, 1e-9, false, 5,
		      GATE_NO_CHANGE);
	check_verdict("exactly the minimum effect counts", 5, 0.01, false, 5,
		      GATE_REGRESSED);
	check_verdict("p equal to alpha is not significant", 10, 0.05, false, 5,
		      GATE_INCONCLUSIVE);
	check_verdict("baseline 0, candidate above: +inf, p 0: regressed",
		      INFINITY, 0, false, 5, GATE_REGRESSED);
	check_verdict("minimum effect 0: any significant change counts", 0.1,
		      0.01, false, 0, GATE_REGRESSED);
	check_verdict("no difference at all: no change", 0, 1, false, 0,
		      GATE_NO_CHANGE);
	check_verdict("p NaN: inconclusive", 10, NAN, false, 5, GATE_INCONCLUSIVE);
}

static void test_compare(void)
{
	const double lo[] = { 10, 10.1, 9.9 }, hi[] = { 12, 12.1, 11.9 };
	const double bad[] = { 10, NAN, 9.9 };
	struct gate_result r;

	check_int("n = 2 on the baseline side is -EINVAL",
		  gate_compare(lo, 2, hi, 3, false, 5, 0.05, &r), -EINVAL);
	check_int("n = 2 on the candidate side is -EINVAL",
		  gate_compare(lo, 3, hi, 2, false, 5, 0.05, &r), -EINVAL);
	check_int("a NaN sample is -EINVAL",
		  gate_compare(bad, 3, hi, 3, false, 5, 0.05, &r), -EINVAL);
	check_int("n = 3 a side: returns 0",
		  gate_compare(lo, 3, hi, 3, false, 5, 0.05, &r), 0);
	check("compare: baseline mean", r.base_mean, 10, EXACT);
	check("compare: candidate mean", r.cand_mean, 12, EXACT);
	check("compare: delta +20%", r.delta_pct, 20, EXACT);
	/* Equal variances 0.01 and n = 3: t = 2 / sqrt(0.02 / 3), df = 4. */
	check("compare: t", r.welch.t, 2 / sqrt(0.02 / 3), EXACT);
	check("compare: df", r.welch.df, 4, EXACT);
	check_int("compare: higher latency regressed", r.verdict, GATE_REGRESSED);
	gate_compare(lo, 3, hi, 3, true, 5, 0.05, &r);
	check_int("compare: higher throughput improved", r.verdict, GATE_IMPROVED);
	gate_compare(lo, 3, hi, 3, false, 25, 0.05, &r);
	check_int("compare: +20% under a 25% effect is no change", r.verdict,
		  GATE_NO_CHANGE);
}

int main(void)
{
	test_incbeta_closed_forms();
	test_incbeta_reference();
	test_incbeta_edges();
	test_t_closed_forms();
	test_t_reference();
	test_t_quantile();
	test_welch();
	test_welch_zero_variance();
	test_welch_bad_input();
	test_welch_tiny_scale();
	test_delta();
	test_verdicts();
	test_compare();
	printf("gate-test: %d passed, %d failed\n", n_checks - n_failed, n_failed);
	return n_failed ? 1 : 0;
}
