/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench history export --out DIR: every report as a Bencher Metric Format
 * file (what "bencher run --adapter json" reads) and DIR/manifest.json,
 * which says for each file its branch, testbed, commit and time, and the
 * units and direction of its measures.  import DIR reads them back.
 */
#ifndef BPFCHECK_BENCH_HIST_BMF_H
#define BPFCHECK_BENCH_HIST_BMF_H

#include "hist_cli.h"

int hist_export(const struct hist_opts *o);
int hist_import(const struct hist_opts *o);

#endif
