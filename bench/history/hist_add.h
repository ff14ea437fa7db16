/* SPDX-License-Identifier: GPL-2.0 */
/* Adding what a report brought: by add, and by import for each report. */
#ifndef BPFCHECK_BENCH_HIST_ADD_H
#define BPFCHECK_BENCH_HIST_ADD_H

#include "hist_cli.h"
#include "hist_db.h"
#include "hist_point.h"

/*
 * Into the open transaction: b as o's branch's results at o's commit and
 * time, a report per testbed; one already there (same branch, testbed,
 * commit and digest) is left as it is.  Adds to *added the results
 * written.  0, -1 (the database failed) or BENCH_EXIT_USAGE (said).
 */
int hist_add_batch(struct hist_db *db, const struct hist_opts *o,
		   const struct hist_batch *b, int *added);

#endif
