/* SPDX-License-Identifier: GPL-2.0 */
/* bench history plot --out DIR: an SVG and a PNG per benchmark and measure. */
#ifndef BPFCHECK_BENCH_HIST_PLOT_H
#define BPFCHECK_BENCH_HIST_PLOT_H

#include "hist_cli.h"

int hist_plot(const struct hist_opts *o);

#endif
