// SPDX-License-Identifier: GPL-2.0
/*
 * The Student t distribution (tdist.h).  Its tails are a regularized
 * incomplete beta function, P(|T| >= |t|) = I_x(df / 2, 1 / 2) with
 * x = df / (df + t^2), evaluated by its continued fraction with the
 * modified Lentz method.
 */
#include <math.h>

#include "tdist.h"

/* Continued fraction: converged when a step changes it by less than this. */
#define CF_EPSILON	1e-15
/* Keeps Lentz's denominators away from zero. */
#define CF_TINY		1e-300
/* a, b <= a few thousand converge in far fewer steps (~ sqrt(max(a, b))). */
#define CF_MAX_STEPS	10000

static double not_tiny(double v)
{
	return fabs(v) < CF_TINY ? CF_TINY : v;
}

/*
 * The continued fraction of I_x(a, b) / (x^a (1 - x)^b / (a B(a, b))):
 * 1 / (1 + d1 / (1 + d2 / (1 + ...))) with
 *   d(2m + 1) = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1))
 *   d(2m)     =  m (b - m) x / ((a + 2m - 1)(a + 2m))
 * It converges fast for x < (a + 1) / (a + b + 2).
 */
static double incbeta_cf(double x, double a, double b)
{
	double c = 1, d, f;

	d = 1 / not_tiny(1 - (a + b) * x / (a + 1));
	f = d;
	for (int m = 1; m <= CF_MAX_STEPS; m++) {
		double even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		double odd = -(a + m) * (a + b + m) * x /
			     ((a + 2 * m) * (a + 2 * m + 1));
		double step;

		d = 1 / not_tiny(1 + even * d);
		c = not_tiny(1 + even / c);
		f *= d * c;
		d = 1 / not_tiny(1 + odd * d);
		c = not_tiny(1 + odd / c);
		step = d * c;
		f *= step;
		if (fabs(step - 1) < CF_EPSILON)
			break;
	}
	return f;
}

/*
 * I_x(a, b) given both x and y = 1 - x, so that callers who know 1 - x
 * more precisely than the subtraction would give it (the t tails) keep
 * those digits.  Uses I_x(a, b) = 1 - I_y(b, a) where the fraction would
 * converge slowly.
 */
static double incbeta_xy(double x, double y, double a, double b)
{
	double log_front;

	if (x <= 0)
		return 0;
	if (y <= 0)
		return 1;
	log_front = a * log(x) + b * log(y) - (lgamma(a) + lgamma(b) - lgamma(a + b));
	if (x < (a + 1) / (a + b + 2))
		return exp(log_front) * incbeta_cf(x, a, b) / a;
	return 1 - exp(log_front) * incbeta_cf(y, b, a) / b;
}

double tdist_incbeta(double x, double a, double b)
{
	if (!(a > 0 && b > 0 && x >= 0 && x <= 1) || isinf(a) || isinf(b))
		return NAN;
	return incbeta_xy(x, 1 - x, a, b);
}

/* P(|T| >= |t|), with the two parts of df + t^2 kept apart. */
static double t_two_tails(double t, double df)
{
	double t2 = t * t;

	if (isinf(t2))
		return 0;
	return incbeta_xy(df / (df + t2), t2 / (df + t2), df / 2, 0.5);
}

double tdist_pvalue(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	return t_two_tails(t, df);
}

double tdist_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	tail = t_two_tails(t, df) / 2;
	return t > 0 ? 1 - tail : tail;
}

/* Bisection: the cdf is monotonic, and 200 halvings reach a double's width. */
double tdist_quantile(double p, double df)
{
	double lo = -1, hi = 1;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	while (tdist_cdf(lo, df) > p)
		lo *= 2;
	while (tdist_cdf(hi, df) < p)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * fabs(hi); i++) {
		double mid = (lo + hi) / 2;

		if (tdist_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}
