/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result against its window: which model applies to its measure, the
 * window the store holds before it, the limits the model gives and
 * whether the result breaches them.  Shared by check, report and plot.
 */
#ifndef BPFCHECK_BENCH_HIST_EVAL_H
#define BPFCHECK_BENCH_HIST_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist_cli.h"
#include "hist_db.h"
#include "hist_threshold.h"

struct hist_eval {
	struct hist_model model;
	size_t n;		/* results in the window */
	bool enough;		/* n >= the model's min_n: limits computed */
	struct hist_limits lim;
	bool alert;
	bool inconclusive;	/* past a limit, the run's own bound not (hist_judge) */
	bool above;		/* the side of the limit passed */
	double limit;		/* the limit passed */
	double boundary;	/* its boundary */
	double bound;		/* the run's confidence bound on that side */
	char oldest[48], newest[48];	/* the window's commits */
	double trend_pct;	/* least-squares slope, % of the mean per result */
};

/*
 * c, a run of series s (its window: results older than before_time, or up
 * to and including it when inclusive, at most the model's max_n) under
 * o's model for a measure.  0, -1 (the database failed) or
 * BENCH_EXIT_USAGE (a boundary the test does not take, said).
 */
int hist_evaluate(struct hist_db *db, const struct hist_opts *o,
		  struct hdb_series *s, bool higher_is_better,
		  const struct hist_candidate *c, int64_t now, int64_t skip_newest,
		  struct hist_eval *e);

/* "10 results of main on vm-tcg-6.12, commits 1a2b3c4..5d6e7f8, max 64" */
void hist_window_text(const struct hist_eval *e, const char *branch,
		      const char *testbed, char *buf, size_t len);

#endif
