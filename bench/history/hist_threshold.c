// SPDX-License-Identifier: GPL-2.0
/* Bencher's threshold tests (hist_threshold.h). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hist_threshold.h"
#include "stats.h"
#include "tdist.h"
#include "util.h"

static const char *const names[] = {
	[HIST_STATIC] = "static",
	[HIST_PERCENTAGE] = "percentage",
	[HIST_Z_SCORE] = "z_score",
	[HIST_T_TEST] = "t_test",
	[HIST_IQR] = "iqr",
};

int hist_test_parse(const char *name, enum hist_test *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i])) {
			*t = i;
			return 0;
		}
	return -1;
}

const char *hist_test_name(enum hist_test t)
{
	return names[t];
}

const char *hist_boundary_form(enum hist_test t, double b)
{
	switch (t) {
	case HIST_STATIC:
		return isfinite(b) ? NULL : "a finite number (the limit itself)";
	case HIST_PERCENTAGE:
		return isfinite(b) && b >= 0 ? NULL : "a fraction >= 0 (0.05 is 5%)";
	case HIST_Z_SCORE:
	case HIST_T_TEST:
		return b >= 0.5 && b < 1 ? NULL : "a percentile from 0.5 to below 1 (e.g. 0.99)";
	case HIST_IQR:
		return isfinite(b) && b >= 0 ? NULL : "a multiplier of the IQR >= 0 (e.g. 1.5)";
	}
	return "a number";
}

/* Bisection on the cdf, 0.5 erfc(-x / sqrt 2): exact enough and short. */
double hist_normal_quantile(double p)
{
	double lo = -40, hi = 40;

	if (!(p > 0 && p < 1))
		return NAN;
	for (int i = 0; i < 200 && hi - lo > 1e-13; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(-mid / M_SQRT2) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* center -/+ width(boundary), for each boundary given. */
static void spread_limits(const struct hist_model *m, double center, double sd,
			  double df, struct hist_limits *out)
{
	double q;

	if (!isnan(m->lower)) {
		q = m->test == HIST_T_TEST ? tdist_quantile(m->lower, df) :
		    hist_normal_quantile(m->lower);
		out->lower = center - q * sd;
	}
	if (!isnan(m->upper)) {
		q = m->test == HIST_T_TEST ? tdist_quantile(m->upper, df) :
		    hist_normal_quantile(m->upper);
		out->upper = center + q * sd;
	}
}

static int iqr_limits(const struct hist_model *m, const double *values, size_t n,
		      struct hist_limits *out)
{
	double *s = malloc(n * sizeof(*s)), q1, q3;

	if (!s)
		return -ENOMEM;
	memcpy(s, values, n * sizeof(*s));
	for (size_t i = 1; i < n; i++)	/* insertion sort: windows are small */
		for (size_t j = i; j > 0 && s[j - 1] > s[j]; j--) {
			double t = s[j];

			s[j] = s[j - 1];
			s[j - 1] = t;
		}
	q1 = stats_quantile_sorted(s, n, 0.25);
	q3 = stats_quantile_sorted(s, n, 0.75);
	out->center = stats_quantile_sorted(s, n, 0.5);
	free(s);
	if (!isnan(m->lower))
		out->lower = q1 - m->lower * (q3 - q1);
	if (!isnan(m->upper))
		out->upper = q3 + m->upper * (q3 - q1);
	return 0;
}

int hist_limits(const struct hist_model *m, const double *values, size_t n,
		struct hist_limits *out)
{
	bool needs_spread = m->test == HIST_Z_SCORE || m->test == HIST_T_TEST;
	double mean, sd;

	out->lower = out->upper = NAN;
	if (!n || (needs_spread && n < 2))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(values[i]))
			return -EINVAL;
	mean = stats_mean(values, n);
	out->center = mean;
	switch (m->test) {
	case HIST_STATIC:
		out->lower = m->lower;
		out->upper = m->upper;
		break;
	case HIST_PERCENTAGE:
		if (!isnan(m->lower))
			out->lower = mean * (1 - m->lower);
		if (!isnan(m->upper))
			out->upper = mean * (1 + m->upper);
		break;
	case HIST_Z_SCORE:
	case HIST_T_TEST:
		sd = stats_stddev(values, n);
		spread_limits(m, mean, sd, n - 1, out);
		break;
	case HIST_IQR:
		return iqr_limits(m, values, n, out);
	}
	return 0;
}

double hist_run_se2(double stddev, long n)
{
	return n > 1 && isfinite(stddev) ? stddev * stddev / n : 0;
}

/* The run's one-sided bound on the side of the limit it passed. */
static double candidate_bound(const struct hist_model *m, const struct hist_candidate *c,
			      double window_se2, bool above)
{
	double excess = hist_run_se2(c->stddev, c->n) - window_se2, half;

	if (!m->candidate || !(excess > 0))
		return c->mean;
	half = tdist_quantile(m->candidate, c->n - 1) * sqrt(excess);
	return above ? c->mean - half : c->mean + half;
}

struct hist_judgement hist_judge(const struct hist_model *m, const struct hist_limits *l,
				 const struct hist_candidate *c, double window_se2)
{
	struct hist_judgement j = { .verdict = HIST_OK, .limit = NAN, .bound = NAN };

	if (!isnan(l->upper) && c->mean > l->upper) {
		j.above = true;
		j.limit = l->upper;
	} else if (!isnan(l->lower) && c->mean < l->lower) {
		j.limit = l->lower;
	} else {
		return j;
	}
	j.bound = candidate_bound(m, c, window_se2, j.above);
	j.verdict = (j.above ? j.bound > j.limit : j.bound < j.limit) ? HIST_ALERT :
		    HIST_INCONCLUSIVE;
	return j;
}
