// SPDX-License-Identifier: GPL-2.0
/*
 * Welch's t-test and the Student t distribution for the regression gate
 * (gate.h).  The t distribution's tails are a regularized incomplete beta
 * function, P(|T| >= |t|) = I_x(df / 2, 1 / 2) with x = df / (df + t^2),
 * evaluated by its continued fraction with the modified Lentz method.
 */
#include <errno.h>
#include <math.h>

#include "gate.h"
#include "stats.h"

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

double gate_incbeta(double x, double a, double b)
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

double gate_t_pvalue(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	return t_two_tails(t, df);
}

double gate_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	tail = t_two_tails(t, df) / 2;
	return t > 0 ? 1 - tail : tail;
}

int gate_welch_from(double mean_a, double var_a, size_t na,
		    double mean_b, double var_b, size_t nb,
		    struct gate_welch *r)
{
	double va, vb, sum;

	if (na < 2 || nb < 2 || !(var_a >= 0) || !(var_b >= 0) ||
	    isinf(var_a) || isinf(var_b) || !isfinite(mean_a) || !isfinite(mean_b))
		return -EINVAL;
	va = var_a / na;
	vb = var_b / nb;
	sum = va + vb;
	r->se = sqrt(sum);
	if (sum == 0) {
		/* Constants on both sides: a difference is certain, or none. */
		r->df = na + nb - 2;
		r->t = mean_a == mean_b ? 0 : copysign(INFINITY, mean_b - mean_a);
		r->p = mean_a == mean_b ? 1 : 0;
		return 0;
	}
	r->t = (mean_b - mean_a) / r->se;
	/*
	 * Welch-Satterthwaite, (va + vb)^2 / (va^2 / (na - 1) + vb^2 / (nb - 1)),
	 * with the shares va / sum and vb / sum so that tiny variances do
	 * not underflow when squared.
	 */
	va /= sum;
	vb /= sum;
	r->df = 1 / (va * va / (na - 1) + vb * vb / (nb - 1));
	r->p = gate_t_pvalue(r->t, r->df);
	return 0;
}

int gate_welch(const double *a, size_t na, const double *b, size_t nb,
	       struct gate_welch *r)
{
	if (na < 2 || nb < 2)
		return -EINVAL;
	return gate_welch_from(stats_mean(a, na), stats_variance(a, na), na,
			       stats_mean(b, nb), stats_variance(b, nb), nb, r);
}

const char *gate_verdict_name(enum gate_verdict v)
{
	switch (v) {
	case GATE_NO_CHANGE: return "no change";
	case GATE_IMPROVED: return "improved";
	case GATE_REGRESSED: return "regressed";
	case GATE_INCONCLUSIVE: return "inconclusive";
	}
	return "?";
}

double gate_delta_pct(double base, double cand)
{
	if (base == 0)
		return cand == 0 ? 0 : copysign(INFINITY, cand);
	return (cand - base) / fabs(base) * 100;
}

static bool all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

int gate_compare(const double *base, size_t n_base, const double *cand,
		 size_t n_cand, bool higher_is_better, double min_effect_pct,
		 double alpha, struct gate_result *r)
{
	int err;

	if (n_base < GATE_MIN_SAMPLES || n_cand < GATE_MIN_SAMPLES ||
	    !all_finite(base, n_base) || !all_finite(cand, n_cand))
		return -EINVAL;
	err = gate_welch(base, n_base, cand, n_cand, &r->welch);
	if (err)
		return err;
	r->base_mean = stats_mean(base, n_base);
	r->cand_mean = stats_mean(cand, n_cand);
	r->delta_pct = gate_delta_pct(r->base_mean, r->cand_mean);
	r->verdict = gate_decide(r->delta_pct, r->welch.p, higher_is_better,
				 min_effect_pct, alpha);
	return 0;
}

enum gate_verdict gate_decide(double delta_pct, double p, bool higher_is_better,
			      double min_effect_pct, double alpha)
{
	bool worse;

	if (isnan(delta_pct) || isnan(p))
		return GATE_INCONCLUSIVE;
	if (delta_pct == 0 || fabs(delta_pct) < min_effect_pct)
		return GATE_NO_CHANGE;
	if (!(p < alpha))
		return GATE_INCONCLUSIVE;
	worse = higher_is_better ? delta_pct < 0 : delta_pct > 0;
	return worse ? GATE_REGRESSED : GATE_IMPROVED;
}
