// SPDX-License-Identifier: GPL-2.0
/* Adding a batch of results to the store (hist_add.h). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>

#include "bench.h"
#include "hist_add.h"

/* The testbed's points, added under one report; 0 when it was there. */
static int add_testbed(struct hist_db *db, const struct hist_opts *o, int64_t project,
		       int64_t branch, const struct hist_batch *b, size_t t, int *added)
{
	int64_t tb = hdb_testbed(db, project, &b->testbeds[t], true), report;
	char digest[24];

	snprintf(digest, sizeof(digest), "%016" PRIx64, b->digest);
	if (tb < 0)
		return -1;
	report = hdb_add_report(db, branch, tb, o->commit, o->time, digest);
	if (report <= 0)
		return report;
	for (size_t i = 0; i < b->n_points; i++) {
		const struct hist_point *p = &b->points[i];
		int64_t bm, ms;

		if (p->testbed != t)
			continue;
		bm = hdb_benchmark(db, project, p->benchmark, true);
		ms = hdb_measure(db, project, p->measure, p->units, p->higher_is_better, true);
		if (bm < 0 || ms < 0 || hdb_add_result(db, report, bm, ms, p))
			return -1;
		(*added)++;
	}
	return 0;
}

int hist_add_batch(struct hist_db *db, const struct hist_opts *o,
		   const struct hist_batch *b, int *added)
{
	int64_t project = hdb_project(db, o->project, true), start = 0, branch;

	if (project < 0)
		return -1;
	if (o->start_point) {
		start = hdb_branch(db, project, o->start_point, false, 0, 0);
		if (start <= 0) {
			fprintf(stderr, "%s: --start-point '%s': no such branch in %s\n",
				HIST_WHO, o->start_point, o->db);
			return BENCH_EXIT_USAGE;
		}
	}
	branch = hdb_branch(db, project, o->branch, true, start, o->time);
	if (branch < 0)
		return -1;
	for (size_t t = 0; t < b->n_testbeds; t++)
		if (add_testbed(db, o, project, branch, b, t, added))
			return -1;
	return 0;
}

