// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/stats.c: exact values on inputs whose answers are
 * known in closed form.  Prints "ok N - what" / "not ok N - what" lines
 * and "stats-test: P passed, F failed"; exits non-zero on a failure.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"
#include "util.h"

static int n_checks, n_failed;

/* Equal to 1e-12 relative (or absolute near zero), or both NaN. */
static bool close_enough(double got, double want)
{
	if (isnan(want))
		return isnan(got);
	return fabs(got - want) <= 1e-12 * fmax(1.0, fabs(want));
}

static void check(const char *what, double got, double want)
{
	bool ok = close_enough(got, want);

	n_checks++;
	if (!ok)
		n_failed++;
	printf("%sok %d - %s", ok ? "" : "not ", n_checks, what);
	if (!ok)
		printf(": got %.17g, want %.17g", got, want);
	printf("\n");
}

static void check_summary(const char *name, const double *x, size_t n,
			  const struct stats_summary *want)
{
	struct stats_summary s;
	char what[128];
	int err = stats_summarize(x, n, &s);

	snprintf(what, sizeof(what), "%s: summarize returns 0", name);
	check(what, err, 0);
	snprintf(what, sizeof(what), "%s: n", name);
	check(what, s.n, want->n);
#define FIELD(f)							\
	do {								\
		snprintf(what, sizeof(what), "%s: " #f, name);		\
		check(what, s.f, want->f);				\
	} while (0)
	FIELD(mean);
	FIELD(stddev);
	FIELD(min);
	FIELD(max);
	FIELD(median);
	FIELD(p99);
#undef FIELD
}

static void test_textbook(void)
{
	/* The classic example: population sd 2, sample sd sqrt(32/7). */
	const double x[] = { 9, 2, 5, 4, 4, 7, 4, 5 };
	const double copy[] = { 9, 2, 5, 4, 4, 7, 4, 5 };
	struct stats_summary want = {
		.n = 8, .mean = 5, .stddev = sqrt(32.0 / 7),
		.min = 2, .max = 9, .median = 4.5,
		/* sorted[6] + 0.93 * (sorted[7] - sorted[6]) = 7 + 0.93 * 2 */
		.p99 = 8.86,
	};

	check_summary("2,4,4,4,5,5,7,9", x, ARRAY_SIZE(x), &want);
	check("input left unsorted", memcmp(x, copy, sizeof(x)), 0);
}

static void test_one_to_hundred(void)
{
	struct stats_summary want = {
		.n = 100, .mean = 50.5,
		/* sample variance of 1..n is n(n+1)/12 */
		.stddev = sqrt(100.0 * 101 / 12),
		.min = 1, .max = 100, .median = 50.5,
		/* position 99 * 0.99 = 98.01: 99 + 0.01 */
		.p99 = 99.01,
	};
	double x[100];

	/* Descending, so the summary has to sort. */
	for (int i = 0; i < 100; i++)
		x[i] = 100 - i;
	check_summary("1..100", x, ARRAY_SIZE(x), &want);
}

static void test_single_and_odd(void)
{
	const double one[] = { 3.5 };
	const double odd[] = { 10, 30, 20 };
	struct stats_summary want_one = {
		.n = 1, .mean = 3.5, .stddev = 0, .min = 3.5, .max = 3.5,
		.median = 3.5, .p99 = 3.5,
	};
	struct stats_summary want_odd = {
		.n = 3, .mean = 20, .stddev = 10, .min = 10, .max = 30,
		/* position 2 * 0.99 = 1.98: 20 + 0.98 * 10 */
		.median = 20, .p99 = 29.8,
	};

	check_summary("one sample", one, 1, &want_one);
	check_summary("10,30,20", odd, 3, &want_odd);
}

/* Rates near 1e9 that differ in the last digits keep their spread. */
static void test_large_offset(void)
{
	const double x[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };

	check("large offset: mean", stats_mean(x, 4), 1e9 + 10);
	check("large offset: stddev", stats_stddev(x, 4), sqrt(30.0));
	/* deviations -6 -3 3 6: (36 + 9 + 9 + 36) / 3 */
	check("large offset: variance", stats_variance(x, 4), 30);
}

static void test_edges(void)
{
	const double sorted[] = { 1, 2 };
	struct stats_summary s;

	check("n == 0: summarize is -EINVAL", stats_summarize(sorted, 0, &s),
	      -EINVAL);
	check("n == 0: mean is NaN", stats_mean(sorted, 0), NAN);
	check("n == 0: stddev is 0", stats_stddev(sorted, 0), 0);
	check("n == 1: variance is 0", stats_variance(sorted, 1), 0);
	check("quantile 0 is the min", stats_quantile_sorted(sorted, 2, 0), 1);
	check("quantile 1 is the max", stats_quantile_sorted(sorted, 2, 1), 2);
	check("quantile 0.25 interpolates",
	      stats_quantile_sorted(sorted, 2, 0.25), 1.25);
	check("quantile > 1 is NaN", stats_quantile_sorted(sorted, 2, 1.5),
	      NAN);
	check("quantile NaN is NaN", stats_quantile_sorted(sorted, 2, NAN),
	      NAN);
}

int main(void)
{
	test_textbook();
	test_one_to_hundred();
	test_single_and_odd();
	test_large_offset();
	test_edges();
	printf("stats-test: %d passed, %d failed\n", n_checks - n_failed,
	       n_failed);
	return n_failed ? 1 : 0;
}
