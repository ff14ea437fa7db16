// SPDX-License-Identifier: GPL-2.0
/* A result against its window (hist_eval.h). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "hist_eval.h"
#include "stats.h"

/* The measure's stored threshold as a model; false when it has none. */
static bool stored_model(struct hist_db *db, const char *measure, struct hist_model *m)
{
	struct hdb_threshold t;

	if (hdb_get_threshold(db, measure, &t) || !t.test[0] ||
	    hist_test_parse(t.test, &m->test))
		return false;
	m->candidate = 0;
	m->min_n = t.min_n;
	m->max_n = t.max_n;
	m->window_sec = t.window_sec;
	m->lower = t.lower;
	m->upper = t.upper;
	return true;
}

/* Least squares over the window, oldest first: the drift per result. */
static double trend(const double *v, size_t n)
{
	double mx = (n - 1) / 2.0, my = stats_mean(v, n), sxy = 0, sxx = 0;

	if (n < 3 || my == 0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		sxy += (i - mx) * (v[i] - my);
		sxx += (i - mx) * (i - mx);
	}
	return 100 * sxy / sxx / my;
}

static void judge(struct hist_eval *e, const struct hist_candidate *c, double window_se2)
{
	struct hist_judgement j = hist_judge(&e->model, &e->lim, c, window_se2);

	e->alert = j.verdict == HIST_ALERT;
	e->inconclusive = j.verdict == HIST_INCONCLUSIVE;
	e->above = j.above;
	e->limit = j.limit;
	e->bound = j.bound;
	e->boundary = j.above ? e->model.upper : e->model.lower;
}

int hist_evaluate(struct hist_db *db, const struct hist_opts *o,
		  struct hdb_series *s, bool higher_is_better,
		  const struct hist_candidate *c, int64_t now, int64_t skip_newest,
		  struct hist_eval *e)
{
	struct hist_model stored;
	struct hdb_value *w;
	double *v, se2 = 0;
	size_t n;

	memset(e, 0, sizeof(*e));
	e->lim.lower = e->lim.upper = e->trend_pct = NAN;
	hist_model_for(o, stored_model(db, s->measure_name, &stored) ? &stored : NULL,
		       higher_is_better, &e->model);
	if (hist_check_boundary("--lower-boundary", o->lower_given, &e->model, e->model.lower) ||
	    hist_check_boundary("--upper-boundary", o->upper_given, &e->model, e->model.upper))
		return BENCH_EXIT_USAGE;
	s->max_n = e->model.max_n + skip_newest;
	s->time_min = e->model.window_sec ? now - e->model.window_sec : 0;
	if (hdb_window(db, s, &w, &n))
		return -1;
	if (n <= (size_t)skip_newest) {
		free(w);
		return 0;
	}
	e->n = n - skip_newest;
	snprintf(e->newest, sizeof(e->newest), "%.7s", w[skip_newest].commit);
	snprintf(e->oldest, sizeof(e->oldest), "%.7s", w[n - 1].commit);
	v = malloc(e->n * sizeof(*v));
	if (!v) {
		free(w);
		return -1;
	}
	for (size_t i = 0; i < e->n; i++) {	/* oldest first */
		v[i] = w[n - 1 - i].mean;
		se2 += hist_run_se2(w[n - 1 - i].stddev, w[n - 1 - i].n) / e->n;
	}
	free(w);
	e->trend_pct = trend(v, e->n);
	e->enough = e->n >= (size_t)e->model.min_n &&
		    !hist_limits(&e->model, v, e->n, &e->lim);
	free(v);
	if (e->enough)
		judge(e, c, se2);
	return 0;
}

void hist_window_text(const struct hist_eval *e, const char *branch,
		      const char *testbed, char *buf, size_t len)
{
	char age[48] = "";

	if (e->model.window_sec)
		snprintf(age, sizeof(age), ", within %llds",
			 (long long)e->model.window_sec);
	snprintf(buf, len, "%zu result%s of %s on %s, commits %s..%s, max %ld%s",
		 e->n, e->n == 1 ? "" : "s", branch, testbed, e->oldest, e->newest,
		 e->model.max_n, age);
}
