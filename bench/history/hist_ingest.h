/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What bench history add and check read: bench --json reports (one run or
 * an array), Bencher Metric Format, and vmtest --bench --json (a testbed
 * per kernel).  Everything is read and checked before the database is
 * touched; a bad file is one line on stderr and BENCH_EXIT_USAGE.
 */
#ifndef BPFCHECK_BENCH_HIST_INGEST_H
#define BPFCHECK_BENCH_HIST_INGEST_H

#include "hist_point.h"

/*
 * Read path into b, appending.  testbed: the --testbed given, or NULL for
 * the report's own environment (a BMF file has none: then it is refused).
 */
int hist_ingest(const char *path, const char *testbed, struct hist_batch *b);
void hist_batch_free(struct hist_batch *b);

/* The units and direction of Bencher's built-in measures; -1 if unknown. */
int hist_bmf_measure(const char *measure, const char **units, bool *higher_is_better);

#endif
