/* SPDX-License-Identifier: GPL-2.0 */
/* What a prog-cost run prints as it goes and at the end, and its files. */
#ifndef BPFCHECK_BENCH_PROG_COST_REPORT_H
#define BPFCHECK_BENCH_PROG_COST_REPORT_H

#include "cost.h"

void cost_report_header(const struct cost_run *r);
void cost_report_progress(const struct cost_run *r, int iter);
void cost_report_final(const struct cost_run *r);
/* --json and --bmf, when asked for and the run is complete.  0 or -1. */
int cost_report_files(const struct cost_run *r);

#endif
