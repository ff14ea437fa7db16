// SPDX-License-Identifier: GPL-2.0
/*
 * Welch's t-test for the regression gate (gate.h); the Student t
 * distribution it needs is bench/tdist.c.
 */
#include <errno.h>
#include <math.h>

#include "gate.h"
#include "stats.h"
#include "tdist.h"

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
	r->p = tdist_pvalue(r->t, r->df);
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
