// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

double stats_mean(const double *x, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

/*
 * Two passes (mean, then squared deviations from it): summing squares of
 * large rates and subtracting would lose the digits that differ.
 */
double stats_variance(const double *x, size_t n)
{
	double mean, sum = 0;

	if (n < 2)
		return 0;
	mean = stats_mean(x, n);
	for (size_t i = 0; i < n; i++)
		sum += (x[i] - mean) * (x[i] - mean);
	return sum / (n - 1);
}

double stats_stddev(const double *x, size_t n)
{
	return sqrt(stats_variance(x, n));
}

double stats_quantile_sorted(const double *sorted, size_t n, double q)
{
	double pos, frac;
	size_t lo;

	if (!n || !(q >= 0 && q <= 1))
		return NAN;
	pos = (n - 1) * q;
	lo = (size_t)pos;
	if (lo + 1 >= n)
		return sorted[n - 1];
	frac = pos - lo;
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int stats_summarize(const double *x, size_t n, struct stats_summary *s)
{
	double *sorted;

	memset(s, 0, sizeof(*s));
	if (!n)
		return -EINVAL;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, x, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	s->n = n;
	s->mean = stats_mean(x, n);
	s->stddev = stats_stddev(x, n);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = stats_quantile_sorted(sorted, n, 0.5);
	s->p99 = stats_quantile_sorted(sorted, n, 0.99);
	free(sorted);
	return 0;
}
